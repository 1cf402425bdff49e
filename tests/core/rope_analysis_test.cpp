#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <numeric>
#include <vector>

#include "core/encodings/rope.h"
#include "core/analysis/rope_analysis.h"

using namespace posenc;

namespace {
std::vector<int64_t> range(int64_t lo, int64_t hi) {
  std::vector<int64_t> v;
  for (int64_t m = lo; m <= hi; ++m) v.push_back(m);
  return v;
}
double mean(const std::vector<double>& v, size_t lo, size_t hi) {
  return std::accumulate(v.begin() + lo, v.begin() + hi, 0.0) / double(hi - lo);
}
}  // namespace

TEST(RopeDecay, NormalisedBoundIsOneAtZeroAndRawIsHalfOfPairsPlusOne) {
  const auto w = rope_default_inv_freq(128, 10000.0);
  const std::vector<int64_t> zero{0};
  EXPECT_DOUBLE_EQ(rope_decay_bound_normalised(w, zero)[0], 1.0);
  EXPECT_DOUBLE_EQ(rope_decay_bound(w, zero)[0], (64 + 1) / 2.0);
}

TEST(RopeDecay, HandComputedTwoPairs) {
  // d = 4, base 10000: theta = (1, 0.01). m = 1: |S_1| = 1, |S_2| = |e^i + e^{0.01 i}| = 2 cos(0.495).
  const auto w = rope_default_inv_freq(4, 10000.0);
  const std::vector<int64_t> one{1};
  EXPECT_NEAR(rope_decay_bound(w, one)[0], (1.0 + 2.0 * std::cos(0.495)) / 2.0, 1e-14);
}

TEST(RopeDecay, OnePairIsFlat) {
  const auto w = rope_default_inv_freq(2, 10000.0);
  for (double v : rope_decay_bound_normalised(w, range(0, 100))) EXPECT_NEAR(v, 1.0, 1e-15);
}

TEST(RopeDecay, DecreasingTrendOverDistance) {
  // RoFormer Fig. 2 (d = 128, base 10000): the bound falls with relative distance, with oscillations;
  // window means decrease from each window to the next, and every value stays <= 1.
  const auto w = rope_default_inv_freq(128, 10000.0);
  const auto b = rope_decay_bound_normalised(w, range(0, 1023));
  for (double v : b) {
    EXPECT_LE(v, 1.0 + 1e-12);
    EXPECT_GE(v, 0.0);
  }
  const double m0 = mean(b, 0, 16), m1 = mean(b, 16, 64), m2 = mean(b, 64, 256), m3 = mean(b, 256, 1024);
  EXPECT_GT(m0, m1);
  EXPECT_GT(m1, m2);
  EXPECT_GT(m2, m3);
  EXPECT_LT(m3, 0.5);
}

TEST(RopeDecay, SampleDistancesIncludesEnds) {
  const auto s = sample_distances(100000, 2048);
  EXPECT_EQ(s.front(), 0);
  EXPECT_EQ(s.back(), 100000);
  EXPECT_LE(s.size(), 2048u);
  for (size_t i = 1; i < s.size(); ++i) EXPECT_GT(s[i], s[i - 1]);
  EXPECT_EQ(sample_distances(10, 2048).size(), 11u);
}

TEST(RopeDecay, RawBoundAtHalfOfItsStartBy256AndBelowItsValueAt10By200) {
  const auto w = rope_default_inv_freq(128, 10000.0);
  const auto bound = rope_decay_bound(w, range(0, 256));
  // m = 0: S_j = j, so (1/64) sum_{j=1}^{64} j = 32.5.
  EXPECT_NEAR(bound[0], 32.5, 1e-12);
  EXPECT_LT(bound[256], 0.5 * bound[0]);
  EXPECT_LT(bound[200], bound[10]);
}

// Pair classes (docs/models.md): full turns in training / interpolated / extrapolated.
TEST(PairClasses, FullTurnInterpolatedExtrapolated) {
  EXPECT_EQ(classify_pair(1.0, 1.0, 8, 100), PairCoverage::FullTurn);
  EXPECT_EQ(classify_pair(1e-4, 1e-4 / 8, 8192, 65536), PairCoverage::Interpolated);
  EXPECT_EQ(classify_pair(1e-4, 1e-4, 8192, 65536), PairCoverage::Extrapolated);
}

