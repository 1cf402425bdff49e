#include "core/models/gguf.h"

#include <cmath>
#include <cstring>
#include <set>

#include "core/encodings/alibi.h"
#include "core/bounds.h"

namespace posenc {
namespace {

// GGUF value types, numbered as ggml/include/gguf.h's enum gguf_type (GGUF_TYPE_UINT8 = 0 ... GGUF_TYPE_FLOAT64 = 12).
enum GgufType : uint32_t { kU8, kI8, kU16, kI16, kU32, kI32, kF32, kBool, kString, kArray, kU64, kI64, kF64, kTypeCount };

// Per type, in GgufType order: its name in messages and the smallest encoding of one value, for bounding
// counts before anything is allocated (a string: its 8-byte length prefix; an array: element type + count).
struct TypeInfo {
  const char* name;
  uint64_t min_size;
};
constexpr TypeInfo kTypes[kTypeCount] = {{"u8", 1},  {"i8", 1},  {"u16", 2},  {"i16", 2},    {"u32", 4},
                                         {"i32", 4}, {"f32", 4}, {"bool", 1}, {"string", 8}, {"array", 4 + 8},
                                         {"u64", 8}, {"i64", 8}, {"f64", 8}};

const char* type_name(uint32_t t) { return t < kTypeCount ? kTypes[t].name : "?"; }
uint64_t min_size(uint32_t t) { return t < kTypeCount ? kTypes[t].min_size : 1; }

// Longest string value accepted (chat templates are tens of KiB; beyond this a length is absurd).
constexpr uint64_t kMaxValueString = uint64_t{1} << 30;

// A GGUF string as an error message may quote it: control bytes (a NUL would end the message where C strings
// are printed) and other non-printable bytes become \xNN.
std::string printable(const std::string& s) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned char ch : s) {
    if (ch < 0x20 || ch == 0x7f) {
      out += "\\x";
      out += hex[ch >> 4];
      out += hex[ch & 15];
    } else {
      out += static_cast<char>(ch);
    }
  }
  return out;
}

class Cursor {
 public:
  explicit Cursor(std::span<const uint8_t> b) : b_(b) {}
  uint64_t offset() const { return pos_; }
  uint64_t remaining() const { return b_.size() - pos_; }

  void need(uint64_t n, const std::string& what) const {
    if (n > remaining())
      throw GgufTruncated("gguf", "truncated GGUF header: " + what + " needs " + std::to_string(n) + " bytes at offset " +
                                      std::to_string(pos_) + ", only " + std::to_string(remaining()) + " left");
  }
  void skip(uint64_t n, const std::string& what) {
    need(n, what);
    pos_ += n;
  }
  template <class T>
  T read(const std::string& what) {
    need(sizeof(T), what);
    T v;
    std::memcpy(&v, b_.data() + pos_, sizeof(T));  // GGUF is little-endian, as every target here
    pos_ += sizeof(T);
    return v;
  }
  std::string string(const std::string& what, uint64_t max_len) {
    const uint64_t at = pos_;
    const uint64_t len = read<uint64_t>(what + " length");
    if (len > max_len)
      throw InvalidArgument("gguf", what + " at offset " + std::to_string(at) + " is " + std::to_string(len) +
                                        " bytes long (limit " + std::to_string(max_len) + ")");
    need(len, what);
    std::string s(reinterpret_cast<const char*>(b_.data() + pos_), len);
    pos_ += len;
    return s;
  }

 private:
  std::span<const uint8_t> b_;
  uint64_t pos_ = 0;
};

ConfigValue read_value(Cursor& c, uint32_t type, const std::string& key, int depth);

