// The peer for our wasm GEMM: a self-contained, hand-written wasm_simd128.h RoPE score job with a 4 x 8
// register-blocked micro-kernel over packed operands, written the way a GEMM library would (no posenc code,
// no abstraction). bench/kernel-parity.mjs holds our whole RoPE job to within 1.05x of its time.
//   tables   cos/sin of pos * inv_freq, angle in double, stored as float (the same contract as ours), four
//            pairs per step: reduced modulo pi/2 in double, float polynomials (until 2026-11 the tables
//            came from libm's double cos/sin one entry at a time, ~25 % of the job at 512 x 64)
//   pack A   rotated q times scale, panels of 4 rows, k-major: Ap[panel][k][0..3]
//   pack B   rotated k, panels of 8 rows, k-major: Bp[panel][k][0..7] (8-wide K panels)
//   kernel   4 x 8 tile of C: 8 accumulators + 2 B vectors + 1 splat of A (v128.load32_splat), fits V8's
//            xmm registers without spills; one non-inlined function so V8 optimises it once
//   order    column chunks of B panels (~128 KiB) swept by every A panel
#pragma once

#include <wasm_simd128.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace reference {

struct Workspace {
  std::vector<float> cos, sin, ap, bp;
};

__attribute__((noinline)) inline void kernel_4x8(const float* __restrict ap, const float* __restrict bp, int d,
                                                 float* __restrict c, int ldc) {
  v128_t c00 = wasm_f32x4_splat(0), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00;
  for (int k = 0; k < d; ++k, ap += 4, bp += 8) {
    const v128_t b0 = wasm_v128_load(bp), b1 = wasm_v128_load(bp + 4);
    v128_t a = wasm_v128_load32_splat(ap);
    c00 = wasm_f32x4_add(c00, wasm_f32x4_mul(a, b0));
    c01 = wasm_f32x4_add(c01, wasm_f32x4_mul(a, b1));
    a = wasm_v128_load32_splat(ap + 1);
    c10 = wasm_f32x4_add(c10, wasm_f32x4_mul(a, b0));
    c11 = wasm_f32x4_add(c11, wasm_f32x4_mul(a, b1));
    a = wasm_v128_load32_splat(ap + 2);
    c20 = wasm_f32x4_add(c20, wasm_f32x4_mul(a, b0));
    c21 = wasm_f32x4_add(c21, wasm_f32x4_mul(a, b1));
    a = wasm_v128_load32_splat(ap + 3);
    c30 = wasm_f32x4_add(c30, wasm_f32x4_mul(a, b0));
    c31 = wasm_f32x4_add(c31, wasm_f32x4_mul(a, b1));
  }
  wasm_v128_store(c, c00), wasm_v128_store(c + 4, c01), c += ldc;
  wasm_v128_store(c, c10), wasm_v128_store(c + 4, c11), c += ldc;
  wasm_v128_store(c, c20), wasm_v128_store(c + 4, c21), c += ldc;
  wasm_v128_store(c, c30), wasm_v128_store(c + 4, c31);
}

// C (n x m) = Ap Bp^T from the packed panels of ws (the blocked loop around the micro-kernel).
inline void multiply_packed(const Workspace& ws, int n, int m, int d, float* C) {
  const int ap_panels = (n + 3) / 4, bp_panels = (m + 7) / 8;
  alignas(16) float tile[4 * 8];
  const int chunk = std::max(1, 4096 / d);  // B panels per ~128 KiB
  for (int j0 = 0; j0 < bp_panels; j0 += chunk) {
    const int j1 = std::min(bp_panels, j0 + chunk);
    for (int i = 0; i < ap_panels; ++i) {
      const float* ap = &ws.ap[static_cast<size_t>(i) * 4 * d];
      for (int j = j0; j < j1; ++j) {
        const float* bp = &ws.bp[static_cast<size_t>(j) * 8 * d];
        const int rows = std::min(4, n - 4 * i), cols = std::min(8, m - 8 * j);
        float* c = C + static_cast<size_t>(4 * i) * m + 8 * j;
        if (rows == 4 && cols == 8) {
          kernel_4x8(ap, bp, d, c, m);
        } else {
          kernel_4x8(ap, bp, d, tile, 8);
          for (int r = 0; r < rows; ++r) std::memcpy(c + static_cast<size_t>(r) * m, tile + 8 * r, sizeof(float) * cols);
        }
      }
    }
  }
}

// GEMM only: C (n x m) = scale * A (n x d) B (m x d)^T, packing both operands (scale folded into A).
inline void gemm_nt(const float* A, const float* B, int n, int m, int d, float scale, float* C, Workspace& ws) {
  ws.ap.assign(static_cast<size_t>((n + 3) / 4) * 4 * d, 0.0f);
  ws.bp.assign(static_cast<size_t>((m + 7) / 8) * 8 * d, 0.0f);
  for (int r = 0; r < n; ++r)
    for (int k = 0; k < d; ++k)
      ws.ap[static_cast<size_t>(r / 4) * 4 * d + 4 * k + r % 4] = scale * A[static_cast<size_t>(r) * d + k];
  for (int r = 0; r < m; ++r)
    for (int k = 0; k < d; ++k) ws.bp[static_cast<size_t>(r / 8) * 8 * d + 8 * k + r % 8] = B[static_cast<size_t>(r) * d + k];
  multiply_packed(ws, n, m, d, C);
}

// Rotates row x (half layout: pairs (p, p + d/2)) by its cos/sin row and writes it times `scale` into a
// packed panel column: dst[k * stride] for k = 0..d-1.
inline void rotate_into(const float* x, const float* c, const float* s, int d, float scale, float* dst, int stride) {
  const int h = d / 2;
  for (int p = 0; p < h; ++p) {
    dst[p * stride] = scale * (x[p] * c[p] - x[p + h] * s[p]);
    dst[(p + h) * stride] = scale * (x[p + h] * c[p] + x[p] * s[p]);
  }
}

