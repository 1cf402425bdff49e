// A format-neutral document (null / bool / int / double / string / array / object) so the core can read a
// model's configuration without a JSON parser: the CLI and the app convert their parsed JSON into it, the
// GGUF reader builds it from header metadata.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace posenc {

class ConfigValue {
 public:
  enum class Kind { Null, Bool, Int, Double, String, Array, Object };
  using Array = std::vector<ConfigValue>;
  using Object = std::vector<std::pair<std::string, ConfigValue>>;  // in document order

  ConfigValue() = default;  // null
  static ConfigValue boolean(bool b) { return ConfigValue(Store(b)); }
  static ConfigValue integer(int64_t i) { return ConfigValue(Store(i)); }
  static ConfigValue number(double d) { return ConfigValue(Store(d)); }
  static ConfigValue string(std::string s) { return ConfigValue(Store(std::move(s))); }
  static ConfigValue array(Array a = {}) { return ConfigValue(Store(std::move(a))); }
  static ConfigValue object(Object o = {}) { return ConfigValue(Store(std::move(o))); }

  Kind kind() const { return static_cast<Kind>(v_.index()); }
  bool is_null() const { return kind() == Kind::Null; }
  bool is_bool() const { return kind() == Kind::Bool; }
  bool is_int() const { return kind() == Kind::Int; }
  bool is_number() const { return kind() == Kind::Int || kind() == Kind::Double; }
  bool is_string() const { return kind() == Kind::String; }
  bool is_array() const { return kind() == Kind::Array; }
  bool is_object() const { return kind() == Kind::Object; }

  // Accessors assume the kind was checked.
  bool as_bool() const { return std::get<bool>(v_); }
  int64_t as_int() const { return std::get<int64_t>(v_); }
  double as_double() const { return is_int() ? static_cast<double>(as_int()) : std::get<double>(v_); }
  const std::string& as_string() const { return std::get<std::string>(v_); }
  const Array& as_array() const { return std::get<Array>(v_); }
  const Object& as_object() const { return std::get<Object>(v_); }
  Array& as_array() { return std::get<Array>(v_); }
  Object& as_object() { return std::get<Object>(v_); }

  // Object member by key (the last one if repeated), nullptr when absent or when this is not an object.
  const ConfigValue* find(std::string_view key) const {
    if (!is_object()) return nullptr;
    const ConfigValue* hit = nullptr;
    for (const auto& [k, v] : as_object())
      if (k == key) hit = &v;
    return hit;
  }
  // Sets (replacing) an object member; this must be an object.
  void set(std::string key, ConfigValue value) {
    for (auto& [k, v] : as_object())
      if (k == key) {
        v = std::move(value);
        return;
      }
    as_object().emplace_back(std::move(key), std::move(value));
  }

  static const char* kind_name(Kind k) {
    switch (k) {
      case Kind::Null: return "null";
      case Kind::Bool: return "a boolean";
      case Kind::Int: return "an integer";
      case Kind::Double: return "a number";
      case Kind::String: return "a string";
      case Kind::Array: return "an array";
      case Kind::Object: return "an object";
    }
    return "?";
  }

 private:
  using Store = std::variant<std::monostate, bool, int64_t, double, std::string, Array, Object>;
  explicit ConfigValue(Store v) : v_(std::move(v)) {}
  Store v_;
};

}  // namespace posenc
