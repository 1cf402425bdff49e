#include "core/encodings/shaw.h"

#include "core/bounds.h"
#include "core/rng.h"

namespace posenc {

Matrix shaw_random_table(int64_t K, int width, uint64_t seed, double stddev) {
  require_in_range(K, 0, kMaxPosition, "max_relative_position");
  require(width >= 1 && width <= kMaxDim, "dim", "width must be in [1, 4096]");
  require((2 * K + 1) * width <= kMaxCells, "max_relative_position", "(2K+1) * width must be <= 2^24");
  return seeded_normal_matrix(2 * K + 1, width, seed, stddev);
}

}  // namespace posenc
