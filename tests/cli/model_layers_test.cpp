// The models people load in 2026: M-RoPE (Qwen2-VL / Qwen3-VL), Llama 3 scaling with equal band factors
// (Llama-4-Scout), proportional RoPE (Gemma 4), query scales by position (Llama 4 temperature tuning,
// Ministral 3 llama_4_scaling_beta), every layer described (layer_types, sliding windows, NoPE layers,
// chunked attention, linear-attention layers, sinks), unread_keys, and the GGUF keys for the same.
//
// References (each test names the function it ports):
//  T: transformers at Zahgon/transformers@c0ce2e40523611eb0eb5d2c03ba304371523a1fc
//     src/transformers/modeling_rope_utils.py (_compute_llama3_parameters, _compute_proportional_rope_parameters),
//     models/qwen2_vl/modeling_qwen2_vl.py (apply_multimodal_rotary_pos_emb),
//     models/qwen3_vl/modeling_qwen3_vl.py (Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope),
//     models/llama4/configuration_llama4.py (no_rope_layers default, layer_types default) and
//     modeling_llama4.py (attn_temperature_tuning on NoPE layers),
//     models/ministral3/modeling_ministral3.py (_get_llama_4_attn_scale),
//     models/cohere2/modeling_cohere2.py (RoPE only with a sliding window), models/gpt_oss (sinks).
//  L: llama.cpp src/llama-model.cpp (llama4: chunked 8192 unless attention.sliding_window == 0, NoPE step 4,
//     temperature floor 8192 / scale 0.1; smollm3: n_no_rope_layer_step = 4; openai-moe: set_swa_pattern(2);
//     qwen2vl MROPE / qwen3vl IMROPE with rope.dimension_sections), as quoted in docs/models.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <numbers>

#include "cli/eval.h"
#include "core/encodings/rope.h"
#include "core/models/gguf.h"
#include "core/models/model_config.h"
#include "model_io/config_json.h"

using namespace posenc;
using nlohmann::json;

namespace {

ModelPosition read(const json& config) { return read_hf_config(model_io::config_from_json(config)); }

std::string read_error(const json& config) {
  try {
    read(config);
  } catch (const InvalidArgument& e) { return e.field(); }
  return "<ok>";
}

json eval(const json& request) { return json::parse(cli::evaluate_request(request.dump())); }

std::string eval_field(const json& request) {
  try {
    cli::evaluate_request(request.dump());
  } catch (const InvalidArgument& e) { return e.field(); }
  return "<ok>";
}

Matrix test_matrix(int rows, int cols) {
  Matrix x(rows, cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) x(r, c) = std::sin(0.37 * (r + 1) + 1.3 * c) + 0.1 * c;
  return x;
}

// Port of Qwen2-VL's rotary path for one head: emb = cat(freqs, freqs) per axis, cos/sin split by
// mrope_section * 2 taking chunk i from axis i % 3 (apply_multimodal_rotary_pos_emb), then
// q * cos + rotate_half(q) * sin.
Matrix port_qwen2_vl(const Matrix& x, const MropePositions& pos, const std::vector<double>& inv_freq,
                     const std::vector<int>& section) {
  const int half = static_cast<int>(inv_freq.size()), dim = 2 * half;
  std::vector<int> doubled = section;
  doubled.insert(doubled.end(), section.begin(), section.end());
  Matrix out = x;
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    std::vector<double> cs(dim), sn(dim);
    int col = 0;
    for (std::size_t chunk = 0; chunk < doubled.size(); ++chunk)
      for (int j = 0; j < doubled[chunk]; ++j, ++col) {
        const double angle = static_cast<double>(pos[chunk % 3][r]) * inv_freq[col % half];
        cs[col] = std::cos(angle);
        sn[col] = std::sin(angle);
      }
    for (int c = 0; c < dim; ++c) {
      const double rot = c < half ? -x(r, c + half) : x(r, c - half);
      out(r, c) = x(r, c) * cs[c] + rot * sn[c];
    }
  }
  return out;
}

// Port of Qwen3-VL's: freqs_t = freqs[0]; freqs_t[..., offset:3*section[axis]:3] = freqs[axis] for
// (axis, offset) = (1, 1), (2, 2); emb = cat(freqs_t, freqs_t); rotate_half.
Matrix port_qwen3_vl(const Matrix& x, const MropePositions& pos, const std::vector<double>& inv_freq,
                     const std::vector<int>& section) {
  const int half = static_cast<int>(inv_freq.size()), dim = 2 * half;
  Matrix out = x;
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    std::vector<double> freqs_t(half);
    for (int i = 0; i < half; ++i) freqs_t[i] = static_cast<double>(pos[0][r]) * inv_freq[i];
    for (int axis = 1; axis <= 2; ++axis)
      for (int i = axis; i < 3 * section[axis] && i < half; i += 3) freqs_t[i] = static_cast<double>(pos[axis][r]) * inv_freq[i];
    for (int c = 0; c < dim; ++c) {
      const double angle = freqs_t[c % half];
      const double rot = c < half ? -x(r, c + half) : x(r, c - half);
      out(r, c) = x(r, c) * std::cos(angle) + rot * std::sin(angle);
    }
  }
  return out;
}

}  // namespace

