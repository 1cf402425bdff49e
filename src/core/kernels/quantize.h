// Heatmap texture data: a float matrix as 16-bit codes over its own value range, so the app uploads
// 2 bytes a cell instead of 4 (the shader decodes code -> lo + code * step). The pictures only: exports
// and readouts never read these codes.
#pragma once

#include <cstddef>
#include <cstdint>

namespace posenc::kernels {

// Codes 0 .. kQuantizedMax cover [lo, hi]; kQuantizedMasked marks a masked cell.
inline constexpr uint16_t kQuantizedMax = 65534;
inline constexpr uint16_t kQuantizedMasked = 65535;

// The smallest and largest finite value below `masked` (cells >= masked, NaN and +-inf are skipped).
// `any` is false when no cell counts (then lo = hi = 0).
struct ValueRange {
  float lo = 0, hi = 0;
  bool any = false;
};
ValueRange value_range_portable(const float* x, std::size_t count, float masked);
ValueRange value_range_simd128(const float* x, std::size_t count, float masked);
ValueRange value_range(const float* x, std::size_t count, float masked);

// dst[i] = kQuantizedMasked where x[i] >= masked or is NaN; otherwise the code of x[i] on [lo, lo +
// kQuantizedMax / inv_step]: trunc((x[i] - lo) * inv_step + 0.5) clamped to [0, kQuantizedMax] (-inf -> 0).
// Both paths give the same codes (the same float operations in the same order, no fused multiply-add).
void quantize_portable(const float* x, std::size_t count, float lo, float inv_step, float masked, uint16_t* dst);
void quantize_simd128(const float* x, std::size_t count, float lo, float inv_step, float masked, uint16_t* dst);
void quantize(const float* x, std::size_t count, float lo, float inv_step, float masked, uint16_t* dst);

// The step of the codes for a range: (hi - lo) / kQuantizedMax (0 when hi == lo: every code is 0).
inline float quantize_step(const ValueRange& r) { return r.hi > r.lo ? (r.hi - r.lo) / float(kQuantizedMax) : 0.0f; }

}  // namespace posenc::kernels
