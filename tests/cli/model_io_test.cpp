// Real models' configs (tests/data/configs, sources in SOURCES.md) through read_hf_config, the `model` op of
// `posenc eval`, `posenc inspect`, and the contract-hygiene fixes. Expected values: tests/data/rope_reference.py
// (plain-Python math of transformers' src/transformers/modeling_rope_utils.py _compute_*_parameters, read at
// zucchini-nlp/transformers@26892c16b782513fdf938920653228ef63a19d7d and
// huggingface/transformers@ef46806472a64b0013ed413781e3afed82bfa047). Native only: JSON is not visible to emcc.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/eval.h"
#include "cli/inspect.h"
#include "core/encodings/alibi.h"
#include "core/models/gguf.h"
#include "core/models/model_config.h"
#include "core/models/model_families.h"
#include "model_io/config_json.h"
#include "model_io/presets.h"

using namespace posenc;
using nlohmann::json;

namespace {

ModelPosition preset(const std::string& id, std::optional<int64_t> seq_len = std::nullopt) {
  return read_hf_config(model_io::preset_config(id), seq_len);
}

std::string config_error(const std::string& text) {
  try {
    read_hf_config(model_io::parse_config_text(text));
  } catch (const InvalidArgument& e) { return e.field() + "|" + e.what(); }
  return "<ok>";
}

json eval_json(const std::string& request) { return json::parse(cli::evaluate_request(request)); }

std::string eval_field(const std::string& request) {
  try {
    cli::evaluate_request(request);
  } catch (const InvalidArgument& e) { return e.field(); }
  return "<ok>";
}

}  // namespace

TEST(ModelConfig, EveryPresetLoads) {
  ASSERT_GE(model_io::model_presets().size(), 20u);
  for (const auto& p : model_io::model_presets()) {
    SCOPED_TRACE(p.id);
    const ModelPosition m = preset(p.id);
    EXPECT_GT(m.head_dim, 0);
    EXPECT_GT(m.num_attention_heads, 0);
    EXPECT_NO_THROW(model_io::model_position_json(m).dump());
  }
  EXPECT_THROW(model_io::preset_config("llama-9"), InvalidArgument);
}

TEST(ModelConfig, SuIsLongrope) {
  auto cfg = model_io::preset_config("phi-3-mini-128k");
  ConfigValue rs = *cfg.find("rope_scaling");
  rs.set("type", ConfigValue::string("su"));
  cfg.set("rope_scaling", rs);
  EXPECT_EQ(read_hf_config(cfg).rope->scaling.type, RopeScalingType::Longrope);
}

TEST(ModelConfig, RopeParametersV5PerLayerType) {
  const std::string cfg = R"({"model_type":"gemma3_text","head_dim":8,"num_attention_heads":2,"hidden_size":16,
    "max_position_embeddings":1024,"layer_types":["sliding_attention","full_attention"],
    "rope_parameters":{"sliding_attention":{"rope_type":"default","rope_theta":10000.0},
                       "full_attention":{"rope_type":"linear","factor":8.0,"rope_theta":1000000.0}}})";
  const ModelPosition m = read_hf_config(model_io::parse_config_text(cfg));
  ASSERT_EQ(m.layers.size(), 2u);
  EXPECT_EQ(m.rope->scaling.type, RopeScalingType::Linear);  // the full_attention entry
  EXPECT_EQ(m.rope->base, 1e6);
  for (const auto& [name, r] : m.layers) {
    EXPECT_TRUE(name == "sliding_attention" || name == "full_attention") << name;
    if (name == "sliding_attention") {
      EXPECT_EQ(r.scaling.type, RopeScalingType::None);
      EXPECT_EQ(r.base, 1e4);
    }
  }
}

