// Shared types of the posenc core: row-major Eigen matrices and the one error type.
#pragma once

#include <Eigen/Core>
#include <stdexcept>
#include <string>
#include <utility>

namespace posenc {

using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using MatrixF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vector = Eigen::VectorXd;
using VectorF = Eigen::VectorXf;

// Every bad argument to the core throws this, naming the offending field so the CLI and the UI
// can say exactly what was wrong ("dim", "scaling.factor", ...).
class InvalidArgument : public std::invalid_argument {
 public:
  InvalidArgument(std::string field, const std::string& message) : std::invalid_argument(message), field_(std::move(field)) {}
  const std::string& field() const noexcept { return field_; }

 private:
  std::string field_;
};

// Throws InvalidArgument(field, message) unless cond holds.
inline void require(bool cond, const char* field, const std::string& message) {
  if (!cond) throw InvalidArgument(field, message);
}
// The same for a literal message: no std::string is built unless it throws (checks run per position and
// per table entry on the views' per-frame paths, where a string per call was a malloc and a free).
inline void require(bool cond, const char* field, const char* message) {
  if (!cond) throw InvalidArgument(field, message);
}

// Runs f; an InvalidArgument it throws is thrown again as rename(error) returns it (an InvalidArgument
// with the field the caller's input calls it, e.g. "position.bias" or "config.rope_scaling.factor").
template <class F, class Rename>
auto rethrow_renamed(F&& f, Rename&& rename) {
  try {
    return f();
  } catch (const InvalidArgument& e) { throw rename(e); }
}

}  // namespace posenc