ConfigValue read_array(Cursor& c, const std::string& key, int depth) {
  const uint64_t at = c.offset();
  if (depth >= kGgufMaxArrayDepth)
    throw InvalidArgument(key, "GGUF key '" + key + "': arrays nested deeper than " + std::to_string(kGgufMaxArrayDepth) +
                                   " levels at offset " + std::to_string(at));
  const uint32_t et = c.read<uint32_t>("array element type of '" + key + "'");
  if (et >= kTypeCount)
    throw InvalidArgument(
        key, "GGUF key '" + key + "': unknown array element type " + std::to_string(et) + " at offset " + std::to_string(at));
  const uint64_t n = c.read<uint64_t>("array length of '" + key + "'");
  // Each element takes at least min_size bytes: the remaining bytes cannot hold this count (a longer prefix
  // of the file might).
  if (n > c.remaining() / min_size(et))
    throw GgufTruncated(key, "GGUF key '" + key + "': array of " + std::to_string(n) + " " + type_name(et) +
                                 " values cannot fit in the " + std::to_string(c.remaining()) + " bytes left (offset " +
                                 std::to_string(at) + ")");
  const bool keep = n <= kGgufMaxKeptArray;
  ConfigValue::Array items;
  if (keep) items.reserve(n);
  for (uint64_t i = 0; i < n; ++i) {
    ConfigValue v = read_value(c, et, key, depth + 1);
    if (keep) items.push_back(std::move(v));
  }
  return keep ? ConfigValue::array(std::move(items)) : ConfigValue();
}

ConfigValue read_value(Cursor& c, uint32_t type, const std::string& key, int depth) {
  const std::string what = "value of '" + key + "'";
  switch (type) {
    case kU8: return ConfigValue::integer(c.read<uint8_t>(what));
    case kI8: return ConfigValue::integer(c.read<int8_t>(what));
    case kU16: return ConfigValue::integer(c.read<uint16_t>(what));
    case kI16: return ConfigValue::integer(c.read<int16_t>(what));
    case kU32: return ConfigValue::integer(c.read<uint32_t>(what));
    case kI32: return ConfigValue::integer(c.read<int32_t>(what));
    case kF32: return ConfigValue::number(c.read<float>(what));
    case kBool: {
      const uint64_t at = c.offset();
      const uint8_t b = c.read<uint8_t>(what);
      if (b > 1)
        throw InvalidArgument(key, "GGUF key '" + key + "': bool byte " + std::to_string(b) + " at offset " + std::to_string(at) +
                                       " is neither 0 nor 1");
      return ConfigValue::boolean(b == 1);
    }
    case kString: return ConfigValue::string(c.string(what, kMaxValueString));
    case kArray: return read_array(c, key, depth);
    case kU64: {
      const uint64_t v = c.read<uint64_t>(what);
      // Kept exactly when it fits int64; larger values only matter as "too large" later.
      return v <= static_cast<uint64_t>(INT64_MAX) ? ConfigValue::integer(static_cast<int64_t>(v))
                                                   : ConfigValue::number(static_cast<double>(v));
    }
    case kI64: return ConfigValue::integer(c.read<int64_t>(what));
    case kF64: return ConfigValue::number(c.read<double>(what));
  }
  throw InvalidArgument(key, "GGUF key '" + key + "': unknown value type " + std::to_string(type));
}

// ---------------------------------------------------------------- mapping

class Meta {
 public:
  Meta(const ConfigValue& m, std::string arch) : m_(m), arch_(std::move(arch)) {}
  std::string key(const std::string& suffix) const { return arch_ + "." + suffix; }

