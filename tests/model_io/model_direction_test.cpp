// Every model drawn as it runs: which way each layer attends (encoders, T5's two stacks, Gemma's
// use_bidirectional_attention), blocks that mix no tokens (NAS no_op, Nemotron-H's MLP-only blocks), recurrent
// mixers, layers that attend only to the keys an indexer selects, per-layer RoPE bases (layer_rope_theta), the
// sources of softmax_scale, a model without max_position_embeddings, and one compare for inspect and the page.
//
// References (each test names the part it ports):
//  MB: huggingface/transformers@001f85b38fb432858ace93f18622f07cec46d874 models/modernbert/configuration_modernbert.py
//      (layer_types: sliding iff i % global_attn_every_n_layers; rope_parameters full_attention at global_rope_theta
//      160000, sliding_attention at local_rope_theta 10000; sliding_window = local_attention // 2) and
//      masking_utils.py sliding_window_bidirectional_overlay (|q_idx - kv_idx| <= sliding_window).
//  G3: huggingface/transformers@d98ac17cc00f337eeee9a1e2380072dc8cafabd4 models/gemma3/configuration_gemma3.py
//      (use_bidirectional_attention: sliding_window = sliding_window // 2 + 1, an exclusive bound).
//  T5: Zahgon/transformers@c0ce2e40523611eb0eb5d2c03ba304371523a1fc models/t5/configuration_t5.py
//      (num_decoder_layers defaults to num_layers) and modeling_t5.py (T5Stack: the decoder's self-attention is
//      causal, the encoder's is not).
//  BERT: the same commit, models/bert/modeling_bert.py (an encoder: no causal mask unless is_decoder).
//  RG: huggingface/transformers@f102bbb82d99299cf6d4075616c3df37a7d9dd4b models/recurrent_gemma/
//      configuration_recurrent_gemma.py (layers_block_type = (block_types * 100)[:num_hidden_layers],
//      attention_window_size 2048, partial_rotary_factor 0.5, no max_position_embeddings).
//  NAS: ggml-org/llama.cpp@00342301d01add50835550e8a916f12097d94517 src/llama-model.cpp LLM_ARCH_DECI and
//      convert_hf_to_gguf.py DeciModel (block_configs[i].attention.no_op: an attention-free layer;
//      replace_with_linear: a linear layer in its place).
//  DSA: huggingface/transformers@e87bd54b036fa273bb7c380014849bb0b19ff5d4 models/deepseek_v32/
//      configuration_deepseek_v32.py (index_topk keys per query, every layer).
//  MG: Muse Glimmer's text attention as mlx-vlm runs it (theta = layer_rope_theta[i], use_rope =
//      bool(layer_rope_theta[i]); q = qk_norm(q) * qk_scale_factor; scale = head_dim^-0.5).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/analysis/model_compare.h"
#include "core/models/model_config.h"
#include "model_io/config_json.h"
#include "model_io/presets.h"

using namespace posenc;
using nlohmann::json;

namespace {

ModelPosition read(const json& config) { return read_hf_config(model_io::config_from_json(config)); }

json model_json(const json& config) { return json::parse(model_io::model_position_json(read(config)).dump()); }

std::string read_error(const json& config) {
  try {
    read(config);
  } catch (const InvalidArgument& e) { return e.field(); }
  return "<ok>";
}

bool has_assumption(const ModelPosition& m, const std::string& what) {
  return std::any_of(m.assumptions.begin(), m.assumptions.end(), [&](const Assumption& a) { return a.what == what; });
}

bool unread(const ModelPosition& m, const std::string& key) {
  return std::find(m.unread_keys.begin(), m.unread_keys.end(), key) != m.unread_keys.end();
}

// answerdotai/ModernBERT-base's config.json (the keys about attention and positions, as published).
json modernbert_base() {
  return {{"model_type", "modernbert"},      {"hidden_size", 768},
          {"num_attention_heads", 12},       {"num_hidden_layers", 22},
          {"max_position_embeddings", 8192}, {"global_attn_every_n_layers", 3},
          {"local_attention", 128},          {"global_rope_theta", 160000.0},
          {"local_rope_theta", 10000.0}};
}

}  // namespace

