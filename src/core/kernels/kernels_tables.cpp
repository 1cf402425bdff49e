// Table kernels of kernels.h: sin/cos tables, relative-position fills and gathers, the causal mask.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/kernels/kernels.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace posenc::kernels {

void sin_cos_table_portable(const int64_t* pos, int n, const double* w, int h, double mult, float* s, float* c) {
  for (int r = 0; r < n; ++r)
    for (int p = 0; p < h; ++p) {
      const double angle = static_cast<double>(pos[r]) * w[p];
      s[static_cast<std::size_t>(r) * h + p] = static_cast<float>(std::sin(angle) * mult);
      c[static_cast<std::size_t>(r) * h + p] = static_cast<float>(std::cos(angle) * mult);
    }
}

#if defined(__wasm_simd128__)

namespace {

// y = angle - j pi/2 for j = nearest(angle 2/pi), in double: pi/2 in three parts of 33 + 33 + 53 bits
// (fdlibm's pio2_1, pio2_2, pio2_2t), so j * pio2_1 and j * pio2_2 are exact for |j| < 2^20 (|angle| < 1.6e6)
// and the reduced angle keeps ~1e-16 absolute accuracy far beyond float's needs up to there and a few times past.
inline void reduce_pio2(v128_t angle, v128_t& y, v128_t& j) {
  j = wasm_f64x2_nearest(wasm_f64x2_mul(angle, wasm_f64x2_splat(6.36619772367581382433e-01)));
  y = wasm_f64x2_sub(angle, wasm_f64x2_mul(j, wasm_f64x2_splat(1.57079632673412561417e+00)));
  y = wasm_f64x2_sub(y, wasm_f64x2_mul(j, wasm_f64x2_splat(6.07710050630396597660e-11)));
  y = wasm_f64x2_sub(y, wasm_f64x2_mul(j, wasm_f64x2_splat(2.02226624879595063154e-21)));
}

// sin and cos of 4 angles given as two f64x2 halves: reduce in double, then float polynomials on
// |y| <= pi/4 (Cephes sinf / cosf coefficients) and the quadrant's swap and signs.
inline void sin_cos4(v128_t a01, v128_t a23, v128_t& s, v128_t& c) {
  v128_t y01, j01, y23, j23;
  reduce_pio2(a01, y01, j01);
  reduce_pio2(a23, y23, j23);
  const v128_t yl = wasm_f32x4_demote_f64x2_zero(y01), yh = wasm_f32x4_demote_f64x2_zero(y23);
  const v128_t y = wasm_i32x4_shuffle(yl, yh, 0, 1, 4, 5);
  const v128_t jl = wasm_i32x4_trunc_sat_f64x2_zero(j01), jh = wasm_i32x4_trunc_sat_f64x2_zero(j23);
  const v128_t q = wasm_i32x4_shuffle(jl, jh, 0, 1, 4, 5);
  const v128_t z = wasm_f32x4_mul(y, y);
  v128_t ps = wasm_f32x4_splat(-1.9515295891e-4f);
  ps = wasm_f32x4_add(wasm_f32x4_mul(ps, z), wasm_f32x4_splat(8.3321608736e-3f));
  ps = wasm_f32x4_add(wasm_f32x4_mul(ps, z), wasm_f32x4_splat(-1.6666654611e-1f));
  ps = wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_mul(ps, z), y), y);
  v128_t pc = wasm_f32x4_splat(2.443315711809948e-5f);
  pc = wasm_f32x4_add(wasm_f32x4_mul(pc, z), wasm_f32x4_splat(-1.388731625493765e-3f));
  pc = wasm_f32x4_add(wasm_f32x4_mul(pc, z), wasm_f32x4_splat(4.166664568298827e-2f));
  pc = wasm_f32x4_mul(wasm_f32x4_mul(pc, z), z);
  pc = wasm_f32x4_add(wasm_f32x4_sub(pc, wasm_f32x4_mul(z, wasm_f32x4_splat(0.5f))), wasm_f32x4_splat(1.0f));
  // Quadrant q: sin = (s, c, -s, -c)[q & 3], cos = (c, -s, -c, s)[q & 3] (two's complement q & 3 works for q < 0).
  const v128_t swap = wasm_i32x4_eq(wasm_v128_and(q, wasm_i32x4_splat(1)), wasm_i32x4_splat(1));
  const v128_t sin_neg = wasm_i32x4_shl(wasm_v128_and(q, wasm_i32x4_splat(2)), 30);
  const v128_t cos_neg = wasm_i32x4_shl(wasm_v128_and(wasm_i32x4_add(q, wasm_i32x4_splat(1)), wasm_i32x4_splat(2)), 30);
  s = wasm_v128_xor(wasm_v128_bitselect(pc, ps, swap), sin_neg);
  c = wasm_v128_xor(wasm_v128_bitselect(ps, pc, swap), cos_neg);
}

}  // namespace

