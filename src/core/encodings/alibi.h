// ALiBi (Press et al. 2022): a per-head linear distance penalty -m_h |i - j| on the attention logits.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/types.h"

namespace posenc {

// Press et al.'s get_slopes: for 2^k heads, start = 2^(-2^-(log2(n) - 3)) and slope_i = start * start^i;
// otherwise the slopes of the closest lower power of two c, then every other slope of 2c (not re-sorted).
std::vector<double> alibi_slopes(int heads);

// n x m matrix -slope * |key_pos[j] - query_pos[i]|.
Matrix alibi_bias(std::span<const int64_t> query_pos, std::span<const int64_t> key_pos, double slope);

}  // namespace posenc
