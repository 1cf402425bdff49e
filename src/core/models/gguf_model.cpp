// GGUF header -> ModelPosition, mapped the way llama.cpp reads it (src/llama-model.cpp: llama_model_rope_type,
// the hparams loader; key names from src/llama-arch.cpp; docs/models.md):
//   Meta            typed reads of {arch}.* keys, recording what was looked at
//   dims            heads, head_dim, context length
//   other schemes   llama.cpp's NONE architectures (ALiBi, T5, learned, none)
//   RoPE            tensors refused by name, the scaling keys, the RoPE (rope_assembly.h), the sliding layers' base
//   layers          the family table's per-layer rules for the architectures whose graphs use them
#include <cmath>
#include <set>

#include "core/bounds.h"
#include "core/encodings/alibi.h"
#include "core/models/gguf.h"
#include "core/models/rope_assembly.h"

namespace posenc {
namespace {

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

// ---------------------------------------------------------------- dims

struct GgufDims {
  int64_t block_count = 0, ctx = 0;
  int head_dim = 0;
};

GgufDims read_dims(const Meta& m, ModelPosition& out) {
  GgufDims d;
  const std::string layers_key = m.key("block_count");
  d.block_count = m.integer(layers_key).value_or(0);
  if (m.get(layers_key)) in_range(d.block_count, 1, 65536, layers_key);
  const std::string heads_key = m.key("attention.head_count");
  const auto heads = m.per_layer_integer(heads_key, d.block_count);
  if (!heads) throw InvalidArgument(heads_key, "the GGUF header has no " + heads_key);
  out.num_attention_heads = in_range(*heads, 1, kMaxHeads, heads_key);
  // MLA written as MQA over the latent (llama.cpp's converter since attn_kv_b was split into attn_k_b / attn_v_b):
  // key_length is kv_lora_rank + the rotary part, key_length_mla the q/k head (llama.cpp n_embd_head_k_mla).
  if (const auto klm = m.integer(m.key("attention.key_length_mla"))) {
    d.head_dim = in_range(*klm, 1, kMaxDim, m.key("attention.key_length_mla"));
  } else if (const auto kl = m.integer(m.key("attention.key_length"))) {
    const auto kv_lora = m.integer(m.key("attention.kv_lora_rank"));
    const auto rope_dims = m.integer(m.key("rope.dimension_count"));
    if (kv_lora && rope_dims && *kl == *kv_lora + *rope_dims)  // the latent's MQA head, not the q/k head
      throw InvalidArgument(m.key("attention.key_length_mla"),
                            "GGUF MLA key length " + std::to_string(*kl) +
                                " is kv_lora_rank + the rotary part (the absorbed MQA head), and " +
                                m.key("attention.key_length_mla") + " (the q/k head width, nope + rope) is missing");
    d.head_dim = in_range(*kl, 1, kMaxDim, m.key("attention.key_length"));
  } else {
    const std::string ek = m.key("embedding_length");
    const auto embd = m.integer(ek);
    if (!embd) throw InvalidArgument(ek, "the GGUF header has neither " + m.key("attention.key_length") + " nor " + ek);
    if (*embd < 1 || *embd % *heads != 0)
      throw InvalidArgument(ek, "GGUF key '" + ek + "' must be a positive multiple of " + heads_key);
    d.head_dim = in_range(*embd / *heads, 1, kMaxDim, ek);
  }
  out.head_dim = d.head_dim;
  const std::string ctx_key = m.key("context_length");
  d.ctx = m.integer(ctx_key).value_or(0);
  if (m.get(ctx_key)) in_range(d.ctx, 1, kMaxLength, ctx_key);  // present: [1, 2^30] (0 included in the error)
  return d;
}

// GPT-J: llama_model_rope_type lists LLM_ARCH_GPTJ as LLAMA_ROPE_TYPE_NONE (and llama.cpp has no graph
// for it); followed as written, so a gptj GGUF reads as position none (its config.json gives its RoPE).
void read_other_scheme(const std::string& arch, const Meta& m, const GgufDims& d, ModelPosition& out) {
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
    out.learned_max_position_embeddings = d.ctx;
  } else {
    out.position = PositionKind::None;  // recurrent and other position-free architectures
  }
}

// ---------------------------------------------------------------- RoPE

// Parameters llama.cpp keeps as tensors cannot be read from the header: per-pair frequency factors (rope_freqs:
// Llama 3.1's llama3 scaling as convert_hf_to_gguf.py writes it) and LongRoPE's short/long factors
// (rope_factors_short/long: Phi-3; llama.cpp picks long ones by context size, whatever rope.scaling.type says).
// Refused, naming the tensor.
void refuse_rope_tensors(const GgufHeader& h) {
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
}

// rope.dimension_sections: 4 counts of pairs (t, h, w, e); ggml_rope_multi rotates NEOX-style pairs and picks the
// axis by sector (contiguous for MROPE, sector % 3 for IMROPE). The 4th (extra) axis is not modelled.
void read_sections(const Meta& m, const std::string& rope_type, RopeParts& p) {
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
  if (v[0] + v[1] + v[2] != p.rotary_dim / 2)
    throw InvalidArgument(
        sk, "GGUF key '" + sk + "' t + h + w must equal rope.dimension_count / 2 = " + std::to_string(p.rotary_dim / 2));
  p.mrope_section = {v[0], v[1], v[2]};
  p.mrope_interleaved = rope_type == "imrope";
  p.layout = RopeLayout::Half;
}

// The GGUF key of a kRopeScalingKeys row: {arch}.rope.scaling.<its gguf name>.
std::string scaling_key(const Meta& m, const char* name) {
  return m.key(std::string("rope.scaling.") + rope_scaling_key(name)->gguf);
}

// {arch}.rope.scaling.*: none, linear (older files: rope.scale_linear), yarn; longrope refused.
void read_scaling(const Meta& m, int64_t ctx, RopeParts& p) {
  RopeScaling& s = p.scaling;
  std::string stype = m.string(m.key("rope.scaling.type")).value_or("");
  std::optional<double> factor = m.number(scaling_key(m, "factor"));
  if (stype.empty()) {
    if (const auto lin = m.number(m.key("rope.scale_linear"))) {
      stype = "linear";
      factor = lin;
    } else {
      stype = factor && *factor > 1 ? "linear" : "none";
    }
  }
  const std::string fk = scaling_key(m, "factor");
  const int64_t orig = m.integer(scaling_key(m, "original_max_position_embeddings")).value_or(ctx);
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
    if (const auto b = m.number(scaling_key(m, "beta_fast"))) s.beta_fast = *b;
    if (const auto b = m.number(scaling_key(m, "beta_slow"))) s.beta_slow = *b;
    const auto log_mul = m.number(m.key("rope.scaling.yarn_log_multiplier"));
    const auto attn = m.number(m.key("rope.scaling.attn_factor"));
    if (log_mul && *log_mul != 0) {
      // DeepSeek-V2/V3: log_multiplier = 0.1 * mscale_all_dim; llama.cpp cancels YaRN's cos/sin magnitude and
      // puts mscale^2 into the softmax scale, i.e. transformers' mscale == mscale_all_dim.
      s.mscale = s.mscale_all_dim = *log_mul / 0.1;
      p.yarn_softmax_mscale = true;
    }
    if (attn) s.attention_factor = *attn * (log_mul && *log_mul != 0 ? 1.0 : yarn_get_mscale(s.factor));
  } else if (stype == "longrope") {
    throw InvalidArgument(m.key("rope.scaling.type"),
                          "LongRoPE GGUFs keep their short/long factors in tensors (rope_factors_short/long), which "
                          "posenc never reads; load the model's config.json instead");
  } else {
    throw InvalidArgument(m.key("rope.scaling.type"), "GGUF key '" + m.key("rope.scaling.type") + "' = '" +
                                                          gguf_printable(stype) + "' is not one of none, linear, yarn, longrope");
  }
  s.seq_len = std::nullopt;  // none of the GGUF scalings depends on the current length
}