// ---------------------------------------------------------------- M-RoPE

TEST(Mrope, ContiguousSectionsMatchAPortOfQwen2VL) {
  const std::vector<int> section = {2, 3, 3};  // 8 pairs: 16 rotary dims
  const RopeFrequencies f = rope_frequencies(16, 10000.0);
  const MropePositions pos = {std::vector<int64_t>{0, 5, 5, 5, 9}, {0, 1, 2, 3, 9}, {0, 4, 1, 0, 9}};
  const Matrix x = test_matrix(5, 16);
  const Matrix got = rope_apply_mrope(x, pos, f, RopeLayout::Half, rope_mrope_axes(section, 8, false));
  const Matrix want = port_qwen2_vl(x, pos, f.inv_freq, section);
  EXPECT_LT((got - want).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(Mrope, InterleavedSectionsMatchAPortOfQwen3VL) {
  const std::vector<int> section = {4, 2, 2};  // Qwen3-VL shape: t gets the rest of the interleave
  const RopeFrequencies f = rope_frequencies(16, 5'000'000.0);
  const MropePositions pos = {std::vector<int64_t>{3, 3, 3, 7}, {0, 1, 2, 7}, {2, 0, 1, 7}};
  const Matrix x = test_matrix(4, 16);
  const Matrix got = rope_apply_mrope(x, pos, f, RopeLayout::Half, rope_mrope_axes(section, 8, true));
  const Matrix want = port_qwen3_vl(x, pos, f.inv_freq, section);
  EXPECT_LT((got - want).cwiseAbs().maxCoeff(), 1e-12);
  // The axes themselves: pairs 1, 4 are h (i % 3 == 1, i < 6), 2, 5 are w, the rest t.
  EXPECT_EQ(rope_mrope_axes(section, 8, true), (std::vector<int>{0, 1, 2, 0, 1, 2, 0, 0}));
  EXPECT_EQ(rope_mrope_axes(section, 8, false), (std::vector<int>{0, 0, 0, 0, 1, 1, 2, 2}));
}

TEST(Mrope, TextPositionsEqualOneDimensionalRope) {
  const std::vector<int64_t> p = {0, 1, 2, 17, 300};
  const RopeFrequencies f = rope_frequencies(16, 1'000'000.0);
  const Matrix x = test_matrix(5, 20);  // 4 pass-through columns
  const Matrix one_d = rope_apply(x, p, f, RopeLayout::Half);
  for (bool interleaved : {false, true}) {
    const Matrix m =
        rope_apply_mrope(x, {p, p, p}, f, RopeLayout::Half, rope_mrope_axes(std::vector<int>{2, 3, 3}, 8, interleaved));
    EXPECT_LT((m - one_d).cwiseAbs().maxCoeff(), 1e-15);
  }
}

TEST(Mrope, SectionsMustSumToHalfTheRotaryWidth) {
  EXPECT_THROW(rope_mrope_axes(std::vector<int>{16, 24, 23}, 64, false), InvalidArgument);
  const json x = json::array({json::array({1, 0, 0, 0}), json::array({0, 1, 0, 0})});
  const json req = {{"op", "rope_apply"},
                    {"x", x},
                    {"positions", {{0, 1}, {0, 2}, {0, 3}}},
                    {"dim", 4},
                    {"base", 10000.0},
                    {"layout", "half"},
                    {"mrope_section", {1, 0, 0}}};
  EXPECT_EQ(eval_field(req), "mrope_section");
  json no_section = req;
  no_section.erase("mrope_section");
  EXPECT_EQ(eval_field(no_section), "mrope_section");
}

TEST(Mrope, EvalRopeApplyTakesThreeRowsAndMatchesThePort) {
  const Matrix x = test_matrix(3, 8);
  json xs = json::array();
  for (int r = 0; r < 3; ++r) {
    json row = json::array();
    for (int c = 0; c < 8; ++c) row.push_back(x(r, c));
    xs.push_back(row);
  }
  const MropePositions pos = {std::vector<int64_t>{4, 4, 4}, {0, 1, 1}, {0, 0, 1}};
  for (bool interleaved : {false, true}) {
    const json r = eval({{"op", "rope_apply"},
                         {"x", xs},
                         {"positions", {pos[0], pos[1], pos[2]}},
                         {"dim", 8},
                         {"base", 10000.0},
                         {"layout", "half"},
                         {"mrope_section", {2, 1, 1}},
                         {"mrope_interleaved", interleaved}});
    const std::vector<double> inv = rope_frequencies(8, 10000.0).inv_freq;
    const Matrix want = interleaved ? port_qwen3_vl(x, pos, inv, {2, 1, 1}) : port_qwen2_vl(x, pos, inv, {2, 1, 1});
    for (int i = 0; i < 3; ++i)
      for (int c = 0; c < 8; ++c) EXPECT_NEAR(r["values"][i][c].get<double>(), want(i, c), 1e-12);
  }
}

TEST(Mrope, AttentionTakesThreeRowPositions) {
  // Equal rows: the same logits as 1-D RoPE attention.
  const json q = {{1.0, 0.5, -0.25, 2.0}, {0.0, 1.0, 1.0, -1.0}};
  const json k = {{0.5, 0.5, 1.0, 0.0}, {-1.0, 0.25, 0.5, 1.5}};
  const json one_d = eval({{"op", "attention"},
                           {"q", q},
                           {"k", k},
                           {"query_positions", {3, 4}},
                           {"key_positions", {0, 4}},
                           {"position", {{"scheme", "rope"}, {"base", 10000.0}, {"layout", "half"}}}});
  const json three =
      eval({{"op", "attention"},
            {"q", q},
            {"k", k},
            {"query_positions", {{3, 4}, {3, 4}, {3, 4}}},
            {"key_positions", {{0, 4}, {0, 4}, {0, 4}}},
            {"position", {{"scheme", "rope"}, {"base", 10000.0}, {"layout", "half"}, {"mrope_section", {1, 1, 0}}}}});
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) EXPECT_NEAR(three["logits"][i][j].get<double>(), one_d["logits"][i][j].get<double>(), 1e-12);
  // Three rows without mrope_section: an error naming it.
  EXPECT_EQ(eval_field({{"op", "attention"},
                        {"q", q},
                        {"k", k},
                        {"query_positions", {{3, 4}, {3, 4}, {3, 4}}},
                        {"key_positions", {0, 4}},
                        {"position", {{"scheme", "rope"}, {"base", 10000.0}, {"layout", "half"}}}}),
            "position.mrope_section");
}

// ---------------------------------------------------------------- scalings

TEST(Llama3, EqualBandFactorsAsTransformersComputesThem) {
  // Llama-4-Scout: factor 16, low = high = 1, original 8192, theta 5e5, head_dim 128. T
  // _compute_llama3_parameters: wavelen > 8192 -> inv / 16; wavelen < 8192 -> inv; the smooth band is empty.
  RopeScaling s;
  s.type = RopeScalingType::Llama3;
  s.factor = 16;
  s.low_freq_factor = s.high_freq_factor = 1;
  s.original_max_position_embeddings = 8192;
  const RopeFrequencies f = rope_frequencies(128, 500000.0, s);
  int scaled = 0;
  for (int i = 0; i < 64; ++i) {
    const double inv = 1.0 / std::pow(500000.0, 2.0 * i / 128);
    const double wavelen = 2 * std::numbers::pi / inv;
    const double want = wavelen > 8192 ? inv / 16 : inv;
    scaled += wavelen > 8192;
    EXPECT_DOUBLE_EQ(f.inv_freq[i], want) << i;
  }
  EXPECT_EQ(scaled, 29);     // pairs 35..63: 2*pi*5e5^(i/64) > 8192 from i = 35 (i > 64 ln(8192/2pi) / ln 5e5 = 34.98)
  s.high_freq_factor = 0.5;  // high < low: still refused
  EXPECT_THROW(rope_frequencies(128, 500000.0, s), InvalidArgument);
}

TEST(Proportional, GemmaFourPRope) {
  // T _compute_proportional_rope_parameters: rope_angles = int(p * head_dim // 2), exponents 2i / head_dim,
  // the other pairs frequency 0, all / factor. head_dim 8, p = 0.5: 2 rotating pairs.
  RopeScaling s;
  s.type = RopeScalingType::Proportional;
  s.factor = 2;
  s.partial_rotary_factor = 0.5;
  const RopeFrequencies f = rope_frequencies(8, 100.0, s);
  ASSERT_EQ(f.inv_freq.size(), 4u);
  EXPECT_DOUBLE_EQ(f.inv_freq[0], 0.5);
  EXPECT_DOUBLE_EQ(f.inv_freq[1], 1.0 / std::pow(100.0, 0.25) / 2);
  EXPECT_EQ(f.inv_freq[2], 0.0);
  EXPECT_EQ(f.inv_freq[3], 0.0);
  EXPECT_EQ(f.attention_scaling, 1.0);
  // Through a config: rope_parameters per layer type, the global layers proportional (Gemma 4 shape).
  const ModelPosition m =
      read({{"model_type", "gemma4_text"},
            {"num_attention_heads", 2},
            {"head_dim", 8},
            {"hidden_size", 16},
            {"num_hidden_layers", 2},
            {"max_position_embeddings", 4096},
            {"sliding_window", 512},
            {"layer_types", {"sliding_attention", "full_attention"}},
            {"rope_parameters",
             {{"full_attention",
               {{"rope_type", "proportional"}, {"partial_rotary_factor", 0.5}, {"rope_theta", 100.0}, {"factor", 2.0}}},
              {"sliding_attention", {{"rope_type", "default"}, {"rope_theta", 10000.0}}}}}});
  ASSERT_TRUE(m.rope);
  EXPECT_EQ(m.rope->rotary_dim, 8);
  EXPECT_EQ(m.rope->frequencies.inv_freq, f.inv_freq);
  ASSERT_EQ(m.per_layer.size(), 2u);
  EXPECT_EQ(m.per_layer[0].rope_key, "sliding_attention");
  EXPECT_EQ(m.per_layer[1].rope_key, "full_attention");
}

TEST(QueryScale, Llama4TemperatureAndScalingBeta) {
  QueryScale t;
  t.rule = QueryScale::Rule::Llama4Temperature;
  t.floor_scale = 8192;
  t.attn_scale = 0.1;
  // modeling_llama4.py: log(floor((p + 1) / floor_scale) + 1) * attn_scale + 1.
  EXPECT_EQ(query_scale_at(t, 0), 1.0);
  EXPECT_EQ(query_scale_at(t, 8190), 1.0);
  EXPECT_DOUBLE_EQ(query_scale_at(t, 8191), std::log(2.0) * 0.1 + 1);
  EXPECT_DOUBLE_EQ(query_scale_at(t, 3 * 8192 - 1), std::log(4.0) * 0.1 + 1);
  QueryScale b;
  b.rule = QueryScale::Rule::Llama4ScalingBeta;
  b.beta = 0.1;
  b.original_max_position_embeddings = 16384;
  // modeling_ministral3.py: 1 + beta * log(1 + floor(p / original)).
  EXPECT_EQ(query_scale_at(b, 16383), 1.0);
  EXPECT_DOUBLE_EQ(query_scale_at(b, 16384), 1 + 0.1 * std::log(2.0));
  EXPECT_DOUBLE_EQ(query_scale_at(b, 131072), 1 + 0.1 * std::log(9.0));
}

// ---------------------------------------------------------------- per layer

TEST(PerLayer, Llama4ScoutNoPEChunkedAndTemperature) {
  // The Scout text config's positional keys (public copy quoted in tests/data/configs/SOURCES.md).
  json nope = json::array();
  for (int i = 0; i < 48; ++i) nope.push_back((i + 1) % 4 != 0 ? 1 : 0);
  const json config = {{"model_type", "llama4"},
                       {"text_config",
                        {{"model_type", "llama4_text"},
                         {"attention_chunk_size", 8192},
                         {"attn_scale", 0.1},
                         {"attn_temperature_tuning", 4},
                         {"floor_scale", 8192},
                         {"head_dim", 128},
                         {"hidden_size", 5120},
                         {"max_position_embeddings", 10485760},
                         {"no_rope_layers", nope},
                         {"num_attention_heads", 40},
                         {"num_hidden_layers", 48},
                         {"rope_scaling",
                          {{"factor", 16.0},
                           {"high_freq_factor", 1.0},
                           {"low_freq_factor", 1.0},
                           {"original_max_position_embeddings", 8192},
                           {"rope_type", "llama3"}}},
                         {"rope_theta", 500000.0}}},
                       {"vision_config", {{"model_type", "llama4_vision_model"}, {"rope_theta", 10000}}}};
  const ModelPosition m = read(config);
  ASSERT_TRUE(m.rope);
  EXPECT_EQ(m.rope->layout, RopeLayout::Interleaved);  // apply_rotary_emb: view_as_complex
  ASSERT_EQ(m.per_layer.size(), 48u);
  for (int i = 0; i < 48; ++i) {
    const LayerSpec& l = m.per_layer[i];
    const bool rope = (i + 1) % 4 != 0;
    EXPECT_EQ(l.rope, rope) << i;
    EXPECT_EQ(l.attention, rope ? LayerAttention::Chunked : LayerAttention::Full) << i;
    EXPECT_EQ(l.window, rope ? 8192 : 0) << i;
    EXPECT_EQ(l.query_scale.rule, rope ? QueryScale::Rule::None : QueryScale::Rule::Llama4Temperature) << i;
  }
  EXPECT_EQ(m.unread_keys, (std::vector<std::string>{"vision_config.rope_theta"}));
  // The model op's JSON, as the contract spells it.
  const json r = eval({{"op", "model"}, {"config", config}});
  EXPECT_EQ(r["per_layer"][0], json({{"attention", "chunked"}, {"window", 8192}, {"causal", true}, {"position", "rope"}}));
  EXPECT_EQ(r["per_layer"][3]["attention"], "full");
  EXPECT_FALSE(r["per_layer"][3].contains("window"));
  EXPECT_EQ(r["per_layer"][3]["position"], "none");
  EXPECT_EQ(r["per_layer"][3]["query_scale"]["rule"], "llama4_temperature");
  EXPECT_EQ(r["unread_keys"], json({"vision_config.rope_theta"}));
}

TEST(PerLayer, SmolLM3NoRopeLayers) {
  json nope = json::array();
  for (int i = 0; i < 8; ++i) nope.push_back((i + 1) % 4 != 0 ? 1 : 0);
  const ModelPosition m = read({{"model_type", "smollm3"},
                                {"num_attention_heads", 4},
                                {"hidden_size", 64},
                                {"num_hidden_layers", 8},
                                {"max_position_embeddings", 65536},
                                {"rope_theta", 5000000.0},
                                {"no_rope_layers", nope},
                                {"no_rope_layer_interval", 4},
                                {"use_sliding_window", false},
                                {"sliding_window", nullptr},
                                {"max_window_layers", 28}});
  ASSERT_EQ(m.per_layer.size(), 8u);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(m.per_layer[i].rope, (i + 1) % 4 != 0) << i;
    EXPECT_EQ(m.per_layer[i].attention, LayerAttention::Full);
  }
  EXPECT_TRUE(m.unread_keys.empty());
  EXPECT_EQ(read_error({{"model_type", "smollm3"},
                        {"num_attention_heads", 4},
                        {"hidden_size", 64},
                        {"num_hidden_layers", 8},
                        {"max_position_embeddings", 64},
                        {"no_rope_layers", {1, 1, 0}}}),
            "no_rope_layers");
}

