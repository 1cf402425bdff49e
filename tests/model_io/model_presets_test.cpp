// The presets of the 2026 families (tests/data/configs/SOURCES.md, "2026 models, second pass"), each read from
// its published config.json as transformers reads it: every layer, the RoPE frequencies, the query scales, and
// unread_keys naming exactly the positional keys transformers does not read either.
//
// Reference values: a Python port of transformers' src/transformers/modeling_rope_utils.py
// (_compute_default_rope_parameters, _compute_llama3_parameters, _compute_yarn_parameters with get_mscale and
// truncate; huggingface/transformers@0044e3b3facff1a1ad60b235c69d5b45beae75a4 for llama3 and the correction
// range, v5 for mscale / mscale_all_dim / original_max_position_embeddings in rope_parameters), run in float64.
// Layer rules: models/llama4/configuration_llama4.py (no_rope_layers empty -> every 4th layer NoPE; layer_types
// chunked_attention on RoPE layers) and modeling_llama4.py (_get_attn_scale); models/smollm3/
// configuration_smollm3.py (no_rope_layers from no_rope_layer_interval); models/cohere2/configuration_cohere2.py
// at huggingface/transformers@008e574391258935f3ecc3035c882e73bbcac419 (layer_types from sliding_window_pattern 4)
// and modeling_cohere2.py at @015bfeb86891c5f5e450f48942260ac3e2cd2bf2 (RoPE only when sliding_window is set;
// rotate_half over x[..., ::2] / x[..., 1::2]; ROPE_INIT_FUNCTIONS, no rotary_pct); models/qwen3_vl
// (apply_interleaved_mrope); models/ministral3/modeling_ministral3.py (_get_llama_4_attn_scale).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/analysis/rope_analysis.h"
#include "core/models/model_config.h"
#include "core/models/rope_assembly.h"
#include "model_io/config_json.h"
#include "model_io/presets.h"

using namespace posenc;

namespace {

ModelPosition preset(const std::string& id) { return read_hf_config(model_io::preset_config(id)); }

void expect_rel(double got, double want) { EXPECT_NEAR(got, want, 1e-12 * std::abs(want)) << "want " << want; }

int count_layers(const ModelPosition& m, LayerAttention a, bool rope) {
  return static_cast<int>(std::count_if(m.per_layer.begin(), m.per_layer.end(),
                                        [&](const LayerSpec& l) { return l.attention == a && l.rope == rope; }));
}

}  // namespace

// Llama-4-Scout-17B-16E: 48 layers, no_rope_layers [] -> every 4th layer (3, 7, ...) NoPE with full attention and
// temperature tuning (defaults 8192 / 0.1, the published text_config does not set them); the other 36 RoPE layers
// chunked at 8192. llama3 factor 16 with low = high = 1 over original 8192: wavelengths > 8192 divided by 16, the
// rest kept (pairs 0..34 kept, 35..63 divided); interleaved pairs (view_as_complex).
TEST(Presets2026, Llama4Scout) {
  const ModelPosition m = preset("llama-4-scout-17b-16e");
  EXPECT_EQ(m.model_type, "llama4");
  EXPECT_EQ(m.head_dim, 128);
  EXPECT_EQ(m.num_attention_heads, 40);
  ASSERT_EQ(m.per_layer.size(), 48u);
  for (int i = 0; i < 48; ++i) {
    SCOPED_TRACE(i);
    const LayerSpec& l = m.per_layer[i];
    if ((i + 1) % 4 == 0) {
      EXPECT_EQ(l.attention, LayerAttention::Full);
      EXPECT_FALSE(l.rope);
      EXPECT_EQ(l.query_scale.rule, QueryScale::Rule::Llama4Temperature);
      EXPECT_EQ(l.query_scale.floor_scale, 8192.0);
      EXPECT_EQ(l.query_scale.attn_scale, 0.1);
    } else {
      EXPECT_EQ(l.attention, LayerAttention::Chunked);
      EXPECT_EQ(l.window, 8192);
      EXPECT_TRUE(l.rope);
      EXPECT_EQ(l.query_scale.rule, QueryScale::Rule::None);
    }
  }
  // log1p(floor((p + 1) / 8192)) * 0.1 + 1
  const QueryScale& t = m.per_layer[3].query_scale;
  EXPECT_EQ(query_scale_at(t, 8190), 1.0);
  expect_rel(query_scale_at(t, 8191), 1.0693147180559945);
  expect_rel(query_scale_at(t, 100000), 1.2564949357461537);
  const ModelRope& r = *m.rope;
  EXPECT_EQ(r.layout, RopeLayout::Interleaved);
  EXPECT_EQ(r.scaling.type, RopeScalingType::Llama3);
  EXPECT_EQ(r.base, 500000.0);
  EXPECT_EQ(r.original_max_position_embeddings, 8192);
  EXPECT_EQ(r.max_position_embeddings, 262144);
  EXPECT_EQ(r.frequencies.attention_scaling, 1.0);
  const int at[] = {0, 10, 20, 30, 34, 35, 40, 63};
  for (int i : at) {
    SCOPED_TRACE(i);
    const double plain = 1.0 / std::pow(500000.0, 2.0 * i / 128);
    expect_rel(r.frequencies.inv_freq[i], i < 35 ? plain : plain / 16);
  }
  expect_rel(r.frequencies.inv_freq[20], 0.016560440080994446);
  expect_rel(r.frequencies.inv_freq[40], 1.7140510979762956e-05);
  EXPECT_TRUE(m.unread_keys.empty());
}

