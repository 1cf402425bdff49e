#include "core/models/model_config.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/encodings/alibi.h"
#include "core/bounds.h"

// Rules follow Hugging Face transformers (docs/models.md has the table and the files):
//   modeling_rope_utils.py  _compute_*_parameters (inv_freq, attention_factor)
//   configuration_utils.py  standardize_rope_params (rope_scaling v4 / rope_parameters v5, "type" -> "rope_type")
//   configuration_*.py / modeling_*.py of each model_type (key names, layout, softmax scale).

namespace posenc {
namespace {

// Typed reads of one object's members; every error names the key path.
class Reader {
 public:
  Reader(const ConfigValue& obj, std::string prefix) : obj_(&obj), prefix_(std::move(prefix)) {}

  std::string path(const std::string& key) const { return prefix_ + key; }
  const ConfigValue& value() const { return *obj_; }

  // Present and not null (transformers treats null like absent for these keys).
  bool has(const char* key) const {
    const ConfigValue* v = obj_->find(key);
    return v && !v->is_null();
  }
  const ConfigValue* get(const char* key) const {
    const ConfigValue* v = obj_->find(key);
    return v && !v->is_null() ? v : nullptr;
  }

  std::optional<double> number(const char* key) const {
    const ConfigValue* v = get(key);
    if (!v) return std::nullopt;
    if (!v->is_number()) fail(key, "must be a number, not " + std::string(ConfigValue::kind_name(v->kind())));
    const double d = v->as_double();
    if (!std::isfinite(d)) fail(key, "must be finite");
    return d;
  }
  // Integers may be written 4096.0; anything non-integral is an error.
  std::optional<int64_t> integer(const char* key) const {
    const ConfigValue* v = get(key);
    if (!v) return std::nullopt;
    if (v->is_int()) return v->as_int();
    if (v->is_number()) {
      const double d = v->as_double();
      if (std::isfinite(d) && d == std::floor(d) && std::abs(d) < 9.0e15) return static_cast<int64_t>(d);
    }
    fail(key, "must be an integer, not " + std::string(ConfigValue::kind_name(v->kind())));
  }
  std::optional<bool> boolean(const char* key) const {
    const ConfigValue* v = get(key);
    if (!v) return std::nullopt;
    if (!v->is_bool()) fail(key, "must be true or false, not " + std::string(ConfigValue::kind_name(v->kind())));
    return v->as_bool();
  }
  std::optional<std::string> string(const char* key) const {
    const ConfigValue* v = get(key);
    if (!v) return std::nullopt;
    if (!v->is_string()) fail(key, "must be a string, not " + std::string(ConfigValue::kind_name(v->kind())));
    return v->as_string();
  }
  std::optional<std::vector<double>> numbers(const char* key) const {
    const ConfigValue* v = get(key);
    if (!v) return std::nullopt;
    if (!v->is_array()) fail(key, "must be an array of numbers");
    std::vector<double> out;
    for (const ConfigValue& e : v->as_array()) {
      if (!e.is_number() || !std::isfinite(e.as_double())) fail(key, "must be an array of finite numbers");
      out.push_back(e.as_double());
    }
    return out;
  }
  std::optional<Reader> object(const char* key) const {
    const ConfigValue* v = get(key);
    if (!v) return std::nullopt;
    if (!v->is_object()) fail(key, "must be an object, not " + std::string(ConfigValue::kind_name(v->kind())));
    return Reader(*v, path(key) + ".");
  }

  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw InvalidArgument(path(key), path(key) + " " + what);
  }

