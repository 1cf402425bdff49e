// DeBERTa-v2 relative positions (HF transformers' make_log_bucket_position / build_relative_position)
// and the disentangled attention terms.
#pragma once

#include <cstdint>

#include "core/types.h"

namespace posenc {

using MatrixI = Eigen::Matrix<int64_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// True when log bucketing is on (reference: bucket_size > 0 and max_position > 0).
inline bool deberta_bucketing_on(int64_t bucket_size, int64_t max_position) { return bucket_size > 0 && max_position > 0; }

// Throws InvalidArgument ("bucket_size" / "max_position") for configurations whose log arithmetic is
// undefined: bucketing needs bucket_size >= 2 (mid >= 1) and max_position - 1 > mid.
void validate_deberta_buckets(int64_t bucket_size, int64_t max_position);

// make_log_bucket_position for one relative position rel = q - k. Identity for |rel| <= mid (mid =
// bucket_size/2); beyond, sign(rel) * (ceil(log(|rel|/mid) / log((max_position-1)/mid) * (mid-1)) + mid),
// evaluated in float32 like the torch reference. Not clamped to the bucket range.
int64_t deberta_log_bucket(int64_t rel, int64_t bucket_size, int64_t max_position);

// rel = query_pos - key_pos (the opposite sign to T5), log-bucketed when bucketing is on.
int64_t deberta_relative_position(int64_t query_pos, int64_t key_pos, int64_t bucket_size, int64_t max_position);

// build_relative_position for query positions 0..query_size-1 and key positions 0..key_size-1.
MatrixI deberta_relative_positions(int64_t query_size, int64_t key_size, int64_t bucket_size, int64_t max_position);

// The attention span s (rows of the position tables = 2s): bucket_size if > 0 else max_position.
int64_t deberta_span(int64_t bucket_size, int64_t max_position);

}  // namespace posenc
