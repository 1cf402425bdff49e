// The family table (data/model_families.json) and the families of 2025-26, each read by its reference's rule,
// checked per layer on published configs (tests/data/configs, SOURCES.md) and on configs built from published
// values. References (file and commit) are in the family table's source column; the ones a test ports:
//  DSv4: transformers models/deepseek_v4/configuration_deepseek_v4.py @015c078164151a049126942989817713e83a8f3e,
//        modeling_deepseek_v4.py @361455895daf94ca66f78cf6792b09af397b4b30
//  ERNIE: models/ernie4_5/modular_ernie4_5.py @016bc8ef0876cf366e321dfe1922500c897a0d90
//  EXAONE: models/exaone4/modeling_exaone4.py @0205eec1d869591488aa74eda3f2da23610c28d9
//  LFM2: models/lfm2/configuration_lfm2.py @05cd1ec14dbe16127778060fb68c34105873015c
//  Nemotron-H: models/nemotron_h/configuration_nemotron_h.py @13923c63d59f73faebae79b2ee3fafc7e3a35201
//  Granite: models/granitemoehybrid/configuration_granitemoehybrid.py @008f5c8c29be84d4721dc6d1e0fcd72300580be4
//  Kimi: vllm-project/vllm vllm/transformers_utils/configs/kimi_linear.py @6b06599499a6f9d6f140ae26ff95b3cbd2e7e75c
//  Hunyuan: HunYuanVLRotaryEmbedding (alpha), vLLM DynamicNTKAlphaRotaryEmbedding
//  OLMo 3: models/olmo3/modular_olmo3.py @02e8340b967815b4a5417c6273a7774aae298a03 (per-layer rotary_embs)
// YaRN numbers: a port of _compute_yarn_parameters (tests/data/rope_reference.py's formulas) in the comments.
//
// Sections: the table itself · a model_type outside it (assumptions, unread keys, a legacy type) · one test per
// family of 2025-26 (ERNIE, EXAONE, LFM2, Nemotron-H, Granite, Kimi, DeepSeek-V4, MiniMax, Hunyuan, Mistral
// Large 3, Falcon-H1, OLMo 3) · comparing two models · GGUF.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "core/models/gguf.h"
#include "core/analysis/model_compare.h"
#include "core/models/model_config.h"
#include "core/models/model_families.h"
#include "model_io/config_json.h"
#include "model_io/presets.h"

using namespace posenc;
using nlohmann::json;

namespace {

ModelPosition read_config(const json& config) { return read_hf_config(model_io::config_from_json(config)); }
ModelPosition read_preset(const std::string& id) { return read_hf_config(model_io::preset_config(id)); }

bool has_unread(const ModelPosition& m, const std::string& key) {
  return std::find(m.unread_keys.begin(), m.unread_keys.end(), key) != m.unread_keys.end();
}
bool assumed(const ModelPosition& m, const std::string& what) {
  for (const Assumption& a : m.assumptions)
    if (a.what == what) return true;
  return false;
}
const ModelRope& layer_rope(const ModelPosition& m, const std::string& name) {
  for (const auto& [k, r] : m.layers)
    if (k == name) return r;
  ADD_FAILURE() << "no layers." << name;
  return *m.rope;
}
double default_inv_freq(int dim, double base, int i) { return std::pow(base, -2.0 * i / dim); }

}  // namespace