// Qwen3-VL-4B-Instruct: text_config read; 36 full RoPE layers; interleaved M-RoPE 24/20/20 over 64 pairs at base
// 5e6 (default rope_type, no scaling). The vision tower's learned position table size is named, not read.
TEST(Presets2026, Qwen3Vl4b) {
  const ModelPosition m = preset("qwen3-vl-4b");
  EXPECT_EQ(m.head_dim, 128);
  EXPECT_EQ(m.num_attention_heads, 32);
  ASSERT_EQ(m.per_layer.size(), 36u);
  EXPECT_EQ(count_layers(m, LayerAttention::Full, true), 36);
  const ModelRope& r = *m.rope;
  EXPECT_EQ(r.rotary_dim, 128);
  EXPECT_EQ(r.layout, RopeLayout::Half);
  EXPECT_EQ(r.scaling.type, RopeScalingType::None);
  EXPECT_EQ(r.mrope_section, (std::vector<int>{24, 20, 20}));
  EXPECT_TRUE(r.mrope_interleaved);
  EXPECT_EQ(r.max_position_embeddings, 262144);
  expect_rel(r.frequencies.inv_freq[1], 0.7858299804196347);
  expect_rel(r.frequencies.inv_freq[63], 2.545079788037606e-07);
  EXPECT_EQ(m.unread_keys, (std::vector<std::string>{"vision_config.num_position_embeddings"}));
}

// SmolLM3-3B-Base: only no_rope_layer_interval 4 is published; transformers derives no_rope_layers = [1, 1, 1, 0]
// x 9: layers 3, 7, ..., 35 have no RoPE; all full attention (use_sliding_window false, sliding_window null).
TEST(Presets2026, SmolLm3) {
  const ModelPosition m = preset("smollm3-3b");
  ASSERT_EQ(m.per_layer.size(), 36u);
  for (int i = 0; i < 36; ++i) {
    EXPECT_EQ(m.per_layer[i].attention, LayerAttention::Full) << i;
    EXPECT_EQ(m.per_layer[i].rope, (i + 1) % 4 != 0) << i;
  }
  EXPECT_EQ(count_layers(m, LayerAttention::Full, false), 9);
  EXPECT_EQ(m.rope->base, 5000000.0);
  EXPECT_EQ(m.rope->max_position_embeddings, 65536);
  EXPECT_EQ(m.rope->layout, RopeLayout::Half);
  expect_rel(m.rope->frequencies.inv_freq[1], 0.7858299804196347);
  EXPECT_TRUE(m.unread_keys.empty());
}

// Command R7B (cohere2): sliding_window_pattern 4 -> layers 3, 7, ... full attention without RoPE, the others
// sliding 4096 with RoPE (interleaved pairs, base 50000, all 128 dims). Keys of the original Cohere code that
// transformers never reads are named: position_embedding_type, order_of_interleaved_layers, rotary_pct (1.0 here,
// so the rotary width agrees either way) and layer_switch.
TEST(Presets2026, CommandR7b) {
  const ModelPosition m = preset("command-r7b");
  EXPECT_EQ(m.head_dim, 128);
  ASSERT_EQ(m.per_layer.size(), 32u);
  for (int i = 0; i < 32; ++i) {
    SCOPED_TRACE(i);
    const LayerSpec& l = m.per_layer[i];
    if ((i + 1) % 4 == 0) {
      EXPECT_EQ(l.attention, LayerAttention::Full);
      EXPECT_FALSE(l.rope);
    } else {
      EXPECT_EQ(l.attention, LayerAttention::Sliding);
      EXPECT_EQ(l.window, 4096);
      EXPECT_TRUE(l.rope);
    }
  }
  const ModelRope& r = *m.rope;
  EXPECT_EQ(r.layout, RopeLayout::Interleaved);
  EXPECT_EQ(r.rotary_dim, 128);
  EXPECT_EQ(r.base, 50000.0);
  expect_rel(r.frequencies.inv_freq[1], 0.8444590486885271);
  expect_rel(r.frequencies.inv_freq[63], 2.3683800926830812e-05);
  std::vector<std::string> unread = m.unread_keys;
  std::sort(unread.begin(), unread.end());
  EXPECT_EQ(unread,
            (std::vector<std::string>{"layer_switch", "order_of_interleaved_layers", "position_embedding_type", "rotary_pct"}));
}