void read_rope(const std::string& arch, const std::string& rope_type, const Meta& m, const GgufDims& d, ModelPosition& out) {
  RopeParts p;
  p.head_dim = d.head_dim;
  const std::string dk = m.key("rope.dimension_count");
  p.rotary_dim = in_range(m.integer(dk).value_or(d.head_dim), 2, d.head_dim, dk);
  if (p.rotary_dim % 2 != 0) throw InvalidArgument(dk, "GGUF key '" + dk + "' must be even");
  p.layout = rope_type == "norm" ? RopeLayout::Interleaved : RopeLayout::Half;
  if (rope_type == "mrope" || rope_type == "imrope") read_sections(m, rope_type, p);
  const std::string bk = m.key("rope.freq_base");
  p.base = m.number(bk).value_or(10000.0);
  if (!(p.base > 1.0)) throw InvalidArgument(bk, "GGUF key '" + bk + "' must be > 1");
  p.max_position_embeddings = d.ctx;
  read_scaling(m, d.ctx, p);
  double scale = 1.0 / std::sqrt(static_cast<double>(d.head_dim));
  std::vector<std::string> scale_from{"head_dim^-0.5"};
  if (const auto as = m.number(m.key("attention.scale"))) scale = *as, scale_from = {m.key("attention.scale")};
  p.softmax_scale = scale;
  // llama.cpp's deepseek2 graph views q_pe after the n_embd_head_qk_nope dims too: the family's rope_last.
  const ModelFamily* family = find_gguf_family(arch);
  if (family && family->has(kFamilyRopeLast)) p.rotary_offset = d.head_dim - p.rotary_dim;
  out.position = PositionKind::Rope;
  out.rope = assemble_rope(p, [&](const InvalidArgument& e) {
    const std::string f = e.field().rfind("scaling.", 0) == 0 ? m.key("rope.scaling." + e.field().substr(8)) : dk;
    return InvalidArgument(f, std::string(e.what()) + " (GGUF " + f + ")");
  });
  out.rope->softmax_scale_from = scale_from;
  if (out.rope->softmax_scale != scale) out.rope->softmax_scale_from.push_back(m.key("rope.scaling.yarn_log_multiplier"));
  // Sliding-window layers with their own base (Gemma-3: rope.freq_base_swa, the family's local base when absent).
  const ModelFamily* fam = family;
  const auto swa_base = m.number(m.key("rope.freq_base_swa"));
  if (swa_base || (fam && fam->sliding_rope == SlidingRope::LocalBase)) {
    const double base = swa_base.value_or(fam ? fam->local_base : 10000.0);
    out.layers.emplace_back("full_attention", *out.rope);
    out.layers.emplace_back("sliding_attention", sliding_layer_rope(*out.rope, base, scale));
    out.layers.back().second.softmax_scale_from = scale_from;
  }
}

