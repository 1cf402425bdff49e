#include "core/bounds.h"

#include "core/types.h"

namespace posenc {

std::string limit_text(int64_t v) {
  if (v >= 1'000'000) {
    int64_t p = v, k = 0;
    while (p % 10 == 0) p /= 10, ++k;
    if (p == 1) return "10^" + std::to_string(k);
  }
  if (v >= (int64_t{1} << 16) && (v & (v - 1)) == 0) {
    int k = 0;
    while ((int64_t{1} << k) != v) ++k;
    return "2^" + std::to_string(k);
  }
  return std::to_string(v);
}

void require_in_range(int64_t value, int64_t lo, int64_t hi, const std::string& field) {
  if (value < lo || value > hi)
    throw InvalidArgument(field, field + " must be in [" + limit_text(lo) + ", " + limit_text(hi) + "]");
}

}  // namespace posenc