// Multi-head latent attention puts the rope slice last: q = [q_nope, q_pe] (transformers modeling_deepseek_v3.py
// @c0ce2e40523611eb0eb5d2c03ba304371523a1fc, q_nope, q_pe = torch.split(q, [qk_nope_head_dim, qk_rope_head_dim]);
// modeling_glm_moe_dsa.py @00371f38cdce0a0be8b75d92642b167844d5a970 the same; modeling_deepseek_v4.py
// @361455895daf94ca66f78cf6792b09af397b4b30 rotates the last qk_rope_head_dim dims). Every MLA preset, every
// layer type: rotary_offset = head width - rotary_dim; every other preset: 0.
TEST(ModelConfig, RopeSliceLastForMla) {
  for (const char* id : {"deepseek-v3", "kimi-k2", "deepseek-v3.2", "deepseek-v4-flash"}) {
    const ModelPosition m = preset(id);
    ASSERT_TRUE(m.rope) << id;
    const int width = rope_head_dim(m, *m.rope);
    EXPECT_GT(width, m.rope->rotary_dim) << id;
    EXPECT_EQ(m.rope->rotary_offset, width - m.rope->rotary_dim) << id;
    for (const auto& [name, r] : m.layers) EXPECT_EQ(r.rotary_offset, rope_head_dim(m, r) - r.rotary_dim) << id << " " << name;
    for (const Assumption& a : m.assumptions) EXPECT_NE(a.what, "rotary_offset") << id;
  }
  EXPECT_EQ(preset("deepseek-v3").rope->rotary_offset, 128);
  EXPECT_EQ(preset("deepseek-v4-flash").rope->rotary_offset, 448);  // 512 - 64
  for (const auto& p : model_io::model_presets()) {
    const ModelPosition m = preset(p.id);
    const ModelFamily* fam = find_model_family(m.model_type);
    if (m.rope && !(fam && fam->has(kFamilyRopeLast))) { EXPECT_EQ(m.rope->rotary_offset, 0) << p.id; }
  }
  // GLM-5 (glm_moe_dsa): its config's attention keys.
  const ModelPosition g = read_hf_config(model_io::parse_config_text(
      R"({"model_type": "glm_moe_dsa", "hidden_size": 6144, "num_attention_heads": 64, "qk_nope_head_dim": 192,
          "qk_rope_head_dim": 64, "v_head_dim": 256, "max_position_embeddings": 202752,
          "rope_parameters": {"rope_type": "default", "rope_theta": 1000000}})"));
  EXPECT_EQ(g.family, "GLM-5");
  EXPECT_EQ(g.rope->rotary_dim, 64);
  EXPECT_EQ(g.rope->rotary_offset, 192);
  EXPECT_EQ(g.rope->layout, RopeLayout::Half);
  // MLA keys of a model_type the family table does not list: last too, said as an assumption.
  const ModelPosition u = read_hf_config(model_io::parse_config_text(
      R"({"model_type": "my_mla", "hidden_size": 2048, "num_attention_heads": 16, "qk_nope_head_dim": 128,
          "qk_rope_head_dim": 64, "max_position_embeddings": 4096, "rope_theta": 10000})"));
  EXPECT_EQ(u.rope->rotary_offset, 128);
  EXPECT_TRUE(std::any_of(u.assumptions.begin(), u.assumptions.end(),
                          [](const Assumption& a) { return a.what == "rotary_offset" && a.value.rfind("128", 0) == 0; }));
}

TEST(ModelConfig, AlibiT5DebertaLearned) {
  const ModelPosition b = preset("bloom");
  EXPECT_EQ(b.position, PositionKind::Alibi);
  EXPECT_EQ(b.head_dim, 128);  // 14336 / 112
  EXPECT_EQ(b.alibi_slopes, alibi_slopes(112));
  EXPECT_DOUBLE_EQ(b.alibi_slopes[0], std::pow(2.0, -0.125));    // closest power of two 64: 2^(-8/64)
  EXPECT_DOUBLE_EQ(b.alibi_slopes[64], std::pow(2.0, -0.0625));  // interleaved from 128 heads: 2^(-8/128)
  const ModelPosition mpt = preset("mpt-7b");
  EXPECT_EQ(mpt.position, PositionKind::Alibi);
  EXPECT_EQ(mpt.alibi_slopes.size(), 32u);
  EXPECT_DOUBLE_EQ(mpt.alibi_slopes[0], std::pow(2.0, -0.25));
  const ModelPosition t = preset("t5-base");
  EXPECT_EQ(t.position, PositionKind::T5);
  EXPECT_EQ(t.head_dim, 64);
  EXPECT_EQ(t.t5_num_buckets, 32);
  EXPECT_EQ(t.t5_max_distance, 128);
  const ModelPosition d = preset("deberta-v3-base");
  EXPECT_EQ(d.position, PositionKind::Deberta);
  EXPECT_EQ(d.deberta_bucket_size, 256);
  EXPECT_EQ(d.deberta_max_position, 512);
  const ModelPosition g = preset("gpt2");
  EXPECT_EQ(g.position, PositionKind::Learned);
  EXPECT_EQ(g.head_dim, 64);
  EXPECT_EQ(g.learned_max_position_embeddings, 1024);
  EXPECT_EQ(preset("falcon-7b").rope->max_position_embeddings, 2048);  // FalconConfig default
  EXPECT_EQ(preset("falcon-7b").head_dim, 64);
}