// ---------------------------------------------------------------- layers

// llama.cpp's per-layer layout (hparams set_swa_pattern, n_no_rope_layer_step, swa_type) for the architectures
// whose graphs use them, from the family table; docs/models.md. Other families' per-layer keys are not read:
// named as an assumption.
void read_layers(const std::string& arch, const Meta& m, int64_t block_count, ModelPosition& out) {
  if (block_count <= 0) return;
  const int n = static_cast<int>(block_count);
  out.num_hidden_layers = n;
  const ModelFamily* fam = find_gguf_family(arch);
  if (fam) out.assumptions.insert(out.assumptions.end(), fam->not_modelled.begin(), fam->not_modelled.end());
  // QwenWindow: llama.cpp's qwen2 / qwen3 graphs have no sliding window (use_sliding_window is false in the
  // published configs): every layer full, as read.
  const bool modelled = fam &&
                        (fam->layers == LayerRule::Generic || fam->layers == LayerRule::SlidingPattern ||
                         fam->layers == LayerRule::Llama4 || fam->layers == LayerRule::QwenWindow) &&
                        (fam->rope_on == RopeOn::All || fam->rope_on == RopeOn::Sliding);
  const int swa_period = !fam                                       ? 0
                         : fam->gguf_swa_period > 0                 ? fam->gguf_swa_period
                         : fam->layers == LayerRule::SlidingPattern ? fam->pattern
                                                                    : 0;
  const std::string wk = m.key("attention.sliding_window");
  std::optional<int64_t> swa;
  if (modelled && (swa_period > 0 || fam->layers == LayerRule::Llama4)) {
    swa = m.integer(wk);
    if (swa) in_range(*swa, 0, kMaxLength, wk);
  }
  // llama-model.cpp: Llama 4's attention.sliding_window absent or nonzero -> chunked attention of 8192 on the
  // RoPE layers, NoPE every 4th layer with temperature tuning (floor 8192, scale 0.1); 0 -> RoPE everywhere.
  const bool llama4 = modelled && fam->layers == LayerRule::Llama4;
  const bool chunked = llama4 && !(swa && *swa == 0);
  const int nope_step = modelled && (!llama4 || chunked) ? fam->nope_interval : 0;  // n_no_rope_layer_step (no GGUF key)
  if (swa_period > 0 && modelled && !swa) throw InvalidArgument(wk, "the GGUF header has no " + wk + " for the sliding layers");
  if (!modelled)
    out.assumptions.push_back({"layers", "every block full attention with RoPE",
                               fam ? "llama.cpp's per-layer keys of '" + arch + "' (" + fam->family + ") are not read"
                                   : "llama.cpp architecture '" + arch + "' is not in posenc's family table"});
  out.per_layer.resize(n);
  for (int il = 0; il < n; ++il) {
    LayerSpec& l = out.per_layer[il];
    // set_swa_pattern(p): layer il is sliding iff il % p < p - 1.
    const bool sliding = modelled && swa_period > 0 && il % swa_period < swa_period - 1;
    l.rope = !(nope_step > 0 && (il + 1) % nope_step == 0);
    if (modelled && fam->rope_on == RopeOn::Sliding && !sliding) l.rope = false;
    if (sliding) {
      l.attention = LayerAttention::Sliding;
      l.window = *swa;
    } else if (chunked && l.rope) {
      l.attention = LayerAttention::Chunked;
      l.window = fam->chunk;
    }
    if (chunked && !l.rope && fam->has(kFamilyLlama4Temperature)) {
      l.query_scale.rule = QueryScale::Rule::Llama4Temperature;
      l.query_scale.floor_scale = 8192;
      l.query_scale.attn_scale = 0.1;
    }
    l.sinks = modelled && fam->has(kFamilySinks);
    if (l.rope && !out.layers.empty()) l.rope_key = sliding ? "sliding_attention" : "full_attention";
  }
}

// Positional keys of the header that were never looked at (posenc does not model them): named.
void unread(const GgufHeader& h, const Meta& m, ModelPosition& out) {
  for (const auto& [k, v] : h.metadata.as_object())
    if (k.rfind("general.", 0) != 0 && k.rfind("tokenizer.", 0) != 0 && is_positional_key(k) && !m.seen().count(k))
      out.unread_keys.push_back(k);
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
                          "architecture '" + gguf_printable(arch) + "' is not in llama.cpp's llama_model_rope_type table");
  ModelPosition out;
  out.model_type = gguf_printable(arch);
  if (const ModelFamily* fam = find_gguf_family(arch)) out.family = fam->family;
  const GgufDims d = read_dims(m, out);
  if (*rope_type == "none") {
    read_other_scheme(arch, m, d, out);
  } else {
    refuse_rope_tensors(h);
    read_rope(arch, *rope_type, m, d, out);
    read_layers(arch, m, d.block_count, out);
  }
  unread(h, m, out);
  return out;
}

}  // namespace posenc