TEST(ModelFamilies, EveryRowReadsAndModelTypesAreUnique) {
  std::set<std::string> seen;
  ASSERT_GE(model_families().size(), 40u);
  for (const ModelFamily& f : model_families()) {
    EXPECT_FALSE(f.source.empty()) << f.family;
    EXPECT_TRUE(f.source.find('@') != std::string::npos || f.source.find("llama.cpp") != std::string::npos) << f.family;
    for (const std::string& t : f.model_types) EXPECT_TRUE(seen.insert(t).second) << "model_type listed twice: " << t;
  }
  EXPECT_EQ(find_model_family("ernie4_5")->layout, RopeLayout::Interleaved);
  EXPECT_EQ(find_model_family("llama")->layout, RopeLayout::Half);
  EXPECT_EQ(find_model_family("not_a_model"), nullptr);
  EXPECT_EQ(llama_cpp_rope_type("ernie4_5"), std::optional<std::string>("norm"));
  EXPECT_EQ(llama_cpp_rope_type("qwen2vl"), std::optional<std::string>("mrope"));
  EXPECT_EQ(llama_cpp_rope_type("nonesuch"), std::nullopt);
  EXPECT_NE(model_families_markdown().find("| `deepseek_v4` | DeepSeek-V4 |"), std::string::npos);
}

// A model_type outside the table: read with the generic rules, each named.
TEST(ModelFamilies, UnknownModelTypeNamesItsAssumptions) {
  const ModelPosition m = read_config(json{{"model_type", "made_up_2026"},
                                           {"hidden_size", 2048},
                                           {"num_attention_heads", 16},
                                           {"num_hidden_layers", 4},
                                           {"max_position_embeddings", 8192}});
  ASSERT_EQ(m.position, PositionKind::Rope);
  EXPECT_EQ(m.family, "");
  for (const char* what : {"layout", "rope_layers", "head_dim", "base", "softmax_scale"}) EXPECT_TRUE(assumed(m, what)) << what;
  EXPECT_EQ(m.assumptions.front().value, "128 (hidden_size / num_attention_heads)");
  EXPECT_EQ(m.rope->layout, RopeLayout::Half);
  const json r = model_io::model_position_json(m);
  bool layout = false;
  for (const json& a : r["assumptions"])
    if (a["what"] == "layout") {
      layout = true;
      EXPECT_EQ(a["value"], "half");
      EXPECT_EQ(a["why"], "model_type 'made_up_2026' is not in posenc's family table");
    }
  EXPECT_TRUE(layout);
  // A known family takes no layout assumption.
  EXPECT_FALSE(assumed(read_preset("llama-3.1-8b"), "layout"));
  EXPECT_TRUE(read_preset("llama-3.1-8b").assumptions.empty());
}

// Hybrid keys an unknown family carries are named, never silently dropped.
TEST(ModelFamilies, UnknownFamilysLayerKeysAreUnread) {
  const ModelPosition m = read_config(json{{"model_type", "new_hybrid"},
                                           {"hidden_size", 1024},
                                           {"num_attention_heads", 8},
                                           {"num_hidden_layers", 3},
                                           {"max_position_embeddings", 4096},
                                           {"hybrid_override_pattern", "M*M"},
                                           {"attn_type_list", {0, 1, 0}},
                                           {"full_attn_idxs", {1}},
                                           {"compress_ratios", {0, 4, 0}},
                                           {"moe_layer_freq", 1}});
  for (const char* k : {"hybrid_override_pattern", "attn_type_list", "full_attn_idxs", "compress_ratios"})
    EXPECT_TRUE(has_unread(m, k)) << k;
  EXPECT_FALSE(has_unread(m, "moe_layer_freq"));  // about experts, not attention
}

// A key giving a layer type its own head width is read where the family declares it (Gemma 4's global_head_dim
// on proportional full layers) and named everywhere else: the rotary dims would be "of" another width.
TEST(ModelFamilies, OwnHeadWidthKeysAreUnreadOutsideGemma4) {
  const ModelPosition m = read_config(json{{"model_type", "llama"},
                                           {"hidden_size", 4096},
                                           {"num_attention_heads", 32},
                                           {"max_position_embeddings", 8192},
                                           {"global_head_dim", 256},
                                           {"local_head_dim", 64},
                                           {"full_head_dim", 256},
                                           {"v_head_dim", 128}});
  for (const char* k : {"global_head_dim", "local_head_dim", "full_head_dim"}) EXPECT_TRUE(has_unread(m, k)) << k;
  EXPECT_FALSE(has_unread(m, "v_head_dim"));  // the value width: not in q.k
  EXPECT_EQ(rope_head_dim(m, *m.rope), 128);
}

