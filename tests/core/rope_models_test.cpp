// RoPE variants of real models against values derived from transformers' formulas. Reference script:
// tests/data/rope_reference.py (plain-Python math of src/transformers/modeling_rope_utils.py,
// _compute_yarn_parameters / _compute_longrope_parameters, read at
// zucchini-nlp/transformers@26892c16b782513fdf938920653228ef63a19d7d, v5 line; same inv_freq formulas at
// huggingface/transformers@ef46806472a64b0013ed413781e3afed82bfa047).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/analysis/rope_analysis.h"
#include "core/attention/attention.h"
#include "core/encodings/rope.h"
#include "core/models/model_config.h"
#include "test_util.h"

using namespace posenc;

namespace {

// Phi-3-mini-128k-instruct rope_scaling (tests/data/configs/phi-3-mini-128k-instruct.json).
const std::vector<double> kPhi3Long = {
    1.0700000524520874, 1.1200000047683716, 1.149999976158142,  1.4199999570846558, 1.5699999332427979, 1.7999999523162842,
    2.129999876022339,  2.129999876022339,  3.009999990463257,  5.910000324249268,  6.950000286102295,  9.070000648498535,
    9.930000305175781,  10.710000038146973, 11.130000114440918, 14.609999656677246, 15.409998893737793, 19.809999465942383,
    37.279998779296875, 38.279998779296875, 38.599998474121094, 40.12000274658203,  46.20000457763672,  50.940006256103516,
    53.66000747680664,  54.9373893737793,   56.89738845825195,  57.28738784790039,  59.98738479614258,  60.86738586425781,
    60.887386322021484, 61.71739196777344,  62.91739273071289,  62.957393646240234, 63.41739273071289,  63.8173942565918,
    63.83739471435547,  63.897396087646484, 63.93739700317383,  64.06739807128906,  64.11434936523438,  64.12435150146484,
    64.15435028076172,  64.19435119628906,  64.24435424804688,  64.57435607910156,  64.69000244140625,  64.76000213623047};
const std::vector<double> kPhi3Short = {1.1,
                                        1.1,
                                        1.1,
                                        1.3000000000000003,
                                        1.3500000000000003,
                                        1.3500000000000003,
                                        1.4000000000000004,
                                        1.5500000000000005,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.0500000000000007,
                                        2.0500000000000007,
                                        2.0500000000000007,
                                        2.0500000000000007,
                                        2.0500000000000007,
                                        2.0500000000000007,
                                        2.1000000000000005,
                                        2.1000000000000005,
                                        2.1500000000000004,
                                        2.25,
                                        2.25,
                                        2.25,
                                        2.25,
                                        2.25,
                                        2.3999999999999995,
                                        2.4499999999999993,
                                        2.499999999999999,
                                        2.6999999999999984,
                                        2.6999999999999984,
                                        2.7499999999999982,
                                        2.799999999999998,
                                        2.8999999999999977,
                                        3.049999999999997};

RopeScaling phi3(std::optional<int64_t> seq_len) {
  RopeScaling s;
  s.type = RopeScalingType::Longrope;
  s.factor = 131072.0 / 4096.0;  // Phi-3: max_position_embeddings / original_max_position_embeddings
  s.original_max_position_embeddings = 4096;
  s.short_factor = kPhi3Short;
  s.long_factor = kPhi3Long;
  s.seq_len = seq_len;
  return s;
}

void expect_rel(double got, double want, double rel = 1e-12) { EXPECT_NEAR(got, want, std::abs(want) * rel) << "want " << want; }

}  // namespace

// _compute_longrope_parameters: short factors up to and including the original length, long beyond.
TEST(RopeLongrope, Phi3ShortAndLongFactors) {
  const RopeFrequencies at_original = rope_frequencies(96, 10000.0, phi3(4096));
  EXPECT_FALSE(at_original.long_factors);
  expect_rel(at_original.inv_freq[0], 0.9090909090909091);
  expect_rel(at_original.inv_freq[10], 0.07338996338110344);
  expect_rel(at_original.inv_freq[47], 3.972221831569147e-05);
  const RopeFrequencies past = rope_frequencies(96, 10000.0, phi3(4097));
  EXPECT_TRUE(past.long_factors);
  expect_rel(past.inv_freq[0], 0.9345793934386541);
  expect_rel(past.inv_freq[10], 0.02111941305322222);
  expect_rel(past.inv_freq[47], 1.87079619929597e-06);
  // attention_factor default sqrt(1 + ln 32 / ln 4096), the same for both factor sets.
  expect_rel(at_original.attention_scaling, 1.1902380714238083);
  expect_rel(past.attention_scaling, 1.1902380714238083);
  // No seq_len: the short factors (HF init time).
  EXPECT_FALSE(rope_frequencies(96, 10000.0, phi3(std::nullopt)).long_factors);
}

TEST(RopeLongrope, AttentionFactorIsOneWithoutExtensionAndExplicitWins) {
  RopeScaling s = phi3(std::nullopt);
  s.factor = 1.0;
  EXPECT_EQ(rope_frequencies(96, 10000.0, s).attention_scaling, 1.0);
  s.attention_factor = 0.75;
  EXPECT_EQ(rope_frequencies(96, 10000.0, s).attention_scaling, 0.75);
}