TEST(PairClasses, BoundariesFullTurnAtExactlyTwoPiAndRelativeToleranceOneInATrillion) {
  const double two_pi = 2.0 * std::numbers::pi;
  // L w = 2 pi exactly (w = 2 pi / 8, L = 8: a power of two) is a full turn; just below it is not.
  EXPECT_EQ(classify_pair(two_pi / 8, two_pi / 8, 8, 1 << 20), PairCoverage::FullTurn);
  EXPECT_EQ(classify_pair(std::nextafter(two_pi / 8, 0.0), two_pi / 8, 8, 1 << 20), PairCoverage::Extrapolated);
  // T w' above L w by a relative 1e-13 still counts as interpolated (rounding), by 1e-9 it does not.
  const double w = 1e-4;
  EXPECT_EQ(classify_pair(w, w * (1 + 1e-13) / 8, 8192, 8 * 8192), PairCoverage::Interpolated);
  EXPECT_EQ(classify_pair(w, w * (1 + 1e-9) / 8, 8192, 8 * 8192), PairCoverage::Extrapolated);
}

// What a pair does, in words: "interpolated" only where the scaling slowed the pair. An unscaled pair at
// its trained length (T = L, w' = w) stays within the trained angles but turns less than once; slowed by a
// factor f at T = f L (linear interpolation, Chen et al. 2023) it is interpolated; past L unslowed it would
// exceed the trained angles.
TEST(PairClasses, BehaviourSaysInterpolatedOnlyWhereTheScalingSlowsThePair) {
  const double w = 1e-4;  // L w = 0.4096 rad < 2 pi at L = 4096
  EXPECT_EQ(pair_behaviour(w, w, 4096, 4096), PairBehaviour::LessThanOnce);
  EXPECT_EQ(pair_behaviour(w, w / 4, 4096, 4 * 4096), PairBehaviour::Interpolated);
  EXPECT_EQ(pair_behaviour(w, w, 4096, 4097), PairBehaviour::Extrapolated);
  EXPECT_EQ(pair_behaviour(1.0, 1.0, 4096, 1 << 20), PairBehaviour::FullTurn);
  // Rounding of w' = w is not a slowing.
  EXPECT_EQ(pair_behaviour(w, w * (1 - 1e-15), 4096, 4096), PairBehaviour::LessThanOnce);
  EXPECT_STREQ(pair_behaviour_phrase(PairBehaviour::LessThanOnce), "turn less than once within the trained length");
}

// A pair of frequency 0 before and after the scaling never rotates: not "interpolated" though 0 <= L w, and
// not a full turn. Proportional RoPE's unscaled reference keeps its zero pairs (its own frequencies at factor
// 1); every other type's is the default 1 / base^(2i/d).
TEST(PairClasses, ZeroFrequencyPairsDoNotRotate) {
  EXPECT_EQ(pair_behaviour(0.0, 0.0, 4096, 4096), PairBehaviour::NoRotation);
  EXPECT_EQ(pair_behaviour(0.0, 0.0, 4096, 1 << 20), PairBehaviour::NoRotation);
  EXPECT_STREQ(pair_behaviour_phrase(PairBehaviour::NoRotation), "do not rotate (frequency 0)");
  RopeScaling p;
  p.type = RopeScalingType::Proportional;
  p.partial_rotary_factor = 0.25;
  p.factor = 2.0;
  const std::vector<double> unscaled = rope_unscaled_inv_freq(16, 10000.0, p);
  const std::vector<double> scaled = rope_frequencies(16, 10000.0, p).inv_freq;
  ASSERT_EQ(unscaled.size(), 8u);
  for (int i = 0; i < 8; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(unscaled[i], i < 2 ? 1.0 / std::pow(10000.0, 2.0 * i / 16) : 0.0);
    EXPECT_EQ(scaled[i], unscaled[i] / 2.0);
  }
  // Pair 1 (L w = 40.96 at L = 4096) turns fully; the proportional factor cannot slow pair 0 out of a turn.
  EXPECT_EQ(count_pair_behaviours(unscaled, scaled, 4096, 8192), (PairBehaviourCounts{2, 0, 0, 0, 6}));
  RopeScaling yarn;
  yarn.type = RopeScalingType::Yarn;
  yarn.factor = 4;
  yarn.original_max_position_embeddings = 4096;
  EXPECT_EQ(rope_unscaled_inv_freq(16, 10000.0, yarn), rope_default_inv_freq(16, 10000.0));
}

