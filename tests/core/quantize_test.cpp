#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "core/kernels/kernels.h"
#include "core/kernels/quantize.h"

using namespace posenc;

namespace {

constexpr float kMasked = 3.0e38f;
constexpr float kInf = std::numeric_limits<float>::infinity();

std::vector<float> sample(size_t n) {
  std::vector<float> x(n);
  for (size_t i = 0; i < n; ++i) x[i] = std::sin(0.37f * float(i)) * 5.0f - 1.25f;
  return x;
}

}  // namespace

TEST(Quantize, RangeSkipsMaskedNanAndInfinities) {
  std::vector<float> x = sample(37);  // not a multiple of 4 or 8: the SIMD tail too
  x[3] = kMasked;
  x[10] = std::numeric_limits<float>::quiet_NaN();
  x[20] = kInf;
  x[35] = -kInf;
  x[36] = -9.0f;  // in the tail
  const kernels::ValueRange r = kernels::value_range(x.data(), x.size(), kMasked);
  ASSERT_TRUE(r.any);
  EXPECT_EQ(r.lo, -9.0f);
  float hi = -kInf;
  for (float v : x)
    if (v < kMasked && std::isfinite(v)) hi = std::max(hi, v);
  EXPECT_EQ(r.hi, hi);
  const std::vector<float> none{kMasked, std::numeric_limits<float>::quiet_NaN(), kInf};
  EXPECT_FALSE(kernels::value_range(none.data(), none.size(), kMasked).any);
  EXPECT_FALSE(kernels::value_range(none.data(), 0, kMasked).any);
}

TEST(Quantize, CodesDecodeWithinHalfAStep) {
  std::vector<float> x = sample(1003);
  x[7] = kMasked;
  x[500] = std::numeric_limits<float>::quiet_NaN();
  x[501] = kInf;
  x[502] = -kInf;
  const kernels::ValueRange r = kernels::value_range(x.data(), x.size(), kMasked);
  const float step = kernels::quantize_step(r);
  ASSERT_GT(step, 0.0f);
  std::vector<uint16_t> codes(x.size());
  kernels::quantize(x.data(), x.size(), r.lo, 1.0f / step, kMasked, codes.data());
  EXPECT_EQ(codes[7], kernels::kQuantizedMasked);
  EXPECT_EQ(codes[500], kernels::kQuantizedMasked);  // NaN
  EXPECT_EQ(codes[501], kernels::kQuantizedMasked);  // +inf, as the masked sentinel above it
  EXPECT_EQ(codes[502], 0);                          // -inf: the low end
  int at_lo = 0, at_hi = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    if (!(x[i] < kMasked) || !std::isfinite(x[i])) continue;
    ASSERT_LE(codes[i], kernels::kQuantizedMax);
    const double decoded = double(r.lo) + double(codes[i]) * double(step);
    // Half a step, plus the float rounding of (x - lo) / step (below 2^16: an ulp is at most 2^-7 steps).
    EXPECT_LE(std::abs(decoded - double(x[i])), 0.52 * double(step)) << i;
    at_lo += codes[i] == 0;
    at_hi += codes[i] == kernels::kQuantizedMax;
  }
  EXPECT_GE(at_lo, 1);  // the smallest value is code 0, the largest the top code
  EXPECT_GE(at_hi, 1);
  // A flat matrix: step 0, every defined cell code 0.
  const std::vector<float> flat(9, 2.5f);
  const kernels::ValueRange rf = kernels::value_range(flat.data(), flat.size(), kMasked);
  EXPECT_EQ(kernels::quantize_step(rf), 0.0f);
  std::vector<uint16_t> cf(flat.size(), 1);
  kernels::quantize(flat.data(), flat.size(), rf.lo, 0.0f, kMasked, cf.data());
  for (uint16_t c : cf) EXPECT_EQ(c, 0);
}

TEST(Quantize, Simd128PathEqualsPortable) {
  if (!kernels::kHaveSimd128) GTEST_SKIP() << "no SIMD128 in this build";
#if defined(__wasm_simd128__)
  std::vector<float> x = sample(4099);
  x[1] = kMasked;
  x[2] = std::numeric_limits<float>::quiet_NaN();
  x[4098] = -kInf;
  const kernels::ValueRange a = kernels::value_range_portable(x.data(), x.size(), kMasked);
  const kernels::ValueRange b = kernels::value_range_simd128(x.data(), x.size(), kMasked);
  EXPECT_EQ(a.lo, b.lo);
  EXPECT_EQ(a.hi, b.hi);
  const float inv = 1.0f / kernels::quantize_step(a);
  std::vector<uint16_t> ca(x.size()), cb(x.size());
  kernels::quantize_portable(x.data(), x.size(), a.lo, inv, kMasked, ca.data());
  kernels::quantize_simd128(x.data(), x.size(), a.lo, inv, kMasked, cb.data());
  EXPECT_EQ(ca, cb);
  // Special values inside the vector body too (not only the scalar tail): -inf, +-0, values outside
  // [lo, hi] (clamped), +inf (masked), and a zero step (every code 0, -inf * 0 = NaN -> 0).
  x[8] = -kInf, x[9] = -0.0f, x[10] = 0.0f, x[11] = a.lo - 1.0f, x[12] = a.hi + 1.0f, x[13] = kInf;
  x[14] = std::numeric_limits<float>::quiet_NaN(), x[15] = -std::numeric_limits<float>::quiet_NaN();
  for (float inv_step : {inv, 0.0f}) {
    kernels::quantize_portable(x.data(), x.size(), a.lo, inv_step, kMasked, ca.data());
    kernels::quantize_simd128(x.data(), x.size(), a.lo, inv_step, kMasked, cb.data());
    EXPECT_EQ(ca, cb) << inv_step;
  }
#endif
}