void sin_cos_table_simd128(const int64_t* pos, int n, const double* w, int h, double mult, float* s, float* c) {
  const v128_t vm = wasm_f32x4_splat(static_cast<float>(mult));
  const bool scaled = mult != 1.0;
  for (int r = 0; r < n; ++r) {
    const v128_t vp = wasm_f64x2_splat(static_cast<double>(pos[r]));
    float* sr = s + static_cast<std::size_t>(r) * h;
    float* cr = c + static_cast<std::size_t>(r) * h;
    int p = 0;
    for (; p + 4 <= h; p += 4) {
      v128_t vs, vc;
      sin_cos4(wasm_f64x2_mul(vp, wasm_v128_load(w + p)), wasm_f64x2_mul(vp, wasm_v128_load(w + p + 2)), vs, vc);
      if (scaled) vs = wasm_f32x4_mul(vs, vm), vc = wasm_f32x4_mul(vc, vm);
      wasm_v128_store(sr + p, vs);
      wasm_v128_store(cr + p, vc);
    }
    for (; p < h; ++p) {
      const double angle = static_cast<double>(pos[r]) * w[p];
      sr[p] = static_cast<float>(std::sin(angle) * mult);
      cr[p] = static_cast<float>(std::cos(angle) * mult);
    }
  }
}

#endif  // __wasm_simd128__

void sin_cos_table(const int64_t* pos, int n, const double* w, int h, double mult, float* s, float* c) {
  POSENC_FASTEST(sin_cos_table)(pos, n, w, h, mult, s, c);
}

void fill_relative_portable(float* C, int n, int m, const int64_t* qpos, const int64_t* kpos, const float* by_delta,
                            int64_t delta_min, bool accumulate, const int* extent) {
  for (int i = 0; i < n; ++i) {
    float* row = C + static_cast<std::size_t>(i) * m;
    for (int j = 0, end = extent ? std::min(m, extent[i]) : m; j < end; ++j) {
      const float v = by_delta[kpos[j] - qpos[i] - delta_min];
      row[j] = accumulate ? row[j] + v : v;
    }
  }
}

#if defined(__wasm_simd128__)
namespace {
bool contiguous(const int64_t* pos, int m) {
  for (int j = 1; j < m; ++j)
    if (pos[j] != pos[0] + j) return false;
  return true;
}
}  // namespace

void fill_relative_simd128(float* C, int n, int m, const int64_t* qpos, const int64_t* kpos, const float* by_delta,
                           int64_t delta_min, bool accumulate, const int* extent) {
  if (!contiguous(kpos, m)) return fill_relative_portable(C, n, m, qpos, kpos, by_delta, delta_min, accumulate, extent);
  for (int i = 0; i < n; ++i) {
    float* row = C + static_cast<std::size_t>(i) * m;
    const float* src = by_delta + (kpos[0] - qpos[i] - delta_min);  // row i = by_delta[kpos[0] - qpos[i] + j]
    const int end = extent ? std::min(m, extent[i]) : m;
    if (!accumulate) {
      std::copy(src, src + end, row);
      continue;
    }
    int j = 0;
    for (; j + 4 <= end; j += 4) wasm_v128_store(row + j, wasm_f32x4_add(wasm_v128_load(row + j), wasm_v128_load(src + j)));
    for (; j < end; ++j) row[j] += src[j];
  }
}
#endif

void fill_relative(float* C, int n, int m, const int64_t* qpos, const int64_t* kpos, const float* by_delta, int64_t delta_min,
                   bool accumulate, const int* extent) {
  POSENC_FASTEST(fill_relative)(C, n, m, qpos, kpos, by_delta, delta_min, accumulate, extent);
}

void gather_relative(float* C, int n, int m, const float* G, int g_cols, bool rows_by_query, const int64_t* qpos,
                     const int64_t* kpos, const int32_t* index_by_delta, int64_t delta_min, const int* extent) {
  for (int i = 0; i < n; ++i) {
    float* row = C + static_cast<std::size_t>(i) * m;
    const int64_t off = -qpos[i] - delta_min;  // index of delta kpos[j] - qpos[i]: kpos[j] + off
    const int end = extent ? std::min(m, extent[i]) : m;
    if (rows_by_query) {
      const float* g = G + static_cast<std::size_t>(i) * g_cols;
      for (int j = 0; j < end; ++j) row[j] = g[index_by_delta[kpos[j] + off]];
    } else {
      for (int j = 0; j < end; ++j) row[j] = G[static_cast<std::size_t>(j) * g_cols + index_by_delta[kpos[j] + off]];
    }
  }
}

void mask_causal(float* C, int n, int m, const int64_t* qpos, const int64_t* kpos) {
  const float ninf = -std::numeric_limits<float>::infinity();
  for (int i = 0; i < n; ++i) {
    float* row = C + static_cast<std::size_t>(i) * m;
    for (int j = 0; j < m; ++j)
      if (kpos[j] > qpos[i]) row[j] = ninf;
  }
}

std::pair<int64_t, int64_t> delta_range(std::span<const int64_t> qpos, std::span<const int64_t> kpos) {
  const auto [qmin, qmax] = std::minmax_element(qpos.begin(), qpos.end());
  const auto [kmin, kmax] = std::minmax_element(kpos.begin(), kpos.end());
  return {*kmin - *qmax, *kmax - *qmin};
}

}  // namespace posenc::kernels
