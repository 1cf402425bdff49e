// Similarity analysis of absolute positional encodings: the Gram matrix P P^T, the curve P_p . P_{p+delta}
// over delta, and the neighbour distance ||P_{p+1} - P_p||. Each scheme's structure is used so that the
// explorer can recompute them under a slider drag without forming an n x n x d product:
//   sinusoidal  P_a . P_b = sum_k cos((a - b) w_k)                      (depends on a - b only)
//   sine only   P_a . P_b = 1/2 sum_c [cos((a - b) w_c) - cos((a + b) w_c)]  (also on a + b)
//   integer     P_a . P_b = a b dim,   normalised  a b dim / (n-1)^2,   binary  popcount(a & b)
//   learned     a matrix product of the defined rows (p < max_len); other rows are undefined (NaN).
// Every function agrees with the naive computation on absolute_encoding() (tests/core/similarity_test.cpp).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/encodings/absolute.h"
#include "core/types.h"

namespace posenc {

// S[m] = sum_k cos(m w_k) for m = 0..count-1.
std::vector<double> cosine_sums(std::span<const double> w, int64_t count);

// P_a . P_b for positions 0 <= a, b < limit of one scheme at sequence length n (n matters for the
// normalised scheme; limit >= n lets curves look past n for the unbounded schemes). Prepares the tables
// once (cosine sums, the learned table), then each dot() is O(1) (O(dim) for learned).
class PositionDots {
 public:
  // Throws InvalidArgument like absolute_encoding() for unusable (n, dim, params).
  PositionDots(AbsoluteScheme scheme, int n, int dim, const AbsoluteParams& params = {}, int64_t limit = 0);

  AbsoluteScheme scheme() const { return scheme_; }
  int64_t limit() const { return limit_; }
  // P_p exists: 0 <= p < limit, and p < max_len for the learned table.
  bool defined(int64_t p) const;
  // P_a . P_b in double precision; NaN when either row is undefined.
  double dot(int64_t a, int64_t b) const;
  // ||P_{p+1} - P_p|| in a form without cancellation; NaN when either row is undefined.
  double neighbour_distance(int64_t p) const;

 private:
  AbsoluteScheme scheme_;
  int n_, dim_;
  int64_t limit_;
  std::vector<double> w_;         // frequencies (sinusoidal: dim/2 pairs; sine only: dim columns)
  std::vector<double> cos_sums_;  // S[m], m = 0..2 limit - 2 (sinusoidal, sine only)
  Matrix learned_;                // max_len x dim (learned)
  int64_t learned_rows_ = 0;
  int binary_bits_ = 0;
};

// n x n Gram matrix G[a][b] = P_a . P_b (float for a texture, double for checks); NaN where undefined.
MatrixF position_similarity_f(AbsoluteScheme scheme, int n, int dim, const AbsoluteParams& params = {});
Matrix position_similarity(AbsoluteScheme scheme, int n, int dim, const AbsoluteParams& params = {});

// P_p . P_{p+delta} for delta = 0..count-1 (NaN where undefined).
std::vector<double> shifted_dot_curve(const PositionDots& dots, int64_t p, int64_t count);

// ||P_{p+1} - P_p|| for p = 0..count-1 (NaN where undefined).
std::vector<double> neighbour_distances(const PositionDots& dots, int64_t count);

// n x n matrix M[i][j] = by_offset[(j - i) + (n - 1)] of a quantity that depends on the relative
// distance j - i only (bucket, bias, clipped distance); by_offset has 2n - 1 entries.
MatrixF relative_matrix_f(std::span<const double> by_offset, int n);

// count seeded N(0, stddev^2) values (one scalar bias per bucket, as T5 learns).
std::vector<double> seeded_bias(int count, uint64_t seed, double stddev = 1.0);

}  // namespace posenc
