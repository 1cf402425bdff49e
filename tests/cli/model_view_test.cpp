// The Model view in-process: for presets and a loaded config, its export (the double numbers behind the
// picture) matches the `model` op of posenc eval for the same config, and its state round-trips.
//
// Sections: every preset against the model op · loaded configs and bad ones · switching models and failed
// loads · pair classes · the layer strip, extension and unread keys · compare · Gemma 4 as itself.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "app/app.h"
#include "app/model_link.h"
#include "app/state_params.h"
#include "core/analysis/rope_analysis.h"
#include "core/encodings/rope.h"
#include "core/models/model_config.h"
#include "app/views/views.h"
#include "cli/eval.h"
#include "model_io/presets.h"
#include "model_test_util.h"

using nlohmann::json;
using posenc::app::App;
using posenc::test::cell;
using posenc::test::export_of;
using posenc::test::model_op;
using posenc::test::notice_keys;
using posenc::test::preset_json;
using posenc::test::table;

namespace {

// One rope object of the `model` response against the view's "<name>: summary" and "<name>: pairs" tables.
void expect_rope(const json& exported, const std::string& name, const json& rope, int head_dim) {
  const json& summary = table(exported, name + ": summary");
  EXPECT_NE(summary["name"].get<std::string>().find(rope["rope_type"].get<std::string>()), std::string::npos);
  EXPECT_NE(summary["name"].get<std::string>().find(rope["layout"].get<std::string>()), std::string::npos);
  EXPECT_EQ(cell(summary, 0, "rotary_dim"), rope["rotary_dim"].get<double>());
  EXPECT_EQ(cell(summary, 0, "base"), rope["base"].get<double>());
  EXPECT_EQ(cell(summary, 0, "attention_scaling"), rope["attention_scaling"].get<double>());
  EXPECT_EQ(cell(summary, 0, "softmax_scale"), rope["softmax_scale"].get<double>());
  EXPECT_EQ(cell(summary, 0, "max_position_embeddings"), rope["max_position_embeddings"].get<double>());
  EXPECT_EQ(cell(summary, 0, "original_max_position_embeddings"), rope["original_max_position_embeddings"].get<double>());
  const json& pairs = table(exported, name + ": pairs");
  const json& inv = rope["inv_freq"];
  ASSERT_EQ(pairs["rows"].size(), inv.size());
  for (size_t i = 0; i < inv.size(); ++i) EXPECT_EQ(cell(pairs, int(i), "inv_freq"), inv[i].get<double>()) << name << " " << i;
  // The pair classes at max_position_embeddings, by the same rule (rope_pair_counts).
  const json& c = rope["pairs_at_max"];
  EXPECT_EQ(cell(summary, 0, "full_turns"), c["full_turn"].get<double>()) << name;
  EXPECT_EQ(cell(summary, 0, "less_than_once"), c["less_than_once"].get<double>()) << name;
  EXPECT_EQ(cell(summary, 0, "interpolated"), c["interpolated"].get<double>()) << name;
  EXPECT_EQ(cell(summary, 0, "extrapolated"), c["extrapolated"].get<double>()) << name;
  EXPECT_EQ(cell(summary, 0, "no_rotation"), c["no_rotation"].get<double>()) << name;
  // The width of the heads this RoPE rotates: the model's head_dim unless the layer type has its own.
  EXPECT_EQ(cell(summary, 0, "head_dim"), rope["head_dim"].get<double>()) << name;
  if (name != "layers.full_attention") { EXPECT_EQ(rope["head_dim"].get<int>(), head_dim) << name; }
}

void expect_matches(const json& exported, const json& model) {
  const json& head = table(exported, "model: ");
  EXPECT_EQ(head["name"], "model: " + model["model_type"].get<std::string>() + " (" + model["position"].get<std::string>() + ")");
  EXPECT_EQ(cell(head, 0, "head_dim"), model["head_dim"].get<double>());
  EXPECT_EQ(cell(head, 0, "num_attention_heads"), model["num_attention_heads"].get<double>());
  EXPECT_NE(head["name"].get<std::string>().find(model["position"].get<std::string>()), std::string::npos);
  const std::string position = model["position"];
  if (position == "rope") {
    if (model.contains("layers")) {
      for (const auto& [name, rope] : model["layers"].items()) expect_rope(exported, "layers." + name, rope, model["head_dim"]);
    } else {
      expect_rope(exported, "rope", model["rope"], model["head_dim"]);
    }
  } else if (position == "alibi") {
    const json& t = table(exported, "alibi: slopes");
    const json& slopes = model["alibi"]["slopes"];
    ASSERT_EQ(t["rows"].size(), slopes.size());
    for (size_t h = 0; h < slopes.size(); ++h) EXPECT_EQ(cell(t, int(h), "slope"), slopes[h].get<double>());
  } else if (position == "t5") {
    const json& t = table(exported, "t5");
    EXPECT_EQ(cell(t, 0, "num_buckets"), model["t5"]["num_buckets"].get<double>());
    EXPECT_EQ(cell(t, 0, "max_distance"), model["t5"]["max_distance"].get<double>());
  }
}

}  // namespace