// MB: layer i is global (full) iff i % 3 == 0, the rest a bidirectional window of local_attention // 2 = 64 each
// side; the global layers rotate at 160000, the local ones at 10000; no layer is causal.
TEST(ModelDirection, ModernBertV4Keys) {
  const ModelPosition m = read(modernbert_base());
  EXPECT_EQ(m.family, "ModernBERT");
  ASSERT_EQ(m.per_layer.size(), 22u);
  for (size_t i = 0; i < m.per_layer.size(); ++i) {
    const LayerSpec& l = m.per_layer[i];
    EXPECT_FALSE(l.causal) << i;
    EXPECT_TRUE(l.rope) << i;
    if (i % 3 == 0) {
      EXPECT_EQ(l.attention, LayerAttention::Full) << i;
      EXPECT_EQ(l.rope_key, "full_attention") << i;
    } else {
      EXPECT_EQ(l.attention, LayerAttention::Sliding) << i;
      EXPECT_EQ(l.window, 64) << i;
      EXPECT_EQ(l.rope_key, "sliding_attention") << i;
    }
  }
  ASSERT_EQ(m.layers.size(), 2u);
  EXPECT_EQ(m.layers[0].first, "full_attention");
  EXPECT_DOUBLE_EQ(m.layers[0].second.base, 160000.0);
  EXPECT_EQ(m.layers[1].first, "sliding_attention");
  EXPECT_DOUBLE_EQ(m.layers[1].second.base, 10000.0);
  EXPECT_EQ(m.head_dim, 64);
  EXPECT_FALSE(has_assumption(m, "causal"));
  EXPECT_FALSE(has_assumption(m, "base"));
  for (const char* k : {"global_attn_every_n_layers", "local_attention", "global_rope_theta", "local_rope_theta"})
    EXPECT_FALSE(unread(m, k)) << k;
  const json j = json::parse(model_io::model_position_json(m).dump());
  EXPECT_EQ(j["per_layer"][1]["causal"], false);
  EXPECT_EQ(j["per_layer"][1]["window"], 64);
}

// MB: the v5 form (layer_types and rope_parameters keyed by layer type) reads the same.
TEST(ModelDirection, ModernBertV5Keys) {
  json c = modernbert_base();
  c.erase("global_attn_every_n_layers");
  c.erase("global_rope_theta");
  c.erase("local_rope_theta");
  json types = json::array();
  for (int i = 0; i < 22; ++i) types.push_back(i % 3 ? "sliding_attention" : "full_attention");
  c["layer_types"] = types;
  c["rope_parameters"] = {{"full_attention", {{"rope_type", "default"}, {"rope_theta", 160000.0}}},
                          {"sliding_attention", {{"rope_type", "default"}, {"rope_theta", 10000.0}}}};
  const ModelPosition v5 = read(c), v4 = read(modernbert_base());
  ASSERT_EQ(v5.per_layer.size(), v4.per_layer.size());
  for (size_t i = 0; i < v5.per_layer.size(); ++i) {
    EXPECT_EQ(v5.per_layer[i].attention, v4.per_layer[i].attention) << i;
    EXPECT_EQ(v5.per_layer[i].window, v4.per_layer[i].window) << i;
    EXPECT_EQ(v5.per_layer[i].causal, v4.per_layer[i].causal) << i;
    EXPECT_EQ(v5.per_layer[i].rope_key, v4.per_layer[i].rope_key) << i;
  }
  EXPECT_TRUE(compare_models(v4, v5).empty()) << differences_text(compare_models(v4, v5));
}

// G3: EmbeddingGemma (gemma3_text, use_bidirectional_attention true, sliding_window 512): every layer
// bidirectional, the sliding layers' window 512 // 2 + 1 exclusive, |i - j| <= 256; false keeps the decoder's
// causal window of 512.
TEST(ModelDirection, GemmaBidirectionalAttention) {
  json c = {{"model_type", "gemma3_text"},     {"hidden_size", 768},
            {"num_attention_heads", 3},        {"head_dim", 256},
            {"num_hidden_layers", 24},         {"max_position_embeddings", 2048},
            {"sliding_window", 512},           {"rope_theta", 1000000.0},
            {"rope_local_base_freq", 10000.0}, {"use_bidirectional_attention", true}};
  const ModelPosition enc = read(c);
  ASSERT_EQ(enc.per_layer.size(), 24u);
  for (size_t i = 0; i < 24; ++i) {
    EXPECT_FALSE(enc.per_layer[i].causal) << i;
    if ((i + 1) % 6) { EXPECT_EQ(enc.per_layer[i].window, 256) << i; }
  }
  EXPECT_FALSE(unread(enc, "use_bidirectional_attention"));
  c["use_bidirectional_attention"] = false;
  const ModelPosition dec = read(c);
  for (size_t i = 0; i < 24; ++i) {
    EXPECT_TRUE(dec.per_layer[i].causal) << i;
    if ((i + 1) % 6) { EXPECT_EQ(dec.per_layer[i].window, 512) << i; }
  }
  c["use_bidirectional_attention"] = "sideways";
  EXPECT_EQ(read_error(c), "use_bidirectional_attention");
}