  const ConfigValue* get(const std::string& k) const {
    seen_.insert(k);
    return m_.find(k);
  }
  const std::set<std::string>& seen() const { return seen_; }
  std::optional<double> number(const std::string& k) const {
    const ConfigValue* v = get(k);
    if (!v) return std::nullopt;
    if (!v->is_number() || !std::isfinite(v->as_double()))
      throw InvalidArgument(k, "GGUF key '" + k + "' must be a finite number, not " + ConfigValue::kind_name(v->kind()));
    return v->as_double();
  }
  // An integer key: an array (even of one element) is an error, as llama.cpp's get_key refuses it.
  std::optional<int64_t> integer(const std::string& k) const {
    const ConfigValue* v = get(k);
    if (!v) return std::nullopt;
    if (v->is_int()) return v->as_int();
    throw InvalidArgument(k, "GGUF key '" + k + "' must be an integer, not " + ConfigValue::kind_name(v->kind()));
  }
  // A per-layer integer (llama.cpp get_key_or_arr: head_count): one integer, or an array of exactly
  // block_count integers (layers = 0: unknown), of which the largest is returned.
  std::optional<int64_t> per_layer_integer(const std::string& k, int64_t layers) const {
    const ConfigValue* v = get(k);
    if (!v) return std::nullopt;
    if (v->is_int()) return v->as_int();
    if (v->is_array() && !v->as_array().empty()) {
      if (layers > 0 && static_cast<int64_t>(v->as_array().size()) != layers)
        throw InvalidArgument(k, "GGUF key '" + k + "' is an array of " + std::to_string(v->as_array().size()) +
                                     " entries; a per-layer array needs block_count = " + std::to_string(layers));
      int64_t mx = 0;
      for (const ConfigValue& e : v->as_array()) {
        if (!e.is_int()) throw InvalidArgument(k, "GGUF key '" + k + "' must hold integers");
        mx = std::max(mx, e.as_int());
      }
      return mx;
    }
    throw InvalidArgument(
        k, "GGUF key '" + k + "' must be an integer or a per-layer array, not " + ConfigValue::kind_name(v->kind()));
  }
  std::optional<std::string> string(const std::string& k) const {
    const ConfigValue* v = get(k);
    if (!v) return std::nullopt;
    if (!v->is_string()) throw InvalidArgument(k, "GGUF key '" + k + "' must be a string");
    return v->as_string();
  }

 private:
  const ConfigValue& m_;
  std::string arch_;
  mutable std::set<std::string> seen_;
};

int in_range(int64_t v, int64_t lo, int64_t hi, const std::string& k) {
  if (v < lo || v > hi)
    throw InvalidArgument(k, "GGUF key '" + k + "' = " + std::to_string(v) + " must be in [" + std::to_string(lo) + ", " +
                                 std::to_string(hi) + "]");
  return static_cast<int>(v);
}

bool in(const std::string& s, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (s == n) return true;
  return false;
}

}  // namespace

