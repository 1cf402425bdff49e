// Shaw, Uszkoreit & Vaswani 2018 relative position representations (tensor2tensor
// _generate_relative_positions_matrix): tables of 2K+1 learned vectors indexed by the clipped distance.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/types.h"

namespace posenc {

// Row of the key/value tables for (query_pos, key_pos): clip(key_pos - query_pos, -K, K) + K.
inline int64_t shaw_index(int64_t query_pos, int64_t key_pos, int64_t max_relative_position) {
  return std::clamp<int64_t>(key_pos - query_pos, -max_relative_position, max_relative_position) + max_relative_position;
}

// A seeded (2K+1) x width table, N(0, stddev^2), for the explorer's default Shaw tables.
Matrix shaw_random_table(int64_t max_relative_position, int width, uint64_t seed, double stddev = 0.5);

}  // namespace posenc
