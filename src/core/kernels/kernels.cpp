// The float kernels of kernels.h (the tables, fills and gathers are in kernels_tables.cpp).
//
// Index of this file:
// [SECTION] portable
//     the scalar reference loops
// [SECTION] SIMD128
//     the packed 4 x 8 GEMM: micro-kernel, operand packing with the RoPE rotation folded in, the blocked
//     loop; bias add, softmax with its polynomial exp, the sum with the overflow check
// [SECTION] dispatch
//     which path a Path means, and the matrix forms: logits, matmul, the whole RoPE job, bias logits, softmax
#include "core/kernels/kernels.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace posenc::kernels {

// [SECTION] portable

void logits_portable(const float* A, const float* B, int n, int m, int d, float scale, float* C) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < d; ++k) acc += A[i * d + k] * B[j * d + k];
      C[static_cast<std::size_t>(i) * m + j] = scale * acc;
    }
}

void matmul_portable(const float* A, const float* B, int n, int m, int d, float scale, float* C) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < d; ++k) acc += A[static_cast<std::size_t>(i) * d + k] * B[static_cast<std::size_t>(k) * m + j];
      C[static_cast<std::size_t>(i) * m + j] = scale * acc;
    }
}

void add_portable(float* dst, const float* src, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) dst[i] += src[i];
}

void softmax_rows_to_portable(const float* X, float* Y, int n, int m) {
  for (int i = 0; i < n; ++i) {
    const float* x = X + static_cast<std::size_t>(i) * m;
    float* y = Y + static_cast<std::size_t>(i) * m;
    float mx = -std::numeric_limits<float>::infinity();
    for (int j = 0; j < m; ++j) mx = std::max(mx, x[j]);
    if (mx == -std::numeric_limits<float>::infinity()) {
      std::fill(y, y + m, 0.0f);  // fully masked row
      continue;
    }
    float sum = 0.0f;
    for (int j = 0; j < m; ++j) sum += y[j] = std::exp(x[j] - mx);  // exp(-inf) = 0
    const float inv = 1.0f / sum;
    for (int j = 0; j < m; ++j) y[j] *= inv;
  }
}

void softmax_rows_portable(float* X, int n, int m) { softmax_rows_to_portable(X, X, n, m); }

bool sum_finite_portable(float* dst, const float* const* src, int terms, std::size_t count) {
  bool finite = true;
  for (std::size_t i = 0; i < count; ++i) {
    float acc = src[0][i];
    for (int t = 1; t < terms; ++t) acc += src[t][i];
    dst[i] = acc;
    finite = finite && std::isfinite(acc);
  }
  return finite;
}

namespace {

// The rows of an operand: n x d row-major values x, optionally RoPE-rotated (on the way into the SIMD128
// GEMM's panels, or into a rotated copy on the portable path). With a rotation, the first rd = 2 h columns
// rotate in pairs by the row's cos / sin (tables n x h, row-major): pair p is (p, p + h) in the half layout,
// (2p, 2p + 1) interleaved, x0 -> x0 c - x1 s, x1 -> x1 c + x0 s; the rest pass through; rd = 0 is x as it
// is. The SIMD128 packing evaluates the same float expressions (times the scale for A), so its panels hold
// the bits of rotating first and packing after.
struct PackSource {
  const float* x;
  int d;
  const float* cos = nullptr;
  const float* sin = nullptr;
  int rd = 0;
  RopeLayout layout = RopeLayout::Half;
};

// Entry k of row r: the portable rotation, and the SIMD128 packing's edge panels and columns past its last
// block of 4. Not inlined (nor is pack_quad): page weight counts every copy.
__attribute__((noinline)) float packed_entry(const PackSource& s, int r, int k) {
  const float* x = s.x + static_cast<std::size_t>(r) * s.d;
  if (k >= s.rd) return x[k];
  const int h = s.rd / 2;
  const float* c = s.cos + static_cast<std::size_t>(r) * h;
  const float* sn = s.sin + static_cast<std::size_t>(r) * h;
  if (s.layout == RopeLayout::Half) return k < h ? x[k] * c[k] - x[k + h] * sn[k] : x[k] * c[k - h] + x[k - h] * sn[k - h];
  const int p = k / 2;
  return k % 2 == 0 ? x[k] * c[p] - x[k + 1] * sn[p] : x[k] * c[p] + x[k - 1] * sn[p];
}

// x (n x d) rotated into out (n x d), entry by entry.
void rotate_portable(const PackSource& x, int n, float* out) {
  for (int r = 0; r < n; ++r)
    for (int k = 0; k < x.d; ++k) out[static_cast<std::size_t>(r) * x.d + k] = packed_entry(x, r, k);
}

}  // namespace