GgufHeader read_gguf_header(std::span<const uint8_t> bytes) {
  Cursor c(bytes);
  GgufHeader h;
  if (bytes.size() < 4) throw InvalidArgument("gguf", "not a GGUF file: fewer than 4 bytes");
  if (std::memcmp(bytes.data(), "GGUF", 4) != 0)
    throw InvalidArgument("gguf", "not a GGUF file: the first 4 bytes are not the magic 'GGUF'");
  c.read<uint32_t>("magic");
  h.version = c.read<uint32_t>("version");
  if (h.version != 2 && h.version != 3)
    throw InvalidArgument("gguf", "unsupported GGUF version " + std::to_string(h.version) +
                                      " (versions 2 and 3 are read; version 1 used 32-bit counts)");
  h.tensor_count = c.read<uint64_t>("tensor count");
  const uint64_t kv_count = c.read<uint64_t>("metadata key/value count");
  if (h.tensor_count > kGgufMaxTensors)
    throw InvalidArgument("gguf", "absurd GGUF tensor count " + std::to_string(h.tensor_count) + " (limit 2^24)");
  if (kv_count > kGgufMaxKeys)
    throw InvalidArgument("gguf", "absurd GGUF metadata count " + std::to_string(kv_count) + " (limit 2^20)");
  // A key/value takes at least 8 (key length) + 1 (key) + 4 (type) + 1 (value) bytes.
  if (kv_count > c.remaining() / 14)
    throw GgufTruncated("gguf", "GGUF metadata count " + std::to_string(kv_count) + " cannot fit in the " +
                                    std::to_string(c.remaining()) + " bytes read");
  std::set<std::string> seen;
  for (uint64_t i = 0; i < kv_count; ++i) {
    const uint64_t at = c.offset();
    std::string key = c.string("key #" + std::to_string(i), kGgufMaxKeyLength);
    if (key.empty()) throw InvalidArgument("gguf", "empty GGUF key #" + std::to_string(i) + " at offset " + std::to_string(at));
    if (printable(key) != key)
      throw InvalidArgument("gguf", "GGUF key #" + std::to_string(i) + " at offset " + std::to_string(at) +
                                        " holds a control byte: '" + printable(key) + "'");
    if (!seen.insert(key).second) throw InvalidArgument(key, "duplicate GGUF key '" + key + "' at offset " + std::to_string(at));
    const uint64_t type_at = c.offset();
    const uint32_t type = c.read<uint32_t>("type of '" + key + "'");
    if (type >= kTypeCount)
      throw InvalidArgument(
          key, "GGUF key '" + key + "': unknown value type " + std::to_string(type) + " at offset " + std::to_string(type_at));
    ConfigValue v = read_value(c, type, key, 0);
    h.metadata.as_object().emplace_back(std::move(key), std::move(v));
  }
  h.metadata_bytes = c.offset();
  // Tensor infos (ggml's gguf.cpp layout): name, n_dims, n_dims dims, type, offset. Only the names are kept.
  // Each takes at least 8 + 1 + 4 + 4 + 8 bytes.
  if (h.tensor_count > c.remaining() / 25)
    throw GgufTruncated("gguf", "GGUF tensor count " + std::to_string(h.tensor_count) + " cannot fit in the " +
                                    std::to_string(c.remaining()) + " bytes after the metadata");
  for (uint64_t i = 0; i < h.tensor_count; ++i) {
    const uint64_t at = c.offset();
    const std::string what = "tensor info #" + std::to_string(i);
    std::string name = c.string("name of " + what, kGgufMaxKeyLength);
    if (printable(name) != name)
      throw InvalidArgument("gguf", "GGUF " + what + " at offset " + std::to_string(at) + " has a name with a control byte: '" +
                                        printable(name) + "'");
    const uint32_t n_dims = c.read<uint32_t>("dimension count of tensor '" + name + "'");
    if (n_dims > kGgufMaxTensorDims)
      throw InvalidArgument("gguf", "GGUF tensor '" + name + "' at offset " + std::to_string(at) + " has " +
                                        std::to_string(n_dims) + " dimensions (at most 4)");
    c.skip(uint64_t{8} * n_dims + 4 + 8, "dimensions, type and offset of tensor '" + name + "'");
    h.tensor_names.push_back(std::move(name));
  }
  h.header_bytes = c.offset();
  return h;
}

std::optional<std::string> llama_cpp_rope_type(const std::string& a) {
  // llama.cpp src/llama-model.cpp llama_model_rope_type; names as LLM_ARCH_NAMES in src/llama-arch.cpp.
  if (in(a, {"clip", "gpt2", "gptj", "mpt", "refact", "bloom", "mamba", "mamba2", "jamba", "jina-bert-v2", "t5", "t5encoder",
             "jais", "rwkv6", "rwkv6qwen2", "rwkv7", "arwkv7", "wavtokenizer-dec", "nemotron_h"}))
    return "none";
  if (in(a, {"llama",     "llada",      "llama4",    "deci",    "baichuan", "starcoder",  "internlm2",
             "minicpm",   "xverse",     "command-r", "cohere2", "olmo",     "arctic",     "deepseek",
             "deepseek2", "plm",        "chatglm",   "glm4",    "granite",  "granitemoe", "granitehybrid",
             "chameleon", "bailingmoe", "neo-bert",  "smollm3", "arcee",    "ernie4_5",   "ernie4_5-moe"}))
    return "norm";
  if (in(a, {"falcon",         "falcon-h1",       "grok",       "dbrx",      "bert",         "jina-bert-v3", "nomic-bert",
             "nomic-bert-moe", "stablelm",        "bitnet",     "qwen",      "qwen2",        "dream",        "qwen2moe",
             "qwen3",          "qwen3moe",        "qwen3next",  "llada-moe", "olmo2",        "olmoe",        "phi2",
             "phi3",           "phimoe",          "plamo",      "plamo2",    "gemma",        "gemma2",       "gemma3",
             "gemma3n",        "gemma-embedding", "starcoder2", "openelm",   "gptneox",      "codeshell",    "orion",
             "nemotron",       "exaone",          "exaone4",    "minicpm3",  "bailingmoe2",  "dots1",        "hunyuan-moe",
             "gpt-oss",        "hunyuan-dense",   "lfm2",       "lfm2moe",   "smallthinker", "glm4moe",      "seed_oss",
             "grovemoe",       "apertus"}))
    return "neox";
  if (a == "qwen2vl") return "mrope";
  if (in(a, {"qwen3vl", "qwen3vlmoe"})) return "imrope";  // LLAMA_ROPE_TYPE_IMROPE (interleaved sections)
  return std::nullopt;
}

