// Strict readers for the fields of one JSON request object: every read names the field's path
// ("scaling.factor", "position.bias"), unknown keys are rejected up front (typos must not pass), integers
// are accepted where numbers are expected but not the other way round.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/types.h"

namespace posenc::model_io {

using json = nlohmann::json;

// An error about a field named by the request itself (an unknown key): its field is reported even when it
// is the empty key "".
class KeyError : public InvalidArgument {
 public:
  using InvalidArgument::InvalidArgument;
};

class Fields {
 public:
  // Throws unless j is an object whose keys are all in `allowed`. prefix is "" or "scaling." etc.
  Fields(const json& j, std::string prefix, std::span<const char* const> allowed);
  Fields(const json& j, std::string prefix, std::initializer_list<const char*> allowed)
      : Fields(j, std::move(prefix), std::span<const char* const>(allowed.begin(), allowed.size())) {}

  const json& raw() const { return j_; }
  bool has(const char* key) const { return j_.contains(key); }
  std::string path(const char* key) const { return prefix_ + key; }

  double number(const char* key) const;
  std::optional<double> opt_number(const char* key) const;
  int64_t integer(const char* key) const;
  std::optional<int64_t> opt_integer(const char* key) const;
  bool boolean(const char* key) const;
  std::string string(const char* key) const;
  std::vector<int64_t> int_array(const char* key) const;
  std::vector<double> number_array(const char* key) const;
  // Row-major nested array of numbers, all rows the same length. `[]` gives 0 x 0.
  Matrix matrix(const char* key) const;
  Vector vector(const char* key) const;
  Fields object(const char* key, std::span<const char* const> allowed) const;
  Fields object(const char* key, std::initializer_list<const char*> allowed) const {
    return object(key, std::span<const char* const>(allowed.begin(), allowed.size()));
  }

  // Throws InvalidArgument(path(key), "<path> is not a field of <what>") if key is present.
  void forbid(const char* key, const std::string& what) const;

 private:
  const json& at(const char* key) const;  // throws "missing" when absent
  // The array at key (throws "<path> must be an array of <what>" otherwise), at most 2^24 entries.
  const json& array(const char* key, const char* what) const;
  const json& j_;
  std::string prefix_;
};

}  // namespace posenc::model_io