TEST(PerLayer, GptOssSlidingFullAndSinks) {
  json types = json::array();
  for (int i = 0; i < 4; ++i) types.push_back(i % 2 == 0 ? "sliding_attention" : "full_attention");
  const ModelPosition m = read({{"model_type", "gpt_oss"},
                                {"num_attention_heads", 64},
                                {"head_dim", 64},
                                {"hidden_size", 2880},
                                {"num_hidden_layers", 4},
                                {"layer_types", types},
                                {"sliding_window", 128},
                                {"max_position_embeddings", 131072},
                                {"rope_theta", 150000},
                                {"initial_context_length", 4096},
                                {"rope_scaling",
                                 {{"rope_type", "yarn"},
                                  {"factor", 32.0},
                                  {"beta_fast", 32.0},
                                  {"beta_slow", 1.0},
                                  {"original_max_position_embeddings", 4096},
                                  {"truncate", false}}}});
  ASSERT_EQ(m.per_layer.size(), 4u);
  EXPECT_EQ(m.per_layer[0].attention, LayerAttention::Sliding);
  EXPECT_EQ(m.per_layer[0].window, 128);
  EXPECT_EQ(m.per_layer[1].attention, LayerAttention::Full);
  for (const LayerSpec& l : m.per_layer) {
    EXPECT_TRUE(l.sinks);
    EXPECT_TRUE(l.rope);
  }
  EXPECT_EQ(m.unread_keys, (std::vector<std::string>{"initial_context_length"}));
}

