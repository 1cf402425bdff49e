// GGUF header reader: headers written here byte by byte (the GGUF v3 layout of ggml's docs/gguf.md), the
// mapping to the model's positional encoding (llama.cpp src/llama-model.cpp llama_model_rope_type at
// ggml-org/llama.cpp@00342301d01add50835550e8a916f12097d94517), 20+ malformed headers each with a clear
// error, and a bounded random fuzz loop.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/models/gguf.h"
#include "core/encodings/rope.h"

using namespace posenc;

namespace {

class Writer {
 public:
  std::vector<uint8_t> bytes;
  template <class T>
  Writer& raw(T v) {
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    bytes.insert(bytes.end(), p, p + sizeof(T));
    return *this;
  }
  Writer& str(const std::string& s) {
    raw<uint64_t>(s.size());
    bytes.insert(bytes.end(), s.begin(), s.end());
    return *this;
  }
  Writer& header(uint64_t kv_count, uint32_t version = 3, uint64_t tensors = 0) {
    bytes.insert(bytes.end(), {'G', 'G', 'U', 'F'});
    return raw<uint32_t>(version).raw<uint64_t>(tensors).raw<uint64_t>(kv_count);
  }
  Writer& kv_str(const std::string& k, const std::string& v) { return str(k).raw<uint32_t>(8).str(v); }
  Writer& kv_u32(const std::string& k, uint32_t v) { return str(k).raw<uint32_t>(4).raw<uint32_t>(v); }
  Writer& kv_f32(const std::string& k, float v) { return str(k).raw<uint32_t>(6).raw<float>(v); }
  Writer& kv_bool(const std::string& k, uint8_t v) { return str(k).raw<uint32_t>(7).raw<uint8_t>(v); }
  // A tensor info (ggml's layout): name, n_dims, dims, type (0 = f32), offset.
  Writer& tensor(const std::string& name, std::vector<uint64_t> dims, uint64_t offset = 0) {
    str(name).raw<uint32_t>(uint32_t(dims.size()));
    for (uint64_t d : dims) raw<uint64_t>(d);
    return raw<uint32_t>(0).raw<uint64_t>(offset);
  }
};

// A Phi-3-mini-128k GGUF header as llama.cpp's convert_hf_to_gguf.py (Phi3MiniModel) writes it: no
// rope.scaling.type key, the original context length, the attention factor, and LongRoPE's factors as the
// tensors rope_factors_long/short (48 = rope_dims / 2 each).
std::vector<uint8_t> phi3_longrope_header() {
  Writer w;
  w.header(8, 3, 3)
      .kv_str("general.architecture", "phi3")
      .kv_u32("phi3.context_length", 131072)
      .kv_u32("phi3.rope.scaling.original_context_length", 4096)
      .kv_u32("phi3.embedding_length", 3072)
      .kv_u32("phi3.attention.head_count", 32)
      .kv_u32("phi3.rope.dimension_count", 96)
      .kv_f32("phi3.rope.freq_base", 10000.0f)
      .kv_f32("phi3.rope.scaling.attn_factor", 1.1902380714238083f)
      .tensor("token_embd.weight", {3072, 32064})
      .tensor("rope_factors_long.weight", {48})
      .tensor("rope_factors_short.weight", {48});
  return w.bytes;
}

// A Llama-3-like header (values of Meta-Llama-3.1-8B's GGUF conversion: 32 heads, 4096 wide, theta 5e5).
std::vector<uint8_t> llama_header() {
  Writer w;
  w.header(6)
      .kv_str("general.architecture", "llama")
      .kv_u32("llama.context_length", 131072)
      .kv_u32("llama.embedding_length", 4096)
      .kv_u32("llama.attention.head_count", 32)
      .kv_u32("llama.rope.dimension_count", 128)
      .kv_f32("llama.rope.freq_base", 500000.0f);
  return w.bytes;
}

// The error a header produces: "field|message" (or "<ok>").
std::string error_of(const std::vector<uint8_t>& b, bool map = false) {
  try {
    const GgufHeader h = read_gguf_header(b);
    if (map) read_gguf_model(h);
  } catch (const InvalidArgument& e) { return e.field() + "|" + e.what(); }
  return "<ok>";
}

}  // namespace