// [SECTION] SIMD128

#if defined(__wasm_simd128__)

namespace {

// Packed GEMM: C (n x m) = Ap Bp^T over panels of kMr rows of A and kNr rows of B^T, each k-major, so that
// the micro-kernel reads 16 + 32 contiguous bytes per k step and broadcasts A with v128.load32_splat.
// 4 x 8 is the largest tile whose 8 accumulators + 2 B vectors + 1 splat + 1 product stay in V8's x64
// xmm registers (16, one reserved as scratch): 6 x 8 (12 accumulators) spilled and ran ~2x slower.
constexpr int kMr = 4, kNr = 8;

struct GemmWorkspace {
  std::vector<float> a, b;
};
GemmWorkspace& gemm_workspace() {
  static GemmWorkspace w;  // reused across calls: the views call these kernels every frame
  return w;
}

// A separate, non-inlined function: V8 tiers wasm functions up as a whole, and a small hot loop on its own
// gets the best register allocation. Each cell sums over k in order with separate mul and add (no FMA).
// The loop ends on a pointer compare, not a counter (emcc passes clang -disable-lsr, so a counter stays as
// written): V8 (node 20) then emits 29 instead of 31 x64 instructions per k step (16 FP, 6 loads and the
// loop's own), and the kernel ran 15-18 % faster in one process (fastest of 60-100 repetitions, 240 to
// 1024 rows, d 64 and 128). Not unrolled over k: a 2x unrolled loop ran 1.3-3x slower, and 5 x 8 / 3 x 12
// tiles ~2x slower (more live v128 values than V8's 16 xmm registers hold); the j loop over B panels moved
// into this function (V8 then unrolls the k loop itself) was no faster in the whole job.
__attribute__((noinline)) void micro_kernel_4x8(const float* __restrict ap, const float* __restrict bp, int d,
                                                float* __restrict c, int ldc) {
  v128_t c00 = wasm_f32x4_splat(0.0f), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00;
  for (const float* const a_end = ap + static_cast<std::size_t>(kMr) * d; ap != a_end; ap += kMr, bp += kNr) {
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

// Columns k..k+3 of 4 consecutive rows (row stride ld) as 4 vectors over the rows: v[i] = (row 0..3)[k + i].
inline void load_transposed(const float* base, std::size_t ld, int k, v128_t v[4]) {
  const v128_t r0 = wasm_v128_load(base + k), r1 = wasm_v128_load(base + ld + k), r2 = wasm_v128_load(base + 2 * ld + k),
               r3 = wasm_v128_load(base + 3 * ld + k);
  const v128_t lo01 = wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5), lo23 = wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5);
  const v128_t hi01 = wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7), hi23 = wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7);
  v[0] = wasm_i64x2_shuffle(lo01, lo23, 0, 2);
  v[1] = wasm_i64x2_shuffle(lo01, lo23, 1, 3);
  v[2] = wasm_i64x2_shuffle(hi01, hi23, 0, 2);
  v[3] = wasm_i64x2_shuffle(hi01, hi23, 1, 3);
}