// transformers' Cohere rotary embedding takes partial_rotary_factor only: a Cohere config's rotary_pct changes
// nothing (and is named), while GPT-NeoX's rotary_pct still sets the rotary width.
TEST(Presets2026, CohereRotaryPctIsNotRead) {
  ConfigValue cfg = model_io::preset_config("command-r7b");
  cfg.set("rotary_pct", ConfigValue::number(0.5));
  const ModelPosition m = read_hf_config(cfg);
  EXPECT_EQ(m.rope->rotary_dim, 128);
  EXPECT_EQ(std::count(m.unread_keys.begin(), m.unread_keys.end(), "rotary_pct"), 1);
  EXPECT_EQ(preset("gpt-neox-20b").rope->rotary_dim, 24);
}

// Ministral 3 3B: YaRN factor 16 over original 16384 at base 1e6 (beta 32 / 1 -> correction range [20, 37]),
// attention factor get_mscale(16, 1) / get_mscale(16, 1) = 1; llama_4_scaling_beta 0.1 on every layer:
// 1 + 0.1 ln(1 + floor(p / 16384)).
TEST(Presets2026, Ministral3) {
  const ModelPosition m = preset("ministral3-3b");
  EXPECT_EQ(m.head_dim, 128);
  ASSERT_EQ(m.per_layer.size(), 26u);
  for (const LayerSpec& l : m.per_layer) {
    EXPECT_EQ(l.attention, LayerAttention::Full);
    EXPECT_TRUE(l.rope);
    EXPECT_EQ(l.query_scale.rule, QueryScale::Rule::Llama4ScalingBeta);
    EXPECT_EQ(l.query_scale.beta, 0.1);
    EXPECT_EQ(l.query_scale.original_max_position_embeddings, 16384);
  }
  const QueryScale& q = m.per_layer[0].query_scale;
  EXPECT_EQ(query_scale_at(q, 16383), 1.0);
  expect_rel(query_scale_at(q, 16384), 1.0693147180559945);
  expect_rel(query_scale_at(q, 40000), 1.109861228866811);
  const ModelRope& r = *m.rope;
  EXPECT_EQ(r.scaling.type, RopeScalingType::Yarn);
  EXPECT_EQ(r.scaling.factor, 16.0);
  EXPECT_EQ(r.original_max_position_embeddings, 16384);
  EXPECT_EQ(r.max_position_embeddings, 262144);
  EXPECT_EQ(r.frequencies.attention_scaling, 1.0);
  const int at[] = {0, 10, 20, 30, 40, 50, 63};
  const double want[] = {1.0,
                         0.1154781984689458,
                         0.01333521432163324,
                         0.0006907023388943309,
                         1.1114246312743267e-05,
                         1.2834531415357164e-06,
                         7.755861004698247e-08};
  for (int k = 0; k < 7; ++k) expect_rel(r.frequencies.inv_freq[at[k]], want[k]);
  EXPECT_TRUE(m.unread_keys.empty());
}