// rope_scaling.type beside rope_type: transformers reads rope_type (standardize_rope_params). Saying the same it
// is moot; saying something else it is named in unread_keys and the choice is an assumption.
TEST(ModelFamilies, LegacyTypeBesideRopeTypeIsNamedWhenItDiffers) {
  json c = {{"model_type", "llama"},
            {"hidden_size", 4096},
            {"num_attention_heads", 32},
            {"num_hidden_layers", 2},
            {"max_position_embeddings", 131072},
            {"rope_theta", 500000.0},
            {"rope_scaling",
             {{"rope_type", "llama3"},
              {"type", "linear"},
              {"factor", 8.0},
              {"low_freq_factor", 1.0},
              {"high_freq_factor", 4.0},
              {"original_max_position_embeddings", 8192}}}};
  const ModelPosition differs = read_config(c);
  EXPECT_EQ(differs.rope->scaling.type, RopeScalingType::Llama3);
  EXPECT_TRUE(has_unread(differs, "rope_scaling.type"));
  ASSERT_TRUE(assumed(differs, "rope_type"));
  EXPECT_EQ(differs.assumptions.front().value, "llama3");
  EXPECT_NE(differs.assumptions.front().why.find("rope_scaling.type says 'linear'"), std::string::npos);
  c["rope_scaling"]["type"] = "llama3";
  const ModelPosition same = read_config(c);
  EXPECT_FALSE(has_unread(same, "rope_scaling.type"));
  EXPECT_TRUE(same.assumptions.empty());
}

// ERNIE 4.5: GLM's rotate_half with cos repeat_interleave -> interleaved pairs; theta 500000, 128 dims.
TEST(ModelFamilies, Ernie45IsInterleaved) {
  const ModelPosition m = read_preset("ernie-4.5-0.3b");
  ASSERT_TRUE(m.rope);
  EXPECT_EQ(m.rope->layout, RopeLayout::Interleaved);
  EXPECT_EQ(m.rope->rotary_dim, 128);
  EXPECT_DOUBLE_EQ(m.rope->base, 500000.0);
  EXPECT_NEAR(m.rope->frequencies.inv_freq[10], default_inv_freq(128, 500000.0, 10), 1e-15);
  ASSERT_EQ(m.per_layer.size(), 18u);
  for (const LayerSpec& l : m.per_layer) EXPECT_TRUE(l.rope && l.attention == LayerAttention::Full);
  EXPECT_TRUE(m.assumptions.empty());
}

// EXAONE 4.0: sliding layers rotate, global layers do not (sliding_window set); llama3 x16 on every RoPE layer.
TEST(ModelFamilies, Exaone4GlobalLayersHaveNoRope) {
  const ModelPosition m = read_preset("exaone-4.0-32b");
  ASSERT_EQ(m.per_layer.size(), 64u);
  for (int i = 0; i < 64; ++i) {
    const LayerSpec& l = m.per_layer[size_t(i)];
    const bool global = (i + 1) % 4 == 0;
    EXPECT_EQ(l.attention, global ? LayerAttention::Full : LayerAttention::Sliding) << i;
    EXPECT_EQ(l.rope, !global) << i;
    if (!global) { EXPECT_EQ(l.window, 4096) << i; }
  }
  EXPECT_EQ(m.rope->scaling.type, RopeScalingType::Llama3);
  EXPECT_DOUBLE_EQ(m.rope->scaling.factor, 16.0);
  EXPECT_EQ(m.rope->layout, RopeLayout::Half);
  // "LLLG" spelled as a string; without a window (EXAONE-4.0-1.2B) every layer is global and rotates.
  json c = json::parse(*model_io::embedded_config_text("exaone-4.0-32b.json"));
  c["sliding_window_pattern"] = "LLLG";
  EXPECT_EQ(read_config(c).per_layer[3].rope, false);
  EXPECT_EQ(read_config(c).per_layer[2].attention, LayerAttention::Sliding);
  c["sliding_window"] = nullptr;
  for (const LayerSpec& l : read_config(c).per_layer) EXPECT_TRUE(l.rope && l.attention == LayerAttention::Full);
}

