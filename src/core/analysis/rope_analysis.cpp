#include "core/analysis/rope_analysis.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>

#include "core/bounds.h"

namespace posenc {

std::vector<double> rope_decay_bound(std::span<const double> inv_freq, std::span<const int64_t> distances) {
  require(!inv_freq.empty(), "dim", "the decay bound needs at least one rotation pair");
  const double half = static_cast<double>(inv_freq.size());
  std::vector<double> out;
  out.reserve(distances.size());
  for (int64_t m : distances) {
    // Running partial sums S_j; j = 1..d/2.
    std::complex<double> s(0.0, 0.0);
    double total = 0.0;
    for (double theta : inv_freq) {
      const double angle = static_cast<double>(m) * theta;
      s += std::complex<double>(std::cos(angle), std::sin(angle));
      total += std::abs(s);
    }
    out.push_back(total / half);
  }
  return out;
}

std::vector<double> rope_decay_bound_normalised(std::span<const double> inv_freq, std::span<const int64_t> distances) {
  std::vector<double> out = rope_decay_bound(inv_freq, distances);
  const double at_zero = (static_cast<double>(inv_freq.size()) + 1.0) / 2.0;  // S_j = j at m = 0
  for (double& v : out) v /= at_zero;
  return out;
}

std::vector<int64_t> sample_distances(int64_t max_distance, int max_points) {
  require_in_range(max_distance, 0, kMaxLength, "max_distance");
  require(max_points >= 2, "max_points", "max_points must be >= 2");
  std::vector<int64_t> out;
  if (max_distance + 1 <= max_points) {
    for (int64_t m = 0; m <= max_distance; ++m) out.push_back(m);
    return out;
  }
  for (int i = 0; i < max_points; ++i) {
    const int64_t m = static_cast<int64_t>(std::llround(static_cast<double>(i) * max_distance / (max_points - 1)));
    if (out.empty() || m > out.back()) out.push_back(m);
  }
  return out;
}

PairCoverage classify_pair(double unscaled_inv_freq, double scaled_inv_freq, int64_t trained_length, int64_t target_length) {
  const double trained_angle = static_cast<double>(trained_length) * unscaled_inv_freq;
  if (trained_angle >= 2.0 * std::numbers::pi) return PairCoverage::FullTurn;
  // Linear scaling at T = f L gives T w'_k = L w_k up to rounding.
  if (static_cast<double>(target_length) * scaled_inv_freq <= trained_angle * (1 + 1e-12)) return PairCoverage::Interpolated;
  return PairCoverage::Extrapolated;
}

RopeExtensionAnalysis rope_extension_analysis(int dim, double base, const RopeScaling& scaling, int64_t target_length) {
  require(target_length >= 1 && target_length <= kMaxLength, "target_length", "target_length must be an integer in [1, 2^30]");
  RopeScaling s = scaling;
  if (s.type == RopeScalingType::Dynamic) s.seq_len = target_length;
  const RopeFrequencies scaled = rope_frequencies(dim, base, s);
  const std::vector<double> plain = rope_default_inv_freq(dim, base);
  // Trained length: the scaling's L when it has one, otherwise the target itself (nothing to extend).
  int64_t trained = scaling.original_max_position_embeddings;
  require(trained >= 1 && trained <= kMaxLength, "scaling.original_max_position_embeddings",
          "scaling.original_max_position_embeddings must be an integer in [1, 2^30]");

  RopeExtensionAnalysis out;
  out.attention_scaling = scaled.attention_scaling;
  out.trained_length = trained;
  out.target_length = target_length;
  const double two_pi = 2.0 * std::numbers::pi;
  for (size_t k = 0; k < plain.size(); ++k) {
    RopePairAnalysis p;
    p.pair = static_cast<int>(k);
    p.inv_freq = plain[k];
    p.inv_freq_scaled = scaled.inv_freq[k];
    p.ratio = p.inv_freq_scaled / p.inv_freq;
    p.wavelength = two_pi / p.inv_freq;
    p.trained_angle = static_cast<double>(trained) * p.inv_freq;
    p.target_angle = static_cast<double>(target_length) * p.inv_freq_scaled;
    p.coverage = classify_pair(p.inv_freq, p.inv_freq_scaled, trained, target_length);
    switch (p.coverage) {
      case PairCoverage::FullTurn: ++out.full_turn; break;
      case PairCoverage::Interpolated: ++out.interpolated; break;
      case PairCoverage::Extrapolated: ++out.extrapolated; break;
    }
    ++out.behaviours[static_cast<size_t>(pair_behaviour(p.inv_freq, p.inv_freq_scaled, trained, target_length))];
    out.pairs.push_back(p);
  }
  return out;
}

PairBehaviour pair_behaviour(double unscaled_inv_freq, double scaled_inv_freq, int64_t trained_length, int64_t target_length) {
  if (unscaled_inv_freq == 0 && scaled_inv_freq == 0) return PairBehaviour::NoRotation;
  switch (classify_pair(unscaled_inv_freq, scaled_inv_freq, trained_length, target_length)) {
    case PairCoverage::FullTurn: return PairBehaviour::FullTurn;
    case PairCoverage::Extrapolated: return PairBehaviour::Extrapolated;
    case PairCoverage::Interpolated: break;
  }
  // Slowed by the scaling (beyond rounding), or left at the trained frequency.
  return scaled_inv_freq < unscaled_inv_freq * (1 - 1e-12) ? PairBehaviour::Interpolated : PairBehaviour::LessThanOnce;
}

const char* pair_behaviour_phrase(PairBehaviour b) {
  switch (b) {
    case PairBehaviour::FullTurn: return "complete a full turn within the trained length";
    case PairBehaviour::LessThanOnce: return "turn less than once within the trained length";
    case PairBehaviour::Interpolated: return "interpolated (kept within the trained angles)";
    case PairBehaviour::Extrapolated: return "would exceed the trained angles";
    case PairBehaviour::NoRotation: return "do not rotate (frequency 0)";
  }
  return "?";
}

PairBehaviourCounts count_pair_behaviours(std::span<const double> unscaled_inv_freq, std::span<const double> scaled_inv_freq,
                                          int64_t trained_length, int64_t length) {
  require(unscaled_inv_freq.size() == scaled_inv_freq.size(), "inv_freq", "one scaled frequency per pair");
  PairBehaviourCounts counts{};
  for (size_t i = 0; i < unscaled_inv_freq.size(); ++i)
    ++counts[static_cast<size_t>(pair_behaviour(unscaled_inv_freq[i], scaled_inv_freq[i], trained_length, length))];
  return counts;
}

std::string pair_behaviour_counts_text(const PairBehaviourCounts& counts, int64_t length, int64_t trained_length) {
  std::string text;
  for (size_t b = 0; b < counts.size(); ++b) {
    const bool exceed = static_cast<PairBehaviour>(b) == PairBehaviour::Extrapolated && length > trained_length;
    if (counts[b] == 0 && !exceed) continue;
    text += (text.empty() ? "" : ", ") + std::to_string(counts[b]) + " " + pair_behaviour_phrase(static_cast<PairBehaviour>(b));
  }
  return text;
}

std::string rope_extension_summary(const RopeExtensionAnalysis& a) {
  return "At T = " + std::to_string(a.target_length) + " with L = " + std::to_string(a.trained_length) + ": " +
         pair_behaviour_counts_text(a.behaviours, a.target_length, a.trained_length);
}

std::vector<double> inv_freq_at_length(int dim, double base, const RopeScaling& scaling, int64_t length,
                                       const std::vector<double>& fixed) {
  if (scaling.type != RopeScalingType::Longrope && scaling.type != RopeScalingType::Dynamic) return fixed;
  RopeScaling s = scaling;
  s.seq_len = length;
  return rope_frequencies(dim, base, s).inv_freq;
}

std::vector<PairBehaviour> rope_pair_classes(const ModelRope& r, int64_t length) {
  const std::vector<double> plain = rope_unscaled_inv_freq(r.rotary_dim, r.base, r.scaling);
  const std::vector<double> inv = inv_freq_at_length(r.rotary_dim, r.base, r.scaling, length, r.frequencies.inv_freq);
  std::vector<PairBehaviour> out;
  for (size_t i = 0; i < plain.size(); ++i)
    out.push_back(pair_behaviour(plain[i], inv[i], r.original_max_position_embeddings, length));
  return out;
}

PairBehaviourCounts rope_pair_counts(const ModelRope& r, int64_t length) {
  PairBehaviourCounts counts{};
  for (PairBehaviour b : rope_pair_classes(r, length)) ++counts[static_cast<size_t>(b)];
  return counts;
}

}  // namespace posenc