// Gemma 4 (the key shape of the Hub config.json copies, e.g. seed429/12 and
// FINAL-Bench/Darwin-4B-David: head_dim 256, global_head_dim 512, full_attention proportional 0.25 at 1e6,
// sliding_attention default at 1e4). huggingface/transformers@c308a309e651a7e033f683353f3f75aa66d29502
// models/gemma4/modeling_gemma4.py: Gemma4TextRotaryEmbedding passes head_dim_key="global_head_dim" for the
// proportional full-attention RoPE, Gemma4TextAttention uses head_dim = global_head_dim on full layers and
// scaling = 1.0. So the full layers rotate int(0.25 * 512 // 2) = 64 pairs at 1 / 1e6^(2i / 512), not 32 at
// 1 / 1e6^(2i / 256).
// Gemma 4 "unified" (models/gemma4_unified/modeling_gemma4_unified.py @2a4f1d4fa8981c307fb8f8b0949b7bb8ab437292)
// has the same attention: head_dim = global_head_dim on full layers, scaling = 1.0.
TEST(Presets2026, Gemma4UnifiedIsReadAsGemma4) {
  const ConfigValue cfg = model_io::parse_config_text(R"({"model_type": "gemma4_unified", "text_config": {
      "model_type": "gemma4_unified_text", "head_dim": 256, "global_head_dim": 512, "hidden_size": 3840,
      "num_attention_heads": 16, "num_hidden_layers": 2, "max_position_embeddings": 262144, "sliding_window": 1024,
      "layer_types": ["sliding_attention", "full_attention"],
      "rope_parameters": {"full_attention": {"partial_rotary_factor": 0.25, "rope_theta": 1000000.0,
      "rope_type": "proportional"}, "sliding_attention": {"rope_theta": 10000.0, "rope_type": "default"}}}})");
  const ModelPosition m = read_hf_config(cfg);
  EXPECT_EQ(m.rope->rotary_dim, 512);
  EXPECT_EQ(m.rope->softmax_scale, 1.0);
  EXPECT_TRUE(m.unread_keys.empty());
}

TEST(Presets2026, Gemma4FullLayersUseGlobalHeadDim) {
  const ConfigValue cfg = model_io::parse_config_text(R"({"model_type": "gemma4", "text_config": {
      "model_type": "gemma4_text", "head_dim": 256, "global_head_dim": 512, "hidden_size": 2304,
      "num_attention_heads": 8, "num_key_value_heads": 4, "num_hidden_layers": 6, "max_position_embeddings": 131072,
      "sliding_window": 512, "layer_types": ["sliding_attention", "sliding_attention", "sliding_attention",
      "sliding_attention", "sliding_attention", "full_attention"],
      "rope_parameters": {"full_attention": {"partial_rotary_factor": 0.25, "rope_theta": 1000000.0,
      "rope_type": "proportional"}, "sliding_attention": {"rope_theta": 10000.0, "rope_type": "default"}}}})");
  const ModelPosition m = read_hf_config(cfg);
  EXPECT_EQ(m.head_dim, 256);
  EXPECT_TRUE(m.unread_keys.empty());
  ASSERT_EQ(m.layers.size(), 2u);
  for (const auto& [type, r] : m.layers) {
    SCOPED_TRACE(type);
    EXPECT_EQ(r.softmax_scale, 1.0);
    if (type == "full_attention") {
      EXPECT_EQ(r.head_dim, 512);  // Gemma4TextAttention: head_dim = global_head_dim on non-sliding layers
      EXPECT_EQ(rope_head_dim(m, r), 512);
      EXPECT_EQ(r.rotary_dim, 512);
      ASSERT_EQ(r.frequencies.inv_freq.size(), 256u);
      int rotating = 0;
      for (double f : r.frequencies.inv_freq) rotating += f > 0;
      EXPECT_EQ(rotating, 64);
      expect_rel(r.frequencies.inv_freq[1], 1.0 / std::pow(1e6, 2.0 / 512));
      expect_rel(r.frequencies.inv_freq[63], 1.0 / std::pow(1e6, 126.0 / 512));
      EXPECT_EQ(r.frequencies.inv_freq[64], 0.0);
    } else {
      EXPECT_EQ(r.head_dim, 256);
      EXPECT_EQ(r.rotary_dim, 256);
      expect_rel(r.frequencies.inv_freq[1], 1.0 / std::pow(1e4, 2.0 / 256));
    }
  }
  // Without a proportional full-attention RoPE, global_head_dim is not read: named.
  ConfigValue plain = cfg;
  ConfigValue* tc = nullptr;
  for (auto& [k, v] : plain.as_object())
    if (k == "text_config") tc = &v;
  ASSERT_NE(tc, nullptr);
  tc->set("rope_parameters", model_io::parse_config_text(R"({"rope_theta": 1000000.0, "rope_type": "default"})"));
  tc->set("layer_types", model_io::parse_config_text(R"(["full_attention", "full_attention", "full_attention",
      "full_attention", "full_attention", "full_attention"])"));
  const ModelPosition p = read_hf_config(plain);
  EXPECT_EQ(p.rope->rotary_dim, 256);
  EXPECT_EQ(rope_head_dim(p, *p.rope), 256);
  EXPECT_EQ(p.unread_keys, (std::vector<std::string>{"text_config.global_head_dim"}));
}

