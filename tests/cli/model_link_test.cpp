// The RoPE and scores views take a model (model=<preset id>, or a loaded config): its numbers fill the
// views' own keys, the export equals the `model` op of posenc eval for the same config, the URL round-trips
// (the model key plus the filled keys; an edited key wins), and what a view cannot show of the model
// (LongRoPE's factors, other layer types, a softmax factor, learned absolute tables) is a notice naming
// `model`. The model op's numbers are transformers' rules (docs/models.md; tests/cli/model_io_test.cpp
// checks them against the reference code).
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/app.h"
#include "app/model_link.h"
#include "app/state_params.h"
#include "app/views/views.h"
#include "cli/eval.h"
#include "model_io/presets.h"
#include "model_test_util.h"
#include "app_test_util.h"

using nlohmann::json;
using posenc::app::App;
using posenc::test::cell;
using posenc::test::export_of;
using posenc::test::model_op;
using posenc::test::notice_keys;
using posenc::test::preset_json;
using posenc::test::state_value;
using posenc::test::table;

namespace {

// A fresh app loaded with `app`'s whole state has the same state and the same export.
void expect_round_trip(App& app) {
  App again;
  again.load_state_query(app.state_query());
  EXPECT_EQ(again.state_query(), app.state_query());
  EXPECT_EQ(posenc::app::export_json(again.export_data()), posenc::app::export_json(app.export_data()));
  EXPECT_EQ(again.notices(), app.notices());
}

}  // namespace

// ---------------------------------------------------------------- RoPE view

TEST(ModelLink, RopeViewExportIsTheModelOpsRope) {
  for (const char* id :
       {"llama-3.1-8b", "llama-3.2-1b", "qwen2.5-7b-yarn", "gpt-neox-20b", "gpt-j-6b", "llama-2-7b", "mistral-7b"}) {
    SCOPED_TRACE(id);
    App app;
    app.load_state_query(std::string("view=rope&model=") + id);
    EXPECT_EQ(app.notices(), "");
    const json rope = model_op(preset_json(id))["rope"];
    const json exported = export_of(app);
    const json& pairs = table(exported, "pairs");
    const json& inv = rope["inv_freq"];
    ASSERT_EQ(pairs["rows"].size(), inv.size());
    for (size_t k = 0; k < inv.size(); ++k)
      EXPECT_EQ(cell(pairs, int(k), "inv_freq_scaled"), inv[k].get<double>()) << "pair " << k;
    const json& summary = table(exported, "summary");
    EXPECT_EQ(cell(summary, 0, "dim"), rope["rotary_dim"].get<double>());
    EXPECT_EQ(cell(summary, 0, "base"), rope["base"].get<double>());
    EXPECT_EQ(cell(summary, 0, "attention_scaling"), rope["attention_scaling"].get<double>());
    EXPECT_EQ(cell(summary, 0, "orig"), rope["original_max_position_embeddings"].get<double>());
    EXPECT_EQ(cell(summary, 0, "target"), rope["max_position_embeddings"].get<double>());
    EXPECT_EQ(state_value(app, "scaling"),
              rope["rope_type"] == "default" ? std::string("none") : rope["rope_type"].get<std::string>());
    // The pairs' classes are the Model view's (one rule: rotates fully in training / interpolated / extrapolated).
    App model;
    model.load_state_query(std::string("view=model&model=") + id);
    const json model_export = export_of(model);
    const json& card = table(model_export, "rope: summary");
    EXPECT_EQ(cell(summary, 0, "full_turns"), cell(card, 0, "full_turns"));
    EXPECT_EQ(cell(summary, 0, "interpolated"), cell(card, 0, "interpolated"));
    EXPECT_EQ(cell(summary, 0, "extrapolated"), cell(card, 0, "extrapolated"));
    expect_round_trip(app);
  }
}