TEST(RopeLongrope, FactorListsMustHaveOneEntryPerPair) {
  RopeScaling s = phi3(std::nullopt);
  s.short_factor.pop_back();
  try {
    rope_frequencies(96, 10000.0, s);
    FAIL();
  } catch (const InvalidArgument& e) { EXPECT_EQ(e.field(), "scaling.short_factor"); }
  s = phi3(std::nullopt);
  s.long_factor[3] = 0.0;
  EXPECT_THROW(rope_frequencies(96, 10000.0, s), InvalidArgument);
}

TEST(RopeLongrope, ApplyPicksLongFactorsFromThePositions) {
  // rope_apply's convenience overload uses max(positions) + 1 as seq_len (HF longrope_frequency_update).
  const Matrix x = test::random_matrix(2, 96, 5);
  RopeScaling s = phi3(std::nullopt);
  const std::vector<int64_t> short_pos{0, 4095}, long_pos{0, 4096};
  EXPECT_EQ(rope_apply(x, short_pos, 96, 1e4, s, RopeLayout::Half),
            rope_apply(x, short_pos, rope_frequencies(96, 1e4, phi3(4096)), RopeLayout::Half));
  EXPECT_EQ(rope_apply(x, long_pos, 96, 1e4, s, RopeLayout::Half),
            rope_apply(x, long_pos, rope_frequencies(96, 1e4, phi3(4097)), RopeLayout::Half));
}

// _compute_yarn_parameters with Qwen2.5-7B's 128K recipe: head_dim 128, theta 1e6, factor 4, original 32768.
TEST(RopeYarn, Qwen25RecipeMatchesReference) {
  RopeScaling s;
  s.type = RopeScalingType::Yarn;
  s.factor = 4.0;
  s.original_max_position_embeddings = 32768;
  const RopeFrequencies f = rope_frequencies(128, 1e6, s);
  const auto [low, high] = yarn_correction_range(32, 1, 128, 1e6, 32768);
  EXPECT_EQ(low, 23);
  EXPECT_EQ(high, 40);
  expect_rel(f.inv_freq[0], 1.0);
  expect_rel(f.inv_freq[20], 0.01333521432163324);
  expect_rel(f.inv_freq[30], 0.0010643609812470017);
  expect_rel(f.inv_freq[40], 4.445698525097307e-05);
  expect_rel(f.inv_freq[63], 3.102344401879299e-07);
  expect_rel(f.attention_scaling, 1.138629436111989);  // 0.1 ln 4 + 1
}

TEST(RopeYarn, TruncateFalseKeepsTheFractionalRamp) {
  RopeScaling s;
  s.type = RopeScalingType::Yarn;
  s.factor = 4.0;
  s.original_max_position_embeddings = 32768;
  s.truncate = false;
  const auto [low, high] = yarn_correction_range(32, 1, 128, 1e6, 32768, false);
  expect_rel(low, 23.5959476083381, 1e-12);
  expect_rel(high, 39.6508807104171, 1e-12);
  const RopeFrequencies f = rope_frequencies(128, 1e6, s);
  expect_rel(f.inv_freq[30], 0.0010792377416765538);  // differs from the truncated ramp
  expect_rel(f.inv_freq[20], 0.01333521432163324);
  expect_rel(f.inv_freq[63], 3.102344401879299e-07);
}

// DeepSeek-V3: yarn factor 40, mscale = mscale_all_dim = 1 -> attention_factor 1 (the ratio of equal terms).
TEST(RopeYarn, MscaleTermsGiveTheirRatio) {
  RopeScaling s;
  s.type = RopeScalingType::Yarn;
  s.factor = 40.0;
  s.original_max_position_embeddings = 4096;
  s.mscale = 1.0;
  s.mscale_all_dim = 1.0;
  const RopeFrequencies f = rope_frequencies(64, 10000.0, s);
  EXPECT_EQ(f.attention_scaling, 1.0);
  expect_rel(f.inv_freq[10], 0.056234132519034905);
  expect_rel(f.inv_freq[20], 0.0007905694150420945);
  expect_rel(f.inv_freq[31], 3.33380358040831e-06);
  s.mscale = 0.707;
  expect_rel(rope_frequencies(64, 10000.0, s).attention_scaling, 0.9210423553163399);
  // Only one of the two set (or one zero): get_mscale(factor) as without them (Python truthiness).
  s.mscale_all_dim = 0.0;
  expect_rel(rope_frequencies(64, 10000.0, s).attention_scaling, 0.1 * std::log(40.0) + 1.0);
  s.mscale_all_dim.reset();
  expect_rel(rope_frequencies(64, 10000.0, s).attention_scaling, 0.1 * std::log(40.0) + 1.0);
  // An explicit attention_factor wins over both.
  s.mscale_all_dim = 1.0;
  s.attention_factor = 0.5;
  EXPECT_EQ(rope_frequencies(64, 10000.0, s).attention_scaling, 0.5);
  EXPECT_EQ(yarn_get_mscale(1.0, 3.0), 1.0);  // scale <= 1
}

