// Attention with an absolute encoding added to the token embedding, expanded into the four terms of
//   (x_i + p_i) W_Q . (x_j + p_j) W_K = x_i W_Q.x_j W_K + x_i W_Q.p_j W_K + p_i W_Q.x_j W_K + p_i W_Q.p_j W_K
// (content-content, content-position, position-content, position-position): the decomposition that
// Transformer-XL, DeBERTa and T5 each keep, replace or drop parts of.
#pragma once

#include "core/attention/attention.h"
#include "core/types.h"

namespace posenc {

// x, pe: n x d (token embeddings and positional encodings of positions 0..n-1); wq, wk: d x dk;
// wv (optional): d x dv. Logits use `scale` (1/sqrt(dk) in the usual layer). causal masks j > i.
// Terms are returned in the order above, each already scaled. Throws InvalidArgument ("x", "pe", "wq",
// "wk", "wv") on shape mismatches.
AttentionResult absolute_attention(const Matrix& x, const Matrix& pe, const Matrix& wq, const Matrix& wk, const Matrix* wv,
                                   double scale, bool causal);

}  // namespace posenc