TEST(Gguf, ReadsLlamaHeaderAndMapsToRope) {
  const std::vector<uint8_t> b = llama_header();
  const GgufHeader h = read_gguf_header(b);
  EXPECT_EQ(h.version, 3u);
  EXPECT_EQ(h.metadata_bytes, b.size());
  const ModelPosition m = read_gguf_model(h);
  EXPECT_EQ(m.model_type, "llama");
  EXPECT_EQ(m.position, PositionKind::Rope);
  EXPECT_EQ(m.head_dim, 128);
  EXPECT_EQ(m.num_attention_heads, 32);
  ASSERT_TRUE(m.rope);
  // llama.cpp's LLAMA_ROPE_TYPE_NORM: consecutive pairs (convert_hf_to_gguf.py permutes q/k to match).
  EXPECT_EQ(m.rope->layout, RopeLayout::Interleaved);
  EXPECT_EQ(m.rope->rotary_dim, 128);
  EXPECT_EQ(m.rope->frequencies.inv_freq, rope_default_inv_freq(128, 500000.0));
  EXPECT_DOUBLE_EQ(m.rope->softmax_scale, 1.0 / std::sqrt(128.0));
}

TEST(Gguf, YarnKeysAndDeepseekLogMultiplier) {
  Writer w;
  w.header(10)
      .kv_str("general.architecture", "deepseek2")
      .kv_u32("deepseek2.context_length", 163840)
      .kv_u32("deepseek2.attention.head_count", 128)
      .kv_u32("deepseek2.attention.key_length", 192)
      .kv_u32("deepseek2.rope.dimension_count", 64)
      .kv_f32("deepseek2.rope.freq_base", 10000.0f)
      .kv_str("deepseek2.rope.scaling.type", "yarn")
      .kv_f32("deepseek2.rope.scaling.factor", 40.0f)
      .kv_u32("deepseek2.rope.scaling.original_context_length", 4096)
      .kv_f32("deepseek2.rope.scaling.yarn_log_multiplier", 0.1f);
  const ModelPosition m = read_gguf_model(read_gguf_header(w.bytes));
  EXPECT_EQ(m.head_dim, 192);
  EXPECT_EQ(m.rope->rotary_dim, 64);
  EXPECT_EQ(m.rope->scaling.type, RopeScalingType::Yarn);
  EXPECT_EQ(m.rope->original_max_position_embeddings, 4096);
  // mscale == mscale_all_dim -> cos/sin magnitude 1; the softmax carries get_mscale(40, 1)^2 (float32 0.1).
  EXPECT_NEAR(m.rope->frequencies.attention_scaling, 1.0, 1e-12);
  const double ms = 0.1 * (0.1f / 0.1) * std::log(40.0) + 1.0;
  EXPECT_NEAR(m.rope->softmax_scale, ms * ms / std::sqrt(192.0), 1e-9);
  // Same inv_freq as transformers' yarn for DeepSeek-V3 (tests/data/rope_reference.py).
  EXPECT_NEAR(m.rope->frequencies.inv_freq[10], 0.056234132519034905, 1e-15);
}

