// The scores view with a model's layer (layer=<i>): the layer's mask, sink column, query scale and NoPE
// reach the exact export. References:
//   transformers src/transformers/masking_utils.py at 00c4411cbe15d4c56d54d3b56d4d171e9c289dac
//     (sliding_window_overlay: kv_idx > q_idx - W; chunked_overlay: kv_idx // C == q_idx // C; over causal)
//   transformers src/transformers/models/gpt_oss/modeling_gpt_oss.py at 6edf5b311854175ff83c59179b3360beca1ceffc
//     (eager_attention_forward: the sink logit joins the softmax as an extra column, dropped after it)
//   transformers modeling_llama4.py Llama4TextAttention: attn_scales = log(floor((p + 1) / floor_scale) + 1)
//     * attn_scale + 1 multiplies query_states on NoPE layers (attn_temperature_tuning)
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "app/app.h"
#include "app/state_params.h"
#include "app/views/views.h"
#include "cli/eval.h"
#include "model_test_util.h"
#include "app_test_util.h"

using nlohmann::json;
using posenc::app::App;
using posenc::test::export_of;
using posenc::test::state_value;
using posenc::test::table;

namespace {

// Matrix table cell (i, j): rows are [i, value at j = 0, 1, ...]; null for a masked cell.
const json& at(const json& t, int i, int j) { return t["rows"][size_t(i)][size_t(j) + 1]; }

}  // namespace

TEST(ScoresLayers, GptOssSlidingAndFullLayersWithSinks) {
  const int n = 150;
  json weights_at[2];
  for (int layer : {0, 1}) {
    SCOPED_TRACE(layer);
    App app;
    app.load_state_query("view=scores&model=gpt-oss-20b&n=150&layer=" + std::to_string(layer));
    EXPECT_EQ(state_value(app, "layer"), std::to_string(layer));
    EXPECT_EQ(state_value(app, "causal"), "1");
    EXPECT_EQ(app.notices().find("layer="), std::string::npos) << app.notices();
    const json exported = export_of(app);
    const json& logits = table(exported, "logits");
    const json& weights = table(exported, "weights");
    const json& sink = table(exported, "sink");
    ASSERT_EQ(sink["rows"].size(), size_t(n));
    for (int i = 0; i < n; i += 7)
      for (int j = 0; j < n; ++j) {
        // gpt-oss-20b: layer_types alternate sliding_attention (sliding_window 128) and full_attention.
        const bool visible = j <= i && (layer == 1 || i - j < 128);
        EXPECT_EQ(at(logits, i, j).is_null(), !visible) << i << "," << j;
        EXPECT_EQ(at(weights, i, j).is_null(), !visible);  // the export leaves masked cells empty in every table
      }
    for (int i = 0; i < n; ++i) {
      double sum = 0, mx = -INFINITY;
      for (int j = 0; j < n; ++j)
        if (!at(weights, i, j).is_null()) sum += at(weights, i, j).get<double>();
      for (int j = 0; j < n; ++j)
        if (!at(logits, i, j).is_null()) mx = std::max(mx, at(logits, i, j).get<double>());
      const double s = sink["rows"][size_t(i)][1].get<double>();
      EXPECT_NEAR(sum + s, 1.0, 1e-13) << i;
      // The sink's weight as gpt-oss computes it: exp(0 - M) / (sum_j exp(e_ij - M) + exp(0 - M)), M = max(e, 0).
      const double m = std::max(mx, 0.0);
      double z = std::exp(-m);
      for (int j = 0; j < n; ++j)
        if (!at(logits, i, j).is_null()) z += std::exp(at(logits, i, j).get<double>() - m);
      EXPECT_NEAR(s, std::exp(-m) / z, 1e-13) << i;
    }
    weights_at[layer] = weights;
    App again;
    again.load_state_query(app.state_query());
    EXPECT_EQ(again.state_query(), app.state_query());
  }
  // A visible cell's weight is larger on the sliding layer (fewer keys share the row).
  EXPECT_GT(at(weights_at[0], 149, 100).get<double>(), at(weights_at[1], 149, 100).get<double>());
  // A layer past the model's 24 is named.
  App bad;
  bad.load_state_query("view=scores&model=gpt-oss-20b&layer=24");
  EXPECT_NE(bad.notices().find("layer"), std::string::npos) << bad.notices();
}

