#include "core/analysis/similarity.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "core/bounds.h"
#include "core/rng.h"

namespace posenc {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

template <class M>
M similarity_impl(AbsoluteScheme scheme, int n, int dim, const AbsoluteParams& params) {
  using Scalar = typename M::Scalar;
  require(int64_t{n} * n <= kMaxCells, "n", "n * n must be <= 2^24");
  const PositionDots dots(scheme, n, dim, params, n);
  M G(n, n);
  if (scheme == AbsoluteScheme::Learned) {
    // A real matrix product of the defined block; the rest is undefined.
    G.setConstant(std::numeric_limits<Scalar>::quiet_NaN());
    const int rows = learned_defined_rows(n, params);
    const Matrix P = learned_position_table(params.learned_max_len, dim, params.seed).topRows(rows);
    G.topLeftCorner(rows, rows) = (P * P.transpose()).template cast<Scalar>();
    return G;
  }
  for (int a = 0; a < n; ++a) {
    G(a, a) = static_cast<Scalar>(dots.dot(a, a));
    for (int b = a + 1; b < n; ++b) G(a, b) = G(b, a) = static_cast<Scalar>(dots.dot(a, b));
  }
  return G;
}

}  // namespace

std::vector<double> cosine_sums(std::span<const double> w, int64_t count) {
  require(count >= 0 && count <= 4 * kMaxPosition + 1, "count", "count must be in [0, 4*10^6 + 1]");
  std::vector<double> s(static_cast<size_t>(count), 0.0);
  for (int64_t m = 0; m < count; ++m) {
    double acc = 0.0;
    for (double wk : w) acc += std::cos(static_cast<double>(m) * wk);
    s[static_cast<size_t>(m)] = acc;
  }
  return s;
}

PositionDots::PositionDots(AbsoluteScheme scheme, int n, int dim, const AbsoluteParams& params, int64_t limit)
    : scheme_(scheme), n_(n), dim_(dim), limit_(std::max<int64_t>(limit, n)) {
  require_in_range(n, 1, kMaxPosition, "n");
  require_in_range(dim, 1, kMaxDim, "dim");
  require(limit_ <= kMaxPosition, "limit", "positions must lie in [0, 10^6]");
  switch (scheme) {
    case AbsoluteScheme::Sinusoidal:
      w_ = sinusoidal_frequencies(dim, params.base, params.schedule);  // validates dim (even) and base
      cos_sums_ = cosine_sums(w_, limit_);
      break;
    case AbsoluteScheme::SineOnly:
      require(2 * dim <= kMaxDim, "dim", "sine only needs 2 * dim <= 4096 (its frequencies are those of width 2 dim)");
      w_ = sinusoidal_frequencies(2 * dim, params.base, params.schedule);
      cos_sums_ = cosine_sums(w_, 2 * limit_ - 1);
      break;
    case AbsoluteScheme::Binary:
      binary_bits_ = std::min(dim, 31);  // binary_encoding fills bits 0..30
      require(dim >= 63 || (int64_t{1} << dim) >= n, "dim", "dim bits cannot represent positions 0..n-1");
      break;
    case AbsoluteScheme::Learned:
      require(int64_t{params.learned_max_len} * dim <= kMaxCells, "learned_max_len", "learned_max_len * dim must be <= 2^24");
      learned_ = learned_position_table(params.learned_max_len, dim, params.seed);
      learned_rows_ = params.learned_max_len;
      break;
    case AbsoluteScheme::Integer:
    case AbsoluteScheme::Normalised: break;
  }
}

bool PositionDots::defined(int64_t p) const {
  if (p < 0 || p >= limit_) return false;
  if (scheme_ == AbsoluteScheme::Learned) return p < learned_rows_;
  if (scheme_ == AbsoluteScheme::Binary) return p < (int64_t{1} << binary_bits_);
  return true;
}

