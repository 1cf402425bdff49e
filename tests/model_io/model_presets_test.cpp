// The presets, each read from its published config.json (tests/data/configs, sources in SOURCES.md) as
// transformers reads it: every layer, the RoPE frequencies, the query scales, and unread_keys naming exactly the
// positional keys transformers does not read either. One table, kPresetCases, holds a row per preset read (its id
// names the test: Presets/PresetReads.AsTransformersDoes/<id>); the tests after it read configs beside the
// presets' or hold for every preset.
//
// Reference values of the older presets (llama-3.1-8b ... deepseek-v3): tests/data/rope_reference.py
// (plain-Python math of transformers' src/transformers/modeling_rope_utils.py _compute_*_parameters, read at
// zucchini-nlp/transformers@26892c16b782513fdf938920653228ef63a19d7d and
// huggingface/transformers@ef46806472a64b0013ed413781e3afed82bfa047).
// Reference values of the 2026 presets (SOURCES.md, "2026 models" and "2026 models, second pass"):
// a Python port of transformers' src/transformers/modeling_rope_utils.py
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
#include <cctype>
#include <cmath>
#include <cstdint>
#include <optional>
#include <ostream>
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

ModelPosition preset(const std::string& id, std::optional<int64_t> target_length = std::nullopt) {
  return read_hf_config(model_io::preset_config(id), target_length);
}

void expect_rel(double got, double want) { EXPECT_NEAR(got, want, 1e-12 * std::abs(want)) << "want " << want; }

int count_layers(const ModelPosition& m, LayerAttention a, bool rope) {
  return static_cast<int>(std::count_if(m.per_layer.begin(), m.per_layer.end(),
                                        [&](const LayerSpec& l) { return l.attention == a && l.rope == rope; }));
}

// _compute_llama3_parameters: factor 8, low 1, high 4, original 8192, theta 5e5.
void llama_3_1_8b(const ModelPosition& m) {
  EXPECT_EQ(m.position, PositionKind::Rope);
  EXPECT_EQ(m.head_dim, 128);
  EXPECT_EQ(m.num_attention_heads, 32);
  const ModelRope& r = *m.rope;
  EXPECT_EQ(r.rotary_dim, 128);
  EXPECT_EQ(r.layout, RopeLayout::Half);
  EXPECT_EQ(r.scaling.type, RopeScalingType::Llama3);
  EXPECT_EQ(r.base, 500000.0);
  EXPECT_EQ(r.max_position_embeddings, 131072);
  EXPECT_EQ(r.original_max_position_embeddings, 8192);
  EXPECT_EQ(r.frequencies.attention_scaling, 1.0);
  expect_rel(r.softmax_scale, 1 / std::sqrt(128.0));
  const double want[] = {1.0, 0.016560440080994446, 3.428102195952591e-05, 1.2297638677963614e-05, 3.068925988914511e-07};
  const int at[] = {0, 20, 40, 45, 63};
  for (int i = 0; i < 5; ++i) expect_rel(r.frequencies.inv_freq[at[i]], want[i]);
  EXPECT_TRUE(m.layers.empty());
}

// Qwen2.5-7B-Instruct + the model card's YaRN recipe (legacy "type": "yarn").
void qwen2_5_7b(const ModelPosition& plain) {
  EXPECT_EQ(plain.rope->scaling.type, RopeScalingType::None);
  EXPECT_EQ(plain.rope->base, 1e6);
}
void qwen2_5_7b_yarn(const ModelPosition& m) {
  const ModelRope& r = *m.rope;
  EXPECT_EQ(m.head_dim, 128);
  EXPECT_EQ(r.scaling.type, RopeScalingType::Yarn);
  EXPECT_EQ(r.scaling.factor, 4.0);  // v5: the explicit factor (not max / original = 1)
  EXPECT_EQ(r.original_max_position_embeddings, 32768);
  expect_rel(r.frequencies.attention_scaling, 1.138629436111989);
  const double want[] = {1.0, 0.01333521432163324, 0.0010643609812470017, 4.445698525097307e-05, 3.102344401879299e-07};
  const int at[] = {0, 20, 30, 40, 63};
  for (int i = 0; i < 5; ++i) expect_rel(r.frequencies.inv_freq[at[i]], want[i]);
}