// Gemma 3n (the E4B key shape: head_dim 256, query_pre_attn_scalar 256, rope_theta 1e6, rope_local_base_freq
// 1e4, sliding 512, layer_types (4 sliding + 1 full) x 7): q and k are RMS-normalised and q.k is multiplied by 1
// (huggingface/transformers@00aa0f5dc1ccd968335257cb871d41ee9c0bc21e models/gemma3n/modeling_gemma3n.py,
// Gemma3nTextAttention passes scaling = self.scaling = 1.0), so query_pre_attn_scalar is named, not read.
TEST(Presets2026, Gemma3nScalesByOne) {
  std::string types;
  for (int i = 0; i < 35; ++i)
    types += std::string(i ? ", " : "") + ((i + 1) % 5 ? "\"sliding_attention\"" : "\"full_attention\"");
  const ConfigValue cfg = model_io::parse_config_text(
      R"({"model_type": "gemma3n", "text_config": {"model_type": "gemma3n_text", "head_dim": 256, "hidden_size": 2048,
      "num_attention_heads": 8, "num_key_value_heads": 2, "num_hidden_layers": 35, "max_position_embeddings": 32768,
      "query_pre_attn_scalar": 256, "rope_theta": 1000000.0, "rope_local_base_freq": 10000.0, "rope_scaling": null,
      "sliding_window": 512, "layer_types": [)" +
      types + "]}}");
  const ModelPosition m = read_hf_config(cfg);
  ASSERT_EQ(m.per_layer.size(), 35u);
  EXPECT_EQ(m.per_layer[4].attention, LayerAttention::Full);
  EXPECT_EQ(m.per_layer[0].attention, LayerAttention::Sliding);
  ASSERT_EQ(m.layers.size(), 2u);
  for (const auto& [type, r] : m.layers) EXPECT_EQ(r.softmax_scale, 1.0) << type;
  EXPECT_EQ(m.rope->base, 1e6);
  EXPECT_EQ(m.unread_keys, (std::vector<std::string>{"text_config.query_pre_attn_scalar"}));
}

// Kimi-K2 (model_type kimi_k2, architectures DeepseekV3ForCausalLM: Moonshot's README says the model reuses
// DeepSeek-V3's code and runs with model_type changed to deepseek_v3) and DeepSeek-V3.2 (deepseek_v32: its MLA
// rotates as V3's; the lightning indexer's own RoPE is not interleaved, huggingface/transformers #42786 and
// deepseek-ai/DeepSeek-V3.2-Exp@8631a813356d39b09a5c1ee1cde8ed6015559eb3) rotate interleaved pairs over
// qk_rope_head_dim, like the deepseek-v3 preset. index_topk is read as DSA's key selection (the family row's
// rule: V3.2's lightning indexer; a V3-architecture config without the key selects none). Key shapes: Hub page copies of k-l-lambda/Kimi-K2.5-Eagle3 and hyper-accel/tiny-random-deepseek-v32.
TEST(Presets2026, KimiK2AndDeepSeekV32RotateInterleavedPairs) {
  for (const char* mt : {"kimi_k2", "deepseek_v32"}) {
    SCOPED_TRACE(mt);
    const ConfigValue cfg = model_io::parse_config_text(
        std::string(R"({"model_type": ")") + mt +
        R"(", "hidden_size": 7168, "num_attention_heads": 64, "num_hidden_layers": 61, "qk_nope_head_dim": 128,
        "qk_rope_head_dim": 64, "kv_lora_rank": 512, "max_position_embeddings": 131072, "rope_theta": 50000.0,
        "index_topk": 2048, "rope_scaling": {"beta_fast": 1.0, "beta_slow": 1.0, "factor": 32.0, "mscale": 1.0,
        "mscale_all_dim": 1.0, "original_max_position_embeddings": 4096, "type": "yarn"}})");
    const ModelPosition m = read_hf_config(cfg);
    EXPECT_EQ(m.rope->layout, RopeLayout::Interleaved);
    EXPECT_EQ(m.rope->rotary_dim, 64);
    EXPECT_EQ(m.head_dim, 192);
    // DeepSeek softmax: 192^-0.5 * get_mscale(32, 1)^2 with get_mscale(s, m) = 0.1 m ln s + 1.
    const double mscale = 0.1 * std::log(32.0) + 1.0;
    expect_rel(m.rope->softmax_scale, mscale * mscale / std::sqrt(192.0));
    EXPECT_EQ(m.unread_keys, std::vector<std::string>{});
    EXPECT_EQ(m.per_layer.front().key_selection.kind, "indexer_topk");
    EXPECT_EQ(m.per_layer.front().key_selection.top_k, 2048);
  }
}

