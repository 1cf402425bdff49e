// Quantities behind the explorer's analysis views: similarity of encodings, neighbour distances, RoPE's
// long-range decay bound, per-pair rotation angles vs. the trained length, and the permutation test.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/attention/attention.h"
#include "core/encodings/rope.h"
#include "core/types.h"

namespace posenc {

// S = P P^T (n x n): S[m][n] = P_m . P_n.
Matrix similarity_matrix(const Matrix& P);

// P_p . P_{p+delta} for delta = 0..max_delta (entries past the last row are left out).
std::vector<double> offset_dot_curve(const Matrix& P, Eigen::Index p, Eigen::Index max_delta);

// ||P_{p+1} - P_p|| for p = 0..n-2.
std::vector<double> neighbour_distances(const Matrix& P);

// RoFormer's long-range decay: (1 / (d/2)) sum_{j=1}^{d/2} |S_j| with S_j = sum_{k<j} e^{i r theta_k},
// for relative distances r = 0..max_distance. It bounds |q.k| up to the factor max |h_{k+1} - h_k|.
std::vector<double> rope_decay_bound(std::span<const double> inv_freq, int64_t max_distance);

// Per rotation pair: how far the pair turns within the trained length vs. at a target length.
struct PairRotation {
  double inv_freq;            // after scaling
  double wavelength;          // 2 pi / inv_freq (after scaling)
  double original_wavelength; // 2 pi / default inv_freq
  double trained_angle;       // L * default inv_freq: the largest angle seen in training
  double target_angle;        // T * inv_freq: the largest angle at the target length
  bool beyond_training;       // target_angle > trained_angle and the pair did not complete a turn in training
};
std::vector<PairRotation> rope_pair_rotations(int dim, double base, const RopeScaling& scaling,
                                              int64_t trained_length, int64_t target_length);

// Shuffle tokens (rows of x, used as q = k = v) across fixed position slots 0..n-1 and compare outputs.
struct PermutationResult {
  double row_difference;     // max |out(perm x)[i] - out(x)[perm[i]]|: 0 when attention is equivariant
  double pooled_difference;  // max |mean rows(out(perm x)) - mean rows(out(x))|: 0 for NoPE
};
PermutationResult permutation_test(const Matrix& x, std::span<const int> perm, const AttentionSpec& spec);

}  // namespace posenc