TEST(PerLayer, Cohere2RopeOnlyOnSlidingLayersInterleaved) {
  const ModelPosition m = read({{"model_type", "cohere2"},
                                {"num_attention_heads", 32},
                                {"hidden_size", 4096},
                                {"num_hidden_layers", 8},
                                {"max_position_embeddings", 8192},
                                {"rope_theta", 50000.0},
                                {"sliding_window", 4096},
                                {"sliding_window_pattern", 4},
                                {"order_of_interleaved_layers", "local_attn_first"}});
  ASSERT_TRUE(m.rope);
  EXPECT_EQ(m.rope->layout, RopeLayout::Interleaved);  // Cohere rotate_half: x[..., ::2], x[..., 1::2]
  for (int i = 0; i < 8; ++i) {
    const bool sliding = (i + 1) % 4 != 0;
    EXPECT_EQ(m.per_layer[i].attention, sliding ? LayerAttention::Sliding : LayerAttention::Full) << i;
    EXPECT_EQ(m.per_layer[i].rope, sliding) << i;
  }
  EXPECT_EQ(m.unread_keys, (std::vector<std::string>{"order_of_interleaved_layers"}));
}

TEST(PerLayer, HybridLinearAttentionAndPartialInterleavedMrope) {
  // Qwen3.5 shape: three linear_attention layers then one full_attention; partial rotary 0.25 of head_dim 256
  // = 64 rotary dims = 32 pairs = 11 + 11 + 10.
  json types = json::array();
  for (int i = 0; i < 8; ++i) types.push_back((i + 1) % 4 != 0 ? "linear_attention" : "full_attention");
  const ModelPosition m = read({{"model_type", "qwen3_5"},
                                {"text_config",
                                 {{"model_type", "qwen3_5_text"},
                                  {"num_attention_heads", 16},
                                  {"head_dim", 256},
                                  {"hidden_size", 2048},
                                  {"num_hidden_layers", 8},
                                  {"layer_types", types},
                                  {"max_position_embeddings", 262144},
                                  {"rope_parameters",
                                   {{"rope_type", "default"},
                                    {"rope_theta", 10000000},
                                    {"partial_rotary_factor", 0.25},
                                    {"mrope_section", {11, 11, 10}},
                                    {"mrope_interleaved", true}}}}}});
  ASSERT_TRUE(m.rope);
  EXPECT_EQ(m.rope->rotary_dim, 64);
  EXPECT_EQ(m.rope->mrope_section, (std::vector<int>{11, 11, 10}));
  EXPECT_TRUE(m.rope->mrope_interleaved);
  for (int i = 0; i < 8; ++i) {
    const bool full = (i + 1) % 4 == 0;
    EXPECT_EQ(m.per_layer[i].attention, full ? LayerAttention::Full : LayerAttention::Linear) << i;
    EXPECT_EQ(m.per_layer[i].rope, full) << i;
  }
}

