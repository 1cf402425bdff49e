// T5 relative position buckets (Raffel et al.; HF transformers' T5Attention._relative_position_bucket).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/types.h"

namespace posenc {

// Throws InvalidArgument ("num_buckets" / "max_distance") unless max_exact >= 1 and max_distance > max_exact.
void validate_t5_buckets(bool bidirectional, int num_buckets, int64_t max_distance);

// Bucket of relative_position = key_pos - query_pos. Bidirectional: half the buckets per side, keys after
// the query (r > 0) in the upper half. Causal: r > 0 maps to bucket 0. The log part is evaluated like the
// reference, in float32: log(float(n) / max_exact) / float(log(max_distance / max_exact)) * (nb' - max_exact),
// truncated; that arrangement decides the boundary cases (where the real value is an integer).
int t5_bucket(int64_t relative_position, bool bidirectional, int num_buckets, int64_t max_distance);

std::vector<int> t5_buckets(std::span<const int64_t> relative_positions, bool bidirectional, int num_buckets,
                            int64_t max_distance);

// n x m bias matrix bias[bucket(key_pos[j] - query_pos[i])] (one head).
Matrix t5_bias_matrix(std::span<const int64_t> query_pos, std::span<const int64_t> key_pos, bool bidirectional, int num_buckets,
                      int64_t max_distance, std::span<const double> bias);

}  // namespace posenc
