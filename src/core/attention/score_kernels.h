// Float32 versions of the views' per-frame O(n^2) / O(n d) jobs, built on the kernels of kernels.h: the
// attention scores of every scheme (as posenc::attention / absolute_attention compute them in double, with
// the same term names and order), the PE table, P P^T and the relative-position (bucket) matrices. The
// double-precision core stays the reference for what a user reads (hover, export); these feed textures.
//   products       content q k^T, RoPE, sinusoidal / Transformer-XL terms: the packed SIMD128 GEMM
//   bias schemes   T5 / ALiBi / learned bias: one value per relative position, rows filled from it
//   gathers        Shaw a^K, DeBERTa c2p / p2c, XL (b): a GEMM against the position table, then a gather
// tests/core/score_kernels_test.cpp checks every scheme against the double core.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/attention/attention.h"
#include "core/kernels/kernels.h"
#include "core/types.h"

namespace posenc::kernels {

struct TermF {
  std::string name;
  MatrixF values;  // n x m, scale applied
};

struct AttentionF {
  double scale = 1.0;
  std::vector<TermF> terms;  // as posenc::attention: logits = sum of terms on unmasked cells
  MatrixF logits;            // masked cells -inf
  MatrixF weights;           // row softmax; masked cells 0; fully masked rows 0
};

// posenc::attention without v, in float (a layer mask as attention()'s, applied over the finished scores).
// Throws InvalidArgument with the core's field names ("q", "k", "query_positions", "key_positions",
// "position.<field>", "mask.<field>"), and when the float logits overflow ("q").
//
// masked_fill (the views' pictures): with a causal mask (and no layer mask; key positions in increasing
// order, else InvalidArgument "key_positions"), the cells it hides are not computed: every term, the logits
// and the weights hold *masked_fill there instead of the term values, -inf and 0 (about half the work of a
// square job). The unmasked cells
// are those of the full job: the same products, the sum in the same order; the softmax may differ in the
// last bit (its row sums run over the visible keys only).
AttentionF attention_f(const MatrixF& q, const MatrixF& k, std::span<const int64_t> query_pos, std::span<const int64_t> key_pos,
                       const AttentionSpec& spec, Path path = Path::Best, const LayerMask& mask = {},
                       std::optional<float> masked_fill = std::nullopt);

// posenc::absolute_attention without wv, in float (x, pe: n x d; wq, wk: d x dk; positions 0..n-1).
// masked_fill as attention_f's.
AttentionF absolute_attention_f(const MatrixF& x, const MatrixF& pe, const MatrixF& wq, const MatrixF& wk, double scale,
                                bool causal, Path path = Path::Best, std::optional<float> masked_fill = std::nullopt);

// Interleaved sinusoidal table P[r][2k] = sin(pos[r] w_k), P[r][2k+1] = cos(pos[r] w_k) (sinusoidal_table's
// layout; w from sinusoidal_frequencies), angles in double.
MatrixF pe_table(std::span<const int64_t> positions, std::span<const double> w, Path path = Path::Best);

// G = P P^T (the similarity view's Gram matrix).
MatrixF gram(const MatrixF& P, Path path = Path::Best);

// n x n matrix M[i][j] = by_offset[(j - i) + (n - 1)] (relative_matrix_f of similarity.h: buckets, biases).
MatrixF relative_matrix(std::span<const double> by_offset, int n, Path path = Path::Best);

}  // namespace posenc::kernels