// LFM2: full_attn_idxs attend with RoPE (theta 1e6), the other layers are short convolutions.
TEST(ModelFamilies, Lfm2ConvLayers) {
  const ModelPosition m = read_preset("lfm2-350m");
  ASSERT_EQ(m.per_layer.size(), 16u);
  const std::set<int> attn = {2, 5, 8, 10, 12, 14};
  for (int i = 0; i < 16; ++i) {
    const LayerSpec& l = m.per_layer[size_t(i)];
    if (attn.count(i)) {
      EXPECT_EQ(l.attention, LayerAttention::Full) << i;
      EXPECT_TRUE(l.rope) << i;
    } else {
      EXPECT_EQ(l.attention, LayerAttention::Linear) << i;
      EXPECT_EQ(l.mixer, "conv") << i;
      EXPECT_FALSE(l.rope) << i;
    }
  }
  EXPECT_DOUBLE_EQ(m.rope->base, 1e6);
  EXPECT_EQ(m.head_dim, 64);
  // layer_types (the later configs) win over full_attn_idxs.
  json c = json::parse(*model_io::embedded_config_text("lfm2-350m.json"));
  c["layer_types"] = json::array();
  for (int i = 0; i < 16; ++i) c["layer_types"].push_back(i == 0 ? "full_attention" : "conv");
  EXPECT_EQ(read_config(c).per_layer[0].attention, LayerAttention::Full);
  EXPECT_EQ(read_config(c).per_layer[2].attention, LayerAttention::Linear);
}

// Nemotron-3-Nano: one layer per pattern character; the attention layers carry no position at all.
TEST(ModelFamilies, NemotronHAttentionWithoutPosition) {
  const ModelPosition m = read_preset("nemotron-3-nano-30b-a3b");
  EXPECT_EQ(m.position, PositionKind::None);
  const std::string pattern = "MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME";
  ASSERT_EQ(m.per_layer.size(), pattern.size());
  int attention = 0;
  for (size_t i = 0; i < pattern.size(); ++i) {
    const LayerSpec& l = m.per_layer[i];
    EXPECT_FALSE(l.rope) << i;
    if (pattern[i] == '*') {
      ++attention;
      EXPECT_EQ(l.attention, LayerAttention::Full) << i;
    }
    if (pattern[i] == 'M') {
      EXPECT_EQ(l.attention, LayerAttention::Linear) << i;
      EXPECT_EQ(l.mixer, "mamba2") << i;
    }
    if (pattern[i] == 'E') {
      EXPECT_EQ(l.attention, LayerAttention::None) << i;
      EXPECT_EQ(l.mixer, "moe") << i;
    }
  }
  EXPECT_EQ(attention, 6);
  EXPECT_TRUE(has_unread(m, "rope_theta"));  // never used by NemotronHAttention
  const json r = model_io::model_position_json(m);
  EXPECT_EQ(r["position"], "none");
  EXPECT_EQ(r["per_layer"][0]["mixer"], "mamba2");
  EXPECT_EQ(r["per_layer"][1]["attention"], "none");
  EXPECT_EQ(r["per_layer"][5]["position"], "none");
}