// Kimi-K2-Instruct (moonshotai/Kimi-K2-Instruct config.json: model_type kimi_k2, DeepseekV3ForCausalLM): read as
// DeepSeek-V3 (Moonshot's remote code is DeepSeek-V3's modeling_deepseek.py; transformers'
// models/deepseek_v3/modeling_deepseek_v3.py is the same): MLA with qk_rope_head_dim 64 rotating interleaved
// pairs, head_dim 128 + 64 = 192; YaRN over 64 dims at base 50000, factor 32 (= max 131072 / original 4096),
// beta_fast = beta_slow = 1: find_correction_range(1, 1, 64, 50000, 4096) = [floor 19.16, ceil 19.16] = [19, 20],
// so pairs 0..19 keep 1 / 50000^(2i/64) and 20..31 are divided by 32; attention factor get_mscale(32, 1) /
// get_mscale(32, 1) = 1; the softmax scale 192^-0.5 * get_mscale(32, mscale_all_dim 1)^2 (DeepseekV3Attention).
TEST(Presets2026, KimiK2Instruct) {
  const ModelPosition m = preset("kimi-k2");
  EXPECT_EQ(m.model_type, "kimi_k2");
  EXPECT_EQ(m.head_dim, 192);
  EXPECT_EQ(m.num_attention_heads, 64);
  ASSERT_EQ(m.per_layer.size(), 61u);
  EXPECT_EQ(count_layers(m, LayerAttention::Full, true), 61);
  const ModelRope& r = *m.rope;
  EXPECT_EQ(r.rotary_dim, 64);
  EXPECT_EQ(r.layout, RopeLayout::Interleaved);
  EXPECT_EQ(r.scaling.type, RopeScalingType::Yarn);
  EXPECT_EQ(r.scaling.factor, 32.0);
  EXPECT_EQ(r.base, 50000.0);
  EXPECT_EQ(r.max_position_embeddings, 131072);
  EXPECT_EQ(r.original_max_position_embeddings, 4096);
  EXPECT_EQ(r.frequencies.attention_scaling, 1.0);
  expect_rel(r.softmax_scale, 0.13086079996295008);
  ASSERT_EQ(r.frequencies.inv_freq.size(), 32u);
  for (int i = 0; i < 32; ++i) {
    SCOPED_TRACE(i);
    const double plain = 1.0 / std::pow(50000.0, 2.0 * i / 64);
    expect_rel(r.frequencies.inv_freq[i], i < 20 ? plain : plain / 32);
  }
  expect_rel(r.frequencies.inv_freq[10], 0.0340072781554661);
  expect_rel(r.frequencies.inv_freq[19], 0.0016217599081159522);
  expect_rel(r.frequencies.inv_freq[20], 3.6140467735726306e-05);
  expect_rel(r.frequencies.inv_freq[31], 8.764412911589875e-07);
  EXPECT_TRUE(m.unread_keys.empty());
}

// DeepSeek-V3.2 (deepseek-ai/DeepSeek-V3.2 config.json, deepseek_v32): its MLA RoPE is V3's, key for key
// (yarn factor 40, beta 32 / 1, original 4096, base 1e4, mscale = mscale_all_dim = 1), so every number equals the
// deepseek-v3 preset's; the lightning indexer (index_head_dim 128, index_n_heads 64, index_topk 2048: each query
// attends to its top 2048 keys, chosen by a scorer with its own non-interleaved RoPE) is not modelled: named.
TEST(Presets2026, DeepSeekV32) {
  const ModelPosition m = preset("deepseek-v3.2");
  const ModelPosition v3 = preset("deepseek-v3");
  EXPECT_EQ(m.model_type, "deepseek_v32");
  EXPECT_EQ(m.head_dim, 192);
  EXPECT_EQ(m.num_attention_heads, 128);
  ASSERT_EQ(m.per_layer.size(), 61u);
  EXPECT_EQ(count_layers(m, LayerAttention::Full, true), 61);
  const ModelRope& r = *m.rope;
  EXPECT_EQ(r.layout, RopeLayout::Interleaved);
  EXPECT_EQ(r.rotary_dim, 64);
  EXPECT_EQ(r.scaling.type, RopeScalingType::Yarn);
  EXPECT_EQ(r.max_position_embeddings, 163840);
  EXPECT_EQ(r.original_max_position_embeddings, 4096);
  EXPECT_EQ(r.frequencies.attention_scaling, 1.0);
  expect_rel(r.softmax_scale, 0.1352337788608801);
  expect_rel(r.frequencies.inv_freq[10], 0.056234132519034905);
  expect_rel(r.frequencies.inv_freq[20], 0.0007905694150420945);
  EXPECT_EQ(r.frequencies.inv_freq, v3.rope->frequencies.inv_freq);
  EXPECT_EQ(r.softmax_scale, v3.rope->softmax_scale);
  // The indexer's top-k is the layers' key selection; its own heads and dims are not modelled, and named.
  EXPECT_EQ(m.unread_keys, (std::vector<std::string>{"index_head_dim", "index_n_heads"}));
}

