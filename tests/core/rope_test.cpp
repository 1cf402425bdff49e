#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "core/encodings/rope.h"
#include "test_util.h"

using namespace posenc;
using posenc::test::iota;
using posenc::test::random_matrix;

namespace {

RopeScaling make(RopeScalingType t, double f, int64_t L = 0) {
  RopeScaling s;
  s.type = t;
  s.factor = f;
  s.original_max_position_embeddings = L;
  return s;
}

}  // namespace

TEST(RopeFrequencies, DefaultIsInverseBasePower) {
  const auto f = rope_frequencies(8, 10000.0);
  ASSERT_EQ(f.inv_freq.size(), 4u);
  EXPECT_DOUBLE_EQ(f.inv_freq[0], 1.0);
  EXPECT_NEAR(f.inv_freq[1], 0.1, 1e-16);
  EXPECT_NEAR(f.inv_freq[2], 0.01, 1e-17);
  EXPECT_NEAR(f.inv_freq[3], 0.001, 1e-18);
  EXPECT_EQ(f.attention_scaling, 1.0);
}

TEST(RopeFrequencies, LinearDividesByFactor) {
  const auto f = rope_frequencies(4, 10000.0, make(RopeScalingType::Linear, 4.0));
  EXPECT_DOUBLE_EQ(f.inv_freq[0], 0.25);
  EXPECT_NEAR(f.inv_freq[1], 0.0025, 1e-18);
  EXPECT_EQ(f.attention_scaling, 1.0);
}

TEST(RopeFrequencies, NtkRescalesBase) {
  // dim 4, f 2: base' = 10000 * 2^(4/2) = 40000, inv_freq[1] = 1/sqrt(40000) = 1/200.
  const auto f = rope_frequencies(4, 10000.0, make(RopeScalingType::Ntk, 2.0));
  EXPECT_DOUBLE_EQ(f.inv_freq[0], 1.0);
  EXPECT_NEAR(f.inv_freq[1], 0.005, 1e-17);
}

TEST(RopeFrequencies, DynamicOnlyPastTrainedLength) {
  RopeScaling s = make(RopeScalingType::Dynamic, 2.0, 10);
  s.seq_len = 20;  // base' = 10000 * (2*20/10 - 1)^(4/2) = 90000 -> inv_freq[1] = 1/300
  EXPECT_NEAR(rope_frequencies(4, 10000.0, s).inv_freq[1], 1.0 / 300.0, 1e-17);
  for (int64_t S : {1, 5, 10}) {
    s.seq_len = S;
    EXPECT_EQ(rope_frequencies(4, 10000.0, s).inv_freq, rope_default_inv_freq(4, 10000.0)) << S;
  }
  s.seq_len.reset();  // defaults to L: unchanged
  EXPECT_EQ(rope_frequencies(4, 10000.0, s).inv_freq, rope_default_inv_freq(4, 10000.0));
}

TEST(RopeFrequencies, YarnRampAndTemperature) {
  // dim 8, L 2048: correction dims 8 ln(2048/(64 pi)) / (2 ln 1e4) = 1.008 -> floor 1 and
  // 8 ln(2048/(2 pi)) / (2 ln 1e4) = 2.51 -> ceil 3; ramp (i-1)/2 = 0, 0, 0.5, 1.
  const auto range = yarn_correction_range(32, 1, 8, 10000.0, 2048);
  EXPECT_EQ(range.first, 1.0);
  EXPECT_EQ(range.second, 3.0);
  const auto f = rope_frequencies(8, 10000.0, make(RopeScalingType::Yarn, 4.0, 2048));
  EXPECT_DOUBLE_EQ(f.inv_freq[0], 1.0);
  EXPECT_NEAR(f.inv_freq[1], 0.1, 1e-16);
  EXPECT_NEAR(f.inv_freq[2], 0.5 * 0.01 + 0.5 * 0.0025, 1e-17);
  EXPECT_NEAR(f.inv_freq[3], 0.001 / 4, 1e-18);
  EXPECT_DOUBLE_EQ(f.attention_scaling, 0.1 * std::log(4.0) + 1.0);
}

