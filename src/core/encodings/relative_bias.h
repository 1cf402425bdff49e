// Learned clipped relative bias per head (the seed texts' "trainable relative position"):
// Embedding(2 * max_distance + 1, heads), bias for (i, j) = table[clip(j - i, -max, max) + max][head].
#pragma once

#include <cstdint>
#include <span>

#include "core/types.h"

namespace posenc {

// Seeded N(0, stddev^2) table of shape (2 * max_distance + 1) x heads.
Matrix relative_bias_table(int64_t max_distance, int heads, uint64_t seed, double stddev = 1.0);

inline int64_t relative_bias_index(int64_t query_pos, int64_t key_pos, int64_t max_distance) {
  const int64_t r = key_pos - query_pos;
  return (r < -max_distance ? -max_distance : r > max_distance ? max_distance : r) + max_distance;
}

// n x m bias of one head.
Matrix relative_bias_matrix(const Matrix& table, int head, std::span<const int64_t> query_pos, std::span<const int64_t> key_pos);

}  // namespace posenc