// Gemma-4-31B-it (a transformers 5.7.0 print of google/gemma-4-31B-it's config): 60 layers, every 6th full
// attention, the others sliding 1024 (layer_types); full layers: proportional RoPE over global_head_dim 512 at 1e6,
// int(0.25 * 512 // 2) = 64 of 256 pairs rotating at 1 / 1e6^(2i / 512), the rest frequency 0
// (_compute_proportional_rope_parameters, head_dim_key="global_head_dim"); sliding layers: default RoPE over
// head_dim 256 at 1e4; q.k multiplied by 1 on every layer (Gemma4TextAttention). use_bidirectional_attention
// "vision" leaves text tokens causal: read. The vision tower's RoPE, head width and position table are named.
TEST(Presets2026, Gemma4_31b) {
  const ModelPosition m = preset("gemma-4-31b");
  EXPECT_EQ(m.model_type, "gemma4");
  EXPECT_EQ(m.head_dim, 256);
  EXPECT_EQ(m.num_attention_heads, 32);
  ASSERT_EQ(m.per_layer.size(), 60u);
  for (int i = 0; i < 60; ++i) {
    SCOPED_TRACE(i);
    const LayerSpec& l = m.per_layer[i];
    EXPECT_TRUE(l.rope);
    if ((i + 1) % 6 == 0) {
      EXPECT_EQ(l.attention, LayerAttention::Full);
      EXPECT_EQ(l.window, 0);
      EXPECT_EQ(l.rope_key, "full_attention");
    } else {
      EXPECT_EQ(l.attention, LayerAttention::Sliding);
      EXPECT_EQ(l.window, 1024);
      EXPECT_EQ(l.rope_key, "sliding_attention");
    }
  }
  EXPECT_EQ(m.rope->rotary_dim, 512);
  EXPECT_EQ(m.rope->head_dim, 512);  // rope repeats the full_attention entry
  EXPECT_EQ(m.rope->max_position_embeddings, 262144);
  ASSERT_EQ(m.layers.size(), 2u);
  for (const auto& [type, r] : m.layers) {
    SCOPED_TRACE(type);
    EXPECT_EQ(r.softmax_scale, 1.0);
    EXPECT_EQ(r.layout, RopeLayout::Half);
    EXPECT_EQ(r.frequencies.attention_scaling, 1.0);
    if (type == "full_attention") {
      // The full layers are global_head_dim 512 wide (Gemma4TextAttention): 512 of 512, 64 of 256 pairs rotating.
      EXPECT_EQ(r.head_dim, 512);
      EXPECT_EQ(r.rotary_dim, 512);
      EXPECT_EQ(rope_frequency_zero_pairs(r), 192);
      EXPECT_EQ(rope_width_text(r, rope_head_dim(m, r)), "512 of 512 (256 pairs: 64 rotating, 192 at frequency 0; half layout)");
      EXPECT_EQ(r.base, 1e6);
      ASSERT_EQ(r.frequencies.inv_freq.size(), 256u);
      for (int i = 0; i < 256; ++i) {
        SCOPED_TRACE(i);
        if (i < 64) {
          expect_rel(r.frequencies.inv_freq[i], 1.0 / std::pow(1e6, 2.0 * i / 512));
        } else {
          EXPECT_EQ(r.frequencies.inv_freq[i], 0.0);
        }
      }
      expect_rel(r.frequencies.inv_freq[63], 0.033376246942920386);
    } else {
      EXPECT_EQ(type, "sliding_attention");
      EXPECT_EQ(r.head_dim, 256);
      EXPECT_EQ(r.rotary_dim, 256);
      EXPECT_EQ(rope_frequency_zero_pairs(r), 0);
      EXPECT_EQ(rope_width_text(r, rope_head_dim(m, r)), "256 of 256 (128 pairs, half layout)");
      EXPECT_EQ(r.base, 1e4);
      ASSERT_EQ(r.frequencies.inv_freq.size(), 128u);
      for (int i : {0, 1, 64, 127}) expect_rel(r.frequencies.inv_freq[i], 1.0 / std::pow(1e4, 2.0 * i / 256));
    }
  }
  EXPECT_EQ(m.unread_keys,
            (std::vector<std::string>{"vision_config.global_head_dim", "vision_config.max_position_embeddings",
                                      "vision_config.position_embedding_size", "vision_config.rope_parameters.rope_theta",
                                      "vision_config.rope_parameters.rope_type"}));
}