namespace {

// Positional keys of the header that were never looked at (posenc does not model them): named.
void gguf_unread(const GgufHeader& h, const Meta& m, ModelPosition& out) {
  for (const auto& [k, v] : h.metadata.as_object())
    if (k.rfind("general.", 0) != 0 && k.rfind("tokenizer.", 0) != 0 && is_positional_key(k) && !m.seen().count(k))
      out.unread_keys.push_back(k);
}

// llama.cpp's per-layer layout (hparams set_swa_pattern, n_no_rope_layer_step, swa_type) for the
// architectures whose graphs use them; docs/models.md.
void gguf_layers(const std::string& arch, const Meta& m, int64_t block_count, ModelPosition& out) {
  if (block_count <= 0) return;
  const int n = static_cast<int>(block_count);
  out.num_hidden_layers = n;
  const std::string wk = m.key("attention.sliding_window");
  std::optional<int64_t> swa;
  if (in(arch, {"llama4", "gpt-oss", "gemma2", "gemma3", "cohere2"})) {
    swa = m.integer(wk);
    if (swa) in_range(*swa, 0, kMaxLength, wk);
  }
  int swa_period = 0;  // set_swa_pattern(p): layer il is sliding iff il % p < p - 1
  int nope_step = 0;   // n_no_rope_layer_step: layer il has no RoPE iff (il + 1) % step == 0
  bool chunked = false, sinks = false, rope_only_swa = false, temperature = false;
  if (arch == "llama4") {
    // llama-model.cpp: attention.sliding_window absent or nonzero -> chunked attention of 8192 on the RoPE
    // layers, NoPE every 4th layer with temperature tuning (floor 8192, scale 0.1); 0 -> RoPE everywhere.
    if (!(swa && *swa == 0)) {
      chunked = true;
      nope_step = 4;
      temperature = true;
    }
  } else if (arch == "smollm3") {
    nope_step = 4;  // hard-coded in llama-model.cpp (no GGUF key)
  } else if (arch == "gpt-oss") {
    swa_period = 2;
    sinks = true;
  } else if (arch == "gemma2") {
    swa_period = 2;
  } else if (arch == "gemma3") {
    swa_period = 6;
  } else if (arch == "cohere2") {
    swa_period = 4;
    rope_only_swa = true;
  }
  if (swa_period > 0 && !swa) throw InvalidArgument(wk, "the GGUF header has no " + wk + " for the sliding layers");
  out.per_layer.resize(n);
  for (int il = 0; il < n; ++il) {
    LayerSpec& l = out.per_layer[il];
    const bool sliding = swa_period > 0 && il % swa_period < swa_period - 1;
    l.rope = !(nope_step > 0 && (il + 1) % nope_step == 0);
    if (rope_only_swa && !sliding) l.rope = false;
    if (sliding) {
      l.attention = LayerAttention::Sliding;
      l.window = *swa;
    } else if (chunked && l.rope) {
      l.attention = LayerAttention::Chunked;
      l.window = 8192;
    }
    if (temperature && !l.rope) {
      l.query_scale.rule = QueryScale::Rule::Llama4Temperature;
      l.query_scale.floor_scale = 8192;
      l.query_scale.attn_scale = 0.1;
    }
    l.sinks = sinks;
    if (l.rope && !out.layers.empty()) l.rope_key = sliding ? "sliding_attention" : "full_attention";
  }
}

}  // namespace