TEST(ModelConfig, ErrorsNameTheKeyPath) {
  EXPECT_EQ(config_error(R"({"model_type":"llama","hidden_size":64,"num_attention_heads":4,
      "max_position_embeddings":128,"rope_theta":"big"})"),
            "rope_theta|rope_theta must be a number, not a string");
  EXPECT_EQ(config_error(R"({"model_type":"llama","hidden_size":64,"num_attention_heads":4,
      "max_position_embeddings":128,"rope_scaling":{"type":"linear","factor":"2"}})")
                .substr(0, 20),
            "rope_scaling.factor|");
  EXPECT_EQ(config_error(R"({"model_type":"llama","hidden_size":64,"num_attention_heads":4,
      "max_position_embeddings":128,"rope_scaling":{"rope_type":"magic","factor":2}})")
                .substr(0, 23),
            "rope_scaling.rope_type|");
  EXPECT_EQ(config_error(R"({"model_type":"llama","hidden_size":64,"num_attention_heads":4,
      "max_position_embeddings":128,"rope_scaling":{"rope_type":"llama3","factor":8,"low_freq_factor":1}})")
                .substr(0, 30),
            "rope_scaling.high_freq_factor|");
  EXPECT_EQ(config_error(R"({"model_type":"llama","hidden_size":60,"num_attention_heads":7,"max_position_embeddings":8})")
                .substr(0, 12),
            "hidden_size|");
  EXPECT_EQ(config_error(R"({"hidden_size":64})").substr(0, 11), "model_type|");
  EXPECT_EQ(config_error(R"({"model_type":"gemma3","text_config":{"model_type":"gemma3_text","head_dim":"x",
      "num_attention_heads":4}})")
                .substr(0, 21),
            "text_config.head_dim|");
  // "rope_scaling": null is no scaling.
  EXPECT_EQ(config_error(R"({"model_type":"llama","hidden_size":64,"num_attention_heads":4,
      "max_position_embeddings":128,"rope_scaling":null})"),
            "<ok>");
}

