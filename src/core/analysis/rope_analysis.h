// Analyses of RoPE for the explorer's RoPE view: the long-range decay bound of RoFormer section 3.4.3,
// and, per rotation pair, how a context-extension method changes the frequency and which rotation angles
// a model sees beyond its trained length.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/encodings/rope.h"
#include "core/models/model_config.h"
#include "core/types.h"

namespace posenc {

// RoFormer's upper-bound factor of |q.k| at relative distance m: (1/(d/2)) sum_{j=1}^{d/2} |S_j|,
// S_j = sum_{i<j} e^{i m theta_i} over the pair frequencies theta (d/2 = inv_freq.size()).
// Evaluated at every distance in `distances`. At m = 0, S_j = j, so the value is (d/2 + 1) / 2.
std::vector<double> rope_decay_bound(std::span<const double> inv_freq, std::span<const int64_t> distances);

// The same divided by its value at distance 0 (so it equals 1 there).
std::vector<double> rope_decay_bound_normalised(std::span<const double> inv_freq, std::span<const int64_t> distances);

// At most max_points distances from 0 to max_distance inclusive, evenly spaced integers, 0 and the end
// always included.
std::vector<int64_t> sample_distances(int64_t max_distance, int max_points);

// How a pair's rotation angles at the target length compare to those seen in training (docs/models.md,
// "pair classes"). The one rule behind the RoPE and Model views, `posenc inspect` and the checks.
enum class PairCoverage {
  FullTurn,      // training already swept every angle (trained angle >= 2 pi): nothing new at any length
  Interpolated,  // the largest angle at the target length stays within the trained range
  Extrapolated,  // angles beyond anything seen in training
};
template <>
struct EnumNames<PairCoverage> {
  static constexpr std::array<const char*, 3> names{"full turn in training", "interpolated", "extrapolated"};
};

// The class of one pair: trained angle L w_k (unscaled w_k = `unscaled_inv_freq`, L = `trained_length`)
// against target angle T w'_k (scaled w'_k = `scaled_inv_freq`, T = `target_length`). FullTurn when
// L w_k >= 2 pi; else Interpolated when T w'_k <= L w_k up to a relative 1e-12 (linear scaling at T = f L
// gives equal angles up to rounding); else Extrapolated.
PairCoverage classify_pair(double unscaled_inv_freq, double scaled_inv_freq, int64_t trained_length, int64_t target_length);

struct RopePairAnalysis {
  int pair = 0;
  double inv_freq = 0;         // w_k, unscaled
  double inv_freq_scaled = 0;  // w'_k of the scaling method
  double ratio = 1;            // w'_k / w_k
  double wavelength = 0;       // 2 pi / w_k (positions per turn, unscaled)
  double trained_angle = 0;    // L w_k: the angle swept by a length-L window (positions [0, L)) in training
  double target_angle = 0;     // T w'_k: the angle swept by the target window [0, T)
  PairCoverage coverage = PairCoverage::Interpolated;
};

// How many pairs do each PairBehaviour (below), indexed by it.
using PairBehaviourCounts = std::array<int, 5>;

struct RopeExtensionAnalysis {
  std::vector<RopePairAnalysis> pairs;
  double attention_scaling = 1.0;                         // YaRN's temperature factor on cos/sin (1 for the others)
  int full_turn = 0, interpolated = 0, extrapolated = 0;  // of the pairs' PairCoverage
  int64_t trained_length = 0, target_length = 0;          // L and T
  PairBehaviourCounts behaviours{};                       // what the pairs do at T (pair_behaviour)
};

// Per-pair analysis of `scaling` (its original_max_position_embeddings is L, the trained length) at
// `target_length` T. Dynamic NTK is evaluated at seq_len = T. Throws InvalidArgument like rope_frequencies,
// and "target_length" unless 1 <= T <= kMaxLength.
RopeExtensionAnalysis rope_extension_analysis(int dim, double base, const RopeScaling& scaling, int64_t target_length);

inline const char* pair_coverage_name(PairCoverage c) { return name_of(c); }

// What a pair does, said for the configuration shown: classify_pair's class, with Interpolated split by
// whether the scaling slowed the pair (w'_k < w_k). Only a pair a scaling slows is "interpolated"; a pair at
// its trained frequency whose angles stay within the trained ones (an unscaled model at its trained length)
// turns less than once there. A pair of frequency 0 before and after the scaling (proportional RoPE's
// pairs past its rotated fraction) never rotates at all.
enum class PairBehaviour { FullTurn, LessThanOnce, Interpolated, Extrapolated, NoRotation };
PairBehaviour pair_behaviour(double unscaled_inv_freq, double scaled_inv_freq, int64_t trained_length, int64_t target_length);
// "complete a full turn within the trained length", "turn less than once within the trained length",
// "interpolated (kept within the trained angles)", "would exceed the trained angles", "do not rotate
// (frequency 0)".
const char* pair_behaviour_phrase(PairBehaviour b);
// How many pairs do each PairBehaviour at `length`: pair i at unscaled[i] / scaled[i].
PairBehaviourCounts count_pair_behaviours(std::span<const double> unscaled_inv_freq, std::span<const double> scaled_inv_freq,
                                          int64_t trained_length, int64_t length);
// The counts in words, as the Model and RoPE views and `posenc inspect` say them ("10 complete a full turn
// within the trained length, 22 turn less than once within the trained length"): a class with no pair is
// left out, but for "would exceed the trained angles" past the trained length (that none does is the news).
std::string pair_behaviour_counts_text(const PairBehaviourCounts& counts, int64_t length, int64_t trained_length);

// The inv_freq in force at sequence length `length`: a scaling whose frequencies depend on the length
// (LongRoPE: short factors up to the original length, long past it; dynamic NTK: the base rescaled past
// it) is evaluated at `length`; for every other type the configuration's own `fixed` frequencies.
// The RoPE view's line for an analysis: "At T = 16384 with L = 4096: " and its behaviours' counts in words.
std::string rope_extension_summary(const RopeExtensionAnalysis& a);

std::vector<double> inv_freq_at_length(int dim, double base, const RopeScaling& scaling, int64_t length,
                                       const std::vector<double>& fixed);

// What each pair of `r` does at `length` with the frequencies in force there (LongRoPE's short or long
// factors, dynamic NTK's base rescaled), classed against the configuration's unscaled frequencies and its
// trained length: the Model view's pair classes, the `model` response's pairs_at_max, `posenc inspect`.
std::vector<PairBehaviour> rope_pair_classes(const ModelRope& r, int64_t length);
PairBehaviourCounts rope_pair_counts(const ModelRope& r, int64_t length);

}  // namespace posenc