// Rows r0..r0+3 (rows < 4 of them exist) into lanes 0..3 of dst[stride * k], k = 0..d-1, times the scale
// if scaled: 4 x 4 blocks transposed in registers, rotated there when the source rotates.
__attribute__((noinline)) void pack_quad(const PackSource& s, int r0, int rows, bool scaled, float scale, float* dst,
                                         int stride) {
  const int d = s.d, h = s.rd / 2;
  const v128_t vscale = wasm_f32x4_splat(scale);
  auto put = [&](int k, v128_t v) {
    wasm_v128_store(dst + static_cast<std::size_t>(stride) * k, scaled ? wasm_f32x4_mul(vscale, v) : v);
  };
  auto put_scalar = [&](int k) {
    for (int r = 0; r < rows; ++r) {
      const float v = packed_entry(s, r0 + r, k);
      dst[static_cast<std::size_t>(stride) * k + r] = scaled ? scale * v : v;
    }
  };
  if (rows < 4) {  // edge panel (zero filled by the caller)
    for (int k = 0; k < d; ++k) put_scalar(k);
    return;
  }
  const float* x = s.x + static_cast<std::size_t>(r0) * d;
  int k = 0;
  if (h > 0) {
    const float* c = s.cos + static_cast<std::size_t>(r0) * h;
    const float* sn = s.sin + static_cast<std::size_t>(r0) * h;
    v128_t x0[4], x1[4], vc[4], vs[4];
    int p = 0;
    for (; p + 4 <= h; p += 4) {
      load_transposed(c, h, p, vc);
      load_transposed(sn, h, p, vs);
      if (s.layout == RopeLayout::Half) {
        load_transposed(x, d, p, x0);
        load_transposed(x, d, p + h, x1);
        for (int i = 0; i < 4; ++i) {
          put(p + i, wasm_f32x4_sub(wasm_f32x4_mul(x0[i], vc[i]), wasm_f32x4_mul(x1[i], vs[i])));
          put(p + h + i, wasm_f32x4_add(wasm_f32x4_mul(x1[i], vc[i]), wasm_f32x4_mul(x0[i], vs[i])));
        }
      } else {  // pairs (2p, 2p + 1): x0 holds columns 2p..2p+3, x1 columns 2p+4..2p+7
        load_transposed(x, d, 2 * p, x0);
        load_transposed(x, d, 2 * p + 4, x1);
        for (int i = 0; i < 4; ++i) {
          const v128_t* v = i < 2 ? x0 + 2 * i : x1 + 2 * (i - 2);
          put(2 * (p + i), wasm_f32x4_sub(wasm_f32x4_mul(v[0], vc[i]), wasm_f32x4_mul(v[1], vs[i])));
          put(2 * (p + i) + 1, wasm_f32x4_add(wasm_f32x4_mul(v[1], vc[i]), wasm_f32x4_mul(v[0], vs[i])));
        }
      }
    }
    for (; p < h; ++p) {  // the pairs past the last block of 4
      put_scalar(s.layout == RopeLayout::Half ? p : 2 * p);
      put_scalar(s.layout == RopeLayout::Half ? p + h : 2 * p + 1);
    }
    k = s.rd;
  }
  v128_t v[4];
  for (; k + 4 <= d; k += 4) {
    load_transposed(x, d, k, v);
    for (int i = 0; i < 4; ++i) put(k + i, v[i]);
  }
  for (; k < d; ++k) put_scalar(k);
}

// Panels of `width` rows (a multiple of 4: kMr for A, kNr for B) of the source's n rows, column k of a
// panel contiguous: out[panel][k][r] = scale * S'[width panel + r][k] (S' the source's rows, rotated or
// not; scaled only for A); rows past n are zero.
void pack_panels(const PackSource& src, int n, int width, bool scaled, float scale, std::vector<float>& out) {
  const int panels = (n + width - 1) / width, d = src.d;
  out.resize(static_cast<std::size_t>(panels) * width * d);
  for (int p = 0; p < panels; ++p) {
    float* dst = out.data() + static_cast<std::size_t>(p) * width * d;
    const int rows = std::min(width, n - width * p);
    if (rows < width) std::fill(dst, dst + width * d, 0.0f);
    for (int q = 0; 4 * q < rows; ++q)
      pack_quad(src, width * p + 4 * q, std::min(rows - 4 * q, 4), scaled, scale, dst + 4 * q, width);
  }
}

// Ap[panel][k][r] = scale * A'[kMr panel + r][k].
void pack_a(const PackSource& src, int n, float scale, std::vector<float>& ap) { pack_panels(src, n, kMr, true, scale, ap); }

// Bp[panel][k][c] = B'[kNr panel + c][k], B' the source's m rows (C = A B^T).
void pack_b_rows(const PackSource& src, int m, std::vector<float>& bp) { pack_panels(src, m, kNr, false, 1.0f, bp); }