// The frequencies in force at a length: LongRoPE's short factors up to the original length, long past it
// (transformers' _compute_longrope_parameters); other types their own frequencies whatever the length.
TEST(PairClasses, FrequenciesInForceAtALength) {
  RopeScaling s;
  s.type = RopeScalingType::Longrope;
  s.original_max_position_embeddings = 4096;
  s.short_factor = {1.0, 2.0};
  s.long_factor = {3.0, 5.0};
  const std::vector<double> fixed = {0.5, 0.25};
  const std::vector<double> plain = rope_default_inv_freq(4, 10000.0);
  const std::vector<double> at_l = inv_freq_at_length(4, 10000.0, s, 4096, fixed);
  const std::vector<double> past = inv_freq_at_length(4, 10000.0, s, 4097, fixed);
  for (int k = 0; k < 2; ++k) {
    EXPECT_DOUBLE_EQ(at_l[k], plain[k] / s.short_factor[k]);
    EXPECT_DOUBLE_EQ(past[k], plain[k] / s.long_factor[k]);
  }
  s.type = RopeScalingType::Linear;
  EXPECT_EQ(inv_freq_at_length(4, 10000.0, s, 1 << 20, fixed), fixed);
}

TEST(RopeExtension, ClassesAreClassifyPairsPerPair) {
  RopeScaling s;
  s.type = RopeScalingType::Yarn;
  s.factor = 4;
  s.original_max_position_embeddings = 4096;
  const auto a = rope_extension_analysis(128, 500000.0, s, 3 * 4096);
  for (const auto& p : a.pairs)
    EXPECT_EQ(p.coverage, classify_pair(p.inv_freq, p.inv_freq_scaled, 4096, 3 * 4096)) << "pair " << p.pair;
}

TEST(RopeExtension, LinearKeepsEveryTargetAngleAtTheTrainedAngleAndNoScalingPastLExtrapolatesTheSlowest) {
  RopeScaling lin;
  lin.type = RopeScalingType::Linear;
  lin.factor = 4;
  lin.original_max_position_embeddings = 2048;
  const auto r = rope_extension_analysis(64, 10000.0, lin, 8192);
  ASSERT_EQ(r.pairs.size(), 32u);
  for (const auto& p : r.pairs) {
    EXPECT_NEAR(p.target_angle, p.trained_angle, 1e-9 * p.trained_angle);  // PI: 4x length, 1/4 frequency
    EXPECT_NE(p.coverage, PairCoverage::Extrapolated);
  }
  RopeScaling none;
  none.original_max_position_embeddings = 2048;
  const auto n = rope_extension_analysis(64, 10000.0, none, 8192);
  EXPECT_EQ(n.pairs.back().coverage, PairCoverage::Extrapolated);  // the slowest pair sees angles it never saw
  EXPECT_NE(n.pairs.front().coverage, PairCoverage::Extrapolated);
}

// The RoPE view's summary line. d = 128, base 10000, L = 4096: L w_k >= 2 pi for k <= 45 (w_k =
// 10000^(-k/64) >= 2 pi / 4096 = 1.534e-3 iff k <= 64 ln(4096 / (2 pi)) / ln(10000) = 45.03), so 46 pairs
// complete a full turn and 18 do not. Without a scaling nothing is "interpolated": at T = L the 18 turn less
// than once, past L they would exceed the trained angles. Linear factor 4 at T = 4 L keeps them within the
// trained angles by slowing them: interpolated, and none exceeds (said, as T > L).
TEST(RopeExtension, SummarySaysInterpolatedOnlyWhereTheScalingInterpolates) {
  RopeScaling none;
  none.original_max_position_embeddings = 4096;
  EXPECT_EQ(rope_extension_summary(rope_extension_analysis(128, 10000.0, none, 4096)),
            "At T = 4096 with L = 4096: 46 complete a full turn within the trained length, 18 turn less than once within "
            "the trained length");
  EXPECT_EQ(rope_extension_summary(rope_extension_analysis(128, 10000.0, none, 16384)),
            "At T = 16384 with L = 4096: 46 complete a full turn within the trained length, 18 would exceed the trained "
            "angles");
  RopeScaling linear = none;
  linear.type = RopeScalingType::Linear;
  linear.factor = 4;
  const RopeExtensionAnalysis a = rope_extension_analysis(128, 10000.0, linear, 16384);
  EXPECT_EQ(rope_extension_summary(a),
            "At T = 16384 with L = 4096: 46 complete a full turn within the trained length, 18 interpolated (kept within "
            "the trained angles), 0 would exceed the trained angles");
  // The counts are pair_behaviour's, pair by pair.
  std::vector<double> unscaled, scaled;
  for (const auto& p : a.pairs) unscaled.push_back(p.inv_freq), scaled.push_back(p.inv_freq_scaled);
  EXPECT_EQ(count_pair_behaviours(unscaled, scaled, 4096, 16384), a.behaviours);
}