// Granite 4.0-H: Mamba2 layers, attention at 10, 13, 17, 27 with position_embedding_type "nope".
TEST(ModelFamilies, GraniteHybridNope) {
  const ModelPosition m = read_preset("granite-4.0-h-350m");
  EXPECT_EQ(m.position, PositionKind::None);
  ASSERT_EQ(m.per_layer.size(), 32u);
  for (int i = 0; i < 32; ++i) {
    const bool attn = i == 10 || i == 13 || i == 17 || i == 27;
    EXPECT_EQ(m.per_layer[size_t(i)].attention, attn ? LayerAttention::Full : LayerAttention::Linear) << i;
    EXPECT_FALSE(m.per_layer[size_t(i)].rope) << i;
  }
  json c = json::parse(*model_io::embedded_config_text("granite-4.0-h-350m.json"));
  c["position_embedding_type"] = "rope";
  const ModelPosition rope = read_config(c);
  ASSERT_TRUE(rope.rope);
  EXPECT_TRUE(rope.per_layer[10].rope);
  EXPECT_FALSE(rope.per_layer[0].rope);
  EXPECT_DOUBLE_EQ(rope.rope->softmax_scale, 0.015625);  // attention_multiplier replaces 1/sqrt(head_dim)
  c["position_embedding_type"] = "alibi";
  EXPECT_THROW(read_config(c), InvalidArgument);
}

// Kimi Linear: kda_layers (1-based) are KDA, the rest NoPE MLA; no max_position_embeddings needed.
TEST(ModelFamilies, KimiLinearNopeMla) {
  const ModelPosition m = read_preset("kimi-linear-48b-a3b");
  EXPECT_EQ(m.position, PositionKind::None);
  EXPECT_EQ(m.head_dim, 192);
  ASSERT_EQ(m.per_layer.size(), 27u);
  for (int i = 0; i < 27; ++i) {
    const bool mla = (i + 1) % 4 == 0 || i == 26;
    EXPECT_EQ(m.per_layer[size_t(i)].attention, mla ? LayerAttention::Full : LayerAttention::Linear) << i;
    if (!mla) { EXPECT_EQ(m.per_layer[size_t(i)].mixer, "kda") << i; }
    EXPECT_FALSE(m.per_layer[size_t(i)].rope) << i;
  }
  EXPECT_TRUE(has_unread(m, "rope_theta"));
}