TEST(EvalModel, ResponseHasExactlyTheContractFields) {
  const std::string cfg = *model_io::embedded_config_text("llama-3.1-8b.json");
  // ordered_json keeps the response's key order (the contract's order).
  const auto r = nlohmann::ordered_json::parse(cli::evaluate_request(R"({"op":"model","config":)" + cfg + "}"));
  std::vector<std::string> keys;
  for (const auto& [k, v] : r.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"model_type", "family", "position", "head_dim", "num_attention_heads", "rope",
                                            "num_hidden_layers", "per_layer", "unread_keys", "assumptions"}));
  EXPECT_EQ(r["family"], "Llama");
  EXPECT_EQ(r["assumptions"], nlohmann::ordered_json::array());
  // Llama-3.1-8B: 32 full-attention RoPE layers, every positional key read.
  EXPECT_EQ(r["per_layer"].size(), 32u);
  EXPECT_EQ(r["per_layer"][31], nlohmann::ordered_json({{"attention", "full"}, {"causal", true}, {"position", "rope"}}));
  EXPECT_EQ(r["unread_keys"], nlohmann::ordered_json::array());
  std::vector<std::string> rope_keys;
  for (const auto& [k, v] : r["rope"].items()) rope_keys.push_back(k);
  EXPECT_EQ(rope_keys, (std::vector<std::string>{"rotary_dim", "rotary_offset", "head_dim", "layout", "rope_type", "base",
                                                 "inv_freq", "attention_scaling", "softmax_scale", "softmax_scale_from",
                                                 "max_position_embeddings", "original_max_position_embeddings", "pairs_at_max"}));
  EXPECT_EQ(r["rope"]["softmax_scale_from"], nlohmann::ordered_json::array({"head_dim^-0.5"}));
  EXPECT_EQ(r["rope"]["head_dim"], r["head_dim"]);  // a model without a layer type of its own width
  EXPECT_EQ(r["rope"]["rope_type"], "llama3");
  EXPECT_EQ(r["rope"]["inv_freq"].size(), 64u);
  EXPECT_EQ(r["rope"]["inv_freq"][20].get<double>(), preset("llama-3.1-8b").rope->frequencies.inv_freq[20]);
  // Errors name config.<key>; seq_len is checked; config must be an object.
  EXPECT_EQ(eval_field(R"({"op":"model","config":{"model_type":"llama","hidden_size":64,"num_attention_heads":4,
      "max_position_embeddings":128,"rope_theta":[1]}})"),
            "config.rope_theta");
  EXPECT_EQ(eval_field(R"({"op":"model","config":[]})"), "config");
  EXPECT_EQ(eval_field(R"({"op":"model","config":{"model_type":"gpt2","n_embd":8,"n_head":2,"n_positions":8},"seq_len":0})"),
            "seq_len");
  const json gemma = eval_json(R"({"op":"model","config":)" + *model_io::embedded_config_text("gemma-3-1b-it.json") + "}");
  EXPECT_EQ(gemma["layers"]["sliding_attention"]["base"], 10000.0);
  EXPECT_EQ(gemma["rope"], gemma["layers"]["full_attention"]);
  const json t5 = eval_json(R"({"op":"model","config":)" + *model_io::embedded_config_text("t5-base.json") + "}");
  EXPECT_EQ(t5["t5"], json({{"num_buckets", 32}, {"max_distance", 128}, {"bidirectional", true}}));
}

TEST(EvalRope, LongropeYarnFieldsAndRotaryDim) {
  const json l = eval_json(R"({"op":"rope_frequencies","dim":4,"base":10000,"scaling":{"type":"longrope",
      "short_factor":[1,2],"long_factor":[3,4],"original_max_position_embeddings":16,"factor":4,"seq_len":17}})");
  EXPECT_DOUBLE_EQ(l["inv_freq"][1].get<double>(), 1.0 / (4 * 100.0));
  EXPECT_DOUBLE_EQ(l["attention_scaling"].get<double>(), std::sqrt(1 + std::log(4.0) / std::log(16.0)));
  const json y = eval_json(R"({"op":"rope_frequencies","dim":64,"base":10000,"scaling":{"type":"yarn","factor":40,
      "original_max_position_embeddings":4096,"mscale":0.707,"mscale_all_dim":1,"truncate":false}})");
  EXPECT_NEAR(y["attention_scaling"].get<double>(), 0.9210423553163399, 1e-15);
  EXPECT_EQ(eval_field(R"({"op":"rope_frequencies","dim":4,"base":10000,"scaling":{"type":"linear","factor":2,"mscale":1}})"),
            "scaling.mscale");
  EXPECT_EQ(eval_field(R"({"op":"rope_frequencies","dim":4,"base":10000,"scaling":{"type":"longrope",
      "short_factor":[1],"long_factor":[3,4],"original_max_position_embeddings":16}})"),
            "scaling.short_factor");
  const json p = eval_json(R"({"op":"rope_apply","x":[[1,2,3,4,5,6,7,8]],"positions":[3],"dim":8,"base":10000,
      "layout":"half","rotary_dim":4})");
  EXPECT_NEAR(p["values"][0][0].get<double>(), -1.413352520780047, 1e-14);
  EXPECT_EQ(p["values"][0][7].get<double>(), 8.0);
  EXPECT_EQ(eval_field(R"({"op":"rope_apply","x":[[1,2]],"positions":[3],"dim":2,"base":10000,"layout":"half","rotary_dim":4})"),
            "rotary_dim");
  const json a = eval_json(R"({"op":"attention","q":[[1,0,1,0]],"k":[[1,0,1,0]],"query_positions":[2],"key_positions":[0],
      "position":{"scheme":"rope","base":10000,"layout":"half","rotary_dim":2}})");
  EXPECT_NEAR(a["logits"][0][0].get<double>(), (std::cos(2.0) + 1.0) / 2.0, 1e-12);
}

