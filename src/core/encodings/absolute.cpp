#include "core/bounds.h"
#include "core/encodings/absolute.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/rng.h"

namespace posenc {
namespace {

void check_n_dim(int n, int dim) {
  require_in_range(n, 1, kMaxPosition, "n");
  require_in_range(dim, 1, kMaxDim, "dim");
  require(static_cast<int64_t>(n) * dim <= kMaxCells, "n", "n * dim must be <= 2^24");
}

}  // namespace

Matrix integer_encoding(int n, int dim) {
  check_n_dim(n, dim);
  Matrix P(n, dim);
  for (int p = 0; p < n; ++p) P.row(p).setConstant(p);
  return P;
}

Matrix normalised_encoding(int n, int dim) {
  check_n_dim(n, dim);
  Matrix P(n, dim);
  for (int p = 0; p < n; ++p) P.row(p).setConstant(n == 1 ? 0.0 : static_cast<double>(p) / (n - 1));
  return P;
}

Matrix binary_encoding(int n, int dim) {
  check_n_dim(n, dim);
  require(dim >= 63 || (int64_t{1} << dim) >= n, "dim", "dim bits cannot represent positions 0..n-1");
  Matrix P(n, dim);
  for (int p = 0; p < n; ++p)
    for (int c = 0; c < dim; ++c) P(p, c) = c < 31 ? ((p >> c) & 1) : 0;
  return P;
}

Matrix sine_only_encoding(std::span<const int64_t> positions, int dim, double base, FrequencySchedule schedule) {
  require_in_range(dim, 1, kMaxDim, "dim");
  const std::vector<double> w = sinusoidal_frequencies(2 * dim, base, schedule);
  Matrix P(static_cast<Eigen::Index>(positions.size()), dim);
  for (Eigen::Index r = 0; r < P.rows(); ++r) {
    require(positions[r] >= -kMaxPosition && positions[r] <= kMaxPosition, "positions", "positions must lie in [-10^6, 10^6]");
    for (int c = 0; c < dim; ++c) P(r, c) = std::sin(static_cast<double>(positions[r]) * w[c]);
  }
  return P;
}

Matrix learned_position_table(int max_len, int dim, uint64_t seed, double stddev) {
  check_n_dim(max_len, dim);
  require(std::isfinite(stddev) && stddev >= 0, "stddev", "stddev must be a finite number >= 0");
  return seeded_normal_matrix(max_len, dim, seed, stddev);
}

int learned_defined_rows(int n, const AbsoluteParams& params) { return std::min(n, params.learned_max_len); }

Matrix absolute_encoding(AbsoluteScheme scheme, int n, int dim, const AbsoluteParams& params) {
  switch (scheme) {
    case AbsoluteScheme::Integer: return integer_encoding(n, dim);
    case AbsoluteScheme::Normalised: return normalised_encoding(n, dim);
    case AbsoluteScheme::Binary: return binary_encoding(n, dim);
    case AbsoluteScheme::SineOnly:
    case AbsoluteScheme::Sinusoidal: {
      check_n_dim(n, dim);
      std::vector<int64_t> pos(n);
      for (int p = 0; p < n; ++p) pos[p] = p;
      return scheme == AbsoluteScheme::SineOnly ? sine_only_encoding(pos, dim, params.base, params.schedule)
                                                : sinusoidal_table(pos, dim, params.base, params.schedule);
    }
    case AbsoluteScheme::Learned: {
      check_n_dim(n, dim);
      Matrix P = Matrix::Zero(n, dim);
      const int rows = learned_defined_rows(n, params);
      P.topRows(rows) = learned_position_table(params.learned_max_len, dim, params.seed).topRows(rows);
      return P;
    }
  }
  return {};
}

}  // namespace posenc