// The tensor infos after the metadata are read (names only); the RoPE parameters llama.cpp keeps as tensors
// cannot be read from a header, so such files are refused naming the tensor.
TEST(Gguf, RopeParametersKeptAsTensorsAreRefusedByName) {
  const std::vector<uint8_t> phi = phi3_longrope_header();
  const GgufHeader h = read_gguf_header(phi);
  EXPECT_EQ(h.tensor_names,
            (std::vector<std::string>{"token_embd.weight", "rope_factors_long.weight", "rope_factors_short.weight"}));
  EXPECT_EQ(h.header_bytes, phi.size());
  EXPECT_LT(h.metadata_bytes, h.header_bytes);
  // llama.cpp (src/llama-model.cpp get_rope_factors at ggml-org/llama.cpp@00342301d01add50835550e8a916f12097d94517)
  // takes rope_long when the context exceeds n_ctx_orig_yarn, whatever rope.scaling.type says.
  EXPECT_NE(error_of(phi, true).find("rope_factors_long.weight|"), std::string::npos) << error_of(phi, true);
  EXPECT_NE(error_of(phi, true).find("LongRoPE"), std::string::npos);
  // Llama 3.1: convert_hf_to_gguf.py writes the llama3 scaling as the per-pair tensor rope_freqs.
  Writer llama;
  llama.header(5, 3, 2)
      .kv_str("general.architecture", "llama")
      .kv_u32("llama.context_length", 131072)
      .kv_u32("llama.embedding_length", 4096)
      .kv_u32("llama.attention.head_count", 32)
      .kv_f32("llama.rope.freq_base", 500000.0f)
      .tensor("rope_freqs.weight", {64})
      .tensor("token_embd.weight", {4096, 128256});
  EXPECT_NE(error_of(llama.bytes, true).find("rope_freqs.weight|"), std::string::npos) << error_of(llama.bytes, true);
  // The same header without the tensor is plain RoPE at its base.
  Writer plain;
  plain.header(5, 3, 1)
      .kv_str("general.architecture", "llama")
      .kv_u32("llama.context_length", 8192)
      .kv_u32("llama.embedding_length", 4096)
      .kv_u32("llama.attention.head_count", 32)
      .kv_f32("llama.rope.freq_base", 500000.0f)
      .tensor("token_embd.weight", {4096, 128256}, 0);
  EXPECT_EQ(read_gguf_model(read_gguf_header(plain.bytes)).rope->frequencies.inv_freq, rope_default_inv_freq(128, 500000.0));
}

// A prefix of a file that ends inside the header is GgufTruncated (the page then reads a longer prefix);
// the whole header parses.
TEST(Gguf, PrefixesThatEndInsideTheHeaderAreTruncated) {
  const std::vector<uint8_t> phi = phi3_longrope_header();
  for (size_t n : {size_t(8), size_t(30), size_t(100), phi.size() - 40, phi.size() - 1}) {
    const std::vector<uint8_t> prefix(phi.begin(), phi.begin() + long(n));
    EXPECT_THROW(read_gguf_header(prefix), GgufTruncated) << n;
  }
  EXPECT_NO_THROW(read_gguf_header(phi));
  // Malformations that no longer prefix fixes are plain errors.
  EXPECT_THROW(
      {
        try {
          read_gguf_header(Writer().header(0, 7).bytes);
        } catch (const GgufTruncated&) { ADD_FAILURE() << "a wrong version is not a truncation"; }
      },
      InvalidArgument);
}

// GPT-J: llama.cpp's llama_model_rope_type (src/llama-model.cpp at
// ggml-org/llama.cpp@00342301d01add50835550e8a916f12097d94517) returns LLAMA_ROPE_TYPE_NONE for LLM_ARCH_GPTJ,
// and build_graph has no gptj case: followed as written, a gptj GGUF has no positional encoding to read.
TEST(Gguf, GptjFollowsLlamaCppsRopeTypeNone) {
  EXPECT_EQ(llama_cpp_rope_type("gptj"), std::optional<std::string>("none"));
  Writer w;
  w.header(5)
      .kv_str("general.architecture", "gptj")
      .kv_u32("gptj.context_length", 2048)
      .kv_u32("gptj.embedding_length", 4096)
      .kv_u32("gptj.attention.head_count", 16)
      .kv_u32("gptj.rope.dimension_count", 64);
  const ModelPosition m = read_gguf_model(read_gguf_header(w.bytes));
  EXPECT_EQ(m.position, PositionKind::None);
  EXPECT_FALSE(m.rope);
  EXPECT_EQ(m.head_dim, 256);
}