// DeepSeek-V4-Flash: 2 sliding layers at rope_theta 1e4 (main), then compressed 4 / 128 at compress_rope_theta
// 160000 with YaRN x16 from 65536, attention factor 1; 64 rotary dims of 512; sinks everywhere.
TEST(ModelFamilies, DeepseekV4MainAndCompress) {
  const ModelPosition m = read_preset("deepseek-v4-flash");
  ASSERT_EQ(m.per_layer.size(), 43u);
  EXPECT_EQ(m.head_dim, 512);
  const ModelRope& main = layer_rope(m, "main");
  const ModelRope& compress = layer_rope(m, "compress");
  EXPECT_EQ(main.rotary_dim, 64);
  EXPECT_EQ(compress.rotary_dim, 64);
  EXPECT_EQ(main.layout, RopeLayout::Interleaved);
  EXPECT_DOUBLE_EQ(main.base, 10000.0);
  EXPECT_EQ(main.scaling.type, RopeScalingType::None);
  EXPECT_DOUBLE_EQ(compress.base, 160000.0);
  EXPECT_EQ(compress.scaling.type, RopeScalingType::Yarn);
  EXPECT_DOUBLE_EQ(compress.scaling.factor, 16.0);
  EXPECT_EQ(compress.original_max_position_embeddings, 65536);
  EXPECT_DOUBLE_EQ(compress.frequencies.attention_scaling, 1.0);
  EXPECT_DOUBLE_EQ(compress.softmax_scale, 1.0 / std::sqrt(512.0));
  // _compute_yarn_parameters(dim 64, base 160000, factor 16, original 65536, beta 32 / 1): correction range
  // [15, 25]; pairs below kept, pairs above divided by 16, pair 10 = 160000^(-20/64) = 0.0236435402250794.
  EXPECT_NEAR(compress.frequencies.inv_freq[10], 0.023643540225079394, 1e-15);
  EXPECT_NEAR(compress.frequencies.inv_freq[31] * 16.0, default_inv_freq(64, 160000.0, 31), 1e-18);
  for (int i = 0; i < 43; ++i) {
    const LayerSpec& l = m.per_layer[size_t(i)];
    EXPECT_TRUE(l.sinks && l.rope) << i;
    if (i < 2) {
      EXPECT_EQ(l.attention, LayerAttention::Sliding) << i;
      EXPECT_EQ(l.rope_key, "main") << i;
    } else {
      EXPECT_EQ(l.attention, LayerAttention::Compressed) << i;
      EXPECT_EQ(l.ratio, i % 2 == 0 ? 4 : 128) << i;
      EXPECT_EQ(l.rope_key, "compress") << i;
    }
    EXPECT_EQ(l.window, 128) << i;
  }
  for (const char* k : {"index_head_dim", "index_n_heads", "index_topk"}) EXPECT_TRUE(has_unread(m, k)) << k;
  const json r = model_io::model_position_json(m);
  EXPECT_EQ(r["per_layer"][2]["attention"], "compressed");
  EXPECT_EQ(r["per_layer"][2]["ratio"], 4);
  EXPECT_EQ(r["layers"]["compress"]["rope_type"], "yarn");
  // What DeepSeek-V4 does that posenc does not model is answered as assumptions (from the family table), no
  // layout one: the output's rotation back by the query's position (K = V), and the compressed keys' positions.
  EXPECT_FALSE(assumed(m, "layout"));
  ASSERT_EQ(m.assumptions.size(), 2u);
  EXPECT_EQ(m.assumptions[0].what, "output rotation");
  EXPECT_EQ(m.assumptions[0].value, "none (the q.k rotation only)");
  EXPECT_NE(m.assumptions[0].why.find("apply_rotary_pos_emb(attn_output, cos, -sin)"), std::string::npos);
  EXPECT_EQ(m.assumptions[1].what, "compressed key positions");
  EXPECT_EQ(r["assumptions"][0]["what"], "output rotation");
}

// MiniMax: rotary_dim 64 of 128 (NeoX); attn_type_list 0 = lightning linear attention.
TEST(ModelFamilies, MinimaxRotaryDimAndAttnTypes) {
  const ModelPosition m2 = read_preset("minimax-m2");
  EXPECT_EQ(m2.rope->rotary_dim, 64);
  EXPECT_EQ(m2.head_dim, 128);
  EXPECT_DOUBLE_EQ(m2.rope->base, 5e6);
  EXPECT_EQ(m2.rope->layout, RopeLayout::Half);
  json c = json::parse(*model_io::embedded_config_text("minimax-m2.json"));
  c["model_type"] = "minimax_m1";
  c["num_hidden_layers"] = 4;
  c["attn_type_list"] = {0, 0, 0, 1};
  const ModelPosition m1 = read_config(c);
  EXPECT_EQ(m1.per_layer[0].attention, LayerAttention::Linear);
  EXPECT_EQ(m1.per_layer[0].mixer, "lightning");
  EXPECT_EQ(m1.per_layer[3].attention, LayerAttention::Full);
  EXPECT_TRUE(m1.per_layer[3].rope);
  c["attn_type_list"] = {0, 2, 0, 1};
  EXPECT_THROW(read_config(c), InvalidArgument);
}