namespace {
// The notices a preset's Model view gives: one per key the model op lists under unread_keys, named by it.
std::vector<std::string> unread_of(const char* id) {
  std::vector<std::string> out;
  const json response = model_op(preset_json(id));
  for (const json& k : response["unread_keys"]) out.push_back(k.get<std::string>());
  for (size_t i = 0; i < response["assumptions"].size(); ++i) out.push_back("model");  // one notice per assumption
  return out;
}
}  // namespace

// Every preset: the view renders the model it was given (no "edited", the model's own model_type, every layer
// type's RoPE and pair classes as the model op reads them), and its saved state loads back to the same numbers.
TEST(ModelView, PresetExportMatchesModelOp) {
  for (const auto& preset : posenc::model_io::model_presets()) {
    const char* id = preset.id.c_str();
    SCOPED_TRACE(id);
    App app;
    app.load_state_query(std::string("view=model&model=") + id);
    EXPECT_EQ(notice_keys(app), unread_of(id));
    expect_matches(export_of(app), model_op(preset_json(id)));
    EXPECT_EQ(app.notices().find("edited"), std::string::npos);
    // The saved state (model plus every positional key) loads back to the same numbers.
    App again;
    again.load_state_query(app.state_query());
    EXPECT_EQ(notice_keys(again), unread_of(id));
    EXPECT_EQ(again.state_query(), app.state_query());
    EXPECT_EQ(posenc::app::export_json(again.export_data()), posenc::app::export_json(app.export_data()));
  }
}

TEST(ModelView, LoadedConfigMatchesModelOpAndRoundTripsByItsKeys) {
  const json config = {{"model_type", "llama"},
                       {"hidden_size", 2048},
                       {"num_attention_heads", 16},
                       {"max_position_embeddings", 65536},
                       {"rope_theta", 500000.0},
                       {"rope_scaling",
                        {{"rope_type", "yarn"},
                         {"factor", 8.0},
                         {"original_max_position_embeddings", 8192},
                         {"beta_fast", 16.0},
                         {"mscale", 0.707},
                         {"mscale_all_dim", 1.0}}}};
  App app;
  app.load_state_query("view=toy");
  const std::string text = config.dump();
  const std::string query = posenc::app::load_model_bytes(reinterpret_cast<const unsigned char*>(text.data()), text.size());
  app.load_state_query(query);
  EXPECT_EQ(app.notices(), "");
  EXPECT_EQ(std::string(app.current_view()->id()), "model");
  EXPECT_NE(query.find("model=custom"), std::string::npos);
  const json model = model_op(config);
  expect_matches(export_of(app), model);
  // A fresh app gets the same numbers from the URL alone (the positional keys).
  App fresh;
  fresh.load_state_query(app.state_query());
  EXPECT_EQ(fresh.notices(), "");
  json from_url = export_of(fresh);
  expect_rope(from_url, "rope", model["rope"], 128);
}

TEST(ModelView, BadConfigIsANoticeNamingTheKeyPath) {
  App app;
  app.load_state_query("view=model");
  const std::string bad =
      R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 4096,
                              "rope_scaling": {"rope_type": "linear", "factor": "four"}})";
  app.load_state_query(posenc::app::load_model_bytes(reinterpret_cast<const unsigned char*>(bad.data()), bad.size()));
  const auto notices = app.notice_list();
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_EQ(notices[0].key, "rope_scaling.factor");
  const std::string broken = "{\"model_type\": ";
  app.load_state_query(posenc::app::load_model_bytes(reinterpret_cast<const unsigned char*>(broken.data()), broken.size()));
  ASSERT_EQ(app.notice_list().size(), 1u);
  EXPECT_EQ(app.notice_list()[0].key, "model");
  // An unknown preset id is a notice on `model`; nothing crashes.
  App other;
  other.load_state_query("view=model&model=no-such-model");
  ASSERT_FALSE(other.notice_list().empty());
  EXPECT_EQ(other.notice_list()[0].key, "model");
}