TEST(ModelLink, RopeViewFillsItsOwnKeysAndAnEditedKeyWins) {
  App app;
  app.load_state_query("view=rope&model=llama-3.1-8b");
  // Llama-3.1-8B's config.json: head_dim 128, rope_theta 500000, llama3 factor 8 (low 1, high 4), 8192 -> 131072.
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{{"model", "llama-3.1-8b"},
                                                                                   {"dim", "128"},
                                                                                   {"base", "500000"},
                                                                                   {"scaling", "llama3"},
                                                                                   {"factor", "8"},
                                                                                   {"low_freq_factor", "1"},
                                                                                   {"high_freq_factor", "4"},
                                                                                   {"orig", "8192"},
                                                                                   {"target", "131072"}})
    EXPECT_EQ(state_value(app, key), value) << key;
  // A key given after the model wins; the model key stays and the state round-trips.
  App edited;
  edited.load_state_query("view=rope&model=llama-3.1-8b&base=20000&factor=4");
  EXPECT_EQ(state_value(edited, "model"), "llama-3.1-8b");
  EXPECT_EQ(state_value(edited, "base"), "20000");
  EXPECT_EQ(state_value(edited, "factor"), "4");
  EXPECT_EQ(state_value(edited, "orig"), "8192");
  EXPECT_EQ(edited.notices(), "");
  expect_round_trip(edited);
  // The page merges a partial state into the whole one (setState): editing one key keeps the others.
  App merged;
  merged.load_state_query(app.state_query());
  auto s = posenc::app::parse_query(merged.state_query());
  s["base"] = "20000";
  merged.load_state_query(posenc::app::to_query(s));
  EXPECT_EQ(state_value(merged, "base"), "20000");
  EXPECT_EQ(state_value(merged, "scaling"), "llama3");
  // model= (none) keeps the keys as they are.
  App none;
  none.load_state_query("view=rope&model=llama-3.1-8b");
  none.load_state_query("view=rope&model=");
  EXPECT_EQ(state_value(none, "model"), "");
  EXPECT_EQ(state_value(none, "base"), "500000");
}

TEST(ModelLink, RopeViewSaysWhatItCannotShow) {
  // Phi-3-mini-128k: LongRoPE's 48 + 48 per-pair factors have no key in the RoPE view.
  App phi;
  phi.load_state_query("view=rope&model=phi-3-mini-128k");
  EXPECT_EQ(notice_keys(phi), std::vector<std::string>{"model"});
  EXPECT_NE(phi.notices().find("LongRoPE"), std::string::npos) << phi.notices();
  EXPECT_EQ(state_value(phi, "scaling"), "none");
  EXPECT_EQ(state_value(phi, "dim"), "96");     // 3072 / 32
  EXPECT_EQ(state_value(phi, "orig"), "4096");  // top-level original_max_position_embeddings
  EXPECT_EQ(state_value(phi, "target"), "131072");
  // Once a key is edited the view shows the keys, and says nothing about the model any more.
  phi.load_state_query(phi.state_query() + "&base=20000");
  EXPECT_EQ(phi.notices(), "");
  // Gemma-3: the sliding-window layers' RoPE (base 10000) is another layer type; DeepSeek-V3: mscale^2 on q.k.
  App gemma;
  gemma.load_state_query("view=rope&model=gemma-3-1b");
  EXPECT_NE(gemma.notices().find("sliding_attention"), std::string::npos) << gemma.notices();
  EXPECT_EQ(state_value(gemma, "base"), "1e+06");
  App deepseek;
  deepseek.load_state_query("view=rope&model=deepseek-v3");
  EXPECT_EQ(notice_keys(deepseek), std::vector<std::string>{"model"});
  EXPECT_NE(deepseek.notices().find("multiplies q.k"), std::string::npos) << deepseek.notices();
  EXPECT_EQ(state_value(deepseek, "dim"), "64");  // qk_rope_head_dim
  EXPECT_EQ(state_value(deepseek, "mscale_all_dim"), "1");
  // A model without RoPE leaves the keys alone, and says so.
  App bloom;
  bloom.load_state_query("view=rope&model=bloom");
  EXPECT_EQ(notice_keys(bloom), std::vector<std::string>{"model"});
  EXPECT_EQ(state_value(bloom, "dim"), "128");
  // The strict CLI load takes these states (the notes are warnings there).
  std::string field, message;
  App strict;
  EXPECT_TRUE(strict.load_state_query_strict("view=rope&model=phi-3-mini-128k", field, message)) << message;
  EXPECT_EQ(strict.view_notes().size(), 1u);
  // An unknown model is a notice on `model`, nothing else changes.
  App unknown;
  unknown.load_state_query("view=rope&model=no-such-model");
  EXPECT_EQ(notice_keys(unknown), std::vector<std::string>{"model"});
}