TEST(EvalHygiene, Int64RelativePositionsAndEarlySizeCheck) {
  const json t = eval_json(R"({"op":"t5_bucket","relative_positions":[-9223372036854775808,9223372036854775807,5000000],
      "bidirectional":true,"num_buckets":32,"max_distance":128})");
  EXPECT_EQ(t["buckets"], json({15, 31, 31}));
  const json c = eval_json(R"({"op":"t5_bucket","relative_positions":[-9223372036854775808],"bidirectional":false,
      "num_buckets":32,"max_distance":128})");
  EXPECT_EQ(c["buckets"], json({31}));
  const json d = eval_json(R"({"op":"deberta_relative_positions","query_size":3,"key_size":1,"bucket_size":4,
      "max_position":4000000000000})");
  EXPECT_EQ(d["relative_positions"], json({{0}, {1}, {2}}));
  // 2^24 + 1 positions: rejected by the pre-scan, naming the field.
  std::string big = R"({"op":"sinusoidal","dim":2,"positions":[)";
  big.reserve(big.size() + 2 * ((1 << 24) + 1) + 8);
  for (int i = 0; i <= (1 << 24); ++i) big += i ? ",0" : "0";
  big += "]}";
  EXPECT_EQ(eval_field(big), "positions");
}

TEST(EvalHygiene, AttentionStreamsTheSameJson) {
  const std::string req = R"({"op":"attention","q":[[1,0],[0,1]],"k":[[1,0],[0,1]],"v":[[1],[2]],
      "query_positions":[0,1],"key_positions":[0,1],"causal":true})";
  const json r = eval_json(req);
  EXPECT_TRUE(r["logits"][0][1].is_null());
  EXPECT_EQ(r["weights"][0], json({1.0, 0.0}));
  EXPECT_EQ(r["output"][0][0], 1.0);
}