// cos/sin of pos * inv_freq for 4 pairs at once: the angle in double (two f64x2 halves), reduced modulo pi/2
// in double (pi/2 split in three parts so that j * part is exact), then float minimax polynomials on
// [-pi/4, pi/4] and the quadrant's swap and signs. Float accuracy (~1e-7 absolute) for |angle| up to ~1e6.
inline void sincos4(v128_t angle_lo, v128_t angle_hi, v128_t& s, v128_t& c) {
  auto reduce = [](v128_t a, v128_t& y, v128_t& j) {
    j = wasm_f64x2_nearest(wasm_f64x2_mul(a, wasm_f64x2_splat(0.63661977236758134308)));
    y = wasm_f64x2_sub(a, wasm_f64x2_mul(j, wasm_f64x2_splat(1.57079632673412561417e+00)));
    y = wasm_f64x2_sub(y, wasm_f64x2_mul(j, wasm_f64x2_splat(6.07710050630396597660e-11)));
    y = wasm_f64x2_sub(y, wasm_f64x2_mul(j, wasm_f64x2_splat(2.02226624879595063154e-21)));
  };
  v128_t y0, j0, y1, j1;
  reduce(angle_lo, y0, j0);
  reduce(angle_hi, y1, j1);
  const v128_t y = wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(y0), wasm_f32x4_demote_f64x2_zero(y1), 0, 1, 4, 5);
  const v128_t q = wasm_i32x4_shuffle(wasm_i32x4_trunc_sat_f64x2_zero(j0), wasm_i32x4_trunc_sat_f64x2_zero(j1), 0, 1, 4, 5);
  const v128_t z = wasm_f32x4_mul(y, y);
  v128_t sp = wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_splat(-1.9515295891e-4f), z), wasm_f32x4_splat(8.3321608736e-3f));
  sp = wasm_f32x4_add(wasm_f32x4_mul(sp, z), wasm_f32x4_splat(-1.6666654611e-1f));
  sp = wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_mul(sp, z), y), y);
  v128_t cp = wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_splat(2.443315711809948e-5f), z), wasm_f32x4_splat(-1.388731625493765e-3f));
  cp = wasm_f32x4_add(wasm_f32x4_mul(cp, z), wasm_f32x4_splat(4.166664568298827e-2f));
  cp = wasm_f32x4_add(wasm_f32x4_sub(wasm_f32x4_mul(wasm_f32x4_mul(cp, z), z), wasm_f32x4_mul(z, wasm_f32x4_splat(0.5f))),
                      wasm_f32x4_splat(1.0f));
  // quadrant q & 3: sin = (sp, cp, -sp, -cp), cos = (cp, -sp, -cp, sp)
  const v128_t odd = wasm_i32x4_eq(wasm_v128_and(q, wasm_i32x4_splat(1)), wasm_i32x4_splat(1));
  s = wasm_v128_xor(wasm_v128_bitselect(cp, sp, odd), wasm_i32x4_shl(wasm_v128_and(q, wasm_i32x4_splat(2)), 30));
  c = wasm_v128_xor(wasm_v128_bitselect(sp, cp, odd),
                    wasm_i32x4_shl(wasm_v128_and(wasm_i32x4_add(q, wasm_i32x4_splat(1)), wasm_i32x4_splat(2)), 30));
}

// C (n x n, row-major) = scale * rope(q) rope(k)^T for positions pos (q and k share them). d a multiple of 8.
inline void rope_logits(const float* q, const float* k, const int64_t* pos, int n, int d, const double* inv_freq, float scale,
                        float* C, Workspace& ws) {
  const int h = d / 2;
  ws.cos.resize(static_cast<size_t>(n) * h);
  ws.sin.resize(ws.cos.size());
  for (int r = 0; r < n; ++r) {
    const v128_t p = wasm_f64x2_splat(static_cast<double>(pos[r]));
    for (int i = 0; i < h; i += 4) {
      v128_t s, c;
      sincos4(wasm_f64x2_mul(p, wasm_v128_load(inv_freq + i)), wasm_f64x2_mul(p, wasm_v128_load(inv_freq + i + 2)), s, c);
      wasm_v128_store(&ws.sin[static_cast<size_t>(r) * h + i], s);
      wasm_v128_store(&ws.cos[static_cast<size_t>(r) * h + i], c);
    }
  }
  const int ap_panels = (n + 3) / 4, bp_panels = (n + 7) / 8;
  ws.ap.resize(static_cast<size_t>(ap_panels) * 4 * d);
  ws.bp.resize(static_cast<size_t>(bp_panels) * 8 * d);
  std::fill(ws.ap.begin() + static_cast<ptrdiff_t>(n / 4) * 4 * d, ws.ap.end(), 0.0f);  // rows past n
  std::fill(ws.bp.begin() + static_cast<ptrdiff_t>(n / 8) * 8 * d, ws.bp.end(), 0.0f);
  for (int r = 0; r < n; ++r) {
    const float* c = &ws.cos[static_cast<size_t>(r) * h];
    const float* s = &ws.sin[static_cast<size_t>(r) * h];
    rotate_into(q + static_cast<size_t>(r) * d, c, s, d, scale, &ws.ap[static_cast<size_t>(r / 4) * 4 * d + r % 4], 4);
    rotate_into(k + static_cast<size_t>(r) * d, c, s, d, 1.0f, &ws.bp[static_cast<size_t>(r / 8) * 8 * d + r % 8], 8);
  }
  multiply_packed(ws, n, n, d, C);
}

}  // namespace reference