TEST(ScoresLayers, Llama4ChunkedRopeLayerAndNoPELayerWithQueryScale) {
  // Llama 4's layer keys (as Scout's, tests/cli/model_layers_test.cpp) with a small chunk and floor_scale
  // so that both show within 24 positions: layers 0-2 RoPE + chunked (C = 8), layer 3 NoPE, full, with
  // temperature tuning s_p = log(floor((p + 1) / 4) + 1) * 0.1 + 1.
  const json config = {{"model_type", "llama4_text"},
                       {"attention_chunk_size", 8},
                       {"attn_scale", 0.1},
                       {"attn_temperature_tuning", true},
                       {"floor_scale", 4},
                       {"head_dim", 16},
                       {"hidden_size", 64},
                       {"max_position_embeddings", 4096},
                       {"no_rope_layers", {1, 1, 1, 0}},
                       {"num_attention_heads", 4},
                       {"num_hidden_layers", 4},
                       {"rope_theta", 500000.0}};
  const std::string text = config.dump();
  App app;
  app.load_state_query("view=scores&n=24");
  app.load_state_query(app.load_model(reinterpret_cast<const unsigned char*>(text.data()), text.size(), "scores"));
  ASSERT_EQ(state_value(app, "model"), "custom");
  EXPECT_EQ(state_value(app, "causal"), "1");
  app.load_state_query("view=scores&n=24&layer=0");
  const json chunked = export_of(app);
  const json& lc = table(chunked, "logits");
  for (int i = 0; i < 24; ++i)
    for (int j = 0; j < 24; ++j) EXPECT_EQ(at(lc, i, j).is_null(), !(j <= i && j / 8 == i / 8)) << i << "," << j;
  // Layer 0 has no query scale: no table.
  for (const json& t : chunked["tables"]) EXPECT_NE(t["name"].get<std::string>().rfind("query scale", 0), 0u);

  // The NoPE layer: no rotation, full causal mask, q scaled per position. Its logits are s_i times the
  // unrotated logits of a RoPE layer with drop_rope (the same q, k, no query scale).
  app.load_state_query("view=scores&layer=3");
  ASSERT_EQ(state_value(app, "layer"), "3");
  const json nope = export_of(app);
  const json& scale = table(nope, "query scale");
  ASSERT_EQ(scale["rows"].size(), 24u);
  for (int p = 0; p < 24; ++p)
    EXPECT_DOUBLE_EQ(scale["rows"][size_t(p)][1].get<double>(), std::log(std::floor((p + 1) / 4.0) + 1) * 0.1 + 1) << p;
  app.load_state_query("view=scores&layer=0&drop_rope=1");
  const json dropped = export_of(app);
  const json& ln = table(nope, "logits");
  const json& ld = table(dropped, "logits");
  for (int i = 0; i < 24; ++i)
    for (int j = 0; j <= i; ++j) {
      EXPECT_FALSE(at(ln, i, j).is_null());
      if (j / 8 != i / 8) continue;  // hidden on the chunked layer
      const double s = std::log(std::floor((i + 1) / 4.0) + 1) * 0.1 + 1;
      EXPECT_NEAR(at(ln, i, j).get<double>(), s * at(ld, i, j).get<double>(), 1e-12 * (1 + std::abs(at(ln, i, j).get<double>())));
    }
}

TEST(ScoresLayers, EvalAttentionTakesTheMask) {
  // The attention op's `mask` (docs/cli.md): a sliding window of 2 with a sink logit of 0, causal.
  const json q = {{1.0, 0.0}, {0.0, 1.0}, {1.0, 1.0}, {0.5, -1.0}};
  const json base = {{"op", "attention"}, {"q", q}, {"k", q}, {"query_positions", {0, 1, 2, 3}}, {"key_positions", {0, 1, 2, 3}},
                     {"causal", true}};
  json req = base;
  req["mask"] = {{"attention", "sliding"}, {"window", 2}, {"sink", 0.0}};
  const json r = json::parse(posenc::cli::evaluate_request(req.dump()));
  for (int i = 0; i < 4; ++i) {
    double sum = 0;
    for (int j = 0; j < 4; ++j) {
      EXPECT_EQ(r["logits"][i][j].is_null(), !(j <= i && i - j < 2)) << i << "," << j;
      sum += r["weights"][i][j].get<double>();
    }
    EXPECT_NEAR(sum + r["sink_weight"][i].get<double>(), 1.0, 1e-15);
  }
  // Row 0 sees key 0 only: logit q0.q0 / sqrt(2) against the sink's 0.
  const double e = 1.0 / std::sqrt(2.0);
  EXPECT_NEAR(r["weights"][0][0].get<double>(), std::exp(e) / (std::exp(e) + 1.0), 1e-15);
  EXPECT_FALSE(json::parse(posenc::cli::evaluate_request(base.dump())).contains("sink_weight"));
  auto field = [&](const json& mask) {
    json bad = base;
    bad["mask"] = mask;
    try {
      posenc::cli::evaluate_request(bad.dump());
    } catch (const posenc::InvalidArgument& err) { return err.field(); }
    return std::string("(none)");
  };
  EXPECT_EQ(field({{"attention", "sliding"}}), "mask.window");
  EXPECT_EQ(field({{"attention", "chunked"}, {"window", 0}}), "mask.window");
  EXPECT_EQ(field({{"attention", "full"}, {"window", 4}}), "mask.window");
  EXPECT_EQ(field({{"attention", "diagonal"}}), "mask.attention");
  EXPECT_EQ(field({{"window", 4}, {"attention", "sliding"}, {"extra", 1}}), "mask.extra");
}