 private:
  const ConfigValue* obj_;
  std::string prefix_;
};

template <class T>
std::optional<T> first_of(const Reader& r, std::initializer_list<const char*> keys,
                          std::optional<T> (Reader::*read)(const char*) const, const char** which = nullptr) {
  for (const char* k : keys)
    if (r.has(k)) {
      if (which) *which = k;
      return (r.*read)(k);
    }
  return std::nullopt;
}

bool is_one_of(const std::string& s, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (s == n) return true;
  return false;
}

// transformers' layer-type names that may key a per-layer rope_parameters (v5).
bool is_layer_type_name(const std::string& s) {
  return is_one_of(s, {"full_attention", "sliding_attention", "chunked_attention", "linear_attention"});
}

struct Dims {
  int head_dim = 0;
  int num_heads = 0;
  int rotary_dim = 0;
  bool mla = false;
};

int checked_dim(int64_t v, const std::string& field, const char* what) {
  if (v < 1 || v > kMaxDim) throw InvalidArgument(field, field + " (" + what + ") must be in [1, 4096]");
  return static_cast<int>(v);
}

Dims read_dims(const Reader& r, const std::string& model_type) {
  Dims d;
  const char* heads_key = "num_attention_heads";
  const auto heads = first_of<int64_t>(r, {"num_attention_heads", "n_head", "num_heads", "n_heads"}, &Reader::integer,
                                       &heads_key);
  if (!heads) throw InvalidArgument(r.path("num_attention_heads"), "missing " + r.path("num_attention_heads") +
                                                                       " (or n_head / num_heads / n_heads)");
  if (*heads < 1 || *heads > kMaxHeads)
    throw InvalidArgument(r.path(heads_key), r.path(heads_key) + " must be in [1, 1024]");
  d.num_heads = static_cast<int>(*heads);

  // Multi-head latent attention (DeepSeek-V2/V3): q.k spans the no-RoPE and the RoPE part of each head.
  if (r.has("qk_rope_head_dim") && r.has("qk_nope_head_dim")) {
    d.mla = true;
    const int rope_part = checked_dim(*r.integer("qk_rope_head_dim"), r.path("qk_rope_head_dim"), "qk_rope_head_dim");
    const int nope_part = checked_dim(*r.integer("qk_nope_head_dim"), r.path("qk_nope_head_dim"), "qk_nope_head_dim");
    d.head_dim = checked_dim(rope_part + nope_part, r.path("qk_rope_head_dim"), "qk_nope_head_dim + qk_rope_head_dim");
    d.rotary_dim = rope_part;
    return d;
  }
  if (const auto hd = r.integer("head_dim")) {
    d.head_dim = checked_dim(*hd, r.path("head_dim"), "head_dim");
  } else if (const auto dkv = r.integer("d_kv")) {  // T5
    d.head_dim = checked_dim(*dkv, r.path("d_kv"), "d_kv");
  } else {
    const char* hidden_key = "hidden_size";
    const auto hidden =
        first_of<int64_t>(r, {"hidden_size", "n_embd", "n_embed", "d_model"}, &Reader::integer, &hidden_key);
    if (!hidden)
      throw InvalidArgument(r.path("hidden_size"),
                            "missing " + r.path("hidden_size") + " (or head_dim / n_embd / d_model)");
    if (*hidden < 1 || *hidden % d.num_heads != 0)
      throw InvalidArgument(r.path(hidden_key), r.path(hidden_key) + " must be a positive multiple of " +
                                                    r.path(heads_key));
    d.head_dim = checked_dim(*hidden / d.num_heads, r.path(hidden_key), "hidden_size / num_attention_heads");
  }
  d.rotary_dim = d.head_dim;
  (void)model_type;
  return d;
}

// Rotary width: partial_rotary_factor (top level or in the rope parameters), GPT-NeoX rotary_pct, GPT-J
// rotary_dim. transformers: dim = int(head_dim * partial_rotary_factor).
int read_rotary_dim(const Reader& r, const std::optional<Reader>& rope_params, const Dims& d) {
  if (d.mla) return d.rotary_dim;
  std::optional<double> factor;
  std::string field;
  if (rope_params && rope_params->has("partial_rotary_factor")) {
    factor = rope_params->number("partial_rotary_factor");
    field = rope_params->path("partial_rotary_factor");
  } else if (r.has("partial_rotary_factor")) {
    factor = r.number("partial_rotary_factor");
    field = r.path("partial_rotary_factor");
  } else if (r.has("rotary_pct")) {
    factor = r.number("rotary_pct");
    field = r.path("rotary_pct");
  }
  int rd = d.head_dim;
  if (factor) {
    if (!(*factor > 0 && *factor <= 1)) throw InvalidArgument(field, field + " must be in (0, 1]");
    rd = static_cast<int>(d.head_dim * *factor);
  } else if (const auto gptj = r.integer("rotary_dim")) {
    field = r.path("rotary_dim");
    if (*gptj < 2 || *gptj > d.head_dim) throw InvalidArgument(field, field + " must be in [2, head_dim]");
    rd = static_cast<int>(*gptj);
  }
  if (rd < 2 || rd % 2 != 0)
    throw InvalidArgument(field.empty() ? r.path("head_dim") : field,
                          "the rotary width " + std::to_string(rd) + " must be even and >= 2");
  return rd;
}

// One rope parameter dict (v4 rope_scaling or v5 rope_parameters / one layer type's entry) -> RopeScaling.
// `top` is the whole config (for max_position_embeddings and Phi-3's top-level original length).
RopeScaling read_scaling(const std::optional<Reader>& p, const Reader& top, int64_t max_pos,
                         std::optional<int64_t> seq_len, std::string& rope_type_out) {
  RopeScaling s;
  std::string type = "default";
  const char* type_key = "rope_type";
  if (p) {
    if (const auto t = p->string("rope_type")) type = *t;
    else if (const auto t2 = p->string("type")) {
      type = *t2;
      type_key = "type";
    }
  }
  if (type == "su") type = "longrope";  // Phi-3's first configs (configuration_phi3.py)
  rope_type_out = type;
  // Original (pre-extension) length, standardize_rope_params: Phi-3's top-level key wins, then the rope
  // parameters' own, then max_position_embeddings.
  int64_t original = max_pos;
  if (p && p->has("original_max_position_embeddings")) original = *p->integer("original_max_position_embeddings");
  if (top.has("original_max_position_embeddings") &&
      (type == "longrope" || type == "yarn" || type == "llama3"))
    original = *top.integer("original_max_position_embeddings");

  auto factor_or = [&](std::optional<double> dflt) -> double {
    if (p && p->has("factor")) return *p->number("factor");
    if (dflt) return *dflt;
    throw InvalidArgument(p ? p->path("factor") : top.path("rope_scaling.factor"),
                          "missing " + (p ? p->path("factor") : top.path("rope_scaling.factor")) + " for rope_type '" +
                              type + "'");
  };
  if (type == "default" || type == "none") {
    s.type = RopeScalingType::None;
  } else if (type == "linear") {
    s.type = RopeScalingType::Linear;
    s.factor = factor_or(std::nullopt);
  } else if (type == "dynamic") {
    // _compute_dynamic_ntk_parameters: the original length is config.max_position_embeddings.
    s.type = RopeScalingType::Dynamic;
    s.factor = factor_or(std::nullopt);
    s.original_max_position_embeddings = max_pos;
    s.seq_len = seq_len;
  } else if (type == "yarn") {
    s.type = RopeScalingType::Yarn;
    // v5: explicit factor; absent -> max_position_embeddings / original (DeepSeek note in the reference).
    s.factor = factor_or(static_cast<double>(max_pos) / static_cast<double>(std::max<int64_t>(original, 1)));
    s.original_max_position_embeddings = original;
    // `beta_fast or 32`: Python's `or` also replaces 0.
    if (const auto b = p->number("beta_fast"); b && *b != 0) s.beta_fast = *b;
    if (const auto b = p->number("beta_slow"); b && *b != 0) s.beta_slow = *b;
    s.attention_factor = p->number("attention_factor");
    s.mscale = p->number("mscale");
    s.mscale_all_dim = p->number("mscale_all_dim");
    if (const auto t = p->boolean("truncate")) s.truncate = *t;
  } else if (type == "longrope") {
    s.type = RopeScalingType::Longrope;
    s.original_max_position_embeddings = original;
    s.factor = factor_or(static_cast<double>(max_pos) / static_cast<double>(std::max<int64_t>(original, 1)));
    s.attention_factor = p->number("attention_factor");
    const auto sf = p->numbers("short_factor");
    const auto lf = p->numbers("long_factor");
    if (!sf) throw InvalidArgument(p->path("short_factor"), "missing " + p->path("short_factor") + " for longrope");
    if (!lf) throw InvalidArgument(p->path("long_factor"), "missing " + p->path("long_factor") + " for longrope");
    s.short_factor = *sf;
    s.long_factor = *lf;
    s.seq_len = seq_len;
  } else if (type == "llama3") {
    s.type = RopeScalingType::Llama3;
    s.factor = factor_or(std::nullopt);
    s.original_max_position_embeddings = original;
    const auto lo = p->number("low_freq_factor");
    const auto hi = p->number("high_freq_factor");
    if (!lo) throw InvalidArgument(p->path("low_freq_factor"), "missing " + p->path("low_freq_factor") + " for llama3");
    if (!hi)
      throw InvalidArgument(p->path("high_freq_factor"), "missing " + p->path("high_freq_factor") + " for llama3");
    s.low_freq_factor = *lo;
    s.high_freq_factor = *hi;
  } else {
    const std::string f = p ? p->path(type_key) : top.path("rope_scaling.rope_type");
    throw InvalidArgument(f, f + " '" + type + "' is not a transformers rope_type (default, linear, dynamic, yarn, "
                                 "longrope, llama3)");
  }
  return s;
}

// Re-roots core errors ("scaling.factor", "dim") under the config key that carried the value.
template <class F>
auto blame(const std::string& where, F&& f) {
  return rethrow_renamed(f, [&](const InvalidArgument& e) {
    std::string field = e.field();
    if (field.rfind("scaling.", 0) == 0) field = where + field.substr(8);
    else field = where.empty() ? field : where.substr(0, where.size() - 1);
    return InvalidArgument(field, std::string(e.what()) + " (" + field + ")");
  });
}

ModelRope make_rope(const Reader& top, const std::optional<Reader>& params, const std::string& params_path,
                    double base, const Dims& dims, int64_t max_pos, std::optional<int64_t> seq_len,
                    RopeLayout layout, double softmax_base_scale) {
  ModelRope m;
  std::string rope_type;
  m.scaling = read_scaling(params, top, max_pos, seq_len, rope_type);
  m.base = base;
  m.rotary_dim = read_rotary_dim(top, params, dims);
  m.layout = layout;
  m.max_position_embeddings = max_pos;
  m.original_max_position_embeddings =
      m.scaling.original_max_position_embeddings > 0 ? m.scaling.original_max_position_embeddings : max_pos;
  m.frequencies = blame(params_path, [&] { return rope_frequencies(m.rotary_dim, base, m.scaling); });
  m.softmax_scale = softmax_base_scale;
  // DeepSeek-V2/V3 attention: softmax_scale *= get_mscale(factor, mscale_all_dim)^2 when mscale_all_dim is
  // set and nonzero (modeling_deepseek_v3.py DeepseekV3Attention.__init__).
  if (dims.mla && m.scaling.type == RopeScalingType::Yarn && m.scaling.mscale_all_dim && *m.scaling.mscale_all_dim != 0) {
    const double ms = yarn_get_mscale(m.scaling.factor, *m.scaling.mscale_all_dim);
    m.softmax_scale *= ms * ms;
  }
  return m;
}

double read_base(const Reader& r, const std::optional<Reader>& params, double dflt) {
  if (params && params->has("rope_theta")) return *params->number("rope_theta");
  if (const auto t = r.number("rope_theta")) return *t;
  if (const auto t = r.number("rotary_emb_base")) return *t;  // GPT-NeoX
  return dflt;
}

int64_t read_max_positions(const Reader& r, const char** which = nullptr) {
  const auto v = first_of<int64_t>(r, {"max_position_embeddings", "n_positions", "max_seq_len", "seq_length"},
                                   &Reader::integer, which);
  if (!v) return 0;
  if (*v < 1 || *v > kMaxLength) {
    const std::string k = r.path(which && *which ? *which : "max_position_embeddings");
    throw InvalidArgument(k, k + " must be in [1, 2^30]");
  }
  return *v;
}

}  // namespace