TEST(PerLayer, MropeSectionMismatchNamesTheKey) {
  EXPECT_EQ(read_error({{"model_type", "qwen2_5_vl"},
                        {"num_attention_heads", 28},
                        {"hidden_size", 3584},
                        {"num_hidden_layers", 2},
                        {"max_position_embeddings", 128000},
                        {"rope_scaling", {{"type", "mrope"}, {"mrope_section", {16, 24, 23}}}}}),
            "rope_scaling.mrope_section");
  EXPECT_EQ(eval_field({{"op", "model"},
                        {"config",
                         {{"model_type", "qwen2_5_vl"},
                          {"num_attention_heads", 28},
                          {"hidden_size", 3584},
                          {"max_position_embeddings", 128000},
                          {"rope_scaling", {{"type", "mrope"}, {"mrope_section", {16, 24, 23}}}}}}}),
            "config.rope_scaling.mrope_section");
}

TEST(PerLayer, Qwen2VlMropeIsDefaultRopeWithContiguousSections) {
  // Qwen2VLConfig rewrites rope_scaling type "mrope" to "default" (configuration_qwen2_vl.py).
  const ModelPosition m = read({{"model_type", "qwen2_5_vl"},
                                {"num_attention_heads", 28},
                                {"hidden_size", 3584},
                                {"num_hidden_layers", 28},
                                {"max_position_embeddings", 128000},
                                {"rope_theta", 1000000.0},
                                {"sliding_window", 32768},
                                {"use_sliding_window", false},
                                {"max_window_layers", 28},
                                {"rope_scaling", {{"type", "mrope"}, {"mrope_section", {16, 24, 24}}}},
                                {"vision_config", {{"window_size", 112}, {"fullatt_block_indexes", {7, 15, 23, 31}}}}});
  ASSERT_TRUE(m.rope);
  EXPECT_EQ(m.rope->scaling.type, RopeScalingType::None);
  EXPECT_EQ(m.rope->mrope_section, (std::vector<int>{16, 24, 24}));
  EXPECT_FALSE(m.rope->mrope_interleaved);
  for (const LayerSpec& l : m.per_layer) EXPECT_EQ(l.attention, LayerAttention::Full);
  // The vision tower's window and its full-attention blocks (which of its layers attend how) are not modelled:
  // both named.
  EXPECT_EQ(m.unread_keys, (std::vector<std::string>{"vision_config.fullatt_block_indexes", "vision_config.window_size"}));
}

