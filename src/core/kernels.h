// Float32 hot kernels for the app's per-frame work: n x m logits (Q K^T), RoPE rotation, bias add, row
// softmax. Each has a portable scalar path and, in wasm builds with -msimd128, a hand-written SIMD128 path
// (Eigen 3.4 has no wasm packet backend and float reductions do not autovectorise without -ffast-math).
// Both paths are callable explicitly (tests compare them, benchmarks time them); the unsuffixed function
// dispatches to the fastest one compiled in. All matrices are row-major and contiguous.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "rope.h"
#include "types.h"

namespace posenc::kernels {

// True when this build has the SIMD128 kernels (wasm with -msimd128).
constexpr bool kHaveSimd128 =
#if defined(__wasm_simd128__)
    true;
#else
    false;
#endif

// C (n x m) = scale * A (n x d) . B (m x d)^T.
void logits_portable(const float* A, const float* B, int n, int m, int d, float scale, float* C);
// C (n x n) += bias (n x m): dst[i] += src[i] for count entries.
void add_portable(float* dst, const float* src, std::size_t count);
// Row softmax in place; -inf entries get 0; a row with no finite entry becomes all 0.
void softmax_rows_portable(float* X, int n, int m);
// out = x rotated per row: pair p uses cos[r * d/2 + p], sin[r * d/2 + p] (half or interleaved pairs).
void rope_rotate_portable(const float* x, const float* cos, const float* sin, int n, int d, RopeLayout layout,
                          float* out);

#if defined(__wasm_simd128__)
void logits_simd128(const float* A, const float* B, int n, int m, int d, float scale, float* C);
void add_simd128(float* dst, const float* src, std::size_t count);
void softmax_rows_simd128(float* X, int n, int m);
void rope_rotate_simd128(const float* x, const float* cos, const float* sin, int n, int d, RopeLayout layout,
                         float* out);
#endif

// Dispatchers.
void logits(const float* A, const float* B, int n, int m, int d, float scale, float* C);
void add(float* dst, const float* src, std::size_t count);
void softmax_rows(float* X, int n, int m);
void rope_rotate(const float* x, const float* cos, const float* sin, int n, int d, RopeLayout layout, float* out);

// Per-row cos/sin tables (n x d/2) of angle pos[r] * inv_freq[p], computed in double, times
// attention_scaling, stored as float.
void rope_cos_sin(std::span<const int64_t> positions, const RopeFrequencies& freqs, MatrixF& cos, MatrixF& sin);

// Portable: the scalar reference loops. Simd128: the wasm SIMD128 kernels (wasm -msimd128 builds only).
// Best: Simd128 where compiled in; natively, the Q K^T product goes to Eigen's GEMM (vectorised by Eigen
// with SSE/AVX natively) and the rest to the portable loops; scalar wasm builds use the portable loops.
enum class Path { Portable, Simd128, Best };

// The whole n x m RoPE score job: rotate q and k at their positions, then scale * Q' K'^T.
MatrixF rope_logits(const MatrixF& q, const MatrixF& k, std::span<const int64_t> query_pos,
                    std::span<const int64_t> key_pos, const RopeFrequencies& freqs, RopeLayout layout, float scale,
                    Path path = Path::Best);
inline MatrixF rope_logits_portable(const MatrixF& q, const MatrixF& k, std::span<const int64_t> qp,
                                    std::span<const int64_t> kp, const RopeFrequencies& f, RopeLayout l, float s) {
  return rope_logits(q, k, qp, kp, f, l, s, Path::Portable);
}
#if defined(__wasm_simd128__)
inline MatrixF rope_logits_simd128(const MatrixF& q, const MatrixF& k, std::span<const int64_t> qp,
                                   std::span<const int64_t> kp, const RopeFrequencies& f, RopeLayout l, float s) {
  return rope_logits(q, k, qp, kp, f, l, s, Path::Simd128);
}
#endif

// scale * Q K^T + bias (n x m): the T5 / ALiBi / learned-bias score job.
MatrixF bias_logits(const MatrixF& q, const MatrixF& k, const MatrixF& bias, float scale, Path path = Path::Best);

// Row softmax of a copy.
MatrixF softmax(const MatrixF& logits, Path path = Path::Best);

}  // namespace posenc::kernels