// Gemma 4: "vision" (image tokens only; text stays causal) and "all" (every token both ways).
TEST(ModelDirection, Gemma4VisionAndAll) {
  json c = {{"model_type", "gemma4_text"},     {"hidden_size", 1024},
            {"num_attention_heads", 8},        {"head_dim", 128},
            {"num_hidden_layers", 6},          {"sliding_window", 1024},
            {"max_position_embeddings", 8192}, {"use_bidirectional_attention", "vision"}};
  for (const LayerSpec& l : read(c).per_layer) EXPECT_TRUE(l.causal);
  c["use_bidirectional_attention"] = "all";
  for (const LayerSpec& l : read(c).per_layer) EXPECT_FALSE(l.causal);
}

// BERT: an encoder of learned absolute positions, every layer bidirectional; GPT-2 a causal decoder.
TEST(ModelDirection, LearnedEncodersAndDecoders) {
  const json bert = json::parse(model_io::model_position_json(read_hf_config(model_io::preset_config("bert-base"))).dump());
  ASSERT_EQ(bert["per_layer"].size(), 12u);
  for (const json& l : bert["per_layer"]) {
    EXPECT_EQ(l["causal"], false);
    EXPECT_EQ(l["attention"], "full");
    EXPECT_EQ(l["position"], "learned");
  }
  const json gpt2 = json::parse(model_io::model_position_json(read_hf_config(model_io::preset_config("gpt2"))).dump());
  ASSERT_EQ(gpt2["per_layer"].size(), 12u);
  for (const json& l : gpt2["per_layer"]) EXPECT_EQ(l["causal"], true);
  const json deberta =
      json::parse(model_io::model_position_json(read_hf_config(model_io::preset_config("deberta-v3-base"))).dump());
  ASSERT_EQ(deberta["per_layer"].size(), 12u);
  for (const json& l : deberta["per_layer"]) {
    EXPECT_EQ(l["causal"], false);
    EXPECT_EQ(l["position"], "deberta");
  }
}

// T5: the encoder stack (num_layers, bidirectional) then the decoder stack (num_decoder_layers, default
// num_layers, causal), each entry naming its stack.
TEST(ModelDirection, T5ListsBothStacks) {
  const json t5 = json::parse(model_io::model_position_json(read_hf_config(model_io::preset_config("t5-base"))).dump());
  ASSERT_EQ(t5["per_layer"].size(), 24u);
  for (int i = 0; i < 24; ++i) {
    EXPECT_EQ(t5["per_layer"][i]["stack"], i < 12 ? "encoder" : "decoder") << i;
    EXPECT_EQ(t5["per_layer"][i]["causal"], i >= 12) << i;
    EXPECT_EQ(t5["per_layer"][i]["position"], "t5") << i;
  }
  const ModelPosition m = read(
      {{"model_type", "t5"}, {"d_model", 512}, {"d_kv", 64}, {"num_heads", 8}, {"num_layers", 8}, {"num_decoder_layers", 2}});
  ASSERT_EQ(m.per_layer.size(), 10u);
  EXPECT_EQ(std::count_if(m.per_layer.begin(), m.per_layer.end(), [](const LayerSpec& l) { return l.stack == "decoder"; }), 2);
}

// A model_type outside the family table is drawn causal, and says so.
TEST(ModelDirection, UnknownFamilyAssumesCausal) {
  const ModelPosition m = read({{"model_type", "someone_new"},
                                {"hidden_size", 512},
                                {"num_attention_heads", 8},
                                {"num_hidden_layers", 4},
                                {"max_position_embeddings", 4096}});
  ASSERT_TRUE(has_assumption(m, "causal"));
  for (const LayerSpec& l : m.per_layer) EXPECT_TRUE(l.causal);
  const json j = json::parse(model_io::model_position_json(m).dump());
  bool named = false;
  for (const json& a : j["assumptions"]) named |= a["what"] == "causal" && a["value"] == "true";
  EXPECT_TRUE(named);
}