// The same from B given as d x m (C = A B): Bp[panel][k][c] = B[k][kNr panel + c]. Columns past m are zero.
void pack_b_columns(const float* B, int m, int d, std::vector<float>& bp) {
  const int panels = (m + kNr - 1) / kNr;
  bp.resize(static_cast<std::size_t>(panels) * kNr * d);
  for (int p = 0; p < panels; ++p) {
    float* dst = bp.data() + static_cast<std::size_t>(p) * kNr * d;
    const int cols = std::min(kNr, m - kNr * p);
    if (cols < kNr) std::fill(dst, dst + kNr * d, 0.0f);
    for (int k = 0; k < d; ++k) {
      const float* src = B + static_cast<std::size_t>(k) * m + kNr * p;
      for (int c = 0; c < cols; ++c) dst[kNr * k + c] = src[c];
    }
  }
}

// C (n x m) = Ap Bp^T. Column chunks of B panels (~128 KiB, in L2) are swept by every A panel. With row
// extents, the B panels wholly past every extent of an A panel's rows are skipped (those cells are left as
// they were; a partly needed tile is computed whole).
void multiply_packed(const float* ap, const float* bp, int n, int m, int d, const int* extent, float* C) {
  const int a_panels = (n + kMr - 1) / kMr, b_panels = (m + kNr - 1) / kNr;
  alignas(16) float tile[kMr * kNr];
  const int chunk = std::max(1, 4096 / std::max(d, 1));
  for (int j0 = 0; j0 < b_panels; j0 += chunk) {
    const int j1 = std::min(b_panels, j0 + chunk);
    for (int i = 0; i < a_panels; ++i) {
      const float* a = ap + static_cast<std::size_t>(i) * kMr * d;
      const int rows = std::min(kMr, n - kMr * i);
      int j_end = j1;
      if (extent) {
        int widest = 0;
        for (int r = 0; r < rows; ++r) widest = std::max(widest, extent[kMr * i + r]);
        j_end = std::min(j1, (widest + kNr - 1) / kNr);
      }
      for (int j = j0; j < j_end; ++j) {
        const float* b = bp + static_cast<std::size_t>(j) * kNr * d;
        const int cols = std::min(kNr, m - kNr * j);
        float* c = C + static_cast<std::size_t>(kMr * i) * m + kNr * j;
        if (rows == kMr && cols == kNr) {
          micro_kernel_4x8(a, b, d, c, m);
        } else {  // edge tile: compute the full tile (zero padded), copy what exists
          micro_kernel_4x8(a, b, d, tile, kNr);
          for (int r = 0; r < rows; ++r) std::copy(tile + kNr * r, tile + kNr * r + cols, c + static_cast<std::size_t>(r) * m);
        }
      }
    }
  }
}

void gemm_simd128(const float* A, const float* B, int n, int m, int d, float scale, bool b_is_transposed, const int* extent,
                  float* C) {
  if (d == 0) {
    std::fill(C, C + static_cast<std::size_t>(n) * m, 0.0f);
    return;
  }
  GemmWorkspace& w = gemm_workspace();
  pack_a({A, d}, n, scale, w.a);
  if (b_is_transposed) pack_b_rows({B, d}, m, w.b);
  else pack_b_columns(B, m, d, w.b);
  multiply_packed(w.a.data(), w.b.data(), n, m, d, extent, C);
}

// scale * rope(q) rope(k)^T with the rotation done while packing (no rotated copies of q and k).
void rope_gemm_simd128(const PackSource& q, int n, const PackSource& k, int m, float scale, const int* extent, float* C) {
  GemmWorkspace& w = gemm_workspace();
  pack_a(q, n, scale, w.a);
  pack_b_rows(k, m, w.b);
  multiply_packed(w.a.data(), w.b.data(), n, m, q.d, extent, C);
}

}  // namespace

void logits_simd128(const float* A, const float* B, int n, int m, int d, float scale, float* C) {
  // scale is folded into the packed A (n d multiplies instead of n m).
  gemm_simd128(A, B, n, m, d, scale, true, nullptr, C);
}

void logits_prefix_simd128(const float* A, const float* B, int n, int m, int d, float scale, const int* extent, float* C) {
  gemm_simd128(A, B, n, m, d, scale, true, extent, C);
}

void matmul_simd128(const float* A, const float* B, int n, int m, int d, float scale, float* C) {
  gemm_simd128(A, B, n, m, d, scale, false, nullptr, C);
}

