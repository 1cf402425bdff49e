// What the Frequency usage view draws from a weights report (app/views/usage_model.h), against the report's
// own numbers for every head choice of generated reports: each cell is the report's qk_share of the pair
// that rank holds (or the mean over the layer's heads), the ranks order the pairs by frequency, the
// boundary counts the pairs with turns >= 1, and layers without positions have no numbers.
#include <gtest/gtest.h>

#include <cmath>

#include "app/views/usage_model.h"
#include "usage_reports.h"
#include "core/types.h"
#include "model_io/usage_json.h"

using namespace posenc;
using namespace posenc::app;

TEST(UsageModel, EveryCellIsTheReportsShareOfThePairAtThatRank) {
  const test::UsageReportSpec specs[] = {
      {.layers = 5, .heads = 4, .kv_heads = 2, .rotary_dim = 16, .none_layers = {2}, .seed = 7},
      {.layers = 3,
       .heads = 3,
       .kv_heads = 1,
       .rotary_dim = 64,
       .base = 500000,
       .trained = 8192,
       .own_pair_layers = {1},
       .seed = 8},
  };
  for (const auto& spec : specs) {
    const nlohmann::json j = test::usage_report_json(spec);
    const model_io::UsageReport report = model_io::read_usage_json(j.dump(), "usage");
    for (int head = kUsageMeanHead; head < spec.heads; ++head) {
      const UsagePicture p = usage_picture(report, head);
      ASSERT_EQ(p.share.rows(), spec.layers);
      ASSERT_EQ(p.share.cols(), spec.rotary_dim / 2);
      EXPECT_EQ(p.max_heads, spec.heads);
      EXPECT_EQ(p.rope_layers, spec.layers - int(spec.none_layers.size()));
      for (int l = 0; l < spec.layers; ++l) {
        const nlohmann::json& jl = j["layers"][size_t(l)];
        ASSERT_EQ(p.order[size_t(l)].size(), size_t(spec.rotary_dim / 2));
        if (spec.none_layers.count(l)) {
          for (int k = 0; k < p.share.cols(); ++k) { EXPECT_TRUE(std::isnan(p.share(l, k))); }
          for (int h = 0; h < p.semantic.cols(); ++h) { EXPECT_TRUE(std::isnan(p.semantic(l, h))); }
          continue;
        }
        const nlohmann::json& pairs = jl.contains("pairs") ? jl["pairs"] : j["pairs"];
        int full_turns = 0;
        for (int k = 0; k < p.share.cols(); ++k) {
          const int pair = p.order[size_t(l)][size_t(k)];
          if (k > 0) {
            EXPECT_GE(pairs["inv_freq"][size_t(p.order[size_t(l)][size_t(k - 1)])].get<double>(),
                      pairs["inv_freq"][size_t(pair)].get<double>());
          }
          if (pairs["turns"][size_t(pair)].get<double>() >= 1) ++full_turns;
          double expected = 0;
          if (head == kUsageMeanHead) {
            for (const auto& h : jl["heads"]) expected += h["qk_share"][size_t(pair)].get<double>();
            expected /= double(jl["heads"].size());
            EXPECT_NEAR(p.share(l, k), expected, 1e-15);
          } else {
            EXPECT_EQ(p.share(l, k), jl["heads"][size_t(head)]["qk_share"][size_t(pair)].get<double>());
          }
        }
        EXPECT_EQ(p.boundary[size_t(l)], full_turns);
        // Left of the boundary every pair turns at least once; right of it none does.
        for (int k = 0; k < p.share.cols(); ++k) {
          EXPECT_EQ(pairs["turns"][size_t(p.order[size_t(l)][size_t(k)])].get<double>() >= 1, k < full_turns);
        }
        for (int h = 0; h < spec.heads; ++h) {
          EXPECT_EQ(p.semantic(l, h), jl["heads"][size_t(h)]["semantic_share"].get<double>());
        }
      }
    }
  }
}

TEST(UsageModel, AHeadPastTheModelsHeadsIsAnErrorNamingHead) {
  const model_io::UsageReport report = model_io::read_usage_json(test::usage_report_json({.heads = 4}).dump(), "usage");
  try {
    usage_picture(report, 4);
    FAIL() << "no error";
  } catch (const InvalidArgument& e) { EXPECT_EQ(e.field(), "head"); }
}