// Every preset: a model with a layer count lists every layer, each with its direction, and no known family
// assumes the direction.
TEST(ModelDirection, EveryPresetListsItsLayersWithDirection) {
  for (const model_io::ModelPreset& p : model_io::model_presets()) {
    const ModelPosition m = read_hf_config(model_io::preset_config(p.id));
    if (m.num_hidden_layers > 0) { EXPECT_GE(int(m.per_layer.size()), m.num_hidden_layers) << p.id; }
    EXPECT_EQ(has_assumption(m, "causal"), m.family.empty()) << p.id;
    const json j = json::parse(model_io::model_position_json(m).dump());
    for (const json& l : j.value("per_layer", json::array()))
      EXPECT_TRUE(l.contains("causal") && l["causal"].is_boolean()) << p.id;
  }
}

// NAS: a block whose attention is no_op mixes no tokens (reason no_op), one replaced by a linear layer neither
// (reason replace_with_linear); the rest attend as Llama does.
TEST(ModelLayerKinds, NemotronNasBlockConfigs) {
  auto block = [](bool no_op, bool linear, bool ffn_no_op) {
    return json{{"attention", {{"no_op", no_op}, {"replace_with_linear", linear}, {"n_heads_in_group", 8}}},
                {"ffn", {{"no_op", ffn_no_op}, {"replace_with_linear", false}, {"ffn_mult", 2.625}}}};
  };
  json c = {{"model_type", "nemotron-nas"},
            {"hidden_size", 8192},
            {"num_attention_heads", 64},
            {"num_hidden_layers", 4},
            {"max_position_embeddings", 131072},
            {"rope_theta", 500000.0},
            {"block_configs",
             {block(false, false, false), block(true, false, false), block(false, true, false), block(true, false, true)}}};
  const json j = model_json(c);
  ASSERT_EQ(j["per_layer"].size(), 4u);
  EXPECT_EQ(j["per_layer"][0]["attention"], "full");
  EXPECT_EQ(j["per_layer"][0]["position"], "rope");
  EXPECT_EQ(j["per_layer"][1]["attention"], "none");
  EXPECT_EQ(j["per_layer"][1]["reason"], "no_op");
  EXPECT_EQ(j["per_layer"][1]["position"], "none");
  EXPECT_EQ(j["per_layer"][2]["attention"], "none");
  EXPECT_EQ(j["per_layer"][2]["reason"], "replace_with_linear");
  EXPECT_EQ(j["per_layer"][3]["reason"], "no_op");
  EXPECT_EQ(j["per_layer"][3]["block"], "no_op");
  c["block_configs"].erase(3);
  EXPECT_EQ(read_error(c), "block_configs");
}

// Nemotron-H's MoE-only and MLP-only blocks: kind none, reason mlp_only.
TEST(ModelLayerKinds, NemotronHBlocksAreMlpOnly) {
  const ModelPosition m = read_hf_config(model_io::preset_config("nemotron-3-nano-30b-a3b"));
  int none = 0;
  for (const LayerSpec& l : m.per_layer)
    if (l.attention == LayerAttention::None) {
      ++none;
      EXPECT_EQ(l.reason, "mlp_only");
    }
  EXPECT_GT(none, 0);
}

// RG: RecurrentGemma-2b (no max_position_embeddings): read, the length an assumption; recurrent, recurrent,
// attention repeated; the attention layers local over 2048 keys; half the head rotates.
TEST(ModelLayerKinds, RecurrentGemmaWithoutMaxPositions) {
  const json c = {{"model_type", "recurrent_gemma"}, {"hidden_size", 2560},
                  {"num_attention_heads", 10},       {"num_hidden_layers", 26},
                  {"attention_window_size", 2048},   {"block_types", {"recurrent", "recurrent", "attention"}},
                  {"partial_rotary_factor", 0.5},    {"rope_theta", 10000.0}};
  const ModelPosition m = read(c);
  ASSERT_TRUE(m.rope);
  EXPECT_TRUE(has_assumption(m, "max_position_embeddings"));
  EXPECT_EQ(m.head_dim, 256);
  EXPECT_EQ(m.rope->rotary_dim, 128);
  ASSERT_EQ(m.per_layer.size(), 26u);
  for (size_t i = 0; i < 26; ++i) {
    const LayerSpec& l = m.per_layer[i];
    if (i % 3 == 2) {
      EXPECT_EQ(l.attention, LayerAttention::Sliding) << i;
      EXPECT_EQ(l.window, 2048) << i;
      EXPECT_TRUE(l.rope) << i;
      EXPECT_TRUE(l.causal) << i;
    } else {
      EXPECT_EQ(l.attention, LayerAttention::Linear) << i;
      EXPECT_EQ(l.mixer, "recurrent") << i;
      EXPECT_FALSE(l.rope) << i;
    }
  }
  EXPECT_FALSE(unread(m, "attention_window_size"));
  EXPECT_FALSE(unread(m, "block_types"));
}

