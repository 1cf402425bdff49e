#include "shaw.h"

#include "limits.h"
#include "rng.h"

namespace posenc {

Matrix shaw_random_table(int64_t K, int width, uint64_t seed, double stddev) {
  require(K >= 0 && K <= kMaxPosition, "max_relative_position", "max_relative_position must be in [0, 10^6]");
  require(width >= 1 && width <= kMaxDim, "dim", "width must be in [1, 4096]");
  require((2 * K + 1) * width <= kMaxCells, "max_relative_position", "(2K+1) * width must be <= 2^24");
  NormalRng rng(seed);
  Matrix T(2 * K + 1, width);
  for (Eigen::Index r = 0; r < T.rows(); ++r)
    for (Eigen::Index c = 0; c < T.cols(); ++c) T(r, c) = stddev * rng.normal();
  return T;
}

}  // namespace posenc