// Partial rotary: only the first rotary_dim dims rotate; the rest pass through (GPT-NeoX rotary_ndims,
// GPT-J rotary_dim). Reference: rope_rotate in tests/data/rope_reference.py, x = 1..8, position 3, 4 of 8.
TEST(RopePartial, HalfAndInterleavedRotateOnlyTheRotaryDims) {
  Matrix x(1, 8);
  x << 1, 2, 3, 4, 5, 6, 7, 8;
  const std::vector<int64_t> pos{3};
  const Matrix h = rope_apply_partial(x, pos, 4, 10000.0, {}, RopeLayout::Half);
  const double want_h[] = {-1.413352520780047, 1.8791180666879925, -2.828857481741469, 4.058191135400942, 5, 6, 7, 8};
  const Matrix i = rope_apply_partial(x, pos, 4, 10000.0, {}, RopeLayout::Interleaved);
  const double want_i[] = {-1.27223251272018, -1.8388649851410237, 2.87866810043698, 4.088186635603437, 5, 6, 7, 8};
  for (int c = 0; c < 8; ++c) {
    EXPECT_NEAR(h(0, c), want_h[c], 1e-14) << c;
    EXPECT_NEAR(i(0, c), want_i[c], 1e-14) << c;
  }
  EXPECT_THROW(rope_apply_partial(x, pos, 10, 10000.0, {}, RopeLayout::Half), InvalidArgument);
  EXPECT_THROW(rope_apply_partial(x, pos, 3, 10000.0, {}, RopeLayout::Half), InvalidArgument);
}

TEST(RopePartial, AttentionRotaryDimLeavesTheRestAsContent) {
  // With rotary_dim r, q.k = rotated part + plain dot product of the pass-through dims.
  const Matrix q = test::random_matrix(3, 8, 1), k = test::random_matrix(4, 8, 2);
  const std::vector<int64_t> qp{0, 1, 2}, kp{0, 3, 5, 9};
  AttentionSpec spec;
  RopePosition p;
  p.rotary_dim = 4;
  spec.position = p;
  spec.scale = 1.0;
  const AttentionResult r = attention(q, k, nullptr, qp, kp, spec);
  const RopeFrequencies f = rope_frequencies(4, 10000.0, {});
  const Matrix want = rope_apply(q, qp, f, RopeLayout::Half) * rope_apply(k, kp, f, RopeLayout::Half).transpose();
  EXPECT_LT((r.logits - want).cwiseAbs().maxCoeff(), 1e-12);
  const Matrix pass = q.rightCols(4) * k.rightCols(4).transpose();
  const Matrix rotated = rope_apply(q.leftCols(4).eval(), qp, f, RopeLayout::Half) *
                         rope_apply(k.leftCols(4).eval(), kp, f, RopeLayout::Half).transpose();
  EXPECT_LT((r.logits - rotated - pass).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(RopeNames, OneTableCoversEveryScalingType) {
  for (size_t i = 0; i < names_of<RopeScalingType>().size(); ++i) {
    const auto t = static_cast<RopeScalingType>(i);
    EXPECT_EQ(rope_scaling_type_from_name(rope_scaling_type_name(t)), t);
  }
  EXPECT_EQ(rope_scaling_type_from_name("longrope"), RopeScalingType::Longrope);
  EXPECT_STREQ(rope_type_name(RopeScalingType::None), "default");
  EXPECT_FALSE(rope_scaling_type_from_name("su"));  // "su" is a config alias, read by read_hf_config
}

// The names inspect's JSON and text print (docs/cli.md), one EnumNames table each: every value named, in order,
// and read back by from_name.
template <class Enum>
void expect_names(const std::vector<std::string>& contract) {
  ASSERT_EQ(names_of<Enum>().size(), contract.size());
  for (size_t i = 0; i < contract.size(); ++i) {
    const auto e = static_cast<Enum>(i);
    EXPECT_EQ(name_of(e), contract[i]);
    EXPECT_EQ(from_name<Enum>(contract[i]), e);
  }
}

TEST(ModelNames, EveryKindRuleAndCoverageHasItsName) {
  expect_names<PositionKind>({"rope", "alibi", "t5", "deberta", "learned", "none"});
  EXPECT_STREQ(position_kind_name(PositionKind::Learned), "learned");
  expect_names<LayerAttention>({"full", "sliding", "chunked", "linear", "compressed", "none"});
  EXPECT_STREQ(layer_attention_name(LayerAttention::Compressed), "compressed");
  expect_names<QueryScale::Rule>({"none", "llama4_temperature", "llama4_scaling_beta"});
  EXPECT_STREQ(query_scale_rule_name(QueryScale::Rule::Llama4ScalingBeta), "llama4_scaling_beta");
  expect_names<PairCoverage>({"full turn in training", "interpolated", "extrapolated"});
  EXPECT_STREQ(pair_coverage_name(PairCoverage::Extrapolated), "extrapolated");
}
