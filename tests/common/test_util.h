// Small helpers shared by the unit tests.
#pragma once

#include <cstdint>
#include <vector>

#include "core/rng.h"
#include "core/types.h"

namespace posenc::test {

inline Matrix random_matrix(Eigen::Index rows, Eigen::Index cols, uint64_t seed) {
  NormalRng rng(seed);
  Matrix m(rows, cols);
  for (Eigen::Index r = 0; r < rows; ++r)
    for (Eigen::Index c = 0; c < cols; ++c) m(r, c) = rng.normal();
  return m;
}

inline std::vector<int64_t> iota(int64_t n, int64_t start = 0) {
  std::vector<int64_t> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = start + i;
  return v;
}

}  // namespace posenc::test