TEST(Gguf, ArchitecturesWithoutRope) {
  Writer bloom;
  bloom.header(3)
      .kv_str("general.architecture", "bloom")
      .kv_u32("bloom.attention.head_count", 112)
      .kv_u32("bloom.embedding_length", 14336);
  const ModelPosition a = read_gguf_model(read_gguf_header(bloom.bytes));
  EXPECT_EQ(a.position, PositionKind::Alibi);
  EXPECT_EQ(a.alibi_slopes.size(), 112u);
  Writer t5;
  t5.header(4)
      .kv_str("general.architecture", "t5")
      .kv_u32("t5.attention.head_count", 12)
      .kv_u32("t5.attention.key_length", 64)
      .kv_u32("t5.attention.relative_buckets_count", 32);
  const ModelPosition t = read_gguf_model(read_gguf_header(t5.bytes));
  EXPECT_EQ(t.position, PositionKind::T5);
  EXPECT_EQ(t.t5_num_buckets, 32);
  EXPECT_EQ(t.t5_max_distance, 128);
  Writer gpt2;
  gpt2.header(4)
      .kv_str("general.architecture", "gpt2")
      .kv_u32("gpt2.attention.head_count", 12)
      .kv_u32("gpt2.embedding_length", 768)
      .kv_u32("gpt2.context_length", 1024);
  const ModelPosition g = read_gguf_model(read_gguf_header(gpt2.bytes));
  EXPECT_EQ(g.position, PositionKind::Learned);
  EXPECT_EQ(g.learned_max_position_embeddings, 1024);
}

TEST(Gguf, NeoxLayoutAndGemma3SlidingLayers) {
  Writer w;
  w.header(6)
      .kv_str("general.architecture", "gemma3")
      .kv_u32("gemma3.context_length", 32768)
      .kv_u32("gemma3.attention.head_count", 4)
      .kv_u32("gemma3.attention.key_length", 256)
      .kv_f32("gemma3.rope.freq_base", 1000000.0f)
      .kv_str("gemma3.rope.scaling.type", "none");
  const ModelPosition m = read_gguf_model(read_gguf_header(w.bytes));
  EXPECT_EQ(m.rope->layout, RopeLayout::Half);
  ASSERT_EQ(m.layers.size(), 2u);
  EXPECT_EQ(m.layers[1].first, "sliding_attention");
  EXPECT_EQ(m.layers[1].second.base, 10000.0);
  EXPECT_EQ(m.layers[0].second.base, 1000000.0);
}

TEST(Gguf, LargeArraysAreCheckedButNotKept) {
  Writer w;
  w.header(2).kv_str("general.architecture", "gpt2");
  w.str("tokenizer.ggml.tokens").raw<uint32_t>(9).raw<uint32_t>(8).raw<uint64_t>(5000);
  for (int i = 0; i < 5000; ++i) w.str("t" + std::to_string(i));
  const GgufHeader h = read_gguf_header(w.bytes);
  ASSERT_NE(h.metadata.find("tokenizer.ggml.tokens"), nullptr);
  EXPECT_TRUE(h.metadata.find("tokenizer.ggml.tokens")->is_null());
}