// DSA: DeepSeek-V3.2 keeps index_topk = 2048 keys per query in every layer; DeepSeek-V3 selects none.
TEST(ModelLayerKinds, DeepSeekV32IndexerTopk) {
  const json v32 = json::parse(model_io::model_position_json(read_hf_config(model_io::preset_config("deepseek-v3.2"))).dump());
  ASSERT_FALSE(v32["per_layer"].empty());
  for (const json& l : v32["per_layer"]) {
    ASSERT_TRUE(l.contains("key_selection"));
    EXPECT_EQ(l["key_selection"]["kind"], "indexer_topk");
    EXPECT_EQ(l["key_selection"]["top_k"], 2048);
    EXPECT_EQ(l["key_selection"]["keys"], json::array({"index_topk"}));
  }
  const json v3 = json::parse(model_io::model_position_json(read_hf_config(model_io::preset_config("deepseek-v3"))).dump());
  for (const json& l : v3["per_layer"]) EXPECT_FALSE(l.contains("key_selection"));
}

// MiniMax-M3's sparse_attention_config: block top-k on the layers sparse_attention_freq marks.
TEST(ModelLayerKinds, MiniMaxM3BlockTopk) {
  json c = {{"model_type", "minimax_m3"},
            {"hidden_size", 6144},
            {"num_attention_heads", 48},
            {"head_dim", 128},
            {"rotary_dim", 64},
            {"num_hidden_layers", 4},
            {"max_position_embeddings", 196608},
            {"rope_theta", 5000000.0},
            {"sparse_attention_config",
             {{"use_sparse_attention", true},
              {"sparse_topk_blocks", 16},
              {"sparse_block_size", 128},
              {"sparse_attention_freq", {0, 1, 1, 1}}}}};
  const json j = model_json(c);
  EXPECT_FALSE(j["per_layer"][0].contains("key_selection"));
  for (int i = 1; i < 4; ++i) {
    EXPECT_EQ(j["per_layer"][i]["key_selection"]["kind"], "block_topk") << i;
    EXPECT_EQ(j["per_layer"][i]["key_selection"]["top_k"], 16) << i;
    EXPECT_EQ(j["per_layer"][i]["key_selection"]["block"], 128) << i;
  }
  c["sparse_attention_config"]["sparse_attention_freq"] = {0, 1};
  EXPECT_EQ(read_error(c), "sparse_attention_config.sparse_attention_freq");
}

// A selection posenc has no rule for is named, never dropped.
TEST(ModelLayerKinds, UnmodelledSelectionKeysAreNamed) {
  const ModelPosition m = read({{"model_type", "someone_new"},
                                {"hidden_size", 512},
                                {"num_attention_heads", 8},
                                {"num_hidden_layers", 2},
                                {"max_position_embeddings", 4096},
                                {"index_topk", 512},
                                {"sparse_attention_config", {{"sparse_topk_blocks", 8}}}});
  EXPECT_TRUE(unread(m, "index_topk"));
  EXPECT_TRUE(unread(m, "sparse_attention_config.sparse_topk_blocks"));
  for (const LayerSpec& l : m.per_layer) EXPECT_TRUE(l.key_selection.kind.empty());
}

