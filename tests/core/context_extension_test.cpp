// The Model view's context-extension recipes: what to set for a target length under each method and how
// many pairs then leave the trained angles. Reference: transformers' modeling_rope_utils.py (v5 line at
// zucchini-nlp/transformers@26892c16b782513fdf938920653228ef63a19d7d: _compute_linear_scaling_rope_parameters,
// _compute_dynamic_ntk_parameters, _compute_yarn_parameters, _compute_llama3_parameters,
// _compute_longrope_parameters), ported in plain Python in tests/data/context_extension_reference.py, whose
// printed counts are the literals below.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <numbers>
#include <vector>

#include "core/analysis/context_extension.h"
#include "core/encodings/rope.h"
#include "core/types.h"

using namespace posenc;

namespace {
// [full turn, interpolated, extrapolated, kept, divided by f, blended]
using Counts = std::array<int, 6>;
Counts counts(const ExtensionRecipe& r) { return {r.full_turn, r.interpolated, r.extrapolated, r.kept, r.divided, r.blended}; }
}  // namespace

// Llama-3.1-8B's RoPE (rotary_dim 128, rope_theta 500000, original length 8192) to 131072: f = 16.
TEST(ContextExtension, Llama31To131072) {
  const auto r = context_extension_recipes(128, 500000.0, 8192, 131072);
  ASSERT_EQ(r.size(), 6u);
  const std::array<RopeScalingType, 6> types{RopeScalingType::None, RopeScalingType::Linear, RopeScalingType::Dynamic,
                                             RopeScalingType::Yarn, RopeScalingType::Llama3, RopeScalingType::Longrope};
  for (size_t i = 0; i < r.size(); ++i) EXPECT_EQ(r[i].scaling.type, types[i]) << i;
  for (size_t i = 1; i < r.size(); ++i) {
    EXPECT_DOUBLE_EQ(r[i].scaling.factor, 16.0) << i;
    EXPECT_EQ(r[i].scaling.original_max_position_embeddings, 8192) << i;
  }
  // What to set: max_position_embeddings = T except dynamic NTK, which reads L from it.
  EXPECT_EQ(r[1].max_position_embeddings, 131072);
  EXPECT_EQ(r[2].max_position_embeddings, 8192);
  EXPECT_EQ(r[3].max_position_embeddings, 131072);
  EXPECT_EQ(r[4].max_position_embeddings, 131072);
  EXPECT_EQ(r[5].max_position_embeddings, 131072);
  EXPECT_FALSE(r[1].sets_original);
  EXPECT_FALSE(r[2].sets_original);
  EXPECT_TRUE(r[3].sets_original && r[4].sets_original && r[5].sets_original);
  EXPECT_DOUBLE_EQ(r[4].scaling.low_freq_factor, 1.0);
  EXPECT_DOUBLE_EQ(r[4].scaling.high_freq_factor, 4.0);
  // context_extension_reference.py: llama {'none': [35, 0, 29, 64, 0, 0], 'linear': [35, 29, 0, 0, 64, 0],
  // 'dynamic': [35, 29, 0, 1, 0, 63], 'yarn': [35, 29, 0, 19, 29, 16], 'llama3': [35, 29, 0, 29, 29, 6]}
  EXPECT_EQ(counts(r[0]), (Counts{35, 0, 29, 64, 0, 0}));
  EXPECT_EQ(counts(r[1]), (Counts{35, 29, 0, 0, 64, 0}));
  EXPECT_EQ(counts(r[2]), (Counts{35, 29, 0, 1, 0, 63}));
  EXPECT_EQ(counts(r[3]), (Counts{35, 29, 0, 19, 29, 16}));
  EXPECT_EQ(counts(r[4]), (Counts{35, 29, 0, 29, 29, 6}));
  // YaRN's magnitude 0.1 ln 16 + 1 (get_mscale).
  EXPECT_NEAR(r[3].attention_scaling, 1.2772588722239782, 1e-15);
  // LongRoPE's factors come from a search: no count without them.
  EXPECT_FALSE(r[5].counted);
  // The pairs a LongRoPE long factor must slow: those without a full turn within L.
  EXPECT_EQ(pairs_below_full_turn(128, 500000.0, 8192), 29);
}