void add_simd128(float* dst, const float* src, std::size_t count) {
  std::size_t i = 0;
  for (; i + 4 <= count; i += 4) wasm_v128_store(dst + i, wasm_f32x4_add(wasm_v128_load(dst + i), wasm_v128_load(src + i)));
  for (; i < count; ++i) dst[i] += src[i];
}

namespace {

// e^x for x <= 0 (softmax arguments), ~2 ulp: x = n ln2 + r, |r| <= ln2/2, e^r by a degree-6 polynomial,
// 2^n by building the float exponent. Inputs below -87 flush to 0 (e^-87 is below float's normal range).
inline v128_t exp_nonpositive(v128_t x) {
  const v128_t min_x = wasm_f32x4_splat(-87.0f);
  const v128_t underflow = wasm_f32x4_lt(x, min_x);  // also true for -inf
  x = wasm_f32x4_max(x, min_x);
  const v128_t n = wasm_f32x4_nearest(wasm_f32x4_mul(x, wasm_f32x4_splat(1.44269504088896341f)));
  // Cody-Waite split of ln 2 keeps r accurate.
  v128_t r = wasm_f32x4_sub(x, wasm_f32x4_mul(n, wasm_f32x4_splat(0.693359375f)));
  r = wasm_f32x4_sub(r, wasm_f32x4_mul(n, wasm_f32x4_splat(-2.12194440e-4f)));
  v128_t p = wasm_f32x4_splat(1.0f / 720);
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f / 120));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f / 24));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f / 6));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(0.5f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f));
  const v128_t pow2n = wasm_i32x4_shl(wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(n), wasm_i32x4_splat(127)), 23);
  return wasm_v128_andnot(wasm_f32x4_mul(p, pow2n), underflow);
}

inline float hmax(v128_t v) {
  v = wasm_f32x4_max(v, wasm_i32x4_shuffle(v, v, 2, 3, 0, 1));
  v = wasm_f32x4_max(v, wasm_i32x4_shuffle(v, v, 1, 0, 3, 2));
  return wasm_f32x4_extract_lane(v, 0);
}

inline float hsum(v128_t v) {
  v = wasm_f32x4_add(v, wasm_i32x4_shuffle(v, v, 2, 3, 0, 1));
  v = wasm_f32x4_add(v, wasm_i32x4_shuffle(v, v, 1, 0, 3, 2));
  return wasm_f32x4_extract_lane(v, 0);
}

}  // namespace

void softmax_rows_to_simd128(const float* X, float* Y, int n, int m) {
  const float ninf = -std::numeric_limits<float>::infinity();
  for (int i = 0; i < n; ++i) {
    const float* x = X + static_cast<std::size_t>(i) * m;
    float* y = Y + static_cast<std::size_t>(i) * m;
    v128_t vmax = wasm_f32x4_splat(ninf);
    int j = 0;
    for (; j + 4 <= m; j += 4) vmax = wasm_f32x4_max(vmax, wasm_v128_load(x + j));
    float mx = hmax(vmax);
    for (; j < m; ++j) mx = std::max(mx, x[j]);
    if (mx == ninf) {
      std::fill(y, y + m, 0.0f);
      continue;
    }
    const v128_t vmx = wasm_f32x4_splat(mx);
    v128_t vsum = wasm_f32x4_splat(0.0f);
    for (j = 0; j + 4 <= m; j += 4) {
      const v128_t e = exp_nonpositive(wasm_f32x4_sub(wasm_v128_load(x + j), vmx));
      wasm_v128_store(y + j, e);
      vsum = wasm_f32x4_add(vsum, e);
    }
    float sum = hsum(vsum);
    for (; j < m; ++j) sum += y[j] = std::exp(x[j] - mx);
    const v128_t inv = wasm_f32x4_splat(1.0f / sum);
    for (j = 0; j + 4 <= m; j += 4) wasm_v128_store(y + j, wasm_f32x4_mul(wasm_v128_load(y + j), inv));
    for (; j < m; ++j) y[j] *= 1.0f / sum;
  }
}

void softmax_rows_simd128(float* X, int n, int m) { softmax_rows_to_simd128(X, X, n, m); }

