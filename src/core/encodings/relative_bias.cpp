#include "core/encodings/relative_bias.h"

#include "core/bounds.h"
#include "core/rng.h"

namespace posenc {

Matrix relative_bias_table(int64_t max_distance, int heads, uint64_t seed, double stddev) {
  require_in_range(max_distance, 0, kMaxPosition, "max_distance");
  require_in_range(heads, 1, kMaxHeads, "heads");
  require((2 * max_distance + 1) * heads <= kMaxCells, "max_distance", "(2 max + 1) * heads must be <= 2^24");
  return seeded_normal_matrix(2 * max_distance + 1, heads, seed, stddev);
}

Matrix relative_bias_matrix(const Matrix& table, int head, std::span<const int64_t> qpos, std::span<const int64_t> kpos) {
  require(table.rows() % 2 == 1, "table", "table must have 2 * max + 1 rows");
  require(head >= 0 && head < table.cols(), "head", "head out of range");
  const int64_t max = (table.rows() - 1) / 2;
  Matrix B(static_cast<Eigen::Index>(qpos.size()), static_cast<Eigen::Index>(kpos.size()));
  for (Eigen::Index i = 0; i < B.rows(); ++i)
    for (Eigen::Index j = 0; j < B.cols(); ++j) B(i, j) = table(relative_bias_index(qpos[i], kpos[j], max), head);
  return B;
}

}  // namespace posenc