// Every malformation: a clear error naming what and where, never a crash or a huge allocation.
TEST(Gguf, MalformedHeadersAreClearErrors) {
  struct Case {
    const char* name;
    std::vector<uint8_t> bytes;
    const char* expect;  // substring of "field|message"
    bool map = false;
  };
  std::vector<Case> cases;
  auto hdr = [](uint64_t kv, uint32_t version = 3, uint64_t tensors = 0) { return Writer().header(kv, version, tensors); };
  cases.push_back({"empty", {}, "fewer than 4 bytes"});
  cases.push_back({"three bytes", {'G', 'G', 'U'}, "fewer than 4 bytes"});
  cases.push_back({"wrong magic", {'G', 'G', 'M', 'L', 3, 0, 0, 0}, "magic 'GGUF'"});
  cases.push_back({"version 1", hdr(0, 1).bytes, "unsupported GGUF version 1"});
  cases.push_back({"version 4", hdr(0, 4).bytes, "unsupported GGUF version 4"});
  cases.push_back({"no tensor count", {'G', 'G', 'U', 'F', 3, 0, 0, 0, 1}, "tensor count needs 8 bytes"});
  {
    Writer w;
    w.bytes = {'G', 'G', 'U', 'F', 3, 0, 0, 0};
    w.raw<uint64_t>(0).raw<uint32_t>(7);
    cases.push_back({"truncated kv count", w.bytes, "metadata key/value count needs 8 bytes"});
  }
  cases.push_back({"absurd tensor count", hdr(0, 3, uint64_t{1} << 40).bytes, "absurd GGUF tensor count"});
  cases.push_back({"absurd kv count", hdr(uint64_t{1} << 40).bytes, "absurd GGUF metadata count"});
  cases.push_back({"kv count beyond bytes", hdr(1000).kv_u32("a", 1).bytes, "cannot fit in the"});
  cases.push_back(
      {"absurd key length", hdr(1).raw<uint64_t>(uint64_t{1} << 40).raw<uint32_t>(4).raw<uint32_t>(0).bytes, "limit 65535"});
  cases.push_back({"empty key", hdr(1).str("").raw<uint32_t>(4).raw<uint32_t>(0).bytes, "empty GGUF key #0"});
  cases.push_back(
      {"truncated key", hdr(1).raw<uint64_t>(10).raw<uint32_t>(0x41414141).raw<uint32_t>(0).bytes, "key #0 needs 10 bytes"});
  cases.push_back({"unknown type 13", hdr(1).str("k").raw<uint32_t>(13).raw<uint32_t>(0).bytes, "unknown value type 13"});
  cases.push_back(
      {"unknown type max", hdr(1).str("k").raw<uint32_t>(0xFFFFFFFFu).raw<uint32_t>(0).bytes, "unknown value type 4294967295"});
  cases.push_back({"truncated u32", hdr(1).str("key").raw<uint32_t>(4).raw<uint16_t>(1).bytes, "value of 'key' needs 4 bytes"});
  cases.push_back(
      {"absurd string length", hdr(1).str("k").raw<uint32_t>(8).raw<uint64_t>(uint64_t{1} << 60).bytes, "bytes long (limit"});
  cases.push_back({"truncated string", hdr(1).str("k").raw<uint32_t>(8).raw<uint64_t>(5).raw<uint16_t>(0x4141).bytes,
                   "value of 'k' needs 5 bytes"});
  cases.push_back({"array of unknown type", hdr(1).str("a").raw<uint32_t>(9).raw<uint32_t>(99).raw<uint64_t>(1).bytes,
                   "unknown array element type 99"});
  cases.push_back({"absurd array count", hdr(1).str("a").raw<uint32_t>(9).raw<uint32_t>(4).raw<uint64_t>(uint64_t{1} << 50).bytes,
                   "cannot fit in the"});
  {
    Writer w = hdr(1);
    w.str("deep");
    w.raw<uint32_t>(9);
    for (int i = 0; i < 6; ++i) w.raw<uint32_t>(9).raw<uint64_t>(1);
    w.raw<uint32_t>(4).raw<uint64_t>(1).raw<uint32_t>(0);
    cases.push_back({"arrays nested too deep", w.bytes, "nested deeper than 4"});
  }
  cases.push_back({"bool byte 2", hdr(1).kv_bool("b", 2).bytes, "neither 0 nor 1"});
  cases.push_back({"duplicate key", hdr(2).kv_u32("k", 1).kv_u32("k", 2).bytes, "duplicate GGUF key 'k'"});
  cases.push_back({"no architecture", hdr(1).kv_u32("llama.context_length", 1).bytes, "has no general.architecture", true});
  cases.push_back({"architecture not a string", hdr(1).kv_u32("general.architecture", 7).bytes,
                   "general.architecture must be a string", true});
  cases.push_back({"unknown architecture", hdr(1).kv_str("general.architecture", "frobnicator").bytes,
                   "not in llama.cpp's llama_model_rope_type table", true});
  cases.push_back({"no head count", hdr(1).kv_str("general.architecture", "llama").bytes, "llama.attention.head_count|", true});
  cases.push_back({"freq_base is a string",
                   hdr(4)
                       .kv_str("general.architecture", "llama")
                       .kv_u32("llama.attention.head_count", 4)
                       .kv_u32("llama.embedding_length", 64)
                       .kv_str("llama.rope.freq_base", "1e4")
                       .bytes,
                   "llama.rope.freq_base|GGUF key 'llama.rope.freq_base' must be a finite number", true});
  cases.push_back({"rotary dims beyond head",
                   hdr(4)
                       .kv_str("general.architecture", "llama")
                       .kv_u32("llama.attention.head_count", 4)
                       .kv_u32("llama.embedding_length", 64)
                       .kv_u32("llama.rope.dimension_count", 32)
                       .bytes,
                   "llama.rope.dimension_count|", true});
  cases.push_back({"longrope factors are tensors",
                   hdr(4)
                       .kv_str("general.architecture", "phi3")
                       .kv_u32("phi3.attention.head_count", 32)
                       .kv_u32("phi3.embedding_length", 3072)
                       .kv_str("phi3.rope.scaling.type", "longrope")
                       .bytes,
                   "never reads", true});
  cases.push_back({"tensor infos beyond the bytes", hdr(0, 3, 1000).bytes, "tensor count 1000 cannot fit"});
  {
    Writer w = hdr(0, 3, 1);
    w.str("t").raw<uint32_t>(5);
    for (int i = 0; i < 5; ++i) w.raw<uint64_t>(1);
    w.raw<uint32_t>(0).raw<uint64_t>(0);
    cases.push_back({"tensor with 5 dimensions", w.bytes, "tensor 't' at offset 24 has 5 dimensions"});
  }
  {
    Writer w = hdr(0, 3, 1);
    w.str("rope_freqs.weight").raw<uint32_t>(1).raw<uint64_t>(64).raw<uint32_t>(0);
    cases.push_back({"truncated tensor info", w.bytes, "dimensions, type and offset of tensor 'rope_freqs.weight'"});
  }
  cases.push_back({"longrope tensors without a scaling type", phi3_longrope_header(), "rope_factors_long.weight|", true});
  cases.push_back({"embedding not a multiple of heads",
                   hdr(3)
                       .kv_str("general.architecture", "llama")
                       .kv_u32("llama.attention.head_count", 3)
                       .kv_u32("llama.embedding_length", 64)
                       .bytes,
                   "positive multiple", true});
  ASSERT_GE(cases.size(), 20u);
  for (const Case& c : cases) {
    const std::string got = error_of(c.bytes, c.map);
    EXPECT_NE(got.find(c.expect), std::string::npos) << c.name << ": got '" << got << "'";
  }
}