bool sum_finite_simd128(float* dst, const float* const* src, int terms, std::size_t count) {
  // x - x is 0 for a finite x and NaN for +-inf and NaN: one compare per vector, ORed over the matrix.
  v128_t bad = wasm_i32x4_splat(0);
  const v128_t zero = wasm_f32x4_splat(0.0f);
  std::size_t i = 0;
  for (; i + 4 <= count; i += 4) {
    v128_t acc = wasm_v128_load(src[0] + i);
    for (int t = 1; t < terms; ++t) acc = wasm_f32x4_add(acc, wasm_v128_load(src[t] + i));
    wasm_v128_store(dst + i, acc);
    bad = wasm_v128_or(bad, wasm_f32x4_ne(wasm_f32x4_sub(acc, acc), zero));
  }
  bool finite = !wasm_v128_any_true(bad);
  for (; i < count; ++i) {
    float acc = src[0][i];
    for (int t = 1; t < terms; ++t) acc += src[t][i];
    dst[i] = acc;
    finite = finite && std::isfinite(acc);
  }
  return finite;
}

#endif  // __wasm_simd128__

// [SECTION] dispatch

void logits(const float* A, const float* B, int n, int m, int d, float scale, float* C) {
  POSENC_FASTEST(logits)(A, B, n, m, d, scale, C);
}

void matmul(const float* A, const float* B, int n, int m, int d, float scale, float* C) {
  POSENC_FASTEST(matmul)(A, B, n, m, d, scale, C);
}

void add(float* dst, const float* src, std::size_t count) { POSENC_FASTEST(add)(dst, src, count); }

void softmax_rows(float* X, int n, int m) { POSENC_FASTEST(softmax_rows)(X, n, m); }

namespace {

// Which logits implementation a Path means in this build: Portable is always the scalar reference loop;
// Best is the SIMD128 kernel in wasm -msimd128 builds, Eigen's GEMM in native builds (vectorised with
// SSE/AVX/AVX-512 by Eigen natively; Eigen has no wasm packet backend, so scalar wasm keeps the portable loop).
enum class Impl { Portable, Simd128, Eigen };

Impl pick(Path path) {
  require(path != Path::Simd128 || kHaveSimd128, "path", "this build has no SIMD128 kernels");
  if (path == Path::Portable) return Impl::Portable;
  if (kHaveSimd128) return Impl::Simd128;
#if defined(__EMSCRIPTEN__)
  return Impl::Portable;
#else
  return Impl::Eigen;
#endif
}

bool use_simd(Path path) { return pick(path) == Impl::Simd128; }

// extent: empty (every cell) or one entry per row of a (the SIMD128 GEMM skips the cells past it; Eigen's
// GEMM and the portable reference loop compute them anyway).
void run_logits(Impl impl, const MatrixF& a, const MatrixF& b, float scale, MatrixF& c, std::span<const int> extent = {}) {
  c.resize(a.rows(), b.rows());
  const int n = static_cast<int>(a.rows()), m = static_cast<int>(b.rows()), d = static_cast<int>(a.cols());
  [[maybe_unused]] const int* ext = extent.empty() ? nullptr : extent.data();  // the SIMD128 GEMM's only
  switch (impl) {
    case Impl::Simd128:
#if defined(__wasm_simd128__)
      if (ext) return logits_prefix_simd128(a.data(), b.data(), n, m, d, scale, ext, c.data());
      return logits_simd128(a.data(), b.data(), n, m, d, scale, c.data());
#else
      break;
#endif
    case Impl::Eigen:
      c.noalias() = (scale * a) * b.transpose();  // Eigen folds the scalar into its GEMM's alpha
      return;
    case Impl::Portable: break;
  }
  logits_portable(a.data(), b.data(), n, m, d, scale, c.data());  // every cell (the reference loop)
}

void check_extent(std::span<const int> extent, Eigen::Index rows) {
  require(extent.empty() || static_cast<Eigen::Index>(extent.size()) == rows, "row_extent",
          "row_extent must have one entry per row");
}

}  // namespace

MatrixF logits(const MatrixF& a, const MatrixF& b, float scale, Path path) {
  require(b.cols() == a.cols(), "b", "b must have as many columns as a");
  MatrixF c;
  run_logits(pick(path), a, b, scale, c);
  return c;
}

