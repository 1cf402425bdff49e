// Deterministic inputs shared by the native (Google Benchmark) and wasm (node) kernel benchmarks.
#pragma once

#include <cstdint>
#include <vector>

#include "core/types.h"

namespace posenc::bench {

// Uniform floats in [-1, 1) from a 64-bit LCG (cheap, identical on every target).
inline MatrixF random_matrix_f(Eigen::Index rows, Eigen::Index cols, uint64_t seed) {
  MatrixF m(rows, cols);
  uint64_t s = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    m.data()[i] = static_cast<float>(static_cast<double>(s >> 40) / static_cast<double>(1ULL << 23) - 1.0);
  }
  return m;
}

inline std::vector<int64_t> positions(int64_t n) {
  std::vector<int64_t> p(n);
  for (int64_t i = 0; i < n; ++i) p[i] = i;
  return p;
}

// ALiBi-like bias (-slope |j - i|), the shape of every additive bias job.
inline MatrixF alibi_bias(int n, float slope = 0.0625f) {
  MatrixF b(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) b(i, j) = -slope * static_cast<float>(j > i ? j - i : i - j);
  return b;
}

}  // namespace posenc::bench