// A top-level copy of a text_config key is that key when the values are equal; when they differ, the copy
// posenc (like transformers' get_text_config) did not use is named.
TEST(PerLayer, TopLevelCopiesOfTextConfigKeysAreNamedOnlyWhenTheyDiffer) {
  const json text = {{"model_type", "qwen2"},
                     {"num_attention_heads", 28},
                     {"hidden_size", 3584},
                     {"num_hidden_layers", 4},
                     {"rope_theta", 1000000.0},
                     {"max_position_embeddings", 32768},
                     {"rope_scaling", {{"rope_type", "default"}, {"mrope_section", {16, 24, 24}}}}};
  json same = text;
  same["model_type"] = "qwen2_5_vl";
  same["text_config"] = text;
  EXPECT_TRUE(read(same).unread_keys.empty());
  json differ = same;
  differ["rope_theta"] = 10000.0;
  differ["rope_scaling"]["mrope_section"] = {16, 16, 32};
  EXPECT_EQ(read(differ).unread_keys, (std::vector<std::string>{"rope_scaling.mrope_section", "rope_theta"}));
}

TEST(PerLayer, UnknownRopeTypeStaysAnErrorAndUnknownPositionalKeysAreNamed) {
  const json base = {{"model_type", "llama"},
                     {"num_attention_heads", 4},
                     {"hidden_size", 64},
                     {"num_hidden_layers", 2},
                     {"max_position_embeddings", 4096}};
  json bad = base;
  bad["rope_scaling"] = {{"rope_type", "wavelet"}, {"factor", 2.0}};
  EXPECT_EQ(read_error(bad), "rope_scaling.rope_type");
  json extra = base;
  extra["rope_scaling"] = {{"rope_type", "linear"}, {"factor", 2.0}, {"rope_warp", 3}};
  extra["position_bias_max"] = 7;
  extra["vocab_size"] = 32000;  // not positional: not listed
  const ModelPosition m = read(extra);
  // Keys in the order config_from_json walks them (nlohmann::json objects are sorted).
  EXPECT_EQ(m.unread_keys, (std::vector<std::string>{"position_bias_max", "rope_scaling.rope_warp"}));
  // Ministral 3: llama_4_scaling_beta is a query scale on every layer.
  json beta = base;
  beta["rope_parameters"] = {{"rope_type", "yarn"},
                             {"factor", 16.0},
                             {"original_max_position_embeddings", 16384},
                             {"llama_4_scaling_beta", 0.1},
                             {"rope_theta", 1000000.0},
                             {"beta_fast", 32.0},
                             {"beta_slow", 1.0},
                             {"mscale", 1.0},
                             {"mscale_all_dim", 1.0}};
  const ModelPosition mb = read(beta);
  for (const LayerSpec& l : mb.per_layer) {
    EXPECT_EQ(l.query_scale.rule, QueryScale::Rule::Llama4ScalingBeta);
    EXPECT_EQ(l.query_scale.original_max_position_embeddings, 16384);
  }
  EXPECT_TRUE(mb.unread_keys.empty());
}