MatrixF logits(const MatrixF& a, const MatrixF& b, float scale, Path path, std::span<const int> row_extent) {
  require(b.cols() == a.cols(), "b", "b must have as many columns as a");
  check_extent(row_extent, a.rows());
  MatrixF c;
  run_logits(pick(path), a, b, scale, c, row_extent);
  return c;
}

MatrixF matmul(const MatrixF& a, const MatrixF& b, float scale, Path path) {
  require(b.rows() == a.cols(), "b", "b must have as many rows as a has columns");
  MatrixF c(a.rows(), b.cols());
  const int n = static_cast<int>(a.rows()), m = static_cast<int>(b.cols()), d = static_cast<int>(a.cols());
  switch (pick(path)) {
    case Impl::Simd128:
#if defined(__wasm_simd128__)
      matmul_simd128(a.data(), b.data(), n, m, d, scale, c.data());
      return c;
#else
      break;
#endif
    case Impl::Eigen: c.noalias() = (scale * a) * b; return c;
    case Impl::Portable: break;
  }
  matmul_portable(a.data(), b.data(), n, m, d, scale, c.data());
  return c;
}

void add(MatrixF& dst, const MatrixF& src, Path path) {
  require(dst.rows() == src.rows() && dst.cols() == src.cols(), "src", "src must have the shape of dst");
  [[maybe_unused]] const bool simd = use_simd(path);  // also rejects Simd128 in builds without it
#if defined(__wasm_simd128__)
  if (simd) return add_simd128(dst.data(), src.data(), static_cast<std::size_t>(dst.size()));
#endif
  add_portable(dst.data(), src.data(), static_cast<std::size_t>(dst.size()));
}

void softmax_in_place(MatrixF& x, Path path) {
  [[maybe_unused]] const bool simd = use_simd(path);
#if defined(__wasm_simd128__)
  if (simd) return softmax_rows_simd128(x.data(), static_cast<int>(x.rows()), static_cast<int>(x.cols()));
#endif
  softmax_rows_portable(x.data(), static_cast<int>(x.rows()), static_cast<int>(x.cols()));
}

void sin_cos_table(const int64_t* pos, int n, const double* w, int h, double mult, float* s, float* c, Path path) {
  [[maybe_unused]] const bool simd = use_simd(path);
#if defined(__wasm_simd128__)
  if (simd) return sin_cos_table_simd128(pos, n, w, h, mult, s, c);
#endif
  sin_cos_table_portable(pos, n, w, h, mult, s, c);
}

void fill_relative(float* C, int n, int m, const int64_t* qpos, const int64_t* kpos, const float* by_delta, int64_t delta_min,
                   bool accumulate, Path path, const int* extent) {
  [[maybe_unused]] const bool simd = use_simd(path);
#if defined(__wasm_simd128__)
  if (simd) return fill_relative_simd128(C, n, m, qpos, kpos, by_delta, delta_min, accumulate, extent);
#endif
  fill_relative_portable(C, n, m, qpos, kpos, by_delta, delta_min, accumulate, extent);
}