// Bounded fuzz: mutate a valid header (byte flips, truncation, splices) for a fixed number of iterations
// with a fixed seed; every input must parse or throw InvalidArgument, nothing else.
TEST(Gguf, FuzzedHeadersParseOrFailCleanly) {
  std::vector<std::vector<uint8_t>> seeds = {llama_header()};
  {
    Writer w;
    w.header(3).kv_str("general.architecture", "deepseek2");
    w.str("arr").raw<uint32_t>(9).raw<uint32_t>(8).raw<uint64_t>(3).str("a").str("bb").str("ccc");
    w.kv_f32("deepseek2.rope.scaling.factor", 40.0f);
    seeds.push_back(w.bytes);
  }
  std::mt19937_64 rng(20261123);
  int parsed = 0, rejected = 0;
  for (int it = 0; it < 20000; ++it) {
    std::vector<uint8_t> b = seeds[it % seeds.size()];
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits && !b.empty(); ++e) {
      const std::size_t at = rng() % b.size();
      switch (rng() % 4) {
        case 0: b[at] = static_cast<uint8_t>(rng()); break;                   // random byte
        case 1: b[at] ^= static_cast<uint8_t>(1u << (rng() % 8)); break;      // bit flip
        case 2: b.resize(at); break;                                          // truncation
        case 3: b.insert(b.begin() + static_cast<long>(at), 8, 0xFF); break;  // huge little-endian counts
      }
    }
    try {
      const GgufHeader h = read_gguf_header(b);
      try {
        read_gguf_model(h);
      } catch (const InvalidArgument&) {}
      ++parsed;
    } catch (const InvalidArgument&) { ++rejected; }
  }
  EXPECT_EQ(parsed + rejected, 20000);
  EXPECT_GT(rejected, 0);
  EXPECT_GT(parsed, 0);
}