TEST(RopeFrequencies, YarnZeroWidthRampGetsEpsilon) {
  // L = 1: both correction dims are negative -> low = 0, high = ceil(-0.8) = -0 == low -> high = 0.001:
  // pair 0 extrapolated, all others interpolated.
  const auto f = rope_frequencies(8, 10000.0, make(RopeScalingType::Yarn, 2.0, 1));
  EXPECT_DOUBLE_EQ(f.inv_freq[0], 1.0);
  EXPECT_NEAR(f.inv_freq[1], 0.05, 1e-16);
  EXPECT_NEAR(f.inv_freq[2], 0.005, 1e-17);
  EXPECT_NEAR(f.inv_freq[3], 0.0005, 1e-18);
}

TEST(RopeFrequencies, Llama3Bands) {
  RopeScaling s = make(RopeScalingType::Llama3, 8.0, 8192);
  s.low_freq_factor = 1;
  s.high_freq_factor = 4;
  // wavelengths 2pi * (1, 10, 100, 1000): the first three < 2048 kept; 6283 in [2048, 8192] smoothed.
  const auto f = rope_frequencies(8, 10000.0, s);
  EXPECT_DOUBLE_EQ(f.inv_freq[0], 1.0);
  EXPECT_NEAR(f.inv_freq[2], 0.01, 1e-17);
  const double smooth = (8192 / (2 * std::numbers::pi * 1000) - 1) / 3;
  EXPECT_NEAR(f.inv_freq[3], (1 - smooth) * 0.001 / 8 + smooth * 0.001, 1e-17);
  // A long wavelength past L / low_freq_factor is divided by the factor.
  s.original_max_position_embeddings = 4096;
  EXPECT_NEAR(rope_frequencies(8, 10000.0, s).inv_freq[3], 0.001 / 8, 1e-18);
}

TEST(RopeFrequencies, Llama3BandEdgeIsSmoothed) {
  // Choose L so that a wavelength sits exactly on the high edge L / high_freq_factor: with base = 4 pi^2
  // ... simpler: take the computed wavelength of pair 1 and set L / high = wavelen exactly.
  const double w1 = rope_default_inv_freq(4, 10000.0)[1];
  const double wavelen = 2 * std::numbers::pi / w1;  // ~628.3
  RopeScaling s = make(RopeScalingType::Llama3, 8.0, 1000);
  s.low_freq_factor = 1000 / wavelen;  // low edge: L / low = wavelen (up to rounding)
  s.high_freq_factor = 2 * s.low_freq_factor;
  const double got = rope_frequencies(4, 10000.0, s).inv_freq[1];
  // On the low edge the smooth factor is ~0: the blend gives ~inv/f either way, and never NaN.
  EXPECT_NEAR(got, w1 / 8, 1e-9 * w1);
}

TEST(RopeFrequencies, RejectsBadScaling) {
  auto field_of = [](auto&& f) {
    try {
      f();
    } catch (const InvalidArgument& e) { return e.field(); }
    return std::string("<none>");
  };
  EXPECT_EQ(field_of([] { rope_frequencies(7, 10000.0); }), "dim");
  EXPECT_EQ(field_of([] { rope_frequencies(8, 1.0); }), "base");
  EXPECT_EQ(field_of([] { rope_frequencies(8, 1e4, make(RopeScalingType::Linear, 0.5)); }), "scaling.factor");
  EXPECT_EQ(field_of([] { rope_frequencies(2, 1e4, make(RopeScalingType::Ntk, 2)); }), "dim");
  EXPECT_EQ(field_of([] { rope_frequencies(8, 1e4, make(RopeScalingType::Yarn, 2, 0)); }),
            "scaling.original_max_position_embeddings");
  RopeScaling s = make(RopeScalingType::Llama3, 8, 8192);
  s.low_freq_factor = 4;
  s.high_freq_factor = 2;  // high < low (equal factors are accepted: Llama-4-Scout, model_layers_test.cpp)
  EXPECT_EQ(field_of([&] { rope_frequencies(8, 1e4, s); }), "scaling.high_freq_factor");
}

TEST(RopeApply, RotatesPairsInBothLayouts) {
  // x = e_0 at position 1 with dim 4: pair 0 rotated by 1 rad.
  Matrix x(1, 4);
  x << 1, 0, 0, 0;
  const std::vector<int64_t> pos{1};
  const Matrix h = rope_apply(x, pos, 4, 10000.0, {}, RopeLayout::Half);  // pair 0 = dims (0, 2)
  EXPECT_DOUBLE_EQ(h(0, 0), std::cos(1.0));
  EXPECT_DOUBLE_EQ(h(0, 2), std::sin(1.0));
  EXPECT_EQ(h(0, 1), 0.0);
  const Matrix i = rope_apply(x, pos, 4, 10000.0, {}, RopeLayout::Interleaved);  // pair 0 = dims (0, 1)
  EXPECT_DOUBLE_EQ(i(0, 0), std::cos(1.0));
  EXPECT_DOUBLE_EQ(i(0, 1), std::sin(1.0));
  EXPECT_EQ(i(0, 2), 0.0);
}

