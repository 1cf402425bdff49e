#include "analysis.h"

#include <cmath>
#include <complex>
#include <numbers>

#include "core/bounds.h"

namespace posenc {

Matrix similarity_matrix(const Matrix& P) { return P * P.transpose(); }

std::vector<double> offset_dot_curve(const Matrix& P, Eigen::Index p, Eigen::Index max_delta) {
  require(p >= 0 && p < P.rows(), "p", "p must be a row of P");
  require(max_delta >= 0, "max_delta", "max_delta must be >= 0");
  std::vector<double> out;
  for (Eigen::Index delta = 0; delta <= max_delta && p + delta < P.rows(); ++delta)
    out.push_back(P.row(p).dot(P.row(p + delta)));
  return out;
}

std::vector<double> neighbour_distances(const Matrix& P) {
  std::vector<double> out;
  for (Eigen::Index p = 0; p + 1 < P.rows(); ++p) out.push_back((P.row(p + 1) - P.row(p)).norm());
  return out;
}

std::vector<double> rope_decay_bound(std::span<const double> inv_freq, int64_t max_distance) {
  require(!inv_freq.empty(), "inv_freq", "inv_freq must not be empty");
  require_in_range(max_distance, 0, kMaxPosition, "max_distance");
  const double half = static_cast<double>(inv_freq.size());
  std::vector<double> out(static_cast<size_t>(max_distance) + 1);
  for (int64_t r = 0; r <= max_distance; ++r) {
    std::complex<double> S = 0.0;
    double sum = 0.0;
    for (double w : inv_freq) {
      const double angle = static_cast<double>(r) * w;
      S += std::complex<double>(std::cos(angle), std::sin(angle));
      sum += std::abs(S);  // |S_j| for j = 1..d/2
    }
    out[static_cast<size_t>(r)] = sum / half;
  }
  return out;
}

std::vector<PairRotation> rope_pair_rotations(int dim, double base, const RopeScaling& scaling,
                                              int64_t trained_length, int64_t target_length) {
  require(trained_length >= 1 && trained_length <= kMaxLength, "trained_length", "trained_length must be >= 1");
  require(target_length >= 1 && target_length <= kMaxLength, "target_length", "target_length must be >= 1");
  RopeScaling s = scaling;
  if (s.type == RopeScalingType::Dynamic && !s.seq_len) s.seq_len = target_length;
  const RopeFrequencies f = rope_frequencies(dim, base, s);
  const std::vector<double> w0 = rope_default_inv_freq(dim, base);
  std::vector<PairRotation> out(w0.size());
  for (size_t i = 0; i < w0.size(); ++i) {
    PairRotation& r = out[i];
    r.inv_freq = f.inv_freq[i];
    r.wavelength = 2 * std::numbers::pi / f.inv_freq[i];
    r.original_wavelength = 2 * std::numbers::pi / w0[i];
    r.trained_angle = static_cast<double>(trained_length) * w0[i];
    r.target_angle = static_cast<double>(target_length) * f.inv_freq[i];
    // A pair that turned fully during training has seen every angle; others see new angles if they go further.
    r.beyond_training = r.trained_angle < 2 * std::numbers::pi && r.target_angle > r.trained_angle;
  }
  return out;
}

PermutationResult permutation_test(const Matrix& x, std::span<const int> perm, const AttentionSpec& spec) {
  const Eigen::Index n = x.rows();
  require(static_cast<Eigen::Index>(perm.size()) == n, "perm", "perm must have one entry per row");
  std::vector<int64_t> pos(n);
  for (Eigen::Index i = 0; i < n; ++i) pos[i] = i;
  Matrix xp(n, x.cols());
  for (Eigen::Index i = 0; i < n; ++i) {
    require(perm[i] >= 0 && perm[i] < n, "perm", "perm entries must be row indices");
    xp.row(i) = x.row(perm[i]);
  }
  const Matrix out = *attention(x, x, &x, pos, pos, spec).output;
  const Matrix outp = *attention(xp, xp, &xp, pos, pos, spec).output;
  PermutationResult r{0.0, 0.0};
  for (Eigen::Index i = 0; i < n; ++i)
    r.row_difference = std::max(r.row_difference, (outp.row(i) - out.row(perm[i])).cwiseAbs().maxCoeff());
  r.pooled_difference = (outp.colwise().mean() - out.colwise().mean()).cwiseAbs().maxCoeff();
  return r;
}

}  // namespace posenc