double PositionDots::dot(int64_t a, int64_t b) const {
  if (!defined(a) || !defined(b)) return kNaN;
  switch (scheme_) {
    case AbsoluteScheme::Sinusoidal: return cos_sums_[static_cast<size_t>(a > b ? a - b : b - a)];
    case AbsoluteScheme::SineOnly:
      // sin x sin y = (cos(x - y) - cos(x + y)) / 2
      return 0.5 * (cos_sums_[static_cast<size_t>(a > b ? a - b : b - a)] - cos_sums_[static_cast<size_t>(a + b)]);
    case AbsoluteScheme::Integer: return static_cast<double>(a) * static_cast<double>(b) * dim_;
    case AbsoluteScheme::Normalised: {
      if (n_ == 1) return 0.0;
      const double s = 1.0 / (n_ - 1);
      return static_cast<double>(a) * s * (static_cast<double>(b) * s) * dim_;
    }
    case AbsoluteScheme::Binary: return std::popcount(static_cast<uint64_t>(a & b));
    case AbsoluteScheme::Learned: return learned_.row(a).dot(learned_.row(b));
  }
  return kNaN;
}

double PositionDots::neighbour_distance(int64_t p) const {
  if (!defined(p) || !defined(p + 1)) return kNaN;
  switch (scheme_) {
    case AbsoluteScheme::Sinusoidal: {
      // |(sin, cos)((p+1) w) - (sin, cos)(p w)|^2 = 2 - 2 cos w = 4 sin^2(w/2): the same for every p.
      double acc = 0.0;
      for (double w : w_) acc += 4.0 * std::pow(std::sin(0.5 * w), 2);
      return std::sqrt(acc);
    }
    case AbsoluteScheme::SineOnly: {
      // sin((p+1) w) - sin(p w) = 2 sin(w/2) cos((p + 1/2) w)
      double acc = 0.0;
      for (double w : w_) acc += std::pow(2.0 * std::sin(0.5 * w) * std::cos((static_cast<double>(p) + 0.5) * w), 2);
      return std::sqrt(acc);
    }
    case AbsoluteScheme::Integer: return std::sqrt(static_cast<double>(dim_));
    case AbsoluteScheme::Normalised: return n_ == 1 ? 0.0 : std::sqrt(static_cast<double>(dim_)) / (n_ - 1);
    case AbsoluteScheme::Binary: {
      // Bits that flip from p to p + 1 (7 -> 8 flips four), within the encoded bits.
      const uint64_t mask = (uint64_t{1} << binary_bits_) - 1;
      return std::sqrt(static_cast<double>(std::popcount((static_cast<uint64_t>(p) ^ static_cast<uint64_t>(p + 1)) & mask)));
    }
    case AbsoluteScheme::Learned: return (learned_.row(p + 1) - learned_.row(p)).norm();
  }
  return kNaN;
}

MatrixF position_similarity_f(AbsoluteScheme scheme, int n, int dim, const AbsoluteParams& params) {
  return similarity_impl<MatrixF>(scheme, n, dim, params);
}

Matrix position_similarity(AbsoluteScheme scheme, int n, int dim, const AbsoluteParams& params) {
  return similarity_impl<Matrix>(scheme, n, dim, params);
}

std::vector<double> shifted_dot_curve(const PositionDots& dots, int64_t p, int64_t count) {
  require_in_range(count, 0, kMaxPosition, "count");
  std::vector<double> out(static_cast<size_t>(count));
  for (int64_t delta = 0; delta < count; ++delta) out[static_cast<size_t>(delta)] = dots.dot(p, p + delta);
  return out;
}

std::vector<double> neighbour_distances(const PositionDots& dots, int64_t count) {
  require_in_range(count, 0, kMaxPosition, "count");
  std::vector<double> out(static_cast<size_t>(count));
  for (int64_t p = 0; p < count; ++p) out[static_cast<size_t>(p)] = dots.neighbour_distance(p);
  return out;
}

MatrixF relative_matrix_f(std::span<const double> by_offset, int n) {
  require(n >= 1 && int64_t{n} * n <= kMaxCells, "n", "n must be >= 1 and n * n <= 2^24");
  require(static_cast<int64_t>(by_offset.size()) == 2 * int64_t{n} - 1, "by_offset", "by_offset must have 2n - 1 entries");
  MatrixF M(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) M(i, j) = static_cast<float>(by_offset[static_cast<size_t>(j - i + n - 1)]);
  return M;
}

std::vector<double> seeded_bias(int count, uint64_t seed, double stddev) {
  require_in_range(count, 0, kMaxBuckets, "count");
  NormalRng rng(seed);
  std::vector<double> b(static_cast<size_t>(count));
  for (double& v : b) v = stddev * rng.normal();
  return b;
}

}  // namespace posenc