namespace {

const unsigned char* bytes_of(const std::string& s) { return reinterpret_cast<const unsigned char*>(s.data()); }

// The page's loadModel: the bytes into every view that takes models, then the state query it returns.
void load_config(App& app, const std::string& text) {
  app.load_state_query(posenc::app::load_model_bytes(bytes_of(text), text.size(), app.current_view()->id()));
}

// A config whose rope_scaling.factor is a string: transformers' own validation rejects it (a float is
// required), and so does posenc, naming the key path.
const char* const kStringFactor = R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
  "max_position_embeddings": 131072, "rope_theta": 500000.0,
  "rope_scaling": {"rope_type": "llama3", "factor": "8.0", "original_max_position_embeddings": 8192}})";

}  // namespace

// Choosing a model by the URL or setState (the page sends view and model alone when the model changes)
// gives exactly the state a fresh ?view=model&model=<id> gives: nothing of the previous model's keys stays,
// whichever scheme came before (T5 and DeBERTa keys included).
TEST(ModelView, SwitchingModelsGivesTheFreshState) {
  const char* const ids[] = {
      "t5-base", "bloom", "phi-3-mini-128k", "deberta-v3-base", "llama-3.1-8b", "gemma-3-1b", "gpt2", "qwen2.5-7b-yarn", "bloom"};
  App app;
  app.load_state_query("view=model");
  for (const char* id : ids) {
    SCOPED_TRACE(id);
    app.load_state_query(std::string("view=model&model=") + id);
    App fresh;
    fresh.load_state_query(std::string("view=model&model=") + id);
    EXPECT_EQ(app.state_query(), fresh.state_query());
    EXPECT_EQ(notice_keys(app), unread_of(id));
    EXPECT_EQ(posenc::app::export_json(app.export_data()), posenc::app::export_json(fresh.export_data()));
  }
  // BLOOM after Llama: ALiBi with BLOOM's 112 heads, not Llama's 32 and rope keys.
  app.load_state_query("view=model&model=llama-3.1-8b");
  app.load_state_query("view=model&model=bloom");
  const auto state = posenc::app::parse_query(app.state_query());
  EXPECT_EQ(state.at("position"), "alibi");
  EXPECT_EQ(state.at("heads"), "112");
  EXPECT_EQ(state.at("rope_type"), "none");
  // The same model again keeps an edited key (nothing to switch).
  app.load_state_query("view=model&model=bloom&heads=8");
  app.load_state_query("view=model&model=bloom&heads=8");
  EXPECT_EQ(posenc::app::parse_query(app.state_query()).at("heads"), "8");
}

// A failed load, at any point, is a notice naming the key and changes nothing: the previous model stays,
// computed from its source (not "from the keys"), with the same numbers and the same state; the notice
// stays while the state is the one it failed in (the page loads that state again after a load).
TEST(ModelView, FailedLoadKeepsThePreviousModelAndSaysWhy) {
  for (const char* before : {"view=model&model=llama-3.1-8b", "view=model&model=bloom", "view=model&model=phi-3-mini-128k"}) {
    SCOPED_TRACE(before);
    App app;
    app.load_state_query("view=model&model=t5-base");
    app.load_state_query(before);
    const std::string state = app.state_query();
    const json exported = export_of(app);
    load_config(app, kStringFactor);
    ASSERT_EQ(app.notice_list().size(), 1u) << app.notices();
    EXPECT_EQ(app.notice_list()[0].key, "rope_scaling.factor");
    EXPECT_NE(app.notices().find("loading the model"), std::string::npos);
    EXPECT_EQ(app.state_query(), state);
    EXPECT_FALSE(app.current_view()->error().has_value());
    // The same numbers, and the first table still names the model's own model_type (exact, not "custom").
    EXPECT_EQ(export_of(app), exported);
    EXPECT_EQ(table(export_of(app), "model: ")["name"].get<std::string>().find("model: custom"), std::string::npos);
    // Loading the same state again (the page does after every load) keeps the notice.
    app.load_state_query(app.state_query());
    EXPECT_EQ(app.notice_list().size(), 1u);
    // Any change of state ends it.
    app.load_state_query("view=model&model=gpt2");
    EXPECT_EQ(notice_keys(app), unread_of("gpt2"));
  }
}

