#include "core/models/model_config.h"

#include <algorithm>
#include <cctype>
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
// Every key looked at is recorded (by path) in `seen`, so the keys never looked at can be named (unread_keys).
class Reader {
 public:
  Reader(const ConfigValue& obj, std::string prefix, std::set<std::string>* seen = nullptr)
      : obj_(&obj), prefix_(std::move(prefix)), seen_(seen) {}

  std::string path(const std::string& key) const { return prefix_ + key; }
  const ConfigValue& value() const { return *obj_; }

  // Present and not null (transformers treats null like absent for these keys).
  bool has(const char* key) const {
    mark(key);
    const ConfigValue* v = obj_->find(key);
    return v && !v->is_null();
  }
  const ConfigValue* get(const char* key) const {
    mark(key);
    const ConfigValue* v = obj_->find(key);
    return v && !v->is_null() ? v : nullptr;
  }

  // The value at key when present (else null); fails naming the key and the value's kind unless `(v->*is)()`.
  const ConfigValue* get_kind(const char* key, bool (ConfigValue::*is)() const, const char* must) const {
    const ConfigValue* v = get(key);
    if (v && !(v->*is)()) fail(key, std::string(must) + ", not " + ConfigValue::kind_name(v->kind()));
    return v;
  }
  // The array at key, element by element: `element` gives nullopt for an element it does not accept.
  template <class T, class F>
  std::optional<std::vector<T>> array_of(const char* key, const char* must, const char* each, F element) const {
    const ConfigValue* v = get(key);
    if (!v) return std::nullopt;
    if (!v->is_array()) fail(key, must);
    std::vector<T> out;
    for (const ConfigValue& e : v->as_array()) {
      const std::optional<T> x = element(e);
      if (!x) fail(key, each);
      out.push_back(*x);
    }
    return out;
  }
  // Integers may be written 4096.0; anything non-integral is not one.
  static std::optional<int64_t> integral(const ConfigValue& v) {
    if (v.is_int()) return v.as_int();
    if (v.is_number()) {
      const double d = v.as_double();
      if (std::isfinite(d) && d == std::floor(d) && std::abs(d) < 9.0e15) return static_cast<int64_t>(d);
    }
    return std::nullopt;
  }

  std::optional<double> number(const char* key) const {
    const ConfigValue* v = get_kind(key, &ConfigValue::is_number, "must be a number");
    if (!v) return std::nullopt;
    const double d = v->as_double();
    if (!std::isfinite(d)) fail(key, "must be finite");
    return d;
  }
  std::optional<int64_t> integer(const char* key) const {
    const ConfigValue* v = get(key);
    if (!v) return std::nullopt;
    if (const std::optional<int64_t> i = integral(*v)) return i;
    fail(key, "must be an integer, not " + std::string(ConfigValue::kind_name(v->kind())));
  }
  std::optional<bool> boolean(const char* key) const {
    const ConfigValue* v = get_kind(key, &ConfigValue::is_bool, "must be true or false");
    if (!v) return std::nullopt;
    return v->as_bool();
  }
  std::optional<std::string> string(const char* key) const {
    const ConfigValue* v = get_kind(key, &ConfigValue::is_string, "must be a string");
    if (!v) return std::nullopt;
    return v->as_string();
  }
  std::optional<std::vector<double>> numbers(const char* key) const {
    return array_of<double>(key, "must be an array of numbers", "must be an array of finite numbers",
                            [](const ConfigValue& e) -> std::optional<double> {
                              if (!e.is_number() || !std::isfinite(e.as_double())) return std::nullopt;
                              return e.as_double();
                            });
  }
  std::optional<Reader> object(const char* key) const {
    const ConfigValue* v = get_kind(key, &ConfigValue::is_object, "must be an object");
    if (!v) return std::nullopt;
    return Reader(*v, path(key) + ".", seen_);
  }
  std::optional<std::vector<int64_t>> integers(const char* key) const {
    return array_of<int64_t>(key, "must be an array of integers", "must be an array of integers", integral);
  }
  std::optional<std::vector<std::string>> strings(const char* key) const {
    return array_of<std::string>(key, "must be an array of strings", "must be an array of strings",
                                 [](const ConfigValue& e) -> std::optional<std::string> {
                                   if (!e.is_string()) return std::nullopt;
                                   return e.as_string();
                                 });
  }
  // Python truthiness of a bool or number (Llama 4's attn_temperature_tuning is published as 4).
  std::optional<bool> truthy(const char* key) const {
    const ConfigValue* v = get(key);
    if (!v) return std::nullopt;
    if (v->is_bool()) return v->as_bool();
    if (v->is_number()) return v->as_double() != 0;
    fail(key, "must be true, false or a number");
  }
  // A value read above that the caller requires: "missing <path><why>" when it was absent. (Both of a pair
  // are read, so type-checked, before either is required.)
  template <class T>
  T needed(const std::optional<T>& v, const char* key, const std::string& why) const {
    if (!v) throw InvalidArgument(path(key), "missing " + path(key) + why);
    return *v;
  }
  void mark(const char* key) const {
    if (seen_) seen_->insert(path(key));
  }

  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw InvalidArgument(path(key), path(key) + " " + what);
  }

 private:
  const ConfigValue* obj_;
  std::string prefix_;
  std::set<std::string>* seen_;
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
  // Cohere configs carry the original Cohere code's rotary_pct, which transformers' Cohere / Cohere2 never read
  // (their rotary embedding takes partial_rotary_factor only): left unread there, so unread_keys names it.
  bool reads_rotary_pct = true;
};

