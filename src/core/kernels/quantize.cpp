#include "core/kernels/quantize.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/kernels/kernels.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace posenc::kernels {

namespace {
constexpr float kInf = std::numeric_limits<float>::infinity();
}  // namespace

ValueRange value_range_portable(const float* x, std::size_t count, float masked) {
  float lo = kInf, hi = -kInf;
  for (std::size_t i = 0; i < count; ++i) {
    const float v = x[i];
    if (v < masked && v > -kInf) lo = std::min(lo, v), hi = std::max(hi, v);  // false for NaN
  }
  if (lo > hi) return {};
  return {lo, hi, true};
}

void quantize_portable(const float* x, std::size_t count, float lo, float inv_step, float masked, uint16_t* dst) {
  for (std::size_t i = 0; i < count; ++i) {
    const float v = x[i];
    if (!(v < masked)) {  // masked, +inf or NaN
      dst[i] = kQuantizedMasked;
      continue;
    }
    float t = (v - lo) * inv_step;
    t = t + 0.5f;
    t = t > 0.0f ? std::min(t, float(kQuantizedMax)) : 0.0f;  // NaN (-inf * 0) -> 0, as trunc_sat
    dst[i] = uint16_t(t);
  }
}

#if defined(__wasm_simd128__)
ValueRange value_range_simd128(const float* x, std::size_t count, float masked) {
  const v128_t vmasked = wasm_f32x4_splat(masked), vneg_inf = wasm_f32x4_splat(-kInf);
  v128_t vlo = wasm_f32x4_splat(kInf), vhi = wasm_f32x4_splat(-kInf);
  std::size_t i = 0;
  for (; i + 4 <= count; i += 4) {
    const v128_t v = wasm_v128_load(x + i);
    const v128_t ok = wasm_v128_and(wasm_f32x4_lt(v, vmasked), wasm_f32x4_gt(v, vneg_inf));
    // Skipped lanes contribute +inf to the minimum and -inf to the maximum.
    vlo = wasm_f32x4_pmin(vlo, wasm_v128_bitselect(v, vlo, ok));
    vhi = wasm_f32x4_pmax(vhi, wasm_v128_bitselect(v, vhi, ok));
  }
  float lo = std::min(std::min(wasm_f32x4_extract_lane(vlo, 0), wasm_f32x4_extract_lane(vlo, 1)),
                      std::min(wasm_f32x4_extract_lane(vlo, 2), wasm_f32x4_extract_lane(vlo, 3)));
  float hi = std::max(std::max(wasm_f32x4_extract_lane(vhi, 0), wasm_f32x4_extract_lane(vhi, 1)),
                      std::max(wasm_f32x4_extract_lane(vhi, 2), wasm_f32x4_extract_lane(vhi, 3)));
  const ValueRange tail = value_range_portable(x + i, count - i, masked);
  if (tail.any) lo = std::min(lo, tail.lo), hi = std::max(hi, tail.hi);
  if (lo > hi) return {};
  return {lo, hi, true};
}

void quantize_simd128(const float* x, std::size_t count, float lo, float inv_step, float masked, uint16_t* dst) {
  const v128_t vmasked = wasm_f32x4_splat(masked), vlo = wasm_f32x4_splat(lo), vinv = wasm_f32x4_splat(inv_step);
  const v128_t half = wasm_f32x4_splat(0.5f), zero = wasm_f32x4_splat(0.0f), top = wasm_f32x4_splat(float(kQuantizedMax));
  const v128_t code_masked = wasm_i32x4_splat(kQuantizedMasked);
  auto codes = [&](const float* p) {
    const v128_t v = wasm_v128_load(p);
    v128_t t = wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_sub(v, vlo), vinv), half);
    // pmax / pmin (one maxps / minps on x64; f32x4.max / min cost several instructions for their NaN and
    // -0 rules): the same codes, since trunc_sat maps -0 and NaN to 0 and NaN lanes with x >= masked are
    // replaced below; a NaN t (x = -inf with inv_step = 0) stays NaN -> 0 as before.
    t = wasm_f32x4_pmin(wasm_f32x4_pmax(t, zero), top);
    return wasm_v128_bitselect(wasm_i32x4_trunc_sat_f32x4(t), code_masked, wasm_f32x4_lt(v, vmasked));
  };
  std::size_t i = 0;
  for (; i + 8 <= count; i += 8) wasm_v128_store(dst + i, wasm_u16x8_narrow_i32x4(codes(x + i), codes(x + i + 4)));
  quantize_portable(x + i, count - i, lo, inv_step, masked, dst + i);
}
#endif

ValueRange value_range(const float* x, std::size_t count, float masked) { return POSENC_FASTEST(value_range)(x, count, masked); }

void quantize(const float* x, std::size_t count, float lo, float inv_step, float masked, uint16_t* dst) {
  POSENC_FASTEST(quantize)(x, count, lo, inv_step, masked, dst);
}

}  // namespace posenc::kernels