const char* position_kind_name(PositionKind k) {
  switch (k) {
    case PositionKind::Rope: return "rope";
    case PositionKind::Alibi: return "alibi";
    case PositionKind::T5: return "t5";
    case PositionKind::Deberta: return "deberta";
    case PositionKind::Learned: return "learned";
    case PositionKind::None: return "none";
  }
  return "none";
}

RopeLayout hf_rope_layout(const std::string& model_type) {
  // GPT-J and CodeGen rotate_every_two; DeepSeek-V2 (view_as_complex) and V3 (apply_rotary_pos_emb_interleave).
  if (is_one_of(model_type, {"gptj", "codegen", "deepseek_v2", "deepseek_v3"})) return RopeLayout::Interleaved;
  return RopeLayout::Half;
}

ModelPosition read_hf_config(const ConfigValue& config, std::optional<int64_t> seq_len) {
  if (!config.is_object()) throw InvalidArgument("", "a model config must be a JSON object");
  if (seq_len && (*seq_len < 1 || *seq_len > kMaxLength))
    throw InvalidArgument("seq_len", "seq_len must be an integer in [1, 2^30]");
  const Reader root(config, "");
  ModelPosition out;
  const auto model_type = root.string("model_type");
  if (!model_type) throw InvalidArgument("model_type", "missing model_type (a config.json always carries one)");
  out.model_type = *model_type;
  // Multimodal wrappers (Gemma-3, ...) keep the language model in text_config (PretrainedConfig.get_text_config).
  Reader r = root;
  if (const auto tc = root.object("text_config")) r = *tc;
  const std::string inner_type = r.string("model_type").value_or(out.model_type);
  const std::string& mt = inner_type;

  // ---- schemes without RoPE
  const bool bloom = is_one_of(mt, {"bloom"});
  bool mpt_alibi = false;
  if (mt == "mpt") {
    mpt_alibi = true;  // MptAttentionConfig default alibi=True
    if (const auto ac = r.object("attn_config"))
      if (const auto a = ac->boolean("alibi")) mpt_alibi = *a;
  }
  const bool falcon_alibi = is_one_of(mt, {"falcon", "RefinedWeb", "RefinedWebModel"}) && r.boolean("alibi").value_or(false);
  if (bloom || mpt_alibi || falcon_alibi) {
    const Dims d = read_dims(r, mt);
    out.position = PositionKind::Alibi;
    out.head_dim = d.head_dim;
    out.num_attention_heads = d.num_heads;
    out.alibi_slopes = alibi_slopes(d.num_heads);
    return out;
  }
  if (is_one_of(mt, {"t5", "mt5", "umt5", "longt5"})) {
    const Dims d = read_dims(r, mt);
    out.position = PositionKind::T5;
    out.head_dim = d.head_dim;
    out.num_attention_heads = d.num_heads;
    const int64_t nb = r.integer("relative_attention_num_buckets").value_or(32);
    const int64_t md = r.integer("relative_attention_max_distance").value_or(128);
    if (nb < 1 || nb > kMaxBuckets)
      throw InvalidArgument(r.path("relative_attention_num_buckets"),
                            r.path("relative_attention_num_buckets") + " must be in [1, 2^20]");
    if (md < 1 || md > kMaxLength)
      throw InvalidArgument(r.path("relative_attention_max_distance"),
                            r.path("relative_attention_max_distance") + " must be in [1, 2^30]");
    out.t5_num_buckets = static_cast<int>(nb);
    out.t5_max_distance = md;
    out.t5_bidirectional = true;  // encoder self-attention (the decoder's is causal: bidirectional=False)
    return out;
  }
  if (is_one_of(mt, {"deberta", "deberta-v2"})) {
    const Dims d = read_dims(r, mt);
    out.head_dim = d.head_dim;
    out.num_attention_heads = d.num_heads;
    const int64_t max_pos = read_max_positions(r);
    if (r.boolean("relative_attention").value_or(false)) {
      out.position = PositionKind::Deberta;
      // DisentangledSelfAttention: max_relative_positions < 1 -> max_position_embeddings.
      int64_t mrp = r.integer("max_relative_positions").value_or(-1);
      if (mrp < 1) mrp = max_pos;
      out.deberta_bucket_size = r.integer("position_buckets").value_or(-1);
      out.deberta_max_position = mrp;
      if (out.deberta_bucket_size > kMaxBuckets)
        throw InvalidArgument(r.path("position_buckets"), r.path("position_buckets") + " must be <= 2^20");
    } else {
      out.position = PositionKind::Learned;
      out.learned_max_position_embeddings = max_pos;
    }
    return out;
  }
  if (is_one_of(mt, {"gpt2", "bert", "roberta", "xlm-roberta", "distilbert", "electra", "opt", "gpt_bigcode",
                     "biogpt", "camembert", "albert"})) {
    const Dims d = read_dims(r, mt);
    out.position = PositionKind::Learned;
    out.head_dim = d.head_dim;
    out.num_attention_heads = d.num_heads;
    const char* which = nullptr;
    out.learned_max_position_embeddings = read_max_positions(r, &which);
    if (out.learned_max_position_embeddings == 0)
      throw InvalidArgument(r.path("max_position_embeddings"),
                            "missing " + r.path("max_position_embeddings") + " (or n_positions)");
    if (const auto pet = r.string("position_embedding_type"); pet && *pet != "absolute")
      throw InvalidArgument(r.path("position_embedding_type"),
                            r.path("position_embedding_type") + " '" + *pet + "' is not supported (only absolute)");
    return out;
  }

  // ---- RoPE
  const Dims dims = read_dims(r, mt);
  out.position = PositionKind::Rope;
  out.head_dim = dims.head_dim;
  out.num_attention_heads = dims.num_heads;
  const char* max_key = nullptr;
  int64_t max_pos = read_max_positions(r, &max_key);
  // Configuration-class defaults for keys that published configs leave out (FalconConfig,
  // Gemma3TextConfig max_position_embeddings).
  if (max_pos == 0 && is_one_of(mt, {"falcon", "RefinedWeb", "RefinedWebModel"})) max_pos = 2048;
  if (max_pos == 0 && mt == "gemma3_text") max_pos = 131072;
  if (max_pos == 0)
    throw InvalidArgument(r.path("max_position_embeddings"), "missing " + r.path("max_position_embeddings"));
  RopeLayout layout = hf_rope_layout(mt);
  if (const auto interleave = r.boolean("rope_interleave")) layout = *interleave ? RopeLayout::Interleaved : RopeLayout::Half;
  // Gemma-2/3 scale q by query_pre_attn_scalar^-0.5 instead of head_dim^-0.5.
  double softmax = 1.0 / std::sqrt(static_cast<double>(dims.head_dim));
  std::optional<double> qs = r.number("query_pre_attn_scalar");
  if (!qs && is_one_of(mt, {"gemma2", "gemma3_text"})) qs = 256.0;  // Gemma2Config / Gemma3TextConfig default
  if (qs) {
    if (!(*qs > 0)) throw InvalidArgument(r.path("query_pre_attn_scalar"), r.path("query_pre_attn_scalar") + " must be > 0");
    softmax = 1.0 / std::sqrt(*qs);
  }
  // Gemma-3's default theta for global layers is 1e6 (configuration_gemma3.py); everything else 10000.
  const double default_base = (mt == "gemma3_text" || mt == "gemma3") ? 1'000'000.0 : 10'000.0;

  // rope_parameters (v5) wins over rope_scaling (v4); "rope_scaling": null means none.
  std::optional<Reader> params = r.object("rope_parameters");
  std::string params_path = r.path("rope_parameters.");
  if (!params) {
    params = r.object("rope_scaling");
    params_path = r.path("rope_scaling.");
  }
  auto check_base = [&](double b, const std::string& field) {
    if (!(std::isfinite(b) && b > 1.0)) throw InvalidArgument(field, field + " must be a finite number > 1");
    return b;
  };

  // Per-layer-type parameters: v5 nested rope_parameters, or Gemma-3's rope_local_base_freq (v4).
  bool nested = false;
  if (params && params->value().is_object() && !params->value().as_object().empty()) {
    nested = true;
    for (const auto& [k, v] : params->value().as_object())
      if (!is_layer_type_name(k)) nested = false;
  }
  if (nested) {
    for (const auto& [k, v] : params->value().as_object()) {
      const std::optional<Reader> lp = params->object(k.c_str());
      const double base = check_base(read_base(r, lp, default_base), lp->path("rope_theta"));
      out.layers.emplace_back(k, make_rope(r, lp, lp->path(""), base, dims, max_pos, seq_len, layout, softmax));
    }
  } else {
    const double base = check_base(read_base(r, params, default_base), r.has("rope_theta") ? r.path("rope_theta") : params_path + "rope_theta");
    ModelRope global = make_rope(r, params, params_path, base, dims, max_pos, seq_len, layout, softmax);
    std::optional<double> local = r.number("rope_local_base_freq");
    if (!local && mt == "gemma3_text") local = 10000.0;  // Gemma3TextConfig default
    if (local) {
      // Gemma-3: sliding layers use the default RoPE at rope_local_base_freq, full layers the rest.
      const double lb = check_base(*local, r.path("rope_local_base_freq"));
      ModelRope sliding = make_rope(r, std::nullopt, r.path(""), lb, dims, max_pos, seq_len, layout, softmax);
      out.layers.emplace_back("full_attention", global);
      out.layers.emplace_back("sliding_attention", sliding);
    }
    out.rope = global;
  }
  if (nested) {
    const auto full = std::find_if(out.layers.begin(), out.layers.end(),
                                   [](const auto& e) { return e.first == "full_attention"; });
    out.rope = full != out.layers.end() ? full->second : out.layers.front().second;
  }
  return out;
}

}  // namespace posenc