// Phi-3-mini-128k: "type": "longrope", top-level original_max_position_embeddings 4096, factor 131072/4096.
// Read for the trained length or less: the short factors.
void phi_3_mini_128k(const ModelPosition& s) {
  EXPECT_EQ(s.head_dim, 96);
  EXPECT_EQ(s.rope->scaling.type, RopeScalingType::Longrope);
  EXPECT_EQ(s.rope->original_max_position_embeddings, 4096);
  EXPECT_EQ(s.rope->scaling.factor, 32.0);
  expect_rel(s.rope->frequencies.attention_scaling, 1.1902380714238083);
  EXPECT_FALSE(s.rope->frequencies.long_factors);
  expect_rel(s.rope->frequencies.inv_freq[10], 0.07338996338110344);
}
// Read for 8192 > original 4096: the long factors.
void phi_3_mini_128k_long(const ModelPosition& l) {
  EXPECT_TRUE(l.rope->frequencies.long_factors);
  expect_rel(l.rope->frequencies.inv_freq[10], 0.02111941305322222);
}
void phi_3_mini_128k_at_original(const ModelPosition& m) { EXPECT_FALSE(m.rope->frequencies.long_factors); }

// GPT-NeoX rotary_pct 0.25 of head_dim 96 (rotary_ndims = 24), GPT-J rotary_dim 64 of 256, interleaved.
void gpt_neox_20b(const ModelPosition& n) {
  EXPECT_EQ(n.head_dim, 96);
  EXPECT_EQ(n.rope->rotary_dim, 24);
  EXPECT_EQ(n.rope->layout, RopeLayout::Half);
  expect_rel(n.rope->frequencies.inv_freq[5], 0.021544346900318832);
  expect_rel(n.rope->frequencies.inv_freq[11], 0.00021544346900318845);
}
void gpt_j_6b(const ModelPosition& j) {
  EXPECT_EQ(j.head_dim, 256);
  EXPECT_EQ(j.rope->rotary_dim, 64);
  EXPECT_EQ(j.rope->layout, RopeLayout::Interleaved);
  EXPECT_EQ(j.rope->frequencies.inv_freq, rope_default_inv_freq(64, 10000.0));
}

// Gemma-3: sliding layers at rope_local_base_freq 1e4, full layers at rope_theta 1e6; scale 256^-0.5.
void gemma_3_1b(const ModelPosition& m) {
  ASSERT_EQ(m.layers.size(), 2u);
  EXPECT_EQ(m.layers[0].first, "full_attention");
  EXPECT_EQ(m.layers[1].first, "sliding_attention");
  EXPECT_EQ(m.layers[0].second.base, 1e6);
  EXPECT_EQ(m.layers[1].second.base, 1e4);
  EXPECT_EQ(m.rope->base, 1e6);  // `rope` repeats the full-attention entry
  EXPECT_EQ(m.rope->softmax_scale, 1.0 / 16.0);
  EXPECT_EQ(m.layers[1].second.frequencies.inv_freq, rope_default_inv_freq(256, 1e4));
}

// DeepSeek-V3 (MLA): q.k over 128 + 64 dims, 64 rotate (interleaved), softmax scale 192^-0.5 * mscale^2.
void deepseek_v3(const ModelPosition& m) {
  EXPECT_EQ(m.head_dim, 192);
  EXPECT_EQ(m.rope->rotary_dim, 64);
  EXPECT_EQ(m.rope->layout, RopeLayout::Interleaved);
  EXPECT_EQ(m.rope->scaling.type, RopeScalingType::Yarn);
  EXPECT_EQ(m.rope->frequencies.attention_scaling, 1.0);
  expect_rel(m.rope->softmax_scale, 0.1352337788608801);
  expect_rel(m.rope->frequencies.inv_freq[10], 0.056234132519034905);
  EXPECT_EQ(m.rope->max_position_embeddings, 163840);
  EXPECT_EQ(m.rope->original_max_position_embeddings, 4096);
}