// A loaded config that then fails to load keeps the loaded config (model=custom, its numbers).
TEST(ModelView, FailedLoadAfterALoadedConfigKeepsIt) {
  const json config = {{"model_type", "qwen2"},
                       {"hidden_size", 3584},
                       {"num_attention_heads", 28},
                       {"max_position_embeddings", 131072},
                       {"rope_theta", 1000000.0},
                       {"rope_scaling", {{"type", "yarn"}, {"factor", 4.0}, {"original_max_position_embeddings", 32768}}}};
  App app;
  app.load_state_query("view=model");
  load_config(app, config.dump());
  ASSERT_EQ(app.notices(), "");
  const std::string state = app.state_query();
  const json exported = export_of(app);
  load_config(app, "{\"model_type\": ");
  ASSERT_EQ(app.notice_list().size(), 1u);
  EXPECT_EQ(app.notice_list()[0].key, "model");
  EXPECT_EQ(app.state_query(), state);
  EXPECT_EQ(export_of(app), exported);
}

// Pair classes as the Model view says them: an unscaled model has nothing "interpolated" (Gemma-3-1B at its
// 32768 trained length: its slow pairs turn less than once there); LongRoPE (Phi-3-mini-128k) counts each
// length with the factors in force there: at 131072 the long factors, as the reader gives them for
// seq_len 131072 (transformers' _compute_longrope_parameters: long iff seq_len > original).
TEST(ModelView, PairClassesSayWhatThePairsDoAtTheLengthNamed) {
  auto described = [](App& app) { return json::parse(app.describe())["numbers"]; };
  for (const char* id : {"gemma-3-1b", "llama-2-7b", "gpt-neox-20b", "qwen2-7b", "mistral-7b"}) {
    SCOPED_TRACE(id);
    App app;
    app.load_state_query(std::string("view=model&model=") + id);
    for (const json& n : described(app)) EXPECT_EQ(n["name"].get<std::string>().find("interpolated"), std::string::npos) << n;
  }
  App gemma;
  gemma.load_state_query("view=model&model=gemma-3-1b");
  bool less_than_once = false;
  for (const json& n : described(gemma))
    less_than_once |= n["name"].get<std::string>().find("turn less than once") != std::string::npos && n["value"] > 0;
  EXPECT_TRUE(less_than_once);

  App phi;
  phi.load_state_query("view=model&model=phi-3-mini-128k");
  const posenc::ModelPosition at_max = posenc::read_hf_config(posenc::model_io::preset_config("phi-3-mini-128k"), 131072);
  const posenc::ModelRope& r = *at_max.rope;
  ASSERT_TRUE(r.frequencies.long_factors);
  using posenc::PairBehaviour;
  posenc::PairBehaviourCounts expected{};
  const std::vector<double> plain = posenc::rope_default_inv_freq(r.rotary_dim, r.base);
  for (size_t k = 0; k < plain.size(); ++k)
    ++expected[size_t(posenc::pair_behaviour(plain[k], r.frequencies.inv_freq[k], 4096, 131072))];
  EXPECT_EQ(expected[size_t(PairBehaviour::Extrapolated)], 0);  // the long factors keep every pair within the trained angles
  const json phi_export = export_of(phi);
  const json& summary = table(phi_export, "rope: summary");
  EXPECT_EQ(cell(summary, 0, "full_turns"), expected[size_t(PairBehaviour::FullTurn)]);
  EXPECT_EQ(cell(summary, 0, "interpolated"), expected[size_t(PairBehaviour::Interpolated)]);
  EXPECT_EQ(cell(summary, 0, "extrapolated"), expected[size_t(PairBehaviour::Extrapolated)]);
  EXPECT_EQ(cell(summary, 0, "less_than_once"), expected[size_t(PairBehaviour::LessThanOnce)]);
  // The export says what the card says: Llama-2-7B (no scaling) has nothing interpolated in its summary or
  // its pairs' classes (1 = less than once, 2 = interpolated).
  App llama2;
  llama2.load_state_query("view=model&model=llama-2-7b");
  const json unscaled_export = export_of(llama2);
  const json& unscaled_summary = table(unscaled_export, "rope: summary");
  EXPECT_EQ(cell(unscaled_summary, 0, "interpolated"), 0.0);
  EXPECT_GT(cell(unscaled_summary, 0, "less_than_once"), 0.0);
  const json& unscaled_pairs = table(unscaled_export, "rope: pairs");
  int slow = 0;
  for (size_t k = 0; k < unscaled_pairs["rows"].size(); ++k) {
    EXPECT_NE(cell(unscaled_pairs, int(k), "class"), 2.0) << "pair " << k;
    slow += cell(unscaled_pairs, int(k), "class") == 1.0;
  }
  EXPECT_EQ(double(slow), cell(unscaled_summary, 0, "less_than_once"));
  double long_interpolated = -1, long_exceed = -1;
  for (const json& n : described(phi)) {
    const std::string name = n["name"];
    if (name == "pairs at 131072 (long factors) that interpolated (kept within the trained angles)")
      long_interpolated = n["value"];
    if (name.find("pairs at 131072 (long factors) that would exceed") == 0) long_exceed = n["value"];
  }
  EXPECT_EQ(long_interpolated, expected[size_t(PairBehaviour::Interpolated)]);
  EXPECT_EQ(long_exceed, -1);  // no pair: not listed among the numbers
}

