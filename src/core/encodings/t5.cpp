#include "core/encodings/t5.h"

#include <algorithm>
#include <cmath>

#include "core/bounds.h"

namespace posenc {

void validate_t5_buckets(bool bidirectional, int num_buckets, int64_t max_distance) {
  require(num_buckets >= 1 && num_buckets <= kMaxBuckets, "num_buckets", "num_buckets must be in [1, 2^20]");
  const int nb = bidirectional ? num_buckets / 2 : num_buckets;
  const int max_exact = nb / 2;
  require(max_exact >= 1, "num_buckets",
          bidirectional ? "num_buckets must be >= 4 when bidirectional (max_exact = num_buckets/4 >= 1)"
                        : "num_buckets must be >= 2 when causal (max_exact = num_buckets/2 >= 1)");
  require(max_distance > max_exact && max_distance <= kMaxLength, "max_distance",
          "max_distance must exceed max_exact (" + std::to_string(max_exact) + ") and be <= 2^30");
}

int t5_bucket(int64_t r, bool bidirectional, int num_buckets, int64_t max_distance) {
  validate_t5_buckets(bidirectional, num_buckets, max_distance);
  // Any int64 like the reference; |INT64_MIN| saturates to INT64_MAX (torch would wrap to a negative
  // index), which lands in the last bucket like every distance past max_distance.
  int bucket = 0;
  int nb = num_buckets;
  auto magnitude = [](int64_t v) { return v == INT64_MIN ? INT64_MAX : (v < 0 ? -v : v); };
  int64_t n;
  if (bidirectional) {
    nb /= 2;
    if (r > 0) bucket += nb;
    n = magnitude(r);
  } else {
    n = r < 0 ? magnitude(r) : 0;
  }
  const int max_exact = nb / 2;
  if (n < max_exact) return bucket + static_cast<int>(n);
  // float32 like torch: relative_position.float() / max_exact, torch.log, divided by the Python double
  // math.log(max_distance / max_exact) cast to float32, times the int (nb - max_exact), then .to(long).
  const float ratio = static_cast<float>(n) / static_cast<float>(max_exact);
  const float denom = static_cast<float>(std::log(static_cast<double>(max_distance) / max_exact));
  const float scaled = std::log(ratio) / denom * static_cast<float>(nb - max_exact);
  const int64_t large = max_exact + static_cast<int64_t>(scaled);
  return bucket + static_cast<int>(std::min<int64_t>(large, nb - 1));
}

std::vector<int> t5_buckets(std::span<const int64_t> rel, bool bidirectional, int num_buckets, int64_t max_distance) {
  validate_t5_buckets(bidirectional, num_buckets, max_distance);
  std::vector<int> out;
  out.reserve(rel.size());
  for (int64_t r : rel) out.push_back(t5_bucket(r, bidirectional, num_buckets, max_distance));
  return out;
}

Matrix t5_bias_matrix(std::span<const int64_t> qpos, std::span<const int64_t> kpos, bool bidirectional, int num_buckets,
                      int64_t max_distance, std::span<const double> bias) {
  validate_t5_buckets(bidirectional, num_buckets, max_distance);
  require(static_cast<int64_t>(bias.size()) == num_buckets, "bias", "bias must have num_buckets entries");
  Matrix B(static_cast<Eigen::Index>(qpos.size()), static_cast<Eigen::Index>(kpos.size()));
  for (Eigen::Index i = 0; i < B.rows(); ++i)
    for (Eigen::Index j = 0; j < B.cols(); ++j)
      B(i, j) = bias[t5_bucket(kpos[j] - qpos[i], bidirectional, num_buckets, max_distance)];
  return B;
}

}  // namespace posenc