// Llama-4-Scout-17B-16E: 48 layers, no_rope_layers [] -> every 4th layer (3, 7, ...) NoPE with full attention and
// temperature tuning (defaults 8192 / 0.1, the published text_config does not set them); the other 36 RoPE layers
// chunked at 8192. llama3 factor 16 with low = high = 1 over original 8192: wavelengths > 8192 divided by 16, the
// rest kept (pairs 0..34 kept, 35..63 divided); interleaved pairs (view_as_complex).
void llama_4_scout(const ModelPosition& m) {
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
void qwen3_vl_4b(const ModelPosition& m) {
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
void smollm3_3b(const ModelPosition& m) {
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
void command_r7b(const ModelPosition& m) {
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

// Ministral 3 3B: YaRN factor 16 over original 16384 at base 1e6 (beta 32 / 1 -> correction range [20, 37]),
// attention factor get_mscale(16, 1) / get_mscale(16, 1) = 1; llama_4_scaling_beta 0.1 on every layer:
// 1 + 0.1 ln(1 + floor(p / 16384)).
void ministral3_3b(const ModelPosition& m) {
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

// Kimi-K2-Instruct (moonshotai/Kimi-K2-Instruct config.json: model_type kimi_k2, DeepseekV3ForCausalLM): read as
// DeepSeek-V3 (Moonshot's remote code is DeepSeek-V3's modeling_deepseek.py; transformers'
// models/deepseek_v3/modeling_deepseek_v3.py is the same): MLA with qk_rope_head_dim 64 rotating interleaved
// pairs, head_dim 128 + 64 = 192; YaRN over 64 dims at base 50000, factor 32 (= max 131072 / original 4096),
// beta_fast = beta_slow = 1: find_correction_range(1, 1, 64, 50000, 4096) = [floor 19.16, ceil 19.16] = [19, 20],
// so pairs 0..19 keep 1 / 50000^(2i/64) and 20..31 are divided by 32; attention factor get_mscale(32, 1) /
// get_mscale(32, 1) = 1; the softmax scale 192^-0.5 * get_mscale(32, mscale_all_dim 1)^2 (DeepseekV3Attention).
void kimi_k2(const ModelPosition& m) {
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
void deepseek_v3_2(const ModelPosition& m) {
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
void gemma_4_31b(const ModelPosition& m) {
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

// The presets of tests/data/configs/SOURCES.md, "2026 models", read as transformers reads them.
// gpt-oss-20b: sliding and full layers alternate, every layer with sinks; YaRN without truncation.
void gpt_oss_20b(const ModelPosition& oss) {
  ASSERT_EQ(oss.per_layer.size(), 24u);
  for (int i = 0; i < 24; ++i) {
    EXPECT_EQ(oss.per_layer[i].attention, i % 2 == 0 ? LayerAttention::Sliding : LayerAttention::Full);
    EXPECT_TRUE(oss.per_layer[i].sinks);
  }
  EXPECT_EQ(oss.rope->scaling.type, RopeScalingType::Yarn);
  EXPECT_FALSE(oss.rope->scaling.truncate);
  EXPECT_EQ(oss.unread_keys, (std::vector<std::string>{"initial_context_length"}));
}

// GLM-4.5-Air: int(128 * 0.5) = 64 rotary dims (T-cur _compute_default_rope_parameters).
void glm_4_5_air(const ModelPosition& glm) {
  EXPECT_EQ(glm.rope->rotary_dim, 64);
  EXPECT_DOUBLE_EQ(glm.rope->frequencies.inv_freq[1], 1.0 / std::pow(1e6, 2.0 / 64));
}

// Phi-4-mini read for 8192: int(128 * 0.75) = 96 rotary dims, 48 LongRoPE factors; long ones past 4096.
void phi_4_mini_long(const ModelPosition& phi) {
  EXPECT_EQ(phi.rope->rotary_dim, 96);
  EXPECT_TRUE(phi.rope->frequencies.long_factors);
  EXPECT_DOUBLE_EQ(phi.rope->frequencies.inv_freq[47], 1.0 / (47.77 * std::pow(10000.0, 94.0 / 96)));
  // attention_factor sqrt(1 + ln(131072 / 4096) / ln 4096) (T-cur _compute_longrope_parameters).
  EXPECT_DOUBLE_EQ(phi.rope->frequencies.attention_scaling, std::sqrt(1 + std::log(32.0) / std::log(4096.0)));
}

// Qwen3.6-35B-A3B: 30 linear + 10 full layers, interleaved M-RoPE 11/11/10 over 64 rotary dims.
void qwen3_6_35b_a3b(const ModelPosition& q) {
  EXPECT_EQ(q.rope->rotary_dim, 64);
  EXPECT_EQ(q.rope->mrope_section, (std::vector<int>{11, 11, 10}));
  EXPECT_TRUE(q.rope->mrope_interleaved);
  int linear = 0;
  for (const LayerSpec& l : q.per_layer) linear += l.attention == LayerAttention::Linear;
  EXPECT_EQ(linear, 30);
  EXPECT_TRUE(q.unread_keys.empty());
}

// Qwen2.5-VL-7B (re-saved with a text_config): contiguous M-RoPE 16/24/24 over 128 rotary dims, 28 full layers.
void qwen2_5_vl_7b(const ModelPosition& vl) {
  EXPECT_EQ(vl.rope->rotary_dim, 128);
  EXPECT_EQ(vl.rope->mrope_section, (std::vector<int>{16, 24, 24}));
  EXPECT_FALSE(vl.rope->mrope_interleaved);
  EXPECT_EQ(vl.per_layer.size(), 28u);
  EXPECT_EQ(std::count(vl.unread_keys.begin(), vl.unread_keys.end(), "text_config.rope_scaling.type"), 0);
  EXPECT_EQ(std::count(vl.unread_keys.begin(), vl.unread_keys.end(), "vision_config.window_size"), 1);
  // Its top-level copies of the text_config keys (rope_theta, rope_scaling, max_position_embeddings, ...: the
  // file transformers re-saves keeps both, Qwen2_5_VLConfig reads text_config) equal the read ones: read, not
  // named. The top-level sliding_window (32768) differs from text_config's (null, with use_sliding_window
  // false): named.
  EXPECT_EQ(vl.unread_keys,
            (std::vector<std::string>{"sliding_window", "vision_config.fullatt_block_indexes", "vision_config.window_size"}));
}

// Qwen3 (8B architecture): 36 full RoPE layers (use_sliding_window false), everything read.
void qwen3_8b(const ModelPosition& q3) {
  EXPECT_EQ(q3.per_layer.size(), 36u);
  for (const LayerSpec& l : q3.per_layer) EXPECT_EQ(l.attention, LayerAttention::Full);
  EXPECT_TRUE(q3.unread_keys.empty());
}

// One row per preset read: its id, the length it is read for (LongRoPE picks its factors by it; none: as
// read_hf_config reads it by default) and what must hold of the reading.
struct PresetCase {
  const char* id;
  std::optional<int64_t> target_length;
  void (*check)(const ModelPosition&);
};

const PresetCase kPresetCases[] = {
    {"llama-3.1-8b", std::nullopt, llama_3_1_8b},
    {"qwen2.5-7b", std::nullopt, qwen2_5_7b},
    {"qwen2.5-7b-yarn", std::nullopt, qwen2_5_7b_yarn},
    {"phi-3-mini-128k", std::nullopt, phi_3_mini_128k},
    {"phi-3-mini-128k", 8192, phi_3_mini_128k_long},
    {"phi-3-mini-128k", 4096, phi_3_mini_128k_at_original},
    {"gpt-neox-20b", std::nullopt, gpt_neox_20b},
    {"gpt-j-6b", std::nullopt, gpt_j_6b},
    {"gemma-3-1b", std::nullopt, gemma_3_1b},
    {"deepseek-v3", std::nullopt, deepseek_v3},
    {"llama-4-scout-17b-16e", std::nullopt, llama_4_scout},
    {"qwen3-vl-4b", std::nullopt, qwen3_vl_4b},
    {"smollm3-3b", std::nullopt, smollm3_3b},
    {"command-r7b", std::nullopt, command_r7b},
    {"ministral3-3b", std::nullopt, ministral3_3b},
    {"kimi-k2", std::nullopt, kimi_k2},
    {"deepseek-v3.2", std::nullopt, deepseek_v3_2},
    {"gemma-4-31b", std::nullopt, gemma_4_31b},
    {"gpt-oss-20b", std::nullopt, gpt_oss_20b},
    {"glm-4.5-air", std::nullopt, glm_4_5_air},
    {"phi-4-mini", 8192, phi_4_mini_long},
    {"qwen3.6-35b-a3b", std::nullopt, qwen3_6_35b_a3b},
    {"qwen2.5-vl-7b", std::nullopt, qwen2_5_vl_7b},
    {"qwen3-8b", std::nullopt, qwen3_8b},
};

// The test's name: the id with every character a test name cannot hold as '_', and the length it is read for.
std::string case_name(const testing::TestParamInfo<PresetCase>& info) {
  std::string name = info.param.id;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  if (info.param.target_length) name += "_at_" + std::to_string(*info.param.target_length);
  return name;
}

// A failure names the row by its id, not by its bytes.
void PrintTo(const PresetCase& c, std::ostream* os) { *os << c.id; }

class PresetReads : public testing::TestWithParam<PresetCase> {};

}  // namespace

TEST_P(PresetReads, AsTransformersDoes) {
  const PresetCase& c = GetParam();
  c.check(preset(c.id, c.target_length));
}

INSTANTIATE_TEST_SUITE_P(Presets, PresetReads, testing::ValuesIn(kPresetCases), case_name);

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
