// Transformer-XL / XLNet relative attention (Dai et al. 2019):
//   score(i, j) = (q_i + u) . k_j + (q_i + v) . (W_R R_{i-j}),  R_delta = sinusoidal(d) of delta,
// expanded into the four terms (a) q.k, (b) q.W_R R, (c) u.k, (d) v.W_R R. R uses the interleaved
// sinusoidal layout of sinusoidal.h (XL's own code concatenates [sin, cos]: a column permutation of W_R).
#pragma once

#include <cstdint>
#include <span>

#include "core/types.h"

namespace posenc {

struct XlTerms {
  Matrix content_content;   // (a) q_i . k_j
  Matrix content_position;  // (b) q_i . W_R R_{i-j}
  Matrix global_content;    // (c) u . k_j
  Matrix global_position;   // (d) v . W_R R_{i-j}
};

// Unscaled terms. q: n x d, k: m x d, u, v: d, r_proj: d x d (a Linear weight: (W R)[a] = sum_b W[a][b] R[b]).
XlTerms transformer_xl_terms(const Matrix& q, const Matrix& k, std::span<const int64_t> query_pos,
                             std::span<const int64_t> key_pos, const Vector& u, const Vector& v, const Matrix& r_proj,
                             double base);

}  // namespace posenc
