// Size and range limits shared by the core, the CLI and the UI. Documented in docs/cli.md.
#pragma once

#include <cstdint>
#include <string>

namespace posenc {

inline constexpr int kMaxDim = 4096;                       // model / head width
inline constexpr int64_t kMaxPosition = 1'000'000;         // |position|
inline constexpr int64_t kMaxRelative = 2 * kMaxPosition;  // |relative position| (difference of two positions)
inline constexpr int64_t kMaxCells = int64_t{1} << 24;     // elements of any one input or output matrix
inline constexpr int64_t kMaxWork = int64_t{1} << 31;      // multiply-adds of one request (n*m*d and friends)
inline constexpr int kMaxHeads = 1024;
inline constexpr int kMaxBuckets = 1 << 20;              // T5 num_buckets, DeBERTa bucket_size
inline constexpr int64_t kMaxLength = int64_t{1} << 30;  // max_distance, max_position, context lengths

// A limit as the docs write it: 10^6, 2^20, 2^30, or plain decimal (4096, 1024, 0).
std::string limit_text(int64_t v);

// Throws InvalidArgument(field, "<field> must be in [lo, hi]") unless lo <= value <= hi, with the bounds
// written by limit_text, so every range message follows the constants above.
void require_in_range(int64_t value, int64_t lo, int64_t hi, const std::string& field);

}  // namespace posenc