// ---------------------------------------------------------------- scores view

TEST(ModelLink, ScoresViewTakesEachPositionKind) {
  struct Case {
    const char* id;
    std::vector<std::pair<std::string, std::string>> keys;
    std::vector<std::string> notes;  // notice keys
  };
  const std::vector<Case> cases = {
      {"llama-3.1-8b",
       {{"scheme", "rope"},
        {"d", "128"},
        {"base", "500000"},
        {"rotary_dim", "0"},
        {"layout", "half"},
        {"scaling", "llama3"},
        {"factor", "8"},
        {"orig", "8192"}},
       {}},
      {"gpt-neox-20b", {{"scheme", "rope"}, {"d", "96"}, {"rotary_dim", "24"}, {"layout", "half"}, {"scaling", "none"}}, {}},
      {"gpt-j-6b", {{"scheme", "rope"}, {"d", "256"}, {"rotary_dim", "64"}, {"layout", "interleaved"}}, {}},
      {"qwen2.5-7b-yarn", {{"scheme", "rope"}, {"d", "128"}, {"scaling", "yarn"}, {"factor", "4"}, {"orig", "32768"}}, {}},
      {"deepseek-v3",
       {{"scheme", "rope"},
        {"d", "192"},
        {"rotary_dim", "64"},
        {"layout", "interleaved"},
        {"scaling", "yarn"},
        {"factor", "40"},
        {"mscale", "1"},
        {"mscale_all_dim", "1"}},
       {"model"}},
      {"bloom", {{"scheme", "alibi"}, {"d", "128"}, {"heads", "112"}, {"head", "0"}}, {}},
      {"mpt-7b", {{"scheme", "alibi"}, {"d", "128"}, {"heads", "32"}}, {}},
      {"t5-base", {{"scheme", "t5"}, {"d", "64"}, {"buckets", "32"}, {"max_distance", "128"}, {"causal", "0"}}, {}},
      {"deberta-v3-base", {{"scheme", "deberta"}, {"d", "64"}, {"deberta_buckets", "256"}, {"deberta_max_position", "512"}}, {}},
      {"gpt2", {{"scheme", "sinusoidal"}, {"d", "64"}}, {"model"}},
      {"phi-3-mini-128k", {{"scheme", "rope"}, {"d", "96"}, {"scaling", "none"}}, {"model"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.id);
    App app;
    app.load_state_query(std::string("view=scores&n=16&model=") + c.id);
    EXPECT_EQ(notice_keys(app), c.notes) << app.notices();
    for (const auto& [key, value] : c.keys) EXPECT_EQ(state_value(app, key), value) << key;
    const json model = model_op(preset_json(c.id));
    EXPECT_EQ(std::stoi(state_value(app, "d")), model["head_dim"].get<int>());
    const json exported = export_of(app);
    if (model["position"] == "rope" && state_value(app, "scaling") != "none") {
      // The frequencies behind the scores are the model's (llama3 / yarn do not depend on the length).
      const json& t = table(exported, "rope: frequencies");
      const json& inv = model["rope"]["inv_freq"];
      ASSERT_EQ(t["rows"].size(), inv.size());
      for (size_t k = 0; k < inv.size(); ++k) EXPECT_EQ(cell(t, int(k), "inv_freq"), inv[k].get<double>()) << k;
      EXPECT_NE(t["name"].get<std::string>().find("attention_scaling " +
                                                  posenc::app::format_number(model["rope"]["attention_scaling"].get<double>())),
                std::string::npos)
          << t["name"];
    }
    if (model["position"] == "alibi") {
      EXPECT_EQ(cell(table(exported, "alibi: slope"), 0, "slope"), model["alibi"]["slopes"][0].get<double>());
    }
    expect_round_trip(app);
  }
}

TEST(ModelLink, ScoresViewRopeLogitsFollowTheModelsRotation) {
  // GPT-NeoX-20B rotates 24 of 96 dims (half layout): with every token the same, the logits depend on j - i
  // only, and the 72 pass-through dims add the same content term to every cell.
  App app;
  app.load_state_query("view=scores&n=12&content=constant&model=gpt-neox-20b");
  const json exported = export_of(app);
  const json& logits = table(exported, "logits");
  // GPT-NeoX is a decoder: the model turns the causal mask on, so the cells compared are those it leaves (j < i).
  for (int i = 1; i < 12; ++i)
    for (int j = 1; j < i; ++j)
      EXPECT_NEAR(logits["rows"][i][j + 1].get<double>(), logits["rows"][i - 1][j].get<double>(), 1e-12) << i << "," << j;
}

TEST(ModelLink, ALoadedConfigFillsTheViewItIsLoadedIn) {
  const json config = {{"model_type", "qwen2"},
                       {"hidden_size", 3584},
                       {"num_attention_heads", 28},
                       {"max_position_embeddings", 131072},
                       {"rope_theta", 1000000.0},
                       {"rope_scaling", {{"type", "yarn"}, {"factor", 4.0}, {"original_max_position_embeddings", 32768}}}};
  const std::string text = config.dump();
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  for (const char* view : {"rope", "scores"}) {
    SCOPED_TRACE(view);
    App app;
    app.load_state_query(std::string("view=") + view);
    const std::string query = posenc::app::load_model_bytes(bytes, text.size(), view);
    EXPECT_NE(query.find(std::string("view=") + view), std::string::npos) << query;
    EXPECT_NE(query.find("model=custom"), std::string::npos) << query;
    app.load_state_query(query);
    EXPECT_EQ(app.notices(), "");
    EXPECT_EQ(state_value(app, "scaling"), "yarn");
    EXPECT_EQ(state_value(app, "factor"), "4");
    EXPECT_EQ(state_value(app, "orig"), "32768");
    // From the URL alone (a shared link): the keys carry the config.
    App fresh;
    fresh.load_state_query(app.state_query());
    EXPECT_EQ(fresh.notices(), "");
    EXPECT_EQ(posenc::app::export_json(fresh.export_data()), posenc::app::export_json(app.export_data()));
  }
  // A view that takes no model sends the page to the Model view; a bad config is a notice naming its key.
  {
    App toy;  // (every live app's views receive a loaded model: one app at a time here, as in the page)
    toy.load_state_query("view=toy");
    EXPECT_NE(posenc::app::load_model_bytes(bytes, text.size(), "toy").find("view=model"), std::string::npos);
  }
  const std::string bad = R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
                              "max_position_embeddings": 4096,
                              "rope_scaling": {"rope_type": "linear", "factor": "four"}})";
  App rope;
  rope.load_state_query("view=rope");
  rope.load_state_query(posenc::app::load_model_bytes(reinterpret_cast<const unsigned char*>(bad.data()), bad.size(), "rope"));
  EXPECT_EQ(notice_keys(rope), std::vector<std::string>{"rope_scaling.factor"});
}
