#include "core/encodings/deberta.h"

#include <cmath>
#include <string>

#include "core/bounds.h"

namespace posenc {

void validate_deberta_buckets(int64_t bucket_size, int64_t max_position) {
  // No upper limits: the reference takes any int64 and the bucket arithmetic needs no memory (the attention
  // op bounds the position tables, 2s x d, separately).
  if (!deberta_bucketing_on(bucket_size, max_position)) return;
  require(bucket_size >= 2, "bucket_size", "bucket_size must be >= 2 when log bucketing is on (mid >= 1)");
  const int64_t mid = bucket_size / 2;
  require(max_position - 1 > mid, "max_position",
          "max_position - 1 must exceed bucket_size/2 (" + std::to_string(mid) +
              ") when log bucketing is on: the log of their ratio is the divisor");
}

int64_t deberta_log_bucket(int64_t rel, int64_t bucket_size, int64_t max_position) {
  const int64_t mid = bucket_size / 2;
  if (rel <= mid && rel >= -mid) return rel;  // abs_pos <= mid keeps relative_pos
  const int64_t abs_pos = rel < 0 ? -rel : rel;
  // torch: abs_pos / mid (int64 / int -> float32), torch.log; torch.tensor((max_position - 1) / mid) is a
  // Python double rounded to float32, then torch.log; * (mid - 1), ceil, + mid, all in float32.
  const float num = std::log(static_cast<float>(abs_pos) / static_cast<float>(mid));
  const float den = std::log(static_cast<float>(static_cast<double>(max_position - 1) / mid));
  const float log_pos = std::ceil(num / den * static_cast<float>(mid - 1)) + static_cast<float>(mid);
  return rel < 0 ? -static_cast<int64_t>(log_pos) : static_cast<int64_t>(log_pos);
}

int64_t deberta_relative_position(int64_t query_pos, int64_t key_pos, int64_t bucket_size, int64_t max_position) {
  const int64_t rel = query_pos - key_pos;
  return deberta_bucketing_on(bucket_size, max_position) ? deberta_log_bucket(rel, bucket_size, max_position) : rel;
}

MatrixI deberta_relative_positions(int64_t query_size, int64_t key_size, int64_t bucket_size, int64_t max_position) {
  require(query_size >= 0 && query_size <= kMaxCells, "query_size", "query_size must be in [0, 2^24]");
  require(key_size >= 0 && key_size <= kMaxCells, "key_size", "key_size must be in [0, 2^24]");
  require(query_size * key_size <= kMaxCells, "key_size", "query_size * key_size must be <= 2^24");
  validate_deberta_buckets(bucket_size, max_position);
  MatrixI R(query_size, key_size);
  for (int64_t q = 0; q < query_size; ++q)
    for (int64_t k = 0; k < key_size; ++k) R(q, k) = deberta_relative_position(q, k, bucket_size, max_position);
  return R;
}

int64_t deberta_span(int64_t bucket_size, int64_t max_position) { return bucket_size > 0 ? bucket_size : max_position; }

}  // namespace posenc