// The layer strip's data, the context-extension panel and the unread keys, in-process. The extension
// numbers are core/analysis/context_extension's for the model's own RoPE (Llama-3.1-8B: rotary 128, theta
// 5e5, original 8192; the literals are tests/data/context_extension_reference.py's, as in
// context_extension_test.cpp), so the view uses the trained length L = original_max_position_embeddings.
TEST(ModelView, LayerStripExtensionAndUnreadKeys) {
  App llama;
  llama.load_state_query("view=model&model=llama-3.1-8b&target_len=131072");
  EXPECT_EQ(llama.notices(), "");
  EXPECT_TRUE(llama.notice_list().empty());
  const json ex = export_of(llama);
  const json& ext = table(ex, "context extension to 131072 from 8192");
  // rows: none, linear, dynamic, yarn, llama3, longrope
  const int want[5][6] = {
      {35, 0, 29, 64, 0, 0}, {35, 29, 0, 0, 64, 0}, {35, 29, 0, 1, 0, 63}, {35, 29, 0, 19, 29, 16}, {35, 29, 0, 29, 29, 6}};
  const char* cols[6] = {"full_turn", "interpolated", "extrapolated", "kept", "divided", "blended"};
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 6; ++c) EXPECT_EQ(cell(ext, r, cols[c]), want[r][c]) << r << " " << cols[c];
  EXPECT_EQ(cell(ext, 3, "factor"), 16.0);
  EXPECT_EQ(cell(ext, 3, "original_max_position_embeddings"), 8192.0);
  EXPECT_EQ(cell(ext, 3, "max_position_embeddings"), 131072.0);
  EXPECT_EQ(cell(ext, 2, "max_position_embeddings"), 8192.0);  // dynamic reads L there
  EXPECT_EQ(cell(ext, 5, "counted"), 0.0);
  // Every layer: Llama 3.1 has 32 full RoPE layers.
  const json& layers = table(ex, "layers (");
  ASSERT_EQ(layers["rows"].size(), 32u);
  for (int i = 0; i < 32; ++i) {
    EXPECT_EQ(cell(layers, i, "attention"), 0.0);
    EXPECT_EQ(cell(layers, i, "rope"), 1.0);
  }

  // gpt-oss-20b: alternating sliding 128 / full layers with sinks; initial_context_length is not read.
  App oss;
  oss.load_state_query("view=model&model=gpt-oss-20b");
  const auto notes = oss.notice_list();
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].key, "initial_context_length");
  const json oss_export = export_of(oss);
  const json& ol = table(oss_export, "layers (");
  for (size_t i = 0; i < ol["rows"].size(); ++i) {
    EXPECT_EQ(cell(ol, int(i), "attention"), i % 2 == 0 ? 1.0 : 0.0) << i;
    EXPECT_EQ(cell(ol, int(i), "window"), i % 2 == 0 ? 128.0 : 0.0) << i;
    EXPECT_EQ(cell(ol, int(i), "sinks"), 1.0) << i;
  }
  const std::string words = json::parse(oss.describe())["formula"];
  EXPECT_NE(words.find("sliding attention (window 128), RoPE, causal, sinks"), std::string::npos) << words;
}

