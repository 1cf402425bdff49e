// Typed, key-recording reads of a config.json object (a ConfigValue): every error names the key path
// ("rope_scaling.factor", "text_config.head_dim"), and every key looked at is recorded in `seen`, so the keys
// never looked at can be named (unread_keys). Internal to the config.json reader (src/core/models/hf_*.cpp).
#pragma once

#include <cmath>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/models/config_value.h"
#include "core/types.h"

namespace posenc::hf {

class Reader {
 public:
  Reader(const ConfigValue& obj, std::string prefix, std::set<std::string>* seen = nullptr)
      : obj_(&obj), prefix_(std::move(prefix)), seen_(seen) {}

  std::string path(const std::string& key) const { return prefix_ + key; }
  const ConfigValue& value() const { return *obj_; }

  // Present and not null (transformers treats null like absent for these keys).
  bool has(const char* key) const {
    mark(key);
    const ConfigValue* v = obj_->find(key);
    return v && !v->is_null();
  }
  const ConfigValue* get(const char* key) const {
    mark(key);
    const ConfigValue* v = obj_->find(key);
    return v && !v->is_null() ? v : nullptr;
  }

  // The value at key when present (else null); fails naming the key and the value's kind unless `(v->*is)()`.
  const ConfigValue* get_kind(const char* key, bool (ConfigValue::*is)() const, const char* must) const {
    const ConfigValue* v = get(key);
    if (v && !(v->*is)()) fail(key, std::string(must) + ", not " + ConfigValue::kind_name(v->kind()));
    return v;
  }
  // The array at key, element by element: `element` gives nullopt for an element it does not accept.
  template <class T, class F>
  std::optional<std::vector<T>> array_of(const char* key, const char* must, const char* each, F element) const {
    const ConfigValue* v = get(key);
    if (!v) return std::nullopt;
    if (!v->is_array()) fail(key, must);
    std::vector<T> out;
    for (const ConfigValue& e : v->as_array()) {
      const std::optional<T> x = element(e);
      if (!x) fail(key, each);
      out.push_back(*x);
    }
    return out;
  }
  // Integers may be written 4096.0; anything non-integral is not one.
  static std::optional<int64_t> integral(const ConfigValue& v) {
    if (v.is_int()) return v.as_int();
    if (v.is_number()) {
      const double d = v.as_double();
      if (std::isfinite(d) && d == std::floor(d) && std::abs(d) < 9.0e15) return static_cast<int64_t>(d);
    }
    return std::nullopt;
  }

  std::optional<double> number(const char* key) const {
    const ConfigValue* v = get_kind(key, &ConfigValue::is_number, "must be a number");
    if (!v) return std::nullopt;
    const double d = v->as_double();
    if (!std::isfinite(d)) fail(key, "must be finite");
    return d;
  }
  std::optional<int64_t> integer(const char* key) const {
    const ConfigValue* v = get(key);
    if (!v) return std::nullopt;
    if (const std::optional<int64_t> i = integral(*v)) return i;
    fail(key, "must be an integer, not " + std::string(ConfigValue::kind_name(v->kind())));
  }
  std::optional<bool> boolean(const char* key) const {
    const ConfigValue* v = get_kind(key, &ConfigValue::is_bool, "must be true or false");
    if (!v) return std::nullopt;
    return v->as_bool();
  }
  std::optional<std::string> string(const char* key) const {
    const ConfigValue* v = get_kind(key, &ConfigValue::is_string, "must be a string");
    if (!v) return std::nullopt;
    return v->as_string();
  }
  std::optional<std::vector<double>> numbers(const char* key) const {
    return array_of<double>(key, "must be an array of numbers", "must be an array of finite numbers",
                            [](const ConfigValue& e) -> std::optional<double> {
                              if (!e.is_number() || !std::isfinite(e.as_double())) return std::nullopt;
                              return e.as_double();
                            });
  }
  std::optional<Reader> object(const char* key) const {
    const ConfigValue* v = get_kind(key, &ConfigValue::is_object, "must be an object");
    if (!v) return std::nullopt;
    return Reader(*v, path(key) + ".", seen_);
  }
  std::optional<std::vector<int64_t>> integers(const char* key) const {
    return array_of<int64_t>(key, "must be an array of integers", "must be an array of integers", integral);
  }
  std::optional<std::vector<std::string>> strings(const char* key) const {
    return array_of<std::string>(key, "must be an array of strings", "must be an array of strings",
                                 [](const ConfigValue& e) -> std::optional<std::string> {
                                   if (!e.is_string()) return std::nullopt;
                                   return e.as_string();
                                 });
  }
  // An array of objects, each as a Reader whose paths name its entry ("block_configs[3].attention.no_op").
  std::optional<std::vector<Reader>> objects(const char* key) const {
    const ConfigValue* v = get_kind(key, &ConfigValue::is_array, "must be an array of objects");
    if (!v) return std::nullopt;
    std::vector<Reader> out;
    for (size_t i = 0; i < v->as_array().size(); ++i) {
      const ConfigValue& e = v->as_array()[i];
      if (!e.is_object()) fail(key, "must be an array of objects (entry " + std::to_string(i) + " is not one)");
      out.emplace_back(e, path(key) + "[" + std::to_string(i) + "].", seen_);
    }
    return out;
  }
  // Python truthiness of a bool or number (Llama 4's attn_temperature_tuning is published as 4).
  std::optional<bool> truthy(const char* key) const {
    const ConfigValue* v = get(key);
    if (!v) return std::nullopt;
    if (v->is_bool()) return v->as_bool();
    if (v->is_number()) return v->as_double() != 0;
    fail(key, "must be true, false or a number");
  }
  // A value read above that the caller requires: "missing <path><why>" when it was absent. (Both of a pair
  // are read, so type-checked, before either is required.)
  template <class T>
  T needed(const std::optional<T>& v, const char* key, const std::string& why) const {
    if (!v) throw InvalidArgument(path(key), "missing " + path(key) + why);
    return *v;
  }
  void mark(const char* key) const {
    if (seen_) seen_->insert(path(key));
  }

  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw InvalidArgument(path(key), path(key) + " " + what);
  }

 private:
  const ConfigValue* obj_;
  std::string prefix_;
  std::set<std::string>* seen_;
};

template <class T>
std::optional<T> first_of(const Reader& r, std::initializer_list<const char*> keys,
                          std::optional<T> (Reader::*read)(const char*) const, const char** which = nullptr) {
  for (const char* k : keys)
    if (r.has(k)) {
      if (which) *which = k;
      return (r.*read)(k);
    }
  return std::nullopt;
}

inline bool is_one_of(const std::string& s, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (s == n) return true;
  return false;
}

}  // namespace posenc::hf