// Qwen2.5-7B's RoPE (128, 1e6, 32768) to 131072: f = 4 (Qwen's own YaRN recipe: factor 4, original 32768).
TEST(ContextExtension, Qwen25To131072) {
  const auto r = context_extension_recipes(128, 1e6, 32768, 131072);
  ASSERT_EQ(r.size(), 6u);
  EXPECT_DOUBLE_EQ(r[3].scaling.factor, 4.0);
  // context_extension_reference.py: qwen {'none': [40, 0, 24, 64, 0, 0], 'linear': [40, 24, 0, 0, 64, 0],
  // 'dynamic': [40, 24, 0, 1, 0, 63], 'yarn': [40, 24, 0, 24, 24, 16], 'llama3': [40, 24, 0, 34, 24, 6]}
  EXPECT_EQ(counts(r[0]), (Counts{40, 0, 24, 64, 0, 0}));
  EXPECT_EQ(counts(r[1]), (Counts{40, 24, 0, 0, 64, 0}));
  EXPECT_EQ(counts(r[2]), (Counts{40, 24, 0, 1, 0, 63}));
  EXPECT_EQ(counts(r[3]), (Counts{40, 24, 0, 24, 24, 16}));
  EXPECT_EQ(counts(r[4]), (Counts{40, 24, 0, 34, 24, 6}));
  EXPECT_NEAR(r[3].attention_scaling, 1.138629436111989, 1e-15);
}

// LongRoPE with given long factors: a pair extrapolates at T exactly when its factor is below T / L (and it
// turns less than once within L); factors of f everywhere equal linear scaling.
TEST(ContextExtension, LongropeCountsFollowTheLongFactors) {
  std::vector<double> all_f(64, 16.0);
  const auto same = context_extension_recipes(128, 500000.0, 8192, 131072, all_f);
  EXPECT_TRUE(same[5].counted);
  EXPECT_EQ(same[5].interpolated, same[1].interpolated);
  EXPECT_EQ(same[5].extrapolated, 0);
  // Halve the factor of the last 5 pairs (all below a full turn): those 5 extrapolate.
  std::vector<double> some = all_f;
  for (int k = 59; k < 64; ++k) some[k] = 8.0;
  const auto part = context_extension_recipes(128, 500000.0, 8192, 131072, some);
  EXPECT_EQ(part[5].extrapolated, 5);
  EXPECT_EQ(part[5].interpolated, 29 - 5);
  // sqrt(1 + ln f / ln L), f = T / L (transformers' default attention_factor).
  EXPECT_NEAR(part[5].attention_scaling, std::sqrt(1.0 + std::log(16.0) / std::log(8192.0)), 1e-15);
}

// A target within the trained length needs no extension: f = 1, nothing extrapolates, every pair kept.
TEST(ContextExtension, TargetWithinTrainedLength) {
  const auto r = context_extension_recipes(64, 10000.0, 4096, 2048);
  for (const auto& x : r) {
    EXPECT_DOUBLE_EQ(x.scaling.type == RopeScalingType::None ? 1.0 : x.scaling.factor, 1.0);
    if (x.counted) { EXPECT_EQ(x.extrapolated, 0); }
  }
  EXPECT_EQ(r[1].kept, 32);
}

TEST(ContextExtension, LengthsAreChecked) {
  EXPECT_THROW(context_extension_recipes(128, 1e4, 0, 1000), InvalidArgument);
  EXPECT_THROW(context_extension_recipes(128, 1e4, 1000, int64_t{1} << 31), InvalidArgument);
  try {
    context_extension_recipes(128, 1e4, 1000, -1);
    FAIL();
  } catch (const InvalidArgument& e) { EXPECT_EQ(e.field(), "target_length"); }
}