ModelPosition read_gguf_model(const GgufHeader& h, std::optional<int64_t> seq_len) {
  const ConfigValue* archv = h.metadata.find("general.architecture");
  if (!archv) throw InvalidArgument("general.architecture", "the GGUF header has no general.architecture");
  if (!archv->is_string()) throw InvalidArgument("general.architecture", "general.architecture must be a string");
  const std::string arch = archv->as_string();
  if (seq_len && (*seq_len < 1 || *seq_len > kMaxLength))
    throw InvalidArgument("seq_len", "seq_len must be an integer in [1, 2^30]");
  const Meta m(h.metadata, arch);
  const auto rope_type = llama_cpp_rope_type(arch);
  if (!rope_type)
    throw InvalidArgument("general.architecture",
                          "architecture '" + printable(arch) + "' is not in llama.cpp's llama_model_rope_type table");

  ModelPosition out;
  out.model_type = arch;
  const std::string layers_key = m.key("block_count");
  const int64_t block_count = m.integer(layers_key).value_or(0);
  if (m.get(layers_key)) in_range(block_count, 1, 65536, layers_key);
  const std::string heads_key = m.key("attention.head_count");
  const auto heads = m.per_layer_integer(heads_key, block_count);
  if (!heads) throw InvalidArgument(heads_key, "the GGUF header has no " + heads_key);
  out.num_attention_heads = in_range(*heads, 1, kMaxHeads, heads_key);
  int head_dim = 0;
  if (const auto kl = m.integer(m.key("attention.key_length"))) {
    head_dim = in_range(*kl, 1, kMaxDim, m.key("attention.key_length"));
  } else {
    const std::string ek = m.key("embedding_length");
    const auto embd = m.integer(ek);
    if (!embd) throw InvalidArgument(ek, "the GGUF header has neither " + m.key("attention.key_length") + " nor " + ek);
    if (*embd < 1 || *embd % *heads != 0)
      throw InvalidArgument(ek, "GGUF key '" + ek + "' must be a positive multiple of " + heads_key);
    head_dim = in_range(*embd / *heads, 1, kMaxDim, ek);
  }
  out.head_dim = head_dim;
  const std::string ctx_key = m.key("context_length");
  const int64_t ctx = m.integer(ctx_key).value_or(0);
  if (m.get(ctx_key)) in_range(ctx, 1, kMaxLength, ctx_key);  // present: [1, 2^30] (0 included in the error)

  // GPT-J: llama_model_rope_type lists LLM_ARCH_GPTJ as LLAMA_ROPE_TYPE_NONE (and llama.cpp has no graph
  // for it); followed as written, so a gptj GGUF reads as position none (its config.json gives its RoPE).
  if (*rope_type == "none") {
    if (in(arch, {"bloom", "mpt", "jina-bert-v2", "jais", "refact"})) {  // ALiBi builders in llama.cpp
      out.position = PositionKind::Alibi;
      out.alibi_slopes = alibi_slopes(out.num_attention_heads);
    } else if (in(arch, {"t5", "t5encoder"})) {
      out.position = PositionKind::T5;
      const std::string bk = m.key("attention.relative_buckets_count");
      out.t5_num_buckets = in_range(m.integer(bk).value_or(32), 1, kMaxBuckets, bk);
      out.t5_max_distance = 128;  // llama.cpp's t5 graph hard-codes max_distance = 128
      out.t5_bidirectional = true;
    } else if (arch == "gpt2") {
      out.position = PositionKind::Learned;
      out.learned_max_position_embeddings = ctx;
    } else {
      out.position = PositionKind::None;  // recurrent and other position-free architectures
    }
    gguf_unread(h, m, out);
    return out;
  }

  // RoPE. Parameters llama.cpp keeps as tensors cannot be read from the header: per-pair frequency factors
  // (rope_freqs: Llama 3.1's llama3 scaling as convert_hf_to_gguf.py writes it) and LongRoPE's short/long
  // factors (rope_factors_short/long: Phi-3; llama.cpp picks long ones by context size, whatever
  // rope.scaling.type says). Refused, naming the tensor.
  for (const std::string& t : h.tensor_names) {
    if (t.find("rope_factors_long") != std::string::npos || t.find("rope_factors_short") != std::string::npos)
      throw InvalidArgument(t, "the GGUF keeps LongRoPE's short/long factors in the tensor '" + t +
                                   "' (llama.cpp LLM_TENSOR_ROPE_FACTORS_LONG/SHORT), which posenc never reads; "
                                   "load the model's config.json instead");
    if (t.find("rope_freqs") != std::string::npos)
      throw InvalidArgument(t, "the GGUF keeps per-pair RoPE frequency factors in the tensor '" + t +
                                   "' (llama.cpp LLM_TENSOR_ROPE_FREQS, e.g. Llama 3.1's llama3 scaling), which "
                                   "posenc never reads; load the model's config.json instead");
  }
  ModelRope r;
  const std::string dk = m.key("rope.dimension_count");
  r.rotary_dim = in_range(m.integer(dk).value_or(head_dim), 2, head_dim, dk);
  if (r.rotary_dim % 2 != 0) throw InvalidArgument(dk, "GGUF key '" + dk + "' must be even");
  r.layout = *rope_type == "norm" ? RopeLayout::Interleaved : RopeLayout::Half;
  if (*rope_type == "mrope" || *rope_type == "imrope") {
    // rope.dimension_sections: 4 counts of pairs (t, h, w, e); ggml_rope_multi rotates NEOX-style pairs and
    // picks the axis by sector (contiguous for MROPE, sector % 3 for IMROPE). The 4th (extra) axis is not modelled.
    const std::string sk = m.key("rope.dimension_sections");
    const ConfigValue* sec = m.get(sk);
    if (!sec) throw InvalidArgument(sk, "the GGUF header has no " + sk + " (M-RoPE sections)");
    if (!sec->is_array() || sec->as_array().size() != 4)
      throw InvalidArgument(sk, "GGUF key '" + sk + "' must be an array of 4 integers (t, h, w, extra)");
    std::vector<int> v;
    for (const ConfigValue& e : sec->as_array()) {
      if (!e.is_int() || e.as_int() < 0 || e.as_int() > kMaxDim)
        throw InvalidArgument(sk, "GGUF key '" + sk + "' entries must be integers in [0, 4096]");
      v.push_back(static_cast<int>(e.as_int()));
    }
    if (v[3] != 0) throw InvalidArgument(sk, "GGUF key '" + sk + "': a nonzero 4th (extra) section is not modelled");
    if (v[0] + v[1] + v[2] != r.rotary_dim / 2)
      throw InvalidArgument(
          sk, "GGUF key '" + sk + "' t + h + w must equal rope.dimension_count / 2 = " + std::to_string(r.rotary_dim / 2));
    r.mrope_section = {v[0], v[1], v[2]};
    r.mrope_interleaved = *rope_type == "imrope";
    r.layout = RopeLayout::Half;
  }
  const std::string bk = m.key("rope.freq_base");
  r.base = m.number(bk).value_or(10000.0);
  if (!(r.base > 1.0)) throw InvalidArgument(bk, "GGUF key '" + bk + "' must be > 1");
  r.max_position_embeddings = ctx;
  RopeScaling& s = r.scaling;
  std::string stype = m.string(m.key("rope.scaling.type")).value_or("");
  std::optional<double> factor = m.number(m.key("rope.scaling.factor"));
  if (stype.empty()) {
    // Older files: rope.scale_linear (a factor) instead of rope.scaling.*.
    if (const auto lin = m.number(m.key("rope.scale_linear"))) {
      stype = "linear";
      factor = lin;
    } else {
      stype = factor && *factor > 1 ? "linear" : "none";
    }
  }
  const std::string fk = m.key("rope.scaling.factor");
  const int64_t orig = m.integer(m.key("rope.scaling.original_context_length")).value_or(ctx);
  if (stype == "none") {
    s.type = RopeScalingType::None;
  } else if (stype == "linear") {
    s.type = RopeScalingType::Linear;
    s.factor = factor.value_or(1.0);
  } else if (stype == "yarn") {
    s.type = RopeScalingType::Yarn;
    if (!factor) throw InvalidArgument(fk, "a yarn GGUF needs " + fk);
    s.factor = *factor;
    s.original_max_position_embeddings = orig;
    if (const auto b = m.number(m.key("rope.scaling.yarn_beta_fast"))) s.beta_fast = *b;
    if (const auto b = m.number(m.key("rope.scaling.yarn_beta_slow"))) s.beta_slow = *b;
    const auto log_mul = m.number(m.key("rope.scaling.yarn_log_multiplier"));
    const auto attn = m.number(m.key("rope.scaling.attn_factor"));
    if (log_mul && *log_mul != 0) {
      // DeepSeek-V2/V3: log_multiplier = 0.1 * mscale_all_dim; llama.cpp cancels YaRN's cos/sin magnitude and
      // puts mscale^2 into the softmax scale, i.e. transformers' mscale == mscale_all_dim.
      s.mscale = s.mscale_all_dim = *log_mul / 0.1;
    }
    if (attn) s.attention_factor = *attn * (log_mul && *log_mul != 0 ? 1.0 : yarn_get_mscale(s.factor));
  } else if (stype == "longrope") {
    throw InvalidArgument(m.key("rope.scaling.type"),
                          "LongRoPE GGUFs keep their short/long factors in tensors (rope_factors_short/long), which "
                          "posenc never reads; load the model's config.json instead");
  } else {
    throw InvalidArgument(m.key("rope.scaling.type"), "GGUF key '" + m.key("rope.scaling.type") + "' = '" + printable(stype) +
                                                          "' is not one of none, linear, yarn, longrope");
  }
  s.seq_len = std::nullopt;
  (void)seq_len;  // none of the GGUF scalings depends on the current length
  r.original_max_position_embeddings = s.original_max_position_embeddings > 0 ? s.original_max_position_embeddings : ctx;
  try {
    r.frequencies = rope_frequencies(r.rotary_dim, r.base, s);
  } catch (const InvalidArgument& e) {
    const std::string f = e.field().rfind("scaling.", 0) == 0 ? m.key("rope.scaling." + e.field().substr(8)) : dk;
    throw InvalidArgument(f, std::string(e.what()) + " (GGUF " + f + ")");
  }
  double scale = 1.0 / std::sqrt(static_cast<double>(head_dim));
  if (const auto as = m.number(m.key("attention.scale"))) scale = *as;
  if (s.type == RopeScalingType::Yarn && s.mscale_all_dim) {
    const double ms = yarn_get_mscale(s.factor, *s.mscale_all_dim);
    scale *= ms * ms;
  }
  r.softmax_scale = scale;
  out.position = PositionKind::Rope;
  out.rope = r;
  // Sliding-window layers with their own base (Gemma-3: rope.freq_base_swa, 10000 when absent).
  const auto swa_base = m.number(m.key("rope.freq_base_swa"));
  if (swa_base || arch == "gemma3") {
    ModelRope sliding = r;
    sliding.base = swa_base.value_or(10000.0);
    sliding.scaling = RopeScaling{};
    sliding.original_max_position_embeddings = ctx;
    sliding.frequencies = rope_frequencies(sliding.rotary_dim, sliding.base, sliding.scaling);
    sliding.softmax_scale = 1.0 / std::sqrt(static_cast<double>(head_dim));
    if (const auto as = m.number(m.key("attention.scale"))) sliding.softmax_scale = *as;
    out.layers.emplace_back("full_attention", r);
    out.layers.emplace_back("sliding_attention", sliding);
  }
  gguf_layers(arch, m, block_count, out);
  gguf_unread(h, m, out);
  return out;
}

}  // namespace posenc