// MG: layer_rope_theta per layer (0: no RoPE there) and qk_scale_factor folded into softmax_scale.
TEST(ModelRopePerLayer, LayerRopeThetaAndQkScaleFactor) {
  const json c = {{"model_type", "muse_glimmer"},
                  {"text_config",
                   {{"model_type", "muse_glimmer_text"},
                    {"hidden_size", 6656},
                    {"num_attention_heads", 32},
                    {"head_dim", 128},
                    {"num_hidden_layers", 4},
                    {"max_position_embeddings", 131072},
                    {"sliding_window", 2048},
                    {"rope_parameters", {{"rope_theta", 500000.0}, {"rope_type", "default"}}},
                    {"layer_types", {"sliding_attention", "sliding_attention", "sliding_attention", "full_attention"}},
                    {"layer_rope_theta", {500000.0, 500000.0, 10000.0, 0.0}},
                    {"qk_scale_factor", 3.87}}}};
  const ModelPosition m = read(c);
  ASSERT_EQ(m.per_layer.size(), 4u);
  EXPECT_TRUE(m.per_layer[0].rope);
  EXPECT_TRUE(m.per_layer[2].rope);
  EXPECT_FALSE(m.per_layer[3].rope);  // theta 0: NoPE
  auto base_of = [&](const LayerSpec& l) {
    for (const auto& [name, r] : m.layers)
      if (name == l.rope_key) return r.base;
    return l.rope_key.empty() ? m.rope->base : -1.0;
  };
  EXPECT_DOUBLE_EQ(base_of(m.per_layer[0]), 500000.0);
  EXPECT_DOUBLE_EQ(base_of(m.per_layer[2]), 10000.0);
  EXPECT_NEAR(m.rope->softmax_scale, 3.87 / std::sqrt(128.0), 1e-15);
  EXPECT_EQ(m.rope->softmax_scale_from, (std::vector<std::string>{"head_dim^-0.5", "text_config.qk_scale_factor"}));
  for (const auto& [name, r] : m.layers) EXPECT_NEAR(r.softmax_scale, 3.87 / std::sqrt(128.0), 1e-15) << name;
  json bad = c;
  bad["text_config"]["layer_rope_theta"] = {500000.0};
  EXPECT_EQ(read_error(bad), "text_config.layer_rope_theta");
}

// softmax_scale_from names every factor: head_dim^-0.5 and YaRN's mscale_all_dim (DeepSeek-V3), Gemma 2's
// query_pre_attn_scalar, none for Gemma 4 (q and k normalised, 1); the product is the scale.
TEST(ModelRopePerLayer, SoftmaxScaleFromEveryPreset) {
  for (const model_io::ModelPreset& p : model_io::model_presets()) {
    const ModelPosition m = read_hf_config(model_io::preset_config(p.id));
    if (!m.rope) continue;
    const json j = json::parse(model_io::model_position_json(m).dump());
    ASSERT_TRUE(j["rope"].contains("softmax_scale_from")) << p.id;
    if (m.rope->softmax_scale_from.empty()) { EXPECT_DOUBLE_EQ(m.rope->softmax_scale, 1.0) << p.id; }
  }
  const ModelPosition v3 = read_hf_config(model_io::preset_config("deepseek-v3"));
  EXPECT_EQ(v3.rope->softmax_scale_from, (std::vector<std::string>{"head_dim^-0.5", "rope_scaling.mscale_all_dim"}));
  const ModelPosition g2 = read_hf_config(model_io::preset_config("gemma-2-9b"));
  EXPECT_EQ(g2.rope->softmax_scale_from, (std::vector<std::string>{"query_pre_attn_scalar^-0.5"}));
  const ModelPosition llama = read_hf_config(model_io::preset_config("llama-3.1-8b"));
  EXPECT_EQ(llama.rope->softmax_scale_from, (std::vector<std::string>{"head_dim^-0.5"}));
}

// One compare: the length is the longer trained length for both callers, and a value posenc assumed is marked.
TEST(ModelCompareOne, AssumedValuesAreMarked) {
  const ModelPosition known = read(modernbert_base());
  const ModelPosition guessed = read({{"model_type", "someone_new"},
                                      {"hidden_size", 768},
                                      {"num_attention_heads", 12},
                                      {"num_hidden_layers", 22},
                                      {"max_position_embeddings", 8192}});
  EXPECT_EQ(compare_length(known, guessed), 8192);
  const std::vector<ModelDifference> d = compare_models(guessed, known);
  const auto base = std::find_if(d.begin(), d.end(), [](const ModelDifference& x) { return x.what == "rope.base"; });
  ASSERT_NE(base, d.end());
  EXPECT_EQ(base->assumed, std::vector<std::string>{"a"});
  EXPECT_NE(differences_text(d).find("rope.base: 10000 (assumed) vs 160000"), std::string::npos) << differences_text(d);
  const json j = json::parse(model_io::differences_json(d).dump());
  bool marked = false;
  for (const json& e : j) marked |= e["what"] == "rope.base" && e["assumed"] == json::array({"a"});
  EXPECT_TRUE(marked);
  const auto head = std::find_if(d.begin(), d.end(), [](const ModelDifference& x) { return x.what == "head_dim"; });
  EXPECT_EQ(head, d.end());  // both 64: no difference
  // The default length is the one compare_models uses: an explicit compare_length gives the same differences.
  EXPECT_EQ(differences_text(compare_models(guessed, known, compare_length(guessed, known))), differences_text(d));
}