// compare=<preset>: both models' tables (the second's led by "compare "), the numeric differences, and the
// description carrying them; a second model loaded from a file is compare=custom, which a link cannot carry.
TEST(ModelView, CompareShowsBothAndTheirDifferences) {
  App app;
  app.load_state_query("view=model&model=llama-3.1-8b&compare=qwen2-7b");
  EXPECT_EQ(app.current_view()->error(), std::nullopt);
  const json exported = export_of(app);
  EXPECT_EQ(table(exported, "model: ")["name"], "model: llama (rope)");
  EXPECT_EQ(table(exported, "compare model: ")["name"], "compare model: qwen2 (rope)");
  const json& b = table(exported, "compare rope: summary");
  EXPECT_EQ(cell(b, 0, "base"), 1e6);
  const json& d = table(exported, "compare: differences");
  EXPECT_EQ(cell(d, 0, "rope.base"), 500000.0);
  EXPECT_EQ(cell(d, 1, "rope.base"), 1e6);
  EXPECT_NE(app.current_view()->formula_words().find("Compared with Qwen2-7B"), std::string::npos);
  EXPECT_NE(app.current_view()->formula_words().find("rope.base 500000 vs 1000000"), std::string::npos);
  // The state carries compare and round-trips.
  App again;
  again.load_state_query(app.state_query());
  EXPECT_EQ(posenc::app::export_json(again.export_data()), posenc::app::export_json(app.export_data()));
  // A second model from a file.
  const std::string text = preset_json("gemma-3-1b").dump();
  app.load_state_query(app.load_model(reinterpret_cast<const unsigned char*>(text.data()), text.size(), "compare"));
  EXPECT_EQ(posenc::app::parse_query(app.state_query()).at("compare"), "custom");
  EXPECT_EQ(table(export_of(app), "compare model: ")["name"], "compare model: gemma3_text (rope)");
  bool said = false;
  for (const auto& n : app.notice_list()) said |= n.key == "compare";
  EXPECT_TRUE(said);
  // Dropping the comparison.
  app.load_state_query("view=model&model=llama-3.1-8b&compare=");
  for (const json& t : export_of(app)["tables"]) EXPECT_EQ(t["name"].get<std::string>().rfind("compare", 0), std::string::npos);
}

// A fresh ?view=model&model=gemma-4-31b renders Gemma 4 itself: full layers 512 rotary dims over 256 pairs
// (64 rotating), sliding layers at base 1e4; no "edited".
TEST(ModelView, Gemma4IsTheModelItself) {
  App app;
  app.load_state_query("view=model&model=gemma-4-31b");
  const json exported = export_of(app);
  EXPECT_EQ(table(exported, "model: ")["name"], "model: gemma4 (rope)");
  const json& full = table(exported, "layers.full_attention: summary");
  EXPECT_EQ(cell(full, 0, "rotary_dim"), 512.0);
  EXPECT_EQ(cell(full, 0, "head_dim"), 512.0);  // global_head_dim: the full layers' own width
  EXPECT_EQ(cell(full, 0, "no_rotation"), 192.0);
  EXPECT_EQ(cell(table(exported, "layers.sliding_attention: summary"), 0, "base"), 10000.0);
  EXPECT_EQ(cell(table(exported, "layers.sliding_attention: summary"), 0, "head_dim"), 256.0);
  EXPECT_EQ(cell(table(exported, "model: "), 0, "head_dim"), 256.0);
  // An edit applies to the main (full-attention) RoPE and is said.
  app.load_state_query("view=model&model=gemma-4-31b&base=500000");
  const json edited = export_of(app);
  EXPECT_EQ(cell(table(edited, "layers.full_attention: summary"), 0, "base"), 500000.0);
  EXPECT_EQ(cell(table(edited, "layers.sliding_attention: summary"), 0, "base"), 10000.0);
  EXPECT_EQ(cell(table(edited, "layers.full_attention: summary"), 0, "rotary_dim"), 512.0);
  EXPECT_EQ(cell(table(edited, "layers.full_attention: summary"), 0, "head_dim"), 512.0);
  // head_dim edits the model's (the sliding layers') width; the full layers keep global_head_dim.
  app.load_state_query("view=model&model=gemma-4-31b&head_dim=128");
  const json narrow = export_of(app);
  EXPECT_EQ(cell(table(narrow, "model: "), 0, "head_dim"), 128.0);
  EXPECT_EQ(cell(table(narrow, "layers.sliding_attention: summary"), 0, "head_dim"), 128.0);
  EXPECT_EQ(cell(table(narrow, "layers.full_attention: summary"), 0, "head_dim"), 512.0);
}