// Hunyuan: rope_scaling {type dynamic, alpha 1000}: a fixed base theta * alpha^(d / (d - 2)) over head_dim.
TEST(ModelFamilies, HunyuanNtkAlpha) {
  const json c = {{"model_type", "hunyuan_v1_dense"},
                  {"hidden_size", 2048},
                  {"num_attention_heads", 16},
                  {"head_dim", 128},
                  {"num_hidden_layers", 32},
                  {"max_position_embeddings", 262144},
                  {"rope_theta", 10000.0},
                  {"rope_scaling",
                   {{"alpha", 1000.0},
                    {"beta_fast", 32},
                    {"beta_slow", 1},
                    {"factor", 1.0},
                    {"mscale", 1.0},
                    {"mscale_all_dim", 1.0},
                    {"type", "dynamic"}}}};
  const ModelPosition m = read_config(c);
  EXPECT_EQ(m.rope->scaling.type, RopeScalingType::Ntk);
  const double base = 10000.0 * std::pow(1000.0, 128.0 / 126.0);  // 11158839.92507748
  EXPECT_NEAR(base, 11158839.92507748, 1e-4);
  EXPECT_NEAR(m.rope->frequencies.inv_freq[5], default_inv_freq(128, base, 5), 1e-15);
  EXPECT_DOUBLE_EQ(m.rope->frequencies.attention_scaling, 1.0);
  // Outside the Hunyuan family the alpha is not read, and named.
  json other = c;
  other["model_type"] = "llama";
  EXPECT_TRUE(has_unread(read_config(other), "rope_scaling.alpha"));
}

// Mistral Large 3: YaRN with apply_scale false: no cos/sin magnitude, no softmax mscale^2.
TEST(ModelFamilies, MistralLarge3ApplyScaleFalse) {
  json c = {{"model_type", "mistral_large3"},
            {"hidden_size", 7168},
            {"num_attention_heads", 128},
            {"num_hidden_layers", 61},
            {"qk_rope_head_dim", 64},
            {"qk_nope_head_dim", 128},
            {"max_position_embeddings", 294912},
            {"rope_theta", 10000.0},
            {"rope_scaling",
             {{"type", "yarn"},
              {"factor", 36.0},
              {"original_max_position_embeddings", 8192},
              {"beta", 32.0},
              {"alpha", 1.0},
              {"apply_scale", false},
              {"mscale", 1.0},
              {"mscale_all_dim", 1.0}}}};
  const ModelPosition m = read_config(c);
  EXPECT_EQ(m.rope->layout, RopeLayout::Interleaved);
  EXPECT_DOUBLE_EQ(m.rope->frequencies.attention_scaling, 1.0);
  EXPECT_DOUBLE_EQ(m.rope->softmax_scale, 1.0 / std::sqrt(192.0));
  EXPECT_DOUBLE_EQ(m.rope->scaling.beta_fast, 32.0);
  c["rope_scaling"]["apply_scale"] = true;
  const double ms = 0.1 * std::log(36.0) + 1.0;  // get_mscale(36, 1)
  EXPECT_NEAR(read_config(c).rope->softmax_scale, ms * ms / std::sqrt(192.0), 1e-15);
}

// Falcon-H1: every layer attends with RoPE beside a parallel Mamba2; k is multiplied by key_multiplier.
TEST(ModelFamilies, FalconH1ParallelHybrid) {
  const json c = {{"model_type", "falcon_h1"}, {"hidden_size", 3072},     {"num_attention_heads", 12},
                  {"head_dim", 256},           {"num_hidden_layers", 44}, {"max_position_embeddings", 262144},
                  {"rope_theta", 1e11},        {"key_multiplier", 0.5}};
  const ModelPosition m = read_config(c);
  EXPECT_DOUBLE_EQ(m.rope->softmax_scale, 0.5 / 16.0);
  for (const LayerSpec& l : m.per_layer) {
    EXPECT_EQ(l.attention, LayerAttention::Full);
    EXPECT_EQ(l.parallel_mixer, "mamba2");
    EXPECT_TRUE(l.rope);
  }
  EXPECT_EQ(model_io::model_position_json(m)["per_layer"][0]["parallel_mixer"], "mamba2");
}

