#include "model_io/json_fields.h"

#include <cmath>
#include <limits>

#include "core/bounds.h"
#include "model_io/json_read.h"

namespace posenc::model_io {
namespace {

std::string object_name(const std::string& prefix) {
  return prefix.empty() ? "the request" : "'" + prefix.substr(0, prefix.size() - 1) + "'";
}

int64_t to_integer(const json& v, const std::string& path) {
  if (v.is_number_integer()) return v.get<int64_t>();  // number_integer
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) throw InvalidArgument(path, path + " is out of range");
    return static_cast<int64_t>(u);
  }
  throw InvalidArgument(path, path + " must be an integer");
}

// The elements of the array a, each read by `read`.
template <class T, class F>
std::vector<T> each_of(const json& a, F read) {
  std::vector<T> out;
  out.reserve(a.size());
  for (const json& e : a) out.push_back(read(e));
  return out;
}

}  // namespace

Fields::Fields(const json& j, std::string prefix, std::span<const char* const> allowed) : j_(j), prefix_(std::move(prefix)) {
  if (!j_.is_object()) {
    if (prefix_.empty()) throw InvalidArgument("", "the request must be a JSON object");
    const std::string p = prefix_.substr(0, prefix_.size() - 1);
    throw InvalidArgument(p, p + " must be a JSON object");
  }
  for (const auto& [key, value] : j_.items()) {
    bool ok = false;
    for (const char* a : allowed) ok = ok || key == a;
    if (!ok) {
      // A key is echoed up to 256 bytes (a 50 MB key must not come back in full, twice).
      const std::string shown = key.size() <= 256 ? key : key.substr(0, 256) + "... (" + std::to_string(key.size()) + " bytes)";
      throw KeyError(prefix_ + shown, "unknown field '" + prefix_ + shown + "' in " + object_name(prefix_));
    }
  }
}

const json& Fields::at(const char* key) const {
  auto it = j_.find(key);
  if (it == j_.end()) throw InvalidArgument(path(key), "missing field '" + path(key) + "'");
  return *it;
}

void Fields::forbid(const char* key, const std::string& what) const {
  if (has(key)) throw InvalidArgument(path(key), "'" + path(key) + "' is not a field of " + what);
}

double Fields::number(const char* key) const { return json_number(at(key), path(key)); }

std::optional<double> Fields::opt_number(const char* key) const {
  if (!has(key)) return std::nullopt;
  return number(key);
}

int64_t Fields::integer(const char* key) const { return to_integer(at(key), path(key)); }

std::optional<int64_t> Fields::opt_integer(const char* key) const {
  if (!has(key)) return std::nullopt;
  return integer(key);
}

bool Fields::boolean(const char* key) const {
  const json& v = at(key);
  if (!v.is_boolean()) throw InvalidArgument(path(key), path(key) + " must be true or false");
  return v.get<bool>();
}

std::string Fields::string(const char* key) const {
  const json& v = at(key);
  if (!v.is_string()) throw InvalidArgument(path(key), path(key) + " must be a string");
  return v.get<std::string>();
}

const json& Fields::array(const char* key, const char* what) const {
  const json& v = at(key);
  const std::string p = path(key);
  if (!v.is_array()) throw InvalidArgument(p, p + " must be an array of " + what);
  if (static_cast<int64_t>(v.size()) > kMaxCells) throw InvalidArgument(p, p + " has more than 2^24 entries");
  return v;
}

std::vector<int64_t> Fields::int_array(const char* key) const {
  const std::string p = path(key);
  return each_of<int64_t>(array(key, "integers"), [&](const json& e) {
    if (!e.is_number_integer()) throw InvalidArgument(p, p + " must be an array of integers");
    return to_integer(e, p);
  });
}

std::vector<double> Fields::number_array(const char* key) const {
  const std::string p = path(key);
  return each_of<double>(array(key, "numbers"), [&](const json& e) { return json_number(e, p); });
}

Vector Fields::vector(const char* key) const {
  const std::vector<double> a = number_array(key);
  return Eigen::Map<const Vector>(a.data(), static_cast<Eigen::Index>(a.size()));
}

Matrix Fields::matrix(const char* key) const {
  const json& v = at(key);
  const std::string p = path(key);
  const std::string shape = p + " must be a matrix: an array of rows, each an array of numbers of the same length";
  if (!v.is_array()) throw InvalidArgument(p, shape);
  if (v.empty()) return Matrix(0, 0);
  if (!v[0].is_array()) throw InvalidArgument(p, shape);
  const size_t rows = v.size(), cols = v[0].size();
  if (static_cast<int64_t>(rows) > kMaxCells || static_cast<int64_t>(cols) > kMaxCells ||
      static_cast<int64_t>(rows * cols) > kMaxCells)
    throw InvalidArgument(p, p + " has more than 2^24 entries");
  Matrix m(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
  for (size_t r = 0; r < rows; ++r) {
    const json& row = v[r];
    if (!row.is_array() || row.size() != cols) throw InvalidArgument(p, shape);
    for (size_t c = 0; c < cols; ++c) m(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = json_number(row[c], p);
  }
  return m;
}

Fields Fields::object(const char* key, std::span<const char* const> allowed) const {
  return Fields(at(key), path(key) + ".", allowed);
}

}  // namespace posenc::model_io