TEST(RopeExtension, LinearRatioIsOneOverFactorAndNothingExtrapolatesAtFL) {
  RopeScaling s;
  s.type = RopeScalingType::Linear;
  s.factor = 4;
  s.original_max_position_embeddings = 2048;
  const auto a = rope_extension_analysis(128, 10000.0, s, 4 * 2048);
  ASSERT_EQ(a.pairs.size(), 64u);
  for (const auto& p : a.pairs) {
    EXPECT_NEAR(p.ratio, 0.25, 1e-15);
    EXPECT_NE(p.coverage, PairCoverage::Extrapolated) << "pair " << p.pair;
  }
  EXPECT_EQ(a.extrapolated, 0);
  EXPECT_GT(a.interpolated, 0);
  EXPECT_EQ(a.full_turn + a.interpolated, 64);
}

TEST(RopeExtension, NoScalingBeyondTrainedLengthExtrapolatesTheSlowPairs) {
  RopeScaling s;
  s.original_max_position_embeddings = 2048;
  const auto a = rope_extension_analysis(128, 10000.0, s, 8192);
  for (const auto& p : a.pairs) {
    EXPECT_DOUBLE_EQ(p.ratio, 1.0);
    // A pair is new territory exactly when its wavelength exceeds the trained length.
    const bool slow = p.wavelength > 2048.0;
    EXPECT_EQ(p.coverage == PairCoverage::Extrapolated, slow) << "pair " << p.pair;
  }
  EXPECT_GT(a.extrapolated, 0);
  EXPECT_GT(a.full_turn, 0);
}

TEST(RopeExtension, YarnKeepsFastPairsAndInterpolatesSlowOnes) {
  RopeScaling s;
  s.type = RopeScalingType::Yarn;
  s.factor = 8;
  s.original_max_position_embeddings = 4096;
  const auto a = rope_extension_analysis(128, 10000.0, s, 8 * 4096);
  EXPECT_NEAR(a.pairs.front().ratio, 1.0, 1e-15);     // highest frequency: extrapolated as is
  EXPECT_NEAR(a.pairs.back().ratio, 1.0 / 8, 1e-15);  // lowest: interpolated by f
  for (size_t k = 1; k < a.pairs.size(); ++k) EXPECT_LE(a.pairs[k].ratio, a.pairs[k - 1].ratio + 1e-15);
  EXPECT_NEAR(a.attention_scaling, 0.1 * std::log(8.0) + 1.0, 1e-15);
  EXPECT_EQ(a.extrapolated, 0);
}

TEST(RopeExtension, DynamicUsesTargetLength) {
  RopeScaling s;
  s.type = RopeScalingType::Dynamic;
  s.factor = 2;
  s.original_max_position_embeddings = 1024;
  const auto within = rope_extension_analysis(64, 10000.0, s, 1024);
  for (const auto& p : within.pairs) EXPECT_DOUBLE_EQ(p.ratio, 1.0);
  const auto beyond = rope_extension_analysis(64, 10000.0, s, 4096);
  EXPECT_DOUBLE_EQ(beyond.pairs.front().ratio, 1.0);  // k = 0: base^0 whatever the base
  EXPECT_LT(beyond.pairs.back().ratio, 1.0);
}

TEST(RopeExtension, RejectsBadTarget) {
  RopeScaling s;
  s.original_max_position_embeddings = 16;
  EXPECT_THROW(rope_extension_analysis(8, 10000.0, s, 0), InvalidArgument);
}