// OLMo 3: sliding layers rotate with the unscaled RoPE, full layers with the configured YaRN.
TEST(ModelFamilies, Olmo3SlidingLayersUnscaled) {
  json c = {{"model_type", "olmo3"},
            {"hidden_size", 4096},
            {"num_attention_heads", 32},
            {"num_hidden_layers", 4},
            {"max_position_embeddings", 65536},
            {"rope_theta", 500000},
            {"sliding_window", 4096},
            {"layer_types", {"sliding_attention", "sliding_attention", "sliding_attention", "full_attention"}},
            {"rope_scaling",
             {{"rope_type", "yarn"},
              {"factor", 8.0},
              {"original_max_position_embeddings", 8192},
              {"attention_factor", 1.2079441541679836},
              {"beta_fast", 32},
              {"beta_slow", 1}}}};
  const ModelPosition m = read_config(c);
  EXPECT_EQ(layer_rope(m, "full_attention").scaling.type, RopeScalingType::Yarn);
  EXPECT_EQ(layer_rope(m, "sliding_attention").scaling.type, RopeScalingType::None);
  EXPECT_DOUBLE_EQ(layer_rope(m, "sliding_attention").base, 500000.0);
  EXPECT_EQ(m.per_layer[0].rope_key, "sliding_attention");
  EXPECT_EQ(m.per_layer[3].rope_key, "full_attention");
}

// Two models: what differs, named by the model response's keys.
TEST(ModelFamilies, CompareNamesDifferences) {
  const ModelPosition a = read_preset("llama-3.1-8b"), b = read_preset("qwen2-7b");
  const auto d = compare_models(a, b, 131072);
  auto find = [&](const std::string& what) {
    for (const ModelDifference& x : d)
      if (x.what == what) return &x;
    return static_cast<const ModelDifference*>(nullptr);
  };
  ASSERT_NE(find("rope.base"), nullptr);
  EXPECT_EQ(*find("rope.base")->a.number, 500000.0);
  EXPECT_EQ(*find("rope.base")->b.number, 1e6);
  EXPECT_NE(find("rope.rope_type"), nullptr);
  EXPECT_NE(find("rope.extrapolated_at_131072"), nullptr);
  EXPECT_EQ(find("rope.rotary_dim"), nullptr);  // 128 both
  EXPECT_TRUE(compare_models(a, a, 131072).empty());
  // As JSON (inspect A B --json): counts as integers, texts as strings.
  const json j = model_io::differences_json(d);
  std::map<std::string, std::string> dumped;
  for (const json& x : j) dumped[x["what"]] = x["a"].dump() + " " + x["b"].dump();
  EXPECT_EQ(dumped["num_attention_heads"], "32 28");
  EXPECT_EQ(dumped["rope.base"], "500000 1000000");
  EXPECT_EQ(dumped["rope.rope_type"], "\"llama3\" \"default\"");
  EXPECT_EQ(layer_pattern_text(read_preset("gemma-3-1b").per_layer), "[sliding 512 rope x5, full rope] x4, sliding 512 rope x2");
}

// A GGUF of a hybrid family: the per-layer keys llama.cpp has for it are not read, and that is said.
TEST(ModelFamilies, GgufHybridLayersAreAnAssumption) {
  GgufHeader h;
  h.version = 3;
  for (const auto& [k, v] :
       std::vector<std::pair<std::string, ConfigValue>>{{"general.architecture", ConfigValue::string("exaone4")},
                                                        {"exaone4.block_count", ConfigValue::integer(4)},
                                                        {"exaone4.attention.head_count", ConfigValue::integer(8)},
                                                        {"exaone4.embedding_length", ConfigValue::integer(1024)},
                                                        {"exaone4.context_length", ConfigValue::integer(8192)}})
    h.metadata.as_object().emplace_back(k, v);
  const ModelPosition m = read_gguf_model(h);
  EXPECT_EQ(m.family, "EXAONE 4.0");
  EXPECT_TRUE(assumed(m, "layers"));
}
