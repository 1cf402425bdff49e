#include "core/half_float.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace posenc {

double round_bf16(double v) {
  float f = static_cast<float>(v);
  if (!std::isfinite(f)) return f;
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  bits += 0x7FFFu + ((bits >> 16) & 1u);  // round to nearest even on the top 16 bits
  bits &= 0xFFFF0000u;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

double round_fp16(double v) {
  if (!std::isfinite(v)) return v;
  const double a = std::fabs(v);
  if (a >= 65520.0) return std::copysign(std::numeric_limits<double>::infinity(), v);
  int e = 0;
  std::frexp(a, &e);  // a = m 2^e, m in [0.5, 1): 11 significant bits, subnormal spacing 2^-24
  const double spacing = a >= 0x1p-14 ? std::ldexp(1.0, e - 11) : 0x1p-24;
  return std::copysign(std::nearbyint(a / spacing) * spacing, v);
}

}  // namespace posenc