// ---------------------------------------------------------------- GGUF

namespace {

struct GgufWriter {
  std::vector<uint8_t> b;
  uint64_t count = 0;
  template <class T>
  void raw(T v) {
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    b.insert(b.end(), p, p + sizeof(T));
  }
  void str(const std::string& s) {
    raw<uint64_t>(s.size());
    b.insert(b.end(), s.begin(), s.end());
  }
  void key(const std::string& k, uint32_t type) {
    str(k);
    raw<uint32_t>(type);
    ++count;
  }
  void u32(const std::string& k, uint32_t v) {
    key(k, 4);
    raw(v);
  }
  void f32(const std::string& k, float v) {
    key(k, 6);
    raw(v);
  }
  void s(const std::string& k, const std::string& v) {
    key(k, 8);
    str(v);
  }
  void i32s(const std::string& k, const std::vector<int32_t>& v) {
    key(k, 9);
    raw<uint32_t>(5);
    raw<uint64_t>(v.size());
    for (int32_t x : v) raw(x);
  }
  std::vector<uint8_t> bytes() const {
    GgufWriter h;
    h.b = {'G', 'G', 'U', 'F'};
    h.raw<uint32_t>(3);
    h.raw<uint64_t>(0);
    h.raw<uint64_t>(count);
    h.b.insert(h.b.end(), b.begin(), b.end());
    return h.b;
  }
};

ModelPosition gguf(const GgufWriter& w) {
  const std::vector<uint8_t> bytes = w.bytes();
  return read_gguf_model(read_gguf_header(bytes));
}

std::string gguf_error(const GgufWriter& w) {
  try {
    gguf(w);
  } catch (const InvalidArgument& e) { return e.field() + "|" + e.what(); }
  return "<ok>";
}

GgufWriter base_gguf(const std::string& arch, uint32_t layers) {
  GgufWriter w;
  w.s("general.architecture", arch);
  w.u32(arch + ".block_count", layers);
  w.u32(arch + ".context_length", 4096);
  w.u32(arch + ".embedding_length", 512);
  w.u32(arch + ".attention.head_count", 8);
  return w;
}

}  // namespace

