// Float32 hot kernels for the app's per-frame work: n x m logits (Q K^T) and A B products (packed 4 x 8
// SIMD128 GEMM), RoPE rotation, bias add, row softmax, sin/cos tables, relative-position fills and gathers,
// causal mask (kernels_tables.cpp). score_kernels.h builds every scheme's score job from them. Each has a portable scalar path and, in wasm builds with -msimd128, a hand-written SIMD128 path
// (Eigen 3.4 has no wasm packet backend and float reductions do not autovectorise without -ffast-math).
// Both paths are callable explicitly (tests compare them, benchmarks time them); the unsuffixed function
// dispatches to the fastest one compiled in. All matrices are row-major and contiguous.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

#include "core/encodings/rope.h"
#include "core/types.h"

namespace posenc::kernels {

// True when this build has the SIMD128 kernels (wasm with -msimd128). POSENC_FASTEST(kernel) is the twin
// a dispatcher calls: kernel_simd128 there, kernel_portable in every other build.
#if defined(__wasm_simd128__)
constexpr bool kHaveSimd128 = true;
#define POSENC_FASTEST(kernel) kernel##_simd128
#else
constexpr bool kHaveSimd128 = false;
#define POSENC_FASTEST(kernel) kernel##_portable
#endif

// Each kernel has a portable loop (the reference the tests compare against) and a SIMD128 twin that is
// defined in wasm SIMD128 builds only (kHaveSimd128); the dispatchers below pick one.
// C (n x m) = scale * A (n x d) . B (m x d)^T.
void logits_portable(const float* A, const float* B, int n, int m, int d, float scale, float* C);
void logits_simd128(const float* A, const float* B, int n, int m, int d, float scale, float* C);
// The same for the first extent[i] columns of each row i only (the rest of C is left as it was): the
// causal mask over increasing key positions hides a suffix of every row, about half a square job. Whole
// 4 x 8 tiles are computed, so a few cells past an extent may be written too.
void logits_prefix_simd128(const float* A, const float* B, int n, int m, int d, float scale, const int* extent, float* C);
// C (n x m) = scale * A (n x d) . B (d x m).
void matmul_portable(const float* A, const float* B, int n, int m, int d, float scale, float* C);
void matmul_simd128(const float* A, const float* B, int n, int m, int d, float scale, float* C);
// C (n x n) += bias (n x m): dst[i] += src[i] for count entries.
void add_portable(float* dst, const float* src, std::size_t count);
void add_simd128(float* dst, const float* src, std::size_t count);
// Row softmax in place; -inf entries get 0; a row with no finite entry becomes all 0.
void softmax_rows_portable(float* X, int n, int m);
void softmax_rows_simd128(float* X, int n, int m);
// The same from X into Y (n x m each; X == Y is the in-place form): the same values, one pass less.
void softmax_rows_to_portable(const float* X, float* Y, int n, int m);
void softmax_rows_to_simd128(const float* X, float* Y, int n, int m);
// dst[i] = ((src[0][i] + src[1][i]) + src[2][i]) + ... (terms >= 1 sources, summed in that order, as
// repeated add() would); returns whether every dst[i] is finite (the overflow check, in the same pass).
bool sum_finite_portable(float* dst, const float* const* src, int terms, std::size_t count);
bool sum_finite_simd128(float* dst, const float* const* src, int terms, std::size_t count);

// Dispatchers.
void logits(const float* A, const float* B, int n, int m, int d, float scale, float* C);
void matmul(const float* A, const float* B, int n, int m, int d, float scale, float* C);
void add(float* dst, const float* src, std::size_t count);
void softmax_rows(float* X, int n, int m);

// ---- tables (src/core/kernels_tables.cpp)

// s, c (n x h, row-major): mult * sin / cos of the angle pos[r] * w[p]. The angle is formed in double, so
// large positions (10^6) keep their phase: the portable path calls double sin/cos; the SIMD128 path reduces
// the angle modulo pi/2 in double (f64x2, three-part Cody-Waite pi/2) and evaluates float polynomials on
// [-pi/4, pi/4] (max error ~1e-7 absolute, tests/core/kernels_tables_test.cpp).
void sin_cos_table_portable(const int64_t* pos, int n, const double* w, int h, double mult, float* s, float* c);
#if defined(__wasm_simd128__)
void sin_cos_table_simd128(const int64_t* pos, int n, const double* w, int h, double mult, float* s, float* c);
#endif
void sin_cos_table(const int64_t* pos, int n, const double* w, int h, double mult, float* s, float* c);

// Quantities of the relative position delta = kpos[j] - qpos[i] (T5 / ALiBi / learned bias, bucket and
// clip matrices): by_delta[delta - delta_min] for delta in [delta_min, delta_min + by_delta.size()).
// fill: C[i][j] = by_delta[...]; add: C[i][j] += by_delta[...]. With contiguous key positions (every view)
// a row of C is a contiguous slice of by_delta, copied / added with SIMD128. extent (optional, one entry per
// row): only row i's first extent[i] cells are written (as logits_prefix_*).
void fill_relative_portable(float* C, int n, int m, const int64_t* qpos, const int64_t* kpos, const float* by_delta,
                            int64_t delta_min, bool accumulate, const int* extent = nullptr);
#if defined(__wasm_simd128__)
void fill_relative_simd128(float* C, int n, int m, const int64_t* qpos, const int64_t* kpos, const float* by_delta,
                           int64_t delta_min, bool accumulate, const int* extent = nullptr);
#endif
void fill_relative(float* C, int n, int m, const int64_t* qpos, const int64_t* kpos, const float* by_delta, int64_t delta_min,
                   bool accumulate, const int* extent = nullptr);

// Gather of a GEMM result by relative position (Shaw's a^K, DeBERTa's c2p / p2c, Transformer-XL's (b)):
// C[i][j] = G[r][index_by_delta[kpos[j] - qpos[i] - delta_min]] with r = i (rows_by_query) or r = j.
// G has g_cols columns. Scalar on every path: SIMD128 has no gather, and this is one load per cell.
void gather_relative(float* C, int n, int m, const float* G, int g_cols, bool rows_by_query, const int64_t* qpos,
                     const int64_t* kpos, const int32_t* index_by_delta, int64_t delta_min, const int* extent = nullptr);

// C[i][j] = -inf where kpos[j] > qpos[i] (causal mask).
void mask_causal(float* C, int n, int m, const int64_t* qpos, const int64_t* kpos);

// The smallest and largest kpos[j] - qpos[i].
std::pair<int64_t, int64_t> delta_range(std::span<const int64_t> qpos, std::span<const int64_t> kpos);

// Portable: the scalar reference loops. Simd128: the wasm SIMD128 kernels (wasm -msimd128 builds only).
// Best: Simd128 where compiled in; natively, the Q K^T product goes to Eigen's GEMM (vectorised by Eigen
// with SSE/AVX natively) and the rest to the portable loops; scalar wasm builds use the portable loops.
enum class Path { Portable, Simd128, Best };

// The whole n x m RoPE score job: rotate q and k at their positions, then scale * Q' K'^T.
// row_extent (optional, one entry per query): only each row's first row_extent[i] logits are needed (the
// others are unspecified on return), as logits() with a row extent.
MatrixF rope_logits(const MatrixF& q, const MatrixF& k, std::span<const int64_t> query_pos, std::span<const int64_t> key_pos,
                    const RopeFrequencies& freqs, RopeLayout layout, float scale, Path path = Path::Best,
                    std::span<const int> row_extent = {});
inline MatrixF rope_logits_portable(const MatrixF& q, const MatrixF& k, std::span<const int64_t> qp, std::span<const int64_t> kp,
                                    const RopeFrequencies& f, RopeLayout l, float s) {
  return rope_logits(q, k, qp, kp, f, l, s, Path::Portable);
}
#if defined(__wasm_simd128__)
inline MatrixF rope_logits_simd128(const MatrixF& q, const MatrixF& k, std::span<const int64_t> qp, std::span<const int64_t> kp,
                                   const RopeFrequencies& f, RopeLayout l, float s) {
  return rope_logits(q, k, qp, kp, f, l, s, Path::Simd128);
}
#endif

// scale * Q K^T + bias (n x m): the T5 / ALiBi / learned-bias score job.
MatrixF bias_logits(const MatrixF& q, const MatrixF& k, const MatrixF& bias, float scale, Path path = Path::Best);

// Matrix forms with an explicit path (Best: SIMD128 in wasm, Eigen's GEMM natively for the products).
MatrixF logits(const MatrixF& a, const MatrixF& b, float scale, Path path = Path::Best);  // scale a b^T
// scale a b^T on each row's first row_extent[i] columns (one entry per row of a, or empty: every cell);
// the other cells are unspecified (natively they are computed anyway).
MatrixF logits(const MatrixF& a, const MatrixF& b, float scale, Path path, std::span<const int> row_extent);
MatrixF matmul(const MatrixF& a, const MatrixF& b, float scale, Path path = Path::Best);  // scale a b
void add(MatrixF& dst, const MatrixF& src, Path path = Path::Best);
void softmax_in_place(MatrixF& x, Path path = Path::Best);
void sin_cos_table(const int64_t* pos, int n, const double* w, int h, double mult, float* s, float* c, Path path);
void fill_relative(float* C, int n, int m, const int64_t* qpos, const int64_t* kpos, const float* by_delta, int64_t delta_min,
                   bool accumulate, Path path, const int* extent = nullptr);

// Row softmax into a new matrix (the logits are read, not copied first).
MatrixF softmax(const MatrixF& logits, Path path = Path::Best);
// The same over each row's first row_extent[i] logits (the rest are not read; their weights are 0).
MatrixF softmax(const MatrixF& logits, Path path, std::span<const int> row_extent);
// sum_finite_* with an explicit path.
bool sum_finite(float* dst, const float* const* src, int terms, std::size_t count, Path path = Path::Best);

}  // namespace posenc::kernels
