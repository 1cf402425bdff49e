#include "core/encodings/alibi.h"

#include <bit>
#include <cmath>

#include "core/bounds.h"

namespace posenc {
namespace {

std::vector<double> slopes_power_of_2(int n) {
  // log2 of a power of two is exact, so start matches Python's 2**(-2**-(math.log2(n)-3)).
  const double start = std::pow(2.0, -std::pow(2.0, -(std::log2(static_cast<double>(n)) - 3)));
  const double ratio = start;
  std::vector<double> s(n);
  for (int i = 0; i < n; ++i) s[i] = start * std::pow(ratio, i);  // Press: start * ratio**i
  return s;
}

}  // namespace

std::vector<double> alibi_slopes(int heads) {
  require_in_range(heads, 1, kMaxHeads, "heads");
  if (std::has_single_bit(static_cast<unsigned>(heads))) return slopes_power_of_2(heads);
  const int closest = static_cast<int>(std::bit_floor(static_cast<unsigned>(heads)));
  std::vector<double> s = slopes_power_of_2(closest);
  const std::vector<double> extra = slopes_power_of_2(2 * closest);
  for (int i = 0; static_cast<int>(s.size()) < heads; i += 2) s.push_back(extra[i]);
  return s;
}

Matrix alibi_bias(std::span<const int64_t> qpos, std::span<const int64_t> kpos, double slope) {
  Matrix B(static_cast<Eigen::Index>(qpos.size()), static_cast<Eigen::Index>(kpos.size()));
  for (Eigen::Index i = 0; i < B.rows(); ++i)
    for (Eigen::Index j = 0; j < B.cols(); ++j) B(i, j) = -slope * static_cast<double>(std::abs(kpos[j] - qpos[i]));
  return B;
}

}  // namespace posenc
