#include "core/bounds.h"
#include "core/encodings/sinusoidal.h"
#include "core/exact_pow.h"

#include <cmath>
#include <string>

namespace posenc {
namespace {

void check_sinusoidal_dim_base(int dim, double base) {
  require_in_range(dim, 2, kMaxDim, "dim");
  require(dim % 2 == 0, "dim", "dim must be even (sin/cos pairs)");
  require(std::isfinite(base) && base > 1.0, "base", "base must be a finite number > 1");
}

}  // namespace

std::vector<double> sinusoidal_frequencies(int dim, double base, FrequencySchedule schedule) {
  check_sinusoidal_dim_base(dim, base);
  const int half = dim / 2;
  std::vector<double> w(half);
  const CorrectlyRoundedPowers power(base);
  for (int k = 0; k < half; ++k) w[k] = power(-2.0 * k / dim);
  switch (schedule) {
    case FrequencySchedule::Geometric: break;
    case FrequencySchedule::Linear: {
      const double lo = w.back();
      for (int k = 0; k < half; ++k) w[k] = half == 1 ? 1.0 : 1.0 + (lo - 1.0) * k / (half - 1);
      break;
    }
    case FrequencySchedule::Increasing:
      for (int k = 0; k < half / 2; ++k) std::swap(w[k], w[half - 1 - k]);
      break;
  }
  return w;
}

namespace {
// P[p][2k] = sin(p w_k), P[p][2k+1] = cos(p w_k), the angle in double.
double sinusoidal_entry(double p, double w, bool cosine) {
  const double angle = p * w;
  return cosine ? std::cos(angle) : std::sin(angle);
}
}  // namespace

Matrix sinusoidal_table(std::span<const int64_t> positions, int dim, double base, FrequencySchedule schedule) {
  const std::vector<double> w = sinusoidal_frequencies(dim, base, schedule);
  for (int64_t p : positions)
    require(p >= -kMaxPosition && p <= kMaxPosition, "positions", "positions must lie in [-10^6, 10^6]");
  Matrix P(static_cast<Eigen::Index>(positions.size()), dim);
  // Through the row-major storage: in the wasm build (-Os, exceptions on) P(r, c) stays an out-of-line
  // call through a JS invoke trampoline per entry, which cost more than the sin / cos themselves.
  for (Eigen::Index r = 0; r < P.rows(); ++r) {
    const double p = static_cast<double>(positions[r]);
    double* row = P.data() + r * dim;
    for (int k = 0; k < dim / 2; ++k) {
      row[2 * k] = sinusoidal_entry(p, w[k], false);
      row[2 * k + 1] = sinusoidal_entry(p, w[k], true);
    }
  }
  return P;
}

std::vector<double> sinusoidal_column(int n, int dim, int i, double base, FrequencySchedule schedule) {
  const std::vector<double> w = sinusoidal_frequencies(dim, base, schedule);
  require_in_range(n, 0, kMaxPosition, "n");
  require_in_range(i, 0, dim - 1, "i");
  std::vector<double> out(static_cast<size_t>(n));
  for (int p = 0; p < n; ++p) out[p] = sinusoidal_entry(static_cast<double>(p), w[i / 2], i % 2 == 1);
  return out;
}

MatrixF sinusoidal_table_f(int n, int dim, double base, FrequencySchedule schedule) {
  require_in_range(n, 1, kMaxPosition, "n");
  const std::vector<double> w = sinusoidal_frequencies(dim, base, schedule);
  MatrixF P(n, dim);
  for (int p = 0; p < n; ++p) {
    float* row = P.row(p).data();
    for (int k = 0; k < dim / 2; ++k) {
      const double angle = p * w[k];
      row[2 * k] = static_cast<float>(std::sin(angle));
      row[2 * k + 1] = static_cast<float>(std::cos(angle));
    }
  }
  return P;
}

}  // namespace posenc