// What Gemma 4's full-attention pairs do at the trained length: proportional RoPE rotates 64 of its 256 pairs
// (partial_rotary_factor 0.25 of global_head_dim 512) and gives the other 192 frequency 0 at any factor
// (huggingface/transformers@351f643ab9f582c01026b6d75aab3e2c5a8338cd modeling_rope_utils.py,
// _compute_proportional_rope_parameters). Against the default frequencies over 512 dims those 192 would read
// as slowed ("interpolated") or as turning fully; against the configuration's own unscaled frequencies they
// do not rotate, and the 64 that rotate complete a full turn (L w_63 = 262144 * 0.0334 > 2 pi).
TEST(Presets2026, Gemma4FullLayerPairsSayWhatTheyDo) {
  const ModelPosition m = preset("gemma-4-31b");
  const auto layer = std::find_if(m.layers.begin(), m.layers.end(), [](const auto& l) { return l.first == "full_attention"; });
  ASSERT_NE(layer, m.layers.end());
  const ModelRope& full = layer->second;
  const std::vector<double> unscaled = rope_unscaled_inv_freq(full.rotary_dim, full.base, full.scaling);
  ASSERT_EQ(unscaled.size(), 256u);
  for (int i = 0; i < 256; ++i) EXPECT_EQ(unscaled[i], full.frequencies.inv_freq[i]) << i;  // factor 1
  const int64_t L = full.max_position_embeddings;
  const PairBehaviourCounts counts = count_pair_behaviours(unscaled, full.frequencies.inv_freq, L, L);
  EXPECT_EQ(counts, (PairBehaviourCounts{64, 0, 0, 0, 192}));
  EXPECT_EQ(pair_behaviour_counts_text(counts, L, L),
            "64 complete a full turn within the trained length, 192 do not rotate (frequency 0)");
}

// use_bidirectional_attention: "vision" (Gemma 4) and false (Gemma 3's default) keep text tokens causal. true /
// "all" make every token attend to every other and shrink the sliding window to W // 2 + 1 as an exclusive bound
// (huggingface/transformers@351f643ab9f582c01026b6d75aab3e2c5a8338cd models/gemma4/configuration_gemma4.py,
// Gemma4TextConfig.__post_init__): every layer bidirectional, the window |i - j| <= W // 2. Read either way.
TEST(Presets2026, BidirectionalAttentionIsRead) {
  for (const char* value : {"\"vision\"", "false", "\"all\"", "true"}) {
    SCOPED_TRACE(value);
    const ConfigValue cfg = model_io::parse_config_text(
        std::string(R"({"model_type": "gemma4", "text_config": {"model_type": "gemma4_text", "head_dim": 256,
        "global_head_dim": 512, "hidden_size": 2304, "num_attention_heads": 8, "num_hidden_layers": 2,
        "max_position_embeddings": 131072, "sliding_window": 512, "layer_types": ["sliding_attention",
        "full_attention"], "rope_parameters": {"full_attention": {"partial_rotary_factor": 0.25,
        "rope_theta": 1000000.0, "rope_type": "proportional"}, "sliding_attention": {"rope_theta": 10000.0,
        "rope_type": "default"}}, "use_bidirectional_attention": )") +
        value + "}}");
    const ModelPosition m = read_hf_config(cfg);
    const bool causal = std::string(value) == "\"vision\"" || std::string(value) == "false";
    EXPECT_EQ(m.unread_keys, std::vector<std::string>{});
    EXPECT_EQ(m.per_layer[0].window, causal ? 512 : 256);
    for (const LayerSpec& l : m.per_layer) EXPECT_EQ(l.causal, causal);
  }
}

// Every preset: each RoPE entry carries the width of the heads it rotates, and its rotary dims fit in it; only a
// family that declares a layer type's own width (Gemma 4's global_head_dim) differs from the model's head_dim.
TEST(Presets2026, EveryRopeFitsItsOwnHeadWidth) {
  for (const auto& preset_entry : model_io::model_presets()) {
    SCOPED_TRACE(preset_entry.id);
    const ModelPosition m = preset(preset_entry.id);
    if (!m.rope) continue;
    std::vector<const ModelRope*> ropes{&*m.rope};
    for (const auto& [type, r] : m.layers) ropes.push_back(&r);
    for (const ModelRope* r : ropes) {
      EXPECT_GT(r->head_dim, 0);
      EXPECT_LE(r->rotary_dim, rope_head_dim(m, *r));
      if (m.family != "Gemma 4") { EXPECT_EQ(rope_head_dim(m, *r), m.head_dim); }
    }
  }
}
