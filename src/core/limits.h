// Size and range limits shared by the core, the CLI and the UI. Documented in docs/cli.md.
#pragma once

#include <cstdint>

namespace posenc {

inline constexpr int kMaxDim = 4096;                    // model / head width
inline constexpr int64_t kMaxPosition = 1'000'000;      // |position|
inline constexpr int64_t kMaxRelative = 2 * kMaxPosition;  // |relative position| (difference of two positions)
inline constexpr int64_t kMaxCells = int64_t{1} << 24;  // elements of any one input or output matrix
inline constexpr int64_t kMaxWork = int64_t{1} << 31;   // multiply-adds of one request (n*m*d and friends)
inline constexpr int kMaxHeads = 1024;
inline constexpr int kMaxBuckets = 1 << 20;             // T5 num_buckets, DeBERTa bucket_size
inline constexpr int64_t kMaxLength = int64_t{1} << 30;  // max_distance, max_position, context lengths

}  // namespace posenc