// Gemma-4-31B-it: the full-attention layers are global_head_dim 512 wide, the sliding ones head_dim 256
// (huggingface/transformers@c308a309e651a7e033f683353f3f75aa66d29502 models/gemma4/modeling_gemma4.py,
// Gemma4TextAttention: head_dim = global_head_dim if not is_sliding; Gemma4TextRotaryEmbedding: the proportional
// full-attention RoPE takes head_dim_key="global_head_dim"), so each layer type's rotary dims are "of" its own width.
TEST(Inspect, Gemma4LayerTypesHaveTheirOwnHeadWidth) {
  const std::string path = ::testing::TempDir() + "posenc_inspect_gemma4.json";
  std::ofstream(path) << *model_io::embedded_config_text("gemma-4-31b-it.json");
  std::ostringstream out, err;
  cli::InspectOptions o;
  o.files = {path};
  EXPECT_EQ(cli::run_inspect(o, out, err), 0) << err.str();
  const std::string text = out.str();
  EXPECT_NE(text.find("head_dim         256 (32 heads; 'full_attention' layers 512 wide)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("layers 'full_attention':\n  rotary dims      512 of 512 (256 pairs: 64 rotating, 192 at frequency 0; "
                      "half layout)\n  base (theta)     1e+06\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("layers 'sliding_attention':\n  rotary dims      256 of 256 (128 pairs, half layout)\n  base (theta)     "
                      "10000\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("of 256 (256 pairs"), std::string::npos) << text;
  EXPECT_NE(text.find("(1/sqrt(head_dim) = 0.0441942)"), std::string::npos) << text;  // 1/sqrt(512), the full layers
  EXPECT_NE(text.find("(1/sqrt(head_dim) = 0.0625)"), std::string::npos) << text;     // 1/sqrt(256), the sliding ones
  o.json = true;
  std::ostringstream jout;
  EXPECT_EQ(cli::run_inspect(o, jout, err), 0);
  const json r = json::parse(jout.str());
  EXPECT_EQ(r["head_dim"], 256);
  EXPECT_EQ(r["layers"]["full_attention"]["head_dim"], 512);
  EXPECT_EQ(r["layers"]["full_attention"]["rotary_dim"], 512);
  EXPECT_EQ(r["layers"]["full_attention"]["pairs_at_max"]["no_rotation"], 192);
  EXPECT_EQ(r["layers"]["sliding_attention"]["head_dim"], 256);
  EXPECT_EQ(r["rope"]["head_dim"], 512);
}

TEST(Inspect, ConfigAndGgufFiles) {
  const std::string cfg_path = ::testing::TempDir() + "posenc_inspect_config.json";
  std::ofstream(cfg_path) << *model_io::embedded_config_text("qwen2.5-7b-instruct.json");
  const ModelPosition m = cli::inspect_file(cfg_path, std::nullopt);
  EXPECT_EQ(m.rope->base, 1e6);
  std::ostringstream out, err;
  cli::InspectOptions o;
  o.files = {cfg_path};
  EXPECT_EQ(cli::run_inspect(o, out, err), 0);
  EXPECT_NE(out.str().find("pairs at 32768"), std::string::npos) << out.str();
  o.json = true;
  std::ostringstream jout;
  EXPECT_EQ(cli::run_inspect(o, jout, err), 0);
  EXPECT_EQ(json::parse(jout.str()), json(model_io::model_position_json(m)));
  // Two files: {"a", "b", "differences": [{"what", "a", "b"}]}; the same file twice differs in nothing.
  {
    cli::InspectOptions two;
    two.files = {cfg_path, cfg_path};
    two.json = true;
    std::ostringstream tout, terr;
    EXPECT_EQ(cli::run_inspect(two, tout, terr), 0) << terr.str();
    const json r = json::parse(tout.str());
    std::vector<std::string> keys;
    for (const auto& [k, v] : r.items()) keys.push_back(k);
    EXPECT_EQ(keys, (std::vector<std::string>{"a", "b", "differences"}));
    EXPECT_EQ(r["a"], json(model_io::model_position_json(m)));
    EXPECT_EQ(r["differences"], json::array());
    two.json = false;
    std::ostringstream text;
    EXPECT_EQ(cli::run_inspect(two, text, terr), 0);
    EXPECT_NE(text.str().find("differences (A vs B"), std::string::npos) << text.str();
  }
  // A GGUF header (magic decides the reader).
  const std::string gguf_path = ::testing::TempDir() + "posenc_inspect.gguf";
  {
    std::ofstream g(gguf_path, std::ios::binary);
    auto u32 = [&](uint32_t v) { g.write(reinterpret_cast<const char*>(&v), 4); };
    auto u64 = [&](uint64_t v) { g.write(reinterpret_cast<const char*>(&v), 8); };
    auto str = [&](const std::string& s) {
      u64(s.size());
      g.write(s.data(), static_cast<std::streamsize>(s.size()));
    };
    g.write("GGUF", 4);
    u32(3);
    u64(0);
    u64(2);
    str("general.architecture");
    u32(8);
    str("gpt2");
    str("gpt2.attention.head_count");
    u32(4);
    u32(12);
  }
  o.files = {gguf_path};
  o.json = false;
  std::ostringstream gout, gerr;
  EXPECT_EQ(cli::run_inspect(o, gout, gerr), 2);  // no embedding_length: a clear error
  EXPECT_NE(gerr.str().find("gpt2.embedding_length"), std::string::npos) << gerr.str();
  std::remove(cfg_path.c_str());
  std::remove(gguf_path.c_str());
}

// What posenc inspect prints of names read from the file: a GGUF key that is not valid UTF-8 is kept with its
// bytes escaped (\xNN), the same in --json (which would otherwise fail to encode it) and in the text; control
// characters in config.json names print escaped in the text, never raw.
TEST(Inspect, NamesAreEscapedInJsonAndText) {
  const std::string gguf_path = ::testing::TempDir() + "posenc_inspect_utf8.gguf";
  {
    std::ofstream g(gguf_path, std::ios::binary);
    auto u32 = [&](uint32_t v) { g.write(reinterpret_cast<const char*>(&v), 4); };
    auto u64 = [&](uint64_t v) { g.write(reinterpret_cast<const char*>(&v), 8); };
    auto str = [&](const std::string& s) {
      u64(s.size());
      g.write(s.data(), static_cast<std::streamsize>(s.size()));
    };
    g.write("GGUF", 4);
    u32(3);
    u64(0);
    u64(5);
    str("general.architecture");
    u32(8);
    str("llama");
    for (const auto& [key, value] : std::vector<std::pair<std::string, uint32_t>>{
             {"llama.attention.head_count", 32}, {"llama.embedding_length", 4096}, {"llama.context_length", 8192}}) {
      str(key);
      u32(4);
      u32(value);
    }
    str("llama.rope.\xff\xfe_bad");  // a positional key that is not UTF-8
    u32(4);
    u32(1);
  }
  cli::InspectOptions o;
  o.files = {gguf_path};
  o.json = true;
  std::ostringstream out, err;
  ASSERT_EQ(cli::run_inspect(o, out, err), 0) << err.str();
  const json r = json::parse(out.str());
  EXPECT_EQ(r["unread_keys"], json::array({"llama.rope.\\xff\\xfe_bad"})) << out.str();
  o.json = false;
  std::ostringstream text;
  ASSERT_EQ(cli::run_inspect(o, text, err), 0) << err.str();
  EXPECT_NE(text.str().find("llama.rope.\\xff\\xfe_bad"), std::string::npos) << text.str();
  EXPECT_EQ(text.str().find('\xff'), std::string::npos);
  std::remove(gguf_path.c_str());

  // A config.json whose model_type and an unread key hold control characters.
  const std::string cfg_path = ::testing::TempDir() + "posenc_inspect_ctrl.json";
  std::ofstream(cfg_path) << R"({"model_type": "lla\u001b[2Jma", "hidden_size": 512, "num_attention_heads": 8,
                                "max_position_embeddings": 2048, "rope_\u0007extra": 1})";
  o.files = {cfg_path};
  std::ostringstream ctext;
  ASSERT_EQ(cli::run_inspect(o, ctext, err), 0) << err.str();
  const std::string t = ctext.str();
  EXPECT_NE(t.find("model_type       lla\\x1b[2Jma"), std::string::npos) << t;
  EXPECT_NE(t.find("rope_\\x07extra"), std::string::npos) << t;
  EXPECT_EQ(t.find('\x1b'), std::string::npos);
  EXPECT_EQ(t.find('\x07'), std::string::npos);
  std::remove(cfg_path.c_str());
}

// The `model` op reads the 2026 presets' published files (tests/model_io/model_presets_test.cpp) as read_hf_config does: per_layer has num_hidden_layers entries with the same
// attention / position, and unread_keys is the same list.
TEST(EvalModel, ModelOpReadsThePresetsPublishedFiles) {
  for (const char* id : {"llama-4-scout-17b-16e", "qwen3-vl-4b", "smollm3-3b", "command-r7b", "ministral3-3b", "kimi-k2",
                         "deepseek-v3.2", "gemma-4-31b"}) {
    SCOPED_TRACE(id);
    const model_io::ModelPreset* p = model_io::find_model_preset(id);
    ASSERT_NE(p, nullptr);
    const auto text = model_io::embedded_config_text(p->file);
    ASSERT_TRUE(text);
    const nlohmann::json request = {{"op", "model"}, {"config", nlohmann::json::parse(*text)}};
    const nlohmann::json r = nlohmann::json::parse(cli::evaluate_request(request.dump()));
    const ModelPosition m = preset(id);
    ASSERT_EQ(r.at("per_layer").size(), m.per_layer.size());
    EXPECT_EQ(r.at("num_hidden_layers"), m.num_hidden_layers);
    for (size_t i = 0; i < m.per_layer.size(); ++i) {
      EXPECT_EQ(r["per_layer"][i].at("attention"), layer_attention_name(m.per_layer[i].attention)) << i;
      EXPECT_EQ(r["per_layer"][i].at("position"), m.per_layer[i].rope ? "rope" : "none") << i;
    }
    EXPECT_EQ(r.at("unread_keys").get<std::vector<std::string>>(), m.unread_keys);
    EXPECT_EQ(r.at("rope").at("inv_freq").size(), static_cast<size_t>(m.rope->rotary_dim / 2));
    EXPECT_EQ(r.at("rope").at("head_dim"), rope_head_dim(m, *m.rope));
    for (const auto& [type, rope] : m.layers) EXPECT_EQ(r.at("layers").at(type).at("head_dim"), rope_head_dim(m, rope)) << type;
  }
}