TEST(RopeApply, AttentionScalingMultipliesCosAndSin) {
  const Matrix x = random_matrix(3, 8, 1);
  const auto pos = iota(3, 5);
  RopeFrequencies f = rope_frequencies(8, 10000.0);
  const Matrix a = rope_apply(x, pos, f, RopeLayout::Half);
  f.attention_scaling = 1.5;
  const Matrix b = rope_apply(x, pos, f, RopeLayout::Half);
  EXPECT_LT((b - 1.5 * a).cwiseAbs().maxCoeff(), 1e-14);
}

TEST(RopeApply, ScoreDependsOnlyOnOffset) {
  for (RopeLayout layout : {RopeLayout::Half, RopeLayout::Interleaved}) {
    const Matrix q = random_matrix(1, 16, 2), k = random_matrix(1, 16, 3);
    auto score = [&](int64_t m, int64_t n) {
      const std::vector<int64_t> pm{m}, pn{n};
      return rope_apply(q, pm, 16, 10000.0, {}, layout).row(0).dot(rope_apply(k, pn, 16, 10000.0, {}, layout).row(0));
    };
    const double ref = score(3, 1);
    EXPECT_NEAR(score(10, 8), ref, 1e-12);
    EXPECT_NEAR(score(1002, 1000), ref, 1e-10);
    EXPECT_NEAR(score(-5, -7), ref, 1e-12);
    EXPECT_GT(std::abs(score(3, 2) - ref), 1e-6);  // a different offset gives a different score
  }
}

TEST(RopeApply, HalfAndInterleavedAgreeAfterPermutation) {
  const int d = 12;
  const Matrix q = random_matrix(4, d, 4), k = random_matrix(5, d, 5);
  const auto qp = iota(4, 2), kp = iota(5);
  const std::vector<int> perm = rope_interleaved_to_half(d);
  auto to_half = [&](const Matrix& m) {
    Matrix out(m.rows(), m.cols());
    for (int c = 0; c < d; ++c) out.col(perm[c]) = m.col(c);
    return out;
  };
  const Matrix si =
      rope_apply(q, qp, d, 1e4, {}, RopeLayout::Interleaved) * rope_apply(k, kp, d, 1e4, {}, RopeLayout::Interleaved).transpose();
  const Matrix sh = rope_apply(to_half(q), qp, d, 1e4, {}, RopeLayout::Half) *
                    rope_apply(to_half(k), kp, d, 1e4, {}, RopeLayout::Half).transpose();
  EXPECT_LT((si - sh).cwiseAbs().maxCoeff(), 1e-12);
  // And the rotated vectors themselves are the same vectors, permuted.
  EXPECT_LT(
      (to_half(rope_apply(q, qp, d, 1e4, {}, RopeLayout::Interleaved)) - rope_apply(to_half(q), qp, d, 1e4, {}, RopeLayout::Half))
          .cwiseAbs()
          .maxCoeff(),
      1e-15);
}

TEST(RopeApply, DynamicDefaultsToMaxPositionPlusOne) {
  const Matrix x = random_matrix(20, 8, 6);
  const auto pos = iota(20);
  RopeScaling s = make(RopeScalingType::Dynamic, 2.0, 10);
  const Matrix implicit = rope_apply(x, pos, 8, 1e4, s, RopeLayout::Half);
  s.seq_len = 20;
  EXPECT_EQ(implicit, rope_apply(x, pos, 8, 1e4, s, RopeLayout::Half));
  s.seq_len = 10;
  EXPECT_NE(implicit, rope_apply(x, pos, 8, 1e4, s, RopeLayout::Half));
}

TEST(RopeApply, LargePositionsUseDoubleAngles) {
  // At p = 10^6 a float32 angle would be off by ~0.03 rad; ours matches the double computation.
  Matrix x(1, 2);
  x << 1, 0;
  const std::vector<int64_t> pos{1'000'000};
  const Matrix r = rope_apply(x, pos, 2, 10000.0, {}, RopeLayout::Half);
  EXPECT_NEAR(r(0, 0), std::cos(1e6), 1e-12);
  EXPECT_NEAR(r(0, 1), std::sin(1e6), 1e-12);
}