TEST(GgufModels, MropeSectionsFromDimensionSections) {
  GgufWriter w = base_gguf("qwen2vl", 2);
  w.u32("qwen2vl.rope.dimension_count", 64);
  w.i32s("qwen2vl.rope.dimension_sections", {8, 12, 12, 0});
  const ModelPosition m = gguf(w);
  ASSERT_TRUE(m.rope);
  EXPECT_EQ(m.rope->mrope_section, (std::vector<int>{8, 12, 12}));
  EXPECT_FALSE(m.rope->mrope_interleaved);
  EXPECT_EQ(m.rope->layout, RopeLayout::Half);
  GgufWriter v = base_gguf("qwen3vl", 2);
  v.u32("qwen3vl.rope.dimension_count", 64);
  v.i32s("qwen3vl.rope.dimension_sections", {12, 10, 10, 0});
  EXPECT_TRUE(gguf(v).rope->mrope_interleaved);
  GgufWriter bad = base_gguf("qwen2vl", 2);
  bad.u32("qwen2vl.rope.dimension_count", 64);
  bad.i32s("qwen2vl.rope.dimension_sections", {8, 12, 11, 0});
  EXPECT_EQ(gguf_error(bad).substr(0, gguf_error(bad).find('|')), "qwen2vl.rope.dimension_sections");
}

TEST(GgufModels, Llama4ChunkedNoPEAndGptOssSlidingSinks) {
  GgufWriter w = base_gguf("llama4", 8);
  const ModelPosition m = gguf(w);
  ASSERT_EQ(m.per_layer.size(), 8u);
  for (int i = 0; i < 8; ++i) {
    const bool rope = (i + 1) % 4 != 0;
    EXPECT_EQ(m.per_layer[i].rope, rope);
    EXPECT_EQ(m.per_layer[i].attention, rope ? LayerAttention::Chunked : LayerAttention::Full);
    EXPECT_EQ(m.per_layer[i].query_scale.rule, rope ? QueryScale::Rule::None : QueryScale::Rule::Llama4Temperature);
  }
  GgufWriter off = base_gguf("llama4", 4);
  off.u32("llama4.attention.sliding_window", 0);
  for (const LayerSpec& l : gguf(off).per_layer) EXPECT_TRUE(l.rope && l.attention == LayerAttention::Full);
  GgufWriter g = base_gguf("gpt-oss", 4);
  g.u32("gpt-oss.attention.sliding_window", 128);
  const ModelPosition go = gguf(g);
  EXPECT_EQ(go.per_layer[0].attention, LayerAttention::Sliding);
  EXPECT_EQ(go.per_layer[0].window, 128);
  EXPECT_EQ(go.per_layer[1].attention, LayerAttention::Full);
  EXPECT_TRUE(go.per_layer[1].sinks);
}

TEST(GgufModels, FuzzFindings) {
  // A NUL in a string value quoted by an error: escaped, the message goes on past it.
  GgufWriter nul = base_gguf("llama", 2);
  nul.s("llama.rope.scaling.type", std::string("ab\0cd", 5));
  const std::string e = gguf_error(nul);
  EXPECT_NE(e.find("ab\\x00cd"), std::string::npos) << e;
  EXPECT_EQ(std::strlen(e.c_str()), e.size());
  // context_length = 0: out of [1, 2^30].
  GgufWriter zero;
  zero.s("general.architecture", "llama");
  zero.u32("llama.context_length", 0);
  zero.u32("llama.embedding_length", 512);
  zero.u32("llama.attention.head_count", 8);
  EXPECT_EQ(gguf_error(zero).substr(0, gguf_error(zero).find('|')), "llama.context_length");
  // A one-element array where a number is expected.
  GgufWriter arr;
  arr.s("general.architecture", "llama");
  arr.i32s("llama.context_length", {4096});
  arr.u32("llama.embedding_length", 512);
  arr.u32("llama.attention.head_count", 8);
  EXPECT_EQ(gguf_error(arr).substr(0, gguf_error(arr).find('|')), "llama.context_length");
  // head_count per layer must have block_count entries.
  GgufWriter heads;
  heads.s("general.architecture", "llama");
  heads.u32("llama.block_count", 2);
  heads.u32("llama.embedding_length", 512);
  heads.i32s("llama.attention.head_count", {8});
  EXPECT_EQ(gguf_error(heads).substr(0, gguf_error(heads).find('|')), "llama.attention.head_count");
  // Unread positional keys are named.
  GgufWriter un = base_gguf("llama", 2);
  un.u32("llama.attention.sliding_window", 4096);
  EXPECT_EQ(gguf(un).unread_keys, (std::vector<std::string>{"llama.attention.sliding_window"}));
}