MatrixF rope_logits(const MatrixF& q, const MatrixF& k, std::span<const int64_t> qpos, std::span<const int64_t> kpos,
                    const RopeFrequencies& freqs, RopeLayout layout, float scale, Path path, std::span<const int> row_extent) {
  check_extent(row_extent, q.rows());
  const Eigen::Index d = q.cols();
  // Partial rotary: the first 2 * inv_freq.size() columns rotate, the rest pass through.
  const Eigen::Index rd = 2 * static_cast<Eigen::Index>(freqs.inv_freq.size());
  require(rd >= 2 && rd <= d, "q", "q must have at least 2 * inv_freq.size() columns");
  require(k.cols() == d, "k", "k must have as many columns as q");
  require(static_cast<Eigen::Index>(qpos.size()) == q.rows(), "query_positions", "one position per query");
  require(static_cast<Eigen::Index>(kpos.size()) == k.rows(), "key_positions", "one position per key");
  [[maybe_unused]] const bool simd = use_simd(path);
  MatrixF qc, qs, kc, ks;
  const int h = static_cast<int>(rd / 2);
  auto tables = [&](std::span<const int64_t> pos, MatrixF& c, MatrixF& s) {
    c.resize(static_cast<Eigen::Index>(pos.size()), h);
    s.resize(c.rows(), h);
#if defined(__wasm_simd128__)
    if (simd)
      return sin_cos_table_simd128(pos.data(), static_cast<int>(pos.size()), freqs.inv_freq.data(), h, freqs.attention_scaling,
                                   s.data(), c.data());
#endif
    sin_cos_table_portable(pos.data(), static_cast<int>(pos.size()), freqs.inv_freq.data(), h, freqs.attention_scaling, s.data(),
                           c.data());
  };
  tables(qpos, qc, qs);
  // Self-attention (the views' case): the key positions are the query positions, so reuse the tables
  // (the double-precision cos/sin are ~15% of the whole job at d = 128 in wasm).
  const bool same_pos = kpos.size() == qpos.size() && std::equal(kpos.begin(), kpos.end(), qpos.begin());
  if (!same_pos) tables(kpos, kc, ks);
  const MatrixF& kcos = same_pos ? qc : kc;
  const MatrixF& ksin = same_pos ? qs : ks;
  MatrixF out;
  const int di = static_cast<int>(d), ri = static_cast<int>(rd);
#if defined(__wasm_simd128__)
  if (simd) {  // rotated while packed for the GEMM
    out.resize(q.rows(), k.rows());
    rope_gemm_simd128({q.data(), di, qc.data(), qs.data(), ri, layout}, static_cast<int>(q.rows()),
                      {k.data(), di, kcos.data(), ksin.data(), ri, layout}, static_cast<int>(k.rows()), scale,
                      row_extent.empty() ? nullptr : row_extent.data(), out.data());
    return out;
  }
#endif
  MatrixF qr(q.rows(), d), kr(k.rows(), d);
  rotate_portable({q.data(), di, qc.data(), qs.data(), ri, layout}, static_cast<int>(q.rows()), qr.data());
  rotate_portable({k.data(), di, kcos.data(), ksin.data(), ri, layout}, static_cast<int>(k.rows()), kr.data());
  run_logits(pick(path), qr, kr, scale, out, row_extent);
  return out;
}

MatrixF bias_logits(const MatrixF& q, const MatrixF& k, const MatrixF& bias, float scale, Path path) {
  require(k.cols() == q.cols(), "k", "k must have as many columns as q");
  require(bias.rows() == q.rows() && bias.cols() == k.rows(), "bias", "bias must be n x m");
  [[maybe_unused]] const bool simd = use_simd(path);
  MatrixF out;
  run_logits(pick(path), q, k, scale, out);
#if defined(__wasm_simd128__)
  if (simd) {
    add_simd128(out.data(), bias.data(), static_cast<std::size_t>(out.size()));
    return out;
  }
#endif
  add_portable(out.data(), bias.data(), static_cast<std::size_t>(out.size()));
  return out;
}

MatrixF softmax(const MatrixF& logits, Path path) { return softmax(logits, path, {}); }

MatrixF softmax(const MatrixF& logits, Path path, std::span<const int> row_extent) {
  check_extent(row_extent, logits.rows());
  [[maybe_unused]] const bool simd = use_simd(path);
  const int n = static_cast<int>(logits.rows()), m = static_cast<int>(logits.cols());
  MatrixF out(n, m);  // written row by row from the logits: no copy first
  // Whole matrix: one call; with extents, one call per row over its visible cells.
  const int rows_per_call = row_extent.empty() ? n : 1;
  for (int i = 0; i < n; i += rows_per_call) {
    const int e = row_extent.empty() ? m : std::clamp(row_extent[static_cast<std::size_t>(i)], 0, m);
    const float* x = logits.data() + static_cast<std::size_t>(i) * m;
    float* y = out.data() + static_cast<std::size_t>(i) * m;
#if defined(__wasm_simd128__)
    if (simd) softmax_rows_to_simd128(x, y, rows_per_call, e);
    else
#endif
      softmax_rows_to_portable(x, y, rows_per_call, e);
    if (e < m) std::fill(y + e, y + m, 0.0f);
  }
  return out;
}

bool sum_finite(float* dst, const float* const* src, int terms, std::size_t count, Path path) {
  [[maybe_unused]] const bool simd = use_simd(path);
#if defined(__wasm_simd128__)
  if (simd) return sum_finite_simd128(dst, src, terms, count);
#endif
  return sum_finite_portable(dst, src, terms, count);
}

}  // namespace posenc::kernels