int checked_dim(int64_t v, const std::string& field, const char* what) {
  if (v < 1 || v > kMaxDim) throw InvalidArgument(field, field + " (" + what + ") must be in [1, 4096]");
  return static_cast<int>(v);
}

Dims read_dims(const Reader& r, const std::string& model_type) {
  Dims d;
  const char* heads_key = "num_attention_heads";
  const auto heads =
      first_of<int64_t>(r, {"num_attention_heads", "n_head", "num_heads", "n_heads"}, &Reader::integer, &heads_key);
  if (!heads)
    throw InvalidArgument(r.path("num_attention_heads"),
                          "missing " + r.path("num_attention_heads") + " (or n_head / num_heads / n_heads)");
  if (*heads < 1 || *heads > kMaxHeads) throw InvalidArgument(r.path(heads_key), r.path(heads_key) + " must be in [1, 1024]");
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
    const auto hidden = first_of<int64_t>(r, {"hidden_size", "n_embd", "n_embed", "d_model"}, &Reader::integer, &hidden_key);
    if (!hidden)
      throw InvalidArgument(r.path("hidden_size"), "missing " + r.path("hidden_size") + " (or head_dim / n_embd / d_model)");
    if (*hidden < 1 || *hidden % d.num_heads != 0)
      throw InvalidArgument(r.path(hidden_key), r.path(hidden_key) + " must be a positive multiple of " + r.path(heads_key));
    d.head_dim = checked_dim(*hidden / d.num_heads, r.path(hidden_key), "hidden_size / num_attention_heads");
  }
  d.rotary_dim = d.head_dim;
  d.reads_rotary_pct = !is_one_of(model_type, {"cohere", "cohere2"});
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
  } else if (d.reads_rotary_pct && r.has("rotary_pct")) {
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
RopeScaling read_scaling(const std::optional<Reader>& p, const Reader& top, int64_t max_pos, std::optional<int64_t> seq_len,
                         std::string& rope_type_out) {
  RopeScaling s;
  std::string type = "default";
  const char* type_key = "rope_type";
  if (p) {
    // standardize_rope_params: rope_type wins; a legacy "type" beside it is moot (looked at, not used).
    if (const auto t = p->string("rope_type")) {
      type = *t;
      p->mark("type");
    } else if (const auto t2 = p->string("type")) {
      type = *t2;
      type_key = "type";
    }
  }
  if (type == "su") type = "longrope";  // Phi-3's first configs (configuration_phi3.py)
  // Qwen2-VL / Qwen2.5-VL publish {"type": "mrope", "mrope_section": [...]}: Qwen2VLConfig rewrites the type to
  // "default" (configuration_qwen2_vl.py); the sections are read by read_mrope.
  if (type == "mrope") type = "default";
  rope_type_out = type;
  // Original (pre-extension) length, standardize_rope_params: Phi-3's top-level key wins, then the rope
  // parameters' own, then max_position_embeddings.
  int64_t original = max_pos;
  if (p && p->has("original_max_position_embeddings")) original = *p->integer("original_max_position_embeddings");
  if (top.has("original_max_position_embeddings") && (type == "longrope" || type == "yarn" || type == "llama3"))
    original = *top.integer("original_max_position_embeddings");

  auto factor_or = [&](std::optional<double> dflt) -> double {
    if (p && p->has("factor")) return *p->number("factor");
    if (dflt) return *dflt;
    throw InvalidArgument(
        p ? p->path("factor") : top.path("rope_scaling.factor"),
        "missing " + (p ? p->path("factor") : top.path("rope_scaling.factor")) + " for rope_type '" + type + "'");
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
    s.short_factor = p->needed(sf, "short_factor", " for longrope");
    s.long_factor = p->needed(lf, "long_factor", " for longrope");
    s.seq_len = seq_len;
  } else if (type == "llama3") {
    s.type = RopeScalingType::Llama3;
    s.factor = factor_or(std::nullopt);
    s.original_max_position_embeddings = original;
    const auto lo = p->number("low_freq_factor");
    const auto hi = p->number("high_freq_factor");
    s.low_freq_factor = p->needed(lo, "low_freq_factor", " for llama3");
    s.high_freq_factor = p->needed(hi, "high_freq_factor", " for llama3");
  } else if (type == "proportional") {
    // Gemma 4 p-RoPE (_compute_proportional_rope_parameters): factor defaults to 1.
    s.type = RopeScalingType::Proportional;
    s.factor = factor_or(1.0);
  } else {
    const std::string f = p ? p->path(type_key) : top.path("rope_scaling.rope_type");
    throw InvalidArgument(f, f + " '" + type +
                                 "' is not a transformers rope_type (default, linear, dynamic, yarn, "
                                 "longrope, llama3, proportional; mrope = default)");
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

ModelRope make_rope(const Reader& top, const std::optional<Reader>& params, const std::string& params_path, double base,
                    const Dims& dims, int64_t max_pos, std::optional<int64_t> seq_len, RopeLayout layout,
                    double softmax_base_scale, bool interleaved_mrope_default) {
  ModelRope m;
  std::string rope_type;
  m.scaling = read_scaling(params, top, max_pos, seq_len, rope_type);
  m.base = base;
  m.rotary_dim = read_rotary_dim(top, params, dims);
  if (m.scaling.type == RopeScalingType::Proportional) {
    // p-RoPE spans the whole head: partial_rotary_factor says how many of its pairs get a nonzero frequency.
    m.scaling.partial_rotary_factor = static_cast<double>(m.rotary_dim) / dims.head_dim;
    if (params && params->has("partial_rotary_factor"))
      m.scaling.partial_rotary_factor = *params->number("partial_rotary_factor");
    else if (top.has("partial_rotary_factor")) m.scaling.partial_rotary_factor = *top.number("partial_rotary_factor");
    m.rotary_dim = dims.head_dim;
  }
  if (params) {
    // M-RoPE sections: rope_scaling / rope_parameters mrope_section (Qwen2-VL, Qwen2.5-VL, Qwen3-VL, Qwen3.5) and
    // mrope_interleaved (Qwen3-VL apply_interleaved_mrope; Qwen3.5 sets it explicitly).
    if (const auto sec = params->integers("mrope_section")) {
      const std::string f = params->path("mrope_section");
      if (sec->size() != 3) throw InvalidArgument(f, f + " must have 3 entries (t, h, w)");
      int64_t sum = 0;
      for (int64_t v : *sec) {
        if (v < 0 || v > kMaxDim) throw InvalidArgument(f, f + " entries must be in [0, 4096]");
        sum += v;
      }
      if (sum != m.rotary_dim / 2)
        throw InvalidArgument(f, f + " must sum to rotary_dim / 2 = " + std::to_string(m.rotary_dim / 2) + " (it sums to " +
                                     std::to_string(sum) + ")");
      for (int64_t v : *sec) m.mrope_section.push_back(static_cast<int>(v));
      m.mrope_interleaved = params->boolean("mrope_interleaved").value_or(interleaved_mrope_default);
    } else if (params->has("mrope_interleaved")) {
      (void)params->boolean("mrope_interleaved");
      throw InvalidArgument(params->path("mrope_section"),
                            "missing " + params->path("mrope_section") + " (mrope_interleaved is set)");
    }
  }
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
  const auto v =
      first_of<int64_t>(r, {"max_position_embeddings", "n_positions", "max_seq_len", "seq_length"}, &Reader::integer, which);
  if (!v) return 0;
  if (*v < 1 || *v > kMaxLength) {
    const std::string k = r.path(which && *which ? *which : "max_position_embeddings");
    throw InvalidArgument(k, k + " must be in [1, 2^30]");
  }
  return *v;
}

// ---- per-layer layout (layer_types and the keys each modeling file derives it from)

int64_t checked_window(const Reader& r, const char* key) {
  const auto w = r.integer(key);
  if (!w) return 0;
  if (*w < 1 || *w > kMaxLength) r.fail(key, "must be in [1, 2^30]");
  return *w;
}

void read_layers(const Reader& r, const std::string& mt, const std::optional<Reader>& params, ModelPosition& out) {
  const char* n_key = "num_hidden_layers";
  const auto n = first_of<int64_t>(r, {"num_hidden_layers", "n_layer", "num_layers", "n_layers"}, &Reader::integer, &n_key);
  // Keys that shape the layers but are moot for this config are still looked at: their rule was applied.
  for (const char* k : {"layer_types", "sliding_window", "use_sliding_window", "max_window_layers", "sliding_window_pattern",
                        "no_rope_layers", "no_rope_layer_interval", "attention_chunk_size", "full_attention_interval",
                        "attn_temperature_tuning", "floor_scale", "attn_scale"})
    r.mark(k);
  if (!n) return;
  if (*n < 1 || *n > 65536) r.fail(n_key, "must be in [1, 65536]");
  const int layers = static_cast<int>(*n);
  out.num_hidden_layers = layers;
  auto count_check = [&](const char* key, std::size_t size) {
    if (static_cast<int64_t>(size) != layers)
      r.fail(key, "must have num_hidden_layers = " + std::to_string(layers) + " entries (it has " + std::to_string(size) + ")");
  };

  // RoPE or NoPE per layer: no_rope_layers (1 = RoPE, 0 = none; SmolLM3, Llama 4), else no_rope_layer_interval
  // (every interval-th layer NoPE; Llama4TextConfig / SmolLM3Config default 4).
  std::vector<bool> rope(layers, true);
  bool has_nope_rule = false;
  if (const auto nrl = r.integers("no_rope_layers"); nrl && !nrl->empty()) {
    count_check("no_rope_layers", nrl->size());
    for (int i = 0; i < layers; ++i) {
      if ((*nrl)[i] != 0 && (*nrl)[i] != 1) r.fail("no_rope_layers", "entries must be 0 (NoPE) or 1 (RoPE)");
      rope[i] = (*nrl)[i] == 1;
    }
    has_nope_rule = true;
  } else if (r.has("no_rope_layer_interval") || is_one_of(mt, {"llama4_text", "smollm3"})) {
    const int64_t interval = r.integer("no_rope_layer_interval").value_or(4);
    if (interval < 1 || interval > 65536) r.fail("no_rope_layer_interval", "must be in [1, 65536]");
    for (int i = 0; i < layers; ++i) rope[i] = (i + 1) % interval != 0;
    has_nope_rule = true;
  }
  (void)has_nope_rule;

  // Attention kind per layer.
  const int64_t window = checked_window(r, "sliding_window");
  std::vector<LayerAttention> kind(layers, LayerAttention::Full);
  if (const auto lt = r.strings("layer_types")) {
    count_check("layer_types", lt->size());
    for (int i = 0; i < layers; ++i) {
      const std::string& t = (*lt)[i];
      if (t == "full_attention") kind[i] = LayerAttention::Full;
      else if (t == "sliding_attention") kind[i] = LayerAttention::Sliding;
      else if (t == "chunked_attention") kind[i] = LayerAttention::Chunked;
      else if (is_one_of(t, {"linear_attention", "mamba", "mamba2"})) kind[i] = LayerAttention::Linear;
      else
        r.fail("layer_types", "entry " + std::to_string(i) + " '" + t +
                                  "' is not a layer type posenc knows (full_attention, sliding_attention, "
                                  "chunked_attention, linear_attention, mamba)");
    }
  } else if (mt == "llama4_text") {
    // Llama4TextConfig: layer_types = chunked_attention on RoPE layers, full_attention on NoPE layers.
    for (int i = 0; i < layers; ++i) kind[i] = rope[i] ? LayerAttention::Chunked : LayerAttention::Full;
  } else if (r.has("full_attention_interval") || is_one_of(mt, {"qwen3_next"})) {
    // Qwen3NextConfig: linear_attention unless (i + 1) % full_attention_interval == 0 (default 4).
    const int64_t every = r.integer("full_attention_interval").value_or(4);
    if (every < 1 || every > 65536) r.fail("full_attention_interval", "must be in [1, 65536]");
    for (int i = 0; i < layers; ++i) kind[i] = (i + 1) % every != 0 ? LayerAttention::Linear : LayerAttention::Full;
  } else if (r.has("sliding_window_pattern") || is_one_of(mt, {"gemma2", "gemma3_text", "cohere2"})) {
    // Gemma2 (every other layer), Gemma3TextConfig (pattern 6), Cohere2Config (pattern 4):
    // sliding_attention if (i + 1) % pattern else full_attention.
    const int64_t dflt = mt == "gemma2" ? 2 : mt == "cohere2" ? 4 : 6;
    const int64_t pattern = r.integer("sliding_window_pattern").value_or(dflt);
    if (pattern < 1 || pattern > 65536) r.fail("sliding_window_pattern", "must be in [1, 65536]");
    for (int i = 0; i < layers; ++i) kind[i] = (i + 1) % pattern != 0 ? LayerAttention::Sliding : LayerAttention::Full;
  } else if (r.has("use_sliding_window") || is_one_of(mt, {"qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "qwen2_vl", "qwen2_5_vl",
                                                           "qwen2_vl_text", "qwen2_5_vl_text"})) {
    // Qwen2Config and kin: sliding_window only if use_sliding_window (default false), on layers >= max_window_layers.
    if (r.boolean("use_sliding_window").value_or(false) && window > 0) {
      const int64_t from = r.integer("max_window_layers").value_or(0);
      for (int i = 0; i < layers; ++i) kind[i] = i >= from ? LayerAttention::Sliding : LayerAttention::Full;
    }
  } else if (window > 0) {
    // Mistral, Mixtral, Phi-3, Starcoder2, ...: a non-null sliding_window makes every layer a sliding one.
    for (int i = 0; i < layers; ++i) kind[i] = LayerAttention::Sliding;
  }

  int64_t chunk = 0;
  if (std::find(kind.begin(), kind.end(), LayerAttention::Chunked) != kind.end()) {
    chunk = r.has("attention_chunk_size") ? checked_window(r, "attention_chunk_size") : (mt == "llama4_text" ? 8192 : 0);
    if (chunk == 0) {
      // attention_chunk_size: null turns chunked layers into full ones (create_chunked_causal_mask needs a size).
      for (auto& k : kind)
        if (k == LayerAttention::Chunked) k = LayerAttention::Full;
    }
  }
  if (window == 0 && std::find(kind.begin(), kind.end(), LayerAttention::Sliding) != kind.end())
    throw InvalidArgument(r.path("sliding_window"), "missing " + r.path("sliding_window") + " for the sliding layers");

  // Query scales. Llama 4: temperature tuning on NoPE layers (attn_temperature_tuning, default on).
  QueryScale llama4_temp;
  if (mt == "llama4_text" && r.truthy("attn_temperature_tuning").value_or(true)) {
    llama4_temp.rule = QueryScale::Rule::Llama4Temperature;
    llama4_temp.floor_scale = r.number("floor_scale").value_or(8192.0);
    llama4_temp.attn_scale = r.number("attn_scale").value_or(0.1);
    if (!(llama4_temp.floor_scale >= 1 && llama4_temp.floor_scale <= 1e9)) r.fail("floor_scale", "must be in [1, 10^9]");
    if (!(llama4_temp.attn_scale >= 0 && llama4_temp.attn_scale <= 1e3)) r.fail("attn_scale", "must be in [0, 1000]");
  }
  // Ministral 3 / Mistral 3: rope_parameters.llama_4_scaling_beta on every layer.
  QueryScale beta_scale;
  if (params && params->has("llama_4_scaling_beta")) {
    beta_scale.rule = QueryScale::Rule::Llama4ScalingBeta;
    beta_scale.beta = *params->number("llama_4_scaling_beta");
    if (!(beta_scale.beta >= 0 && beta_scale.beta <= 1e3)) params->fail("llama_4_scaling_beta", "must be in [0, 1000]");
    const auto orig = params->integer("original_max_position_embeddings");
    if (!orig)
      throw InvalidArgument(
          params->path("original_max_position_embeddings"),
          "missing " + params->path("original_max_position_embeddings") + " (llama_4_scaling_beta divides positions by it)");
    if (*orig < 1 || *orig > kMaxLength) params->fail("original_max_position_embeddings", "must be in [1, 2^30]");
    beta_scale.original_max_position_embeddings = *orig;
  }
  const bool sinks = mt == "gpt_oss";  // GptOssAttention.sinks: one learned logit per head, every layer

  out.per_layer.resize(layers);
  for (int i = 0; i < layers; ++i) {
    LayerSpec& l = out.per_layer[i];
    l.attention = kind[i];
    l.window = kind[i] == LayerAttention::Sliding ? window : kind[i] == LayerAttention::Chunked ? chunk : 0;
    l.rope = rope[i] && kind[i] != LayerAttention::Linear;
    // Cohere2Attention applies RoPE only when the layer has a sliding window.
    if (mt == "cohere2" && kind[i] != LayerAttention::Sliding) l.rope = false;
    if (l.rope && !out.layers.empty()) {
      const char* names[] = {"full_attention", "sliding_attention", "chunked_attention", "linear_attention"};
      const std::string want = names[static_cast<int>(kind[i])];
      const bool found = std::any_of(out.layers.begin(), out.layers.end(), [&](const auto& e) { return e.first == want; });
      l.rope_key = found ? want : "full_attention";
    }
    if (kind[i] != LayerAttention::Linear) {
      if (!l.rope && llama4_temp.rule != QueryScale::Rule::None) l.query_scale = llama4_temp;
      if (beta_scale.rule != QueryScale::Rule::None) l.query_scale = beta_scale;
      l.sinks = sinks;
    }
  }
}

// ---- unread keys

}  // namespace

bool is_positional_key(const std::string& key) {
  std::string k = key;
  std::transform(k.begin(), k.end(), k.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  // PretrainedConfig's feed-forward chunking (a memory setting, written into every sub-config transformers 5 saves
  // whole, e.g. Gemma 4's vision_config): not about positions, though it contains "chunk".
  if (k == "chunk_size_feed_forward") return false;
  for (const char* w : {"rope",
                        "rotary",
                        "position",
                        "nope",
                        "chunk",
                        "window",
                        "sink",
                        "temperature",
                        "attn_scale",
                        "floor_scale",
                        "theta",
                        "alibi",
                        "layer_types",
                        "swa",
                        "mscale",
                        "yarn",
                        "rope_freq",
                        "freq_base",
                        "base_freq",
                        "inv_freq",
                        "freq_scale",
                        "relative_attention",
                        "bucket",
                        "context",
                        "max_seq",
                        "seq_len",
                        "seq_length",
                        "n_positions",
                        "n_ctx",
                        "partial_rotary",
                        "query_pre_attn_scalar",
                        "sliding",
                        "attention_interval",
                        "layer_interval",
                        "attention_type",
                        "layers_block_type",
                        "interleaved_layers",
                        "hybrid_override_pattern",
                        "attn_type",
                        "global_attn",
                        "local_attn",
                        "layer_switch",
                        "global_head_dim",
                        "index_",
                        "bidirectional"})
    if (k.find(w) != std::string::npos) return true;
  return false;
}

namespace {

// Names every positional key not looked at: any key matching positional_key, and every key inside a
// RoPE parameter object (all of its keys are positional).
void collect_unread(const ConfigValue& v, const std::string& prefix, bool all_positional, const std::set<std::string>& seen,
                    std::vector<std::string>& out) {
  if (!v.is_object()) return;
  for (const auto& [k, child] : v.as_object()) {
    const std::string path = prefix + k;
    const bool rope_object = child.is_object() && (k == "rope_scaling" || k == "rope_parameters" || all_positional);
    if (child.is_object() && !child.as_object().empty()) {
      collect_unread(child, path + ".", rope_object, seen, out);
      if (rope_object || !is_positional_key(k)) continue;
    }
    if ((all_positional || is_positional_key(k)) && !seen.count(path) && !child.is_null()) out.push_back(path);
  }
}

// Equal JSON values (numbers by value, objects whatever their key order).
bool same_value(const ConfigValue& a, const ConfigValue& b) {
  if (a.is_number() && b.is_number()) return a.as_double() == b.as_double();
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case ConfigValue::Kind::Null: return true;
    case ConfigValue::Kind::Bool: return a.as_bool() == b.as_bool();
    case ConfigValue::Kind::String: return a.as_string() == b.as_string();
    case ConfigValue::Kind::Array: {
      const auto &x = a.as_array(), &y = b.as_array();
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i)
        if (!same_value(x[i], y[i])) return false;
      return true;
    }
    case ConfigValue::Kind::Object: {
      if (a.as_object().size() != b.as_object().size()) return false;
      for (const auto& [k, v] : a.as_object()) {
        const ConfigValue* w = b.find(k);
        if (!w || !same_value(v, *w)) return false;
      }
      return true;
    }
    default: return false;
  }
}

const ConfigValue* at_path(const ConfigValue& root, const std::string& path) {
  const ConfigValue* v = &root;
  size_t start = 0;
  while (v && start <= path.size()) {
    const size_t dot = path.find('.', start);
    v = v->find(std::string_view(path).substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return v;
}

// A multimodal wrapper (Qwen2-VL, Qwen2.5-VL) repeats the language model's keys at the top level beside
// text_config, which transformers reads. A top-level copy whose value equals a text_config key posenc read
// is that key, read; one that differs stays named (posenc, like transformers, used text_config's).
void drop_text_config_copies(const ConfigValue& root, const std::set<std::string>& seen, std::vector<std::string>& unread) {
  if (!root.find("text_config")) return;
  std::erase_if(unread, [&](const std::string& p) {
    if (p.starts_with("text_config.") || !seen.count("text_config." + p)) return false;
    const ConfigValue *top = at_path(root, p), *inner = at_path(root, "text_config." + p);
    return top && inner && same_value(*top, *inner);
  });
}
}  // namespace

const char* layer_attention_name(LayerAttention a) {
  switch (a) {
    case LayerAttention::Full: return "full";
    case LayerAttention::Sliding: return "sliding";
    case LayerAttention::Chunked: return "chunked";
    case LayerAttention::Linear: return "linear";
  }
  return "full";
}

const char* query_scale_rule_name(QueryScale::Rule r) {
  switch (r) {
    case QueryScale::Rule::None: return "none";
    case QueryScale::Rule::Llama4Temperature: return "llama4_temperature";
    case QueryScale::Rule::Llama4ScalingBeta: return "llama4_scaling_beta";
  }
  return "none";
}

double query_scale_at(const QueryScale& s, int64_t position) {
  const double p = static_cast<double>(position);
  switch (s.rule) {
    case QueryScale::Rule::None: return 1.0;
    case QueryScale::Rule::Llama4Temperature: return std::log(std::floor((p + 1.0) / s.floor_scale) + 1.0) * s.attn_scale + 1.0;
    case QueryScale::Rule::Llama4ScalingBeta:
      return 1.0 + s.beta * std::log(1.0 + std::floor(p / static_cast<double>(s.original_max_position_embeddings)));
  }
  return 1.0;
}

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
  // Llama 4 (view_as_complex in apply_rotary_emb), Cohere / Cohere2 (rotate_half over x[..., ::2], x[..., 1::2]).
  // Kimi-K2 ("kimi_k2") runs DeepSeek-V3's modeling code; DeepSeek-V3.2's MLA rotates as V3's (its indexer's own
  // RoPE is not interleaved, but the indexer is not modelled).
  if (is_one_of(model_type, {"gptj", "codegen", "deepseek_v2", "deepseek_v3", "deepseek_v32", "kimi_k2", "llama4", "llama4_text",
                             "cohere", "cohere2"}))
    return RopeLayout::Interleaved;
  return RopeLayout::Half;
}

namespace {

ModelPosition read_hf_position(const ConfigValue& config, std::optional<int64_t> seq_len, std::set<std::string>& seen) {
  const Reader root(config, "", &seen);
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
  // Llama 4, Cohere and Cohere2 rotate interleaved pairs too (view_as_complex; Cohere's rotate_half takes
  // x[..., ::2] and x[..., 1::2]).
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
  if (is_one_of(mt, {"gpt2", "bert", "roberta", "xlm-roberta", "distilbert", "electra", "opt", "gpt_bigcode", "biogpt",
                     "camembert", "albert"})) {
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
  if (max_pos == 0) throw InvalidArgument(r.path("max_position_embeddings"), "missing " + r.path("max_position_embeddings"));
  RopeLayout layout = hf_rope_layout(mt);
  // GPT-J / CodeGen publish "rotary": true; their attention always rotates (rotary_dim is read below).
  if (is_one_of(mt, {"gptj", "codegen"}) && r.boolean("rotary").value_or(true) == false)
    r.fail("rotary", "false is not supported (GPTJAttention always rotates rotary_dim dims)");
  // Qwen3-VL's rotary embedding always interleaves its sections; Qwen3.5 says so with mrope_interleaved.
  const bool mrope_il = is_one_of(mt, {"qwen3_vl_text", "qwen3_vl_moe_text", "qwen3_vl", "qwen3_vl_moe"});
  if (const auto interleave = r.boolean("rope_interleave")) layout = *interleave ? RopeLayout::Interleaved : RopeLayout::Half;
  // Gemma-2/3 scale q by query_pre_attn_scalar^-0.5 instead of head_dim^-0.5.
  double softmax = 1.0 / std::sqrt(static_cast<double>(dims.head_dim));
  // Gemma 3n and Gemma 4 normalise q and k per head and multiply q.k by 1 (Gemma3nTextAttention /
  // Gemma4TextAttention scaling = 1.0): their query_pre_attn_scalar is not read (unread_keys names it).
  const bool gemma4 = is_one_of(mt, {"gemma4_text", "gemma4", "gemma4_unified_text", "gemma4_unified"});
  const bool qk_normed_gemma = gemma4 || is_one_of(mt, {"gemma3n_text", "gemma3n"});
  std::optional<double> qs = qk_normed_gemma ? std::nullopt : r.number("query_pre_attn_scalar");
  if (!qs && is_one_of(mt, {"gemma2", "gemma3_text"})) qs = 256.0;  // Gemma2Config / Gemma3TextConfig default
  if (qs) {
    if (!(*qs > 0)) throw InvalidArgument(r.path("query_pre_attn_scalar"), r.path("query_pre_attn_scalar") + " must be > 0");
    softmax = 1.0 / std::sqrt(*qs);
  }
  if (qk_normed_gemma) softmax = 1.0;
  // use_bidirectional_attention (Gemma 3: a bool; Gemma 4: "vision" or "all"): "vision" lets only image tokens
  // attend both ways, text tokens stay causal as posenc draws them, and false is the default: both read. true /
  // "all" make every token attend to every other and shrink the sliding window to W // 2 + 1
  // (configuration_gemma3.py / configuration_gemma4.py __post_init__): posenc does not model that, so the key
  // stays unread and unread_keys names it.
  if (const ConfigValue* b = r.value().find("use_bidirectional_attention"))
    if ((b->is_string() && b->as_string() == "vision") || (b->is_bool() && !b->as_bool())) r.mark("use_bidirectional_attention");
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
      // Gemma 4's full-attention layers are global_head_dim wide, and their proportional RoPE spans that width
      // (Gemma4TextRotaryEmbedding passes head_dim_key="global_head_dim"; Gemma4TextAttention.head_dim).
      Dims layer_dims = dims;
      if (gemma4 && k == "full_attention" && lp->string("rope_type").value_or("") == "proportional")
        if (const auto g = r.integer("global_head_dim"))
          layer_dims.head_dim = layer_dims.rotary_dim = checked_dim(*g, r.path("global_head_dim"), "global_head_dim");
      out.layers.emplace_back(k, make_rope(r, lp, lp->path(""), base, layer_dims, max_pos, seq_len, layout, softmax, mrope_il));
    }
  } else {
    const double base =
        check_base(read_base(r, params, default_base), r.has("rope_theta") ? r.path("rope_theta") : params_path + "rope_theta");
    ModelRope global = make_rope(r, params, params_path, base, dims, max_pos, seq_len, layout, softmax, mrope_il);
    std::optional<double> local = r.number("rope_local_base_freq");
    if (!local && mt == "gemma3_text") local = 10000.0;  // Gemma3TextConfig default
    if (local) {
      // Gemma-3: sliding layers use the default RoPE at rope_local_base_freq, full layers the rest.
      const double lb = check_base(*local, r.path("rope_local_base_freq"));
      ModelRope sliding = make_rope(r, std::nullopt, r.path(""), lb, dims, max_pos, seq_len, layout, softmax, mrope_il);
      out.layers.emplace_back("full_attention", global);
      out.layers.emplace_back("sliding_attention", sliding);
    }
    out.rope = global;
  }
  if (nested) {
    const auto full =
        std::find_if(out.layers.begin(), out.layers.end(), [](const auto& e) { return e.first == "full_attention"; });
    out.rope = full != out.layers.end() ? full->second : out.layers.front().second;
  }
  read_layers(r, mt, params, out);
  return out;
}

}  // namespace

ModelPosition read_hf_config(const ConfigValue& config, std::optional<int64_t> seq_len) {
  if (!config.is_object()) throw InvalidArgument("", "a model config must be a JSON object");
  if (seq_len && (*seq_len < 1 || *seq_len > kMaxLength))
    throw InvalidArgument("seq_len", "seq_len must be an integer in [1, 2^30]");
  std::set<std::string> seen;
  ModelPosition out = read_hf_position(config, seq_len, seen);
  collect_unread(config, "", false, seen, out.unread_keys);
  drop_text_config_copies(config, seen, out.unread_keys);
  return out;
}

}  // namespace posenc
