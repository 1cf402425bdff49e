// config.json -> the RoPE of every layer type (transformers' rules; docs/models.md):
//   dims            head_dim, heads, MLA's q.k width
//   rotary width    partial_rotary_factor, rotary_pct, rotary_dim
//   scaling         one rope parameter dict -> RopeScaling (v4 rope_scaling, v5 rope_parameters)
//   one RoPE        make_rope: the dict, the base, M-RoPE sections -> assemble_rope (rope_assembly.h)
//   layer types     v5 nested rope_parameters, Gemma 3's local base, OLMo 3's unscaled sliding layers,
//                   DeepSeek-V4's main / compress
#include <algorithm>
#include <cmath>

#include "core/bounds.h"
#include "core/models/hf_reading.h"
#include "core/models/rope_assembly.h"

namespace posenc::hf {

// ---------------------------------------------------------------- dims

int checked_dim(int64_t v, const std::string& field, const char* what) {
  if (v < 1 || v > kMaxDim) throw InvalidArgument(field, field + " (" + what + ") must be in [1, 4096]");
  return static_cast<int>(v);
}

Dims read_dims(const Model& m) {
  const Reader& r = m.r;
  Dims d;
  const char* heads_key = "num_attention_heads";
  const auto heads =
      first_of<int64_t>(r, {"num_attention_heads", "n_head", "num_heads", "n_heads"}, &Reader::integer, &heads_key);
  if (!heads)
    throw InvalidArgument(r.path("num_attention_heads"),
                          "missing " + r.path("num_attention_heads") + " (or n_head / num_heads / n_heads)");
  if (*heads < 1 || *heads > kMaxHeads) throw InvalidArgument(r.path(heads_key), r.path(heads_key) + " must be in [1, 1024]");
  d.num_heads = static_cast<int>(*heads);

  // Multi-head latent attention (DeepSeek-V2/V3, Kimi Linear): q.k spans the no-RoPE and the RoPE part of each head.
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
    if (!m.fam)
      m.assume("head_dim", std::to_string(d.head_dim) + " (" + hidden_key + " / " + heads_key + ")",
               "the config has no head_dim, and " + m.not_in_table());
  }
  d.rotary_dim = d.head_dim;
  d.reads_rotary_pct = !m.flag(kFamilyNoRotaryPct);
  return d;
}

int64_t read_max_positions(const Reader& r, const char** which, const ModelFamily* fam) {
  auto v = first_of<int64_t>(r, {"max_position_embeddings", "n_positions", "max_seq_len", "seq_length"}, &Reader::integer, which);
  if (!v && fam && !fam->max_key.empty()) {
    v = r.integer(fam->max_key.c_str());
    if (which) *which = fam->max_key.c_str();
  }
  if (!v) return 0;
  if (*v < 1 || *v > kMaxLength) {
    const std::string k = r.path(which && *which ? *which : "max_position_embeddings");
    throw InvalidArgument(k, k + " must be in [1, 2^30]");
  }
  return *v;
}

namespace {

// Rotary width: partial_rotary_factor (top level or in the rope parameters), GPT-NeoX rotary_pct, GPT-J /
// MiniMax rotary_dim. transformers: dim = int(head_dim * partial_rotary_factor).
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

// ---------------------------------------------------------------- one parameter dict -> RopeScaling

// What a parameter dict says beside its scaling.
struct ScalingRead {
  RopeScaling scaling;
  bool yarn_magnitude = true;  // false: YaRN's apply_scale / apply_yarn_scaling is false (Mistral Large 3)
  bool ntk_alpha = false;      // Hunyuan's alpha: the frequencies span the whole head
};

// rope_type (or the legacy type) of a dict: "default" when absent; Phi-3's "su" and Qwen2-VL's "mrope" renamed.
std::string read_type(const Model& m, const std::optional<Reader>& p, const char** type_key) {
  std::string type = "default";
  *type_key = "rope_type";
  if (p) {
    // standardize_rope_params: rope_type wins; a legacy "type" beside it is moot when it says the same. When it
    // says something else it stays unread (named in unread_keys) and the choice is an assumption.
    if (const auto t = p->string("rope_type")) {
      type = *t;
      // Looked at without marking it read (Reader::has and string mark the key).
      const ConfigValue* legacy = p->value().find("type");
      if (!legacy || legacy->is_null() || (legacy->is_string() && legacy->as_string() == *t)) p->mark("type");
      else
        m.assume("rope_type", *t,
                 p->path("rope_type") + " is '" + *t + "' and " + p->path("type") + " says " +
                     (legacy->is_string() ? "'" + legacy->as_string() + "'" : std::string("something else")) +
                     ": transformers' standardize_rope_params reads rope_type");
    } else if (const auto t2 = p->string("type")) {
      type = *t2;
      *type_key = "type";
    }
  }
  if (type == "su") type = "longrope";  // Phi-3's first configs (configuration_phi3.py)
  // Qwen2-VL / Qwen2.5-VL publish {"type": "mrope", "mrope_section": [...]}: Qwen2VLConfig rewrites the type to
  // "default" (configuration_qwen2_vl.py); the sections are read by make_rope.
  if (type == "mrope") type = "default";
  return type;
}

// YaRN's keys, Mistral's names included (vLLM _remap_mistral_yarn_args: beta -> beta_fast, alpha -> beta_slow,
// apply_scale -> apply_yarn_scaling).
void read_yarn(const Reader& p, ScalingRead& out) {
  RopeScaling& s = out.scaling;
  const auto fast = p.has("beta_fast") ? p.number("beta_fast") : p.number("beta");
  const auto slow = p.has("beta_slow") ? p.number("beta_slow") : p.number("alpha");
  // `beta_fast or 32`: Python's `or` also replaces 0.
  if (fast && *fast != 0) s.beta_fast = *fast;
  if (slow && *slow != 0) s.beta_slow = *slow;
  s.attention_factor = p.number("attention_factor");
  s.mscale = p.number("mscale");
  s.mscale_all_dim = p.number("mscale_all_dim");
  if (const auto t = p.boolean("truncate")) s.truncate = *t;
  // apply_scale false (Mistral Large 3's params.json; apply_yarn_scaling in vLLM's config): vLLM runs
  // deepseek_llama_scaling, YaRN's frequencies with neither the cos/sin magnitude nor the softmax mscale^2.
  std::optional<bool> apply = p.has("apply_yarn_scaling") ? p.boolean("apply_yarn_scaling") : p.boolean("apply_scale");
  if (apply && !*apply) {
    out.yarn_magnitude = false;
    s.attention_factor = 1.0;
  }
}

// One rope parameter dict (v4 rope_scaling or v5 rope_parameters / one layer type's entry) -> RopeScaling.
// `top` is the language model's config (for Phi-3's top-level original length).
ScalingRead read_scaling(const Model& m, const std::optional<Reader>& p, int64_t max_pos) {
  const Reader& top = m.r;
  ScalingRead out;
  RopeScaling& s = out.scaling;
  const char* type_key = "rope_type";
  const std::string type = read_type(m, p, &type_key);
  // Original (pre-extension) length, standardize_rope_params: Phi-3's top-level key wins, then the rope
  // parameters' own, then max_position_embeddings.
  int64_t original = max_pos;
  // Read where the type takes it (kRopeScalingKeys); p-RoPE's stays unread, named in unread_keys.
  const auto known = rope_scaling_type_from_name(type == "default" ? "none" : type);
  const bool takes_original = !known || rope_scaling_takes(*known, "original_max_position_embeddings");
  if (p && takes_original && p->has("original_max_position_embeddings"))
    original = *p->integer("original_max_position_embeddings");
  if (top.has("original_max_position_embeddings") && (type == "longrope" || type == "yarn" || type == "llama3"))
    original = *top.integer("original_max_position_embeddings");

  auto factor_or = [&](std::optional<double> dflt) -> double {
    if (p && p->has("factor")) return *p->number("factor");
    if (dflt) return *dflt;
    const std::string f = p ? p->path("factor") : top.path("rope_scaling.factor");
    throw InvalidArgument(f, "missing " + f + " for rope_type '" + type + "'");
  };
  // Hunyuan (HunYuanDenseV1RotaryEmbedding, HunYuanVLRotaryEmbedding): rope_type dynamic or xdrope with an
  // alpha is a fixed NTK base base * alpha^(d / (d - 2)) over the whole head, cos/sin magnitude 1; factor moot.
  if (m.flag(kFamilyNtkAlpha) && p && (type == "dynamic" || type == "xdrope") && p->has("alpha")) {
    s.type = RopeScalingType::Ntk;
    s.factor = *p->number("alpha");
    p->mark("factor");
    out.ntk_alpha = true;
    return out;
  }
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
    s.seq_len = m.seq_len;
  } else if (type == "yarn") {
    s.type = RopeScalingType::Yarn;
    // v5: explicit factor; absent -> max_position_embeddings / original (DeepSeek note in the reference).
    s.factor = factor_or(static_cast<double>(max_pos) / static_cast<double>(std::max<int64_t>(original, 1)));
    s.original_max_position_embeddings = original;
    read_yarn(*p, out);
  } else if (type == "longrope") {
    s.type = RopeScalingType::Longrope;
    s.original_max_position_embeddings = original;
    s.factor = factor_or(static_cast<double>(max_pos) / static_cast<double>(std::max<int64_t>(original, 1)));
    s.attention_factor = p->number("attention_factor");
    const auto sf = p->numbers("short_factor");
    const auto lf = p->numbers("long_factor");
    s.short_factor = p->needed(sf, "short_factor", " for longrope");
    s.long_factor = p->needed(lf, "long_factor", " for longrope");
    s.seq_len = m.seq_len;
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
  return out;
}

// M-RoPE sections: rope_scaling / rope_parameters mrope_section (Qwen2-VL, Qwen2.5-VL, Qwen3-VL, Qwen3.5) and
// mrope_interleaved (Qwen3-VL apply_interleaved_mrope; Qwen3.5 sets it explicitly).
void read_mrope(const Reader& params, bool interleaved_default, RopeParts& parts) {
  if (const auto sec = params.integers("mrope_section")) {
    const std::string f = params.path("mrope_section");
    if (sec->size() != 3) throw InvalidArgument(f, f + " must have 3 entries (t, h, w)");
    int64_t sum = 0;
    for (int64_t v : *sec) {
      if (v < 0 || v > kMaxDim) throw InvalidArgument(f, f + " entries must be in [0, 4096]");
      sum += v;
    }
    if (sum != parts.rotary_dim / 2)
      throw InvalidArgument(f, f + " must sum to rotary_dim / 2 = " + std::to_string(parts.rotary_dim / 2) + " (it sums to " +
                                   std::to_string(sum) + ")");
    for (int64_t v : *sec) parts.mrope_section.push_back(static_cast<int>(v));
    parts.mrope_interleaved = params.boolean("mrope_interleaved").value_or(interleaved_default);
  } else if (params.has("mrope_interleaved")) {
    (void)params.boolean("mrope_interleaved");
    throw InvalidArgument(params.path("mrope_section"),
                          "missing " + params.path("mrope_section") + " (mrope_interleaved is set)");
  }
}

// Re-roots core errors ("scaling.factor", "dim") under the config key that carried the value.
FieldRename blame(const std::string& where) {
  return [where](const InvalidArgument& e) {
    std::string field = e.field();
    if (field.rfind("scaling.", 0) == 0) field = where + field.substr(8);
    else field = where.empty() ? field : where.substr(0, where.size() - 1);
    return InvalidArgument(field, std::string(e.what()) + " (" + field + ")");
  };
}

// Where the rope slice starts in the head: last for the family table's rope_last rows (multi-head latent
// attention: transformers modeling_deepseek_v3.py q_nope, q_pe = torch.split(q, [qk_nope_head_dim,
// qk_rope_head_dim]), k_pe the last qk_rope_head_dim outputs of kv_a_proj_with_mqa); last too, named as an
// assumption, for MLA keys (qk_nope_head_dim + qk_rope_head_dim) of a model_type the table does not flag; else 0.
int rope_slice_offset(const Model& m, const Dims& dims, int rotary_dim) {
  const int rest = dims.head_dim - rotary_dim;
  if (rest <= 0) return 0;
  if (m.flag(kFamilyRopeLast)) return rest;
  if (!dims.mla) return 0;
  const std::string value = std::to_string(rest) + " (the rope slice last)";
  const bool said = std::any_of(m.out.assumptions.begin(), m.out.assumptions.end(),
                                [&](const Assumption& a) { return a.what == "rotary_offset" && a.value == value; });
  if (!said)
    m.assume("rotary_offset", value,
             "qk_nope_head_dim + qk_rope_head_dim: multi-head latent attention puts the rope dims last in every reference "
             "(q_nope, q_pe = split(q, ...)), and " +
                 (m.fam ? "the family table's row '" + m.fam->family + "' does not say (rope_last)" : m.not_in_table()));
  return rest;
}

// One RoPE: a parameter dict (or none), its base, the dims it rotates over.
ModelRope make_rope(const Model& m, const RopeContext& c, const std::optional<Reader>& params, const std::string& params_path,
                    double base, const Dims& dims) {
  const ScalingRead read = read_scaling(m, params, c.max_pos);
  RopeParts parts;
  parts.scaling = read.scaling;
  parts.base = base;
  parts.head_dim = dims.head_dim;
  parts.rotary_dim = read_rotary_dim(m.r, params, dims);
  if (read.ntk_alpha) parts.rotary_dim = dims.head_dim;  // transformers: dim = config.head_dim
  if (parts.scaling.type == RopeScalingType::Proportional) {
    // p-RoPE spans the whole head: partial_rotary_factor says how many of its pairs get a nonzero frequency.
    parts.scaling.partial_rotary_factor = static_cast<double>(parts.rotary_dim) / dims.head_dim;
    if (params && params->has("partial_rotary_factor"))
      parts.scaling.partial_rotary_factor = *params->number("partial_rotary_factor");
    else if (m.r.has("partial_rotary_factor")) parts.scaling.partial_rotary_factor = *m.r.number("partial_rotary_factor");
    parts.rotary_dim = dims.head_dim;
  }
  if (params) read_mrope(*params, m.flag(kFamilyMropeInterleaved), parts);
  parts.layout = c.layout;
  parts.max_position_embeddings = c.max_pos;
  parts.softmax_scale = c.softmax;
  parts.yarn_softmax_mscale = dims.mla && m.flag(kFamilyYarnSoftmaxMscale) && read.yarn_magnitude;
  parts.rotary_offset = rope_slice_offset(m, dims, parts.rotary_dim);
  ModelRope rope = assemble_rope(parts, blame(params_path));
  rope.softmax_scale_from = c.softmax_from;
  // YaRN's mscale^2 (get_mscale(factor, mscale_all_dim)^2) multiplied in by assemble_rope.
  if (rope.softmax_scale != c.softmax) rope.softmax_scale_from.push_back(params_path + "mscale_all_dim");
  return rope;
}

double check_base(double b, const std::string& field) {
  if (!(std::isfinite(b) && b > 1.0)) throw InvalidArgument(field, field + " must be a finite number > 1");
  return b;
}

// rope_parameters' rope_theta, else the top level's (LFM2's original configs: theta; GPT-NeoX: rotary_emb_base),
// else the family's default (named as an assumption for an unknown family).
double read_base(const Model& m, const std::optional<Reader>& params, const std::string& params_path) {
  const Reader& r = m.r;
  if (params && params->has("rope_theta")) return check_base(*params->number("rope_theta"), params->path("rope_theta"));
  for (const char* k : {"rope_theta", "rotary_emb_base", "theta"}) {
    if (std::string(k) == "theta" && !(m.fam && m.fam->layers == LayerRule::Lfm2)) continue;
    if (const auto t = r.number(k)) return check_base(*t, r.path(k));
  }
  if (m.fam && !m.fam->base_key.empty())
    if (const auto t = r.number(m.fam->base_key.c_str())) return check_base(*t, r.path(m.fam->base_key.c_str()));
  const double dflt = m.fam ? m.fam->base : 10000.0;
  if (!m.fam) m.assume("base", "10000", "the config has no rope_theta (transformers' default), and " + m.not_in_table());
  return check_base(dflt, params_path + "rope_theta");
}

// transformers' layer-type names that may key a per-layer rope_parameters (v5).
bool is_layer_type_name(const std::string& s) {
  return is_one_of(s, {"full_attention", "sliding_attention", "chunked_attention", "linear_attention"});
}

bool nested_by_layer_type(const RopeParams& p) {
  if (!p.params || !p.params->value().is_object() || p.params->value().as_object().empty()) return false;
  for (const auto& [k, v] : p.params->value().as_object())
    if (!is_layer_type_name(k)) return false;
  return true;
}

// v5 rope_parameters keyed by layer type: one RoPE each (Gemma 4's proportional full layers span global_head_dim).
void read_nested(const Model& m, const RopeContext& c, const RopeParams& p) {
  for (const auto& [k, v] : p.params->value().as_object()) {
    const std::optional<Reader> lp = p.params->object(k.c_str());
    const double base = read_base(m, lp, lp->path(""));
    // Gemma 4's full-attention layers are global_head_dim wide (Gemma4TextAttention: head_dim = global_head_dim
    // on non-sliding layers), and their proportional RoPE spans that width (Gemma4TextRotaryEmbedding passes
    // head_dim_key="global_head_dim"): the layer type's ModelRope::head_dim. A non-proportional full RoPE would
    // rotate head_dim dims of a global_head_dim head, which transformers cannot run: global_head_dim stays unread.
    Dims layer_dims = c.dims;
    if (m.flag(kFamilyGlobalHeadDim) && k == "full_attention" && lp->string("rope_type").value_or("") == "proportional")
      if (const auto g = m.r.integer("global_head_dim"))
        layer_dims.head_dim = layer_dims.rotary_dim = checked_dim(*g, m.r.path("global_head_dim"), "global_head_dim");
    m.out.layers.emplace_back(k, make_rope(m, c, lp, lp->path(""), base, layer_dims));
  }
  // The v4 keys a v5 re-save may keep beside the nested dicts (ModernBERT's global_rope_theta / local_rope_theta):
  // moot, the nested rope_theta wins (convert_rope_params_to_dict only falls back to them).
  if (m.fam)
    for (const std::string* k : {&m.fam->base_key, &m.fam->local_base_key})
      if (!k->empty()) m.r.mark(k->c_str());
  const auto& layers = m.out.layers;
  const auto full = std::find_if(layers.begin(), layers.end(), [](const auto& e) { return e.first == "full_attention"; });
  m.out.rope = full != layers.end() ? full->second : layers.front().second;
}

// DeepSeek-V4 (DeepseekV4Config.__post_init__): "main" = default RoPE at rope_theta for the sliding layers,
// "compress" = the yarn dict at compress_rope_theta with attention_factor 1 unless given, for the compressed
// layers; both over int(head_dim * partial_rotary_factor) dims (qk_rope_head_dim / head_dim in the legacy keys).
void read_deepseek_v4(const Model& m, const RopeContext& c, const RopeParams& p) {
  const Reader& r = m.r;
  std::optional<Reader> main_p, compress_p = p.params;
  std::string main_path, compress_path = p.path;
  if (p.params && p.params->has("main") && p.params->has("compress")) {
    main_p = p.params->object("main");
    compress_p = p.params->object("compress");
    main_path = main_p->path("");
    compress_path = compress_p->path("");
  }
  // The rotated width: partial_rotary_factor (the nested dicts', else the top level's), else the legacy
  // qk_rope_head_dim / head_dim, else DeepseekV4Config.default_partial_rotary_factor (64 / 512).
  Dims dims = c.dims;
  std::optional<double> prf;
  std::string prf_key = r.path("partial_rotary_factor");
  for (const auto* d : {&main_p, &compress_p})
    if (*d && (*d)->has("partial_rotary_factor"))
      prf = (*d)->number("partial_rotary_factor"), prf_key = (*d)->path("partial_rotary_factor");
  if (!prf) prf = r.number("partial_rotary_factor");
  if (!prf)
    if (const auto q = r.integer("qk_rope_head_dim"))
      prf = static_cast<double>(*q) / dims.head_dim, prf_key = r.path("qk_rope_head_dim");
  if (!prf) prf = 64.0 / 512.0;
  const int width = static_cast<int>(dims.head_dim * *prf);
  if (!(*prf > 0 && *prf <= 1) || width < 2 || width % 2 != 0)
    throw InvalidArgument(prf_key, prf_key + " must give an even rotary width in [2, head_dim]");
  dims.rotary_dim = width;
  dims.mla = true;  // the width is fixed here: make_rope takes it as is
  const double main_base = main_p && main_p->has("rope_theta")
                               ? check_base(*main_p->number("rope_theta"), main_p->path("rope_theta"))
                               : read_base(m, std::nullopt, "");
  double compress_base = m.fam->compress_base;
  std::string compress_key = r.path("compress_rope_theta");
  if (compress_p && compress_p->has("rope_theta"))
    compress_base = *compress_p->number("rope_theta"), compress_key = compress_p->path("rope_theta");
  else if (const auto t = r.number("compress_rope_theta")) compress_base = *t;
  check_base(compress_base, compress_key);
  ModelRope main = make_rope(m, c, main_p, main_path, main_base, dims);
  ModelRope compress = make_rope(m, c, compress_p, compress_path, compress_base, dims);
  if (compress.scaling.type == RopeScalingType::Yarn && !(compress_p && compress_p->has("attention_factor"))) {
    RopeParts parts{
        compress.rotary_dim, compress.layout,       compress.base, compress.scaling, c.max_pos, c.softmax, false, {}, false,
        compress.head_dim,   compress.rotary_offset};
    parts.scaling.attention_factor = 1.0;
    std::vector<std::string> from = compress.softmax_scale_from;
    compress = assemble_rope(parts, blame(compress_path));
    compress.softmax_scale_from = std::move(from);
  }
  m.out.layers.emplace_back("main", main);
  m.out.layers.emplace_back("compress", compress);
  m.out.rope = main;
}

}  // namespace

RopeParams find_rope_params(const Reader& r) {
  // rope_parameters (v5) wins over rope_scaling (v4); "rope_scaling": null means none.
  RopeParams p{r.object("rope_parameters"), r.path("rope_parameters.")};
  if (!p.params) p = RopeParams{r.object("rope_scaling"), r.path("rope_scaling.")};
  return p;
}

void read_ropes(const Model& m, const RopeContext& c, const RopeParams& p) {
  if (m.fam && m.fam->has(kFamilyCompressRope)) return read_deepseek_v4(m, c, p);
  if (nested_by_layer_type(p)) return read_nested(m, c, p);
  const double base = read_base(m, p.params, p.path);
  ModelRope global = make_rope(m, c, p.params, p.path, base, c.dims);
  m.out.rope = global;
  const SlidingRope sliding = m.fam ? m.fam->sliding_rope : SlidingRope::Same;
  const std::string local_key = m.fam && !m.fam->local_base_key.empty() ? m.fam->local_base_key : "rope_local_base_freq";
  std::optional<double> local = m.r.number(local_key.c_str());
  if (!local && sliding == SlidingRope::LocalBase) local = m.fam->local_base;  // Gemma3TextConfig / ModernBertConfig default
  auto sliding_rope = [&](double b) {
    ModelRope r = sliding_layer_rope(global, b, c.softmax);
    r.softmax_scale_from = c.softmax_from;
    return r;
  };
  if (local) {
    // Gemma 3 / ModernBERT: sliding layers use the default RoPE at the local base, full layers the rest.
    const double lb = check_base(*local, m.r.path(local_key.c_str()));
    m.out.layers.emplace_back("full_attention", global);
    m.out.layers.emplace_back("sliding_attention", sliding_rope(lb));
  } else if (sliding == SlidingRope::Unscaled && global.scaling.type != RopeScalingType::None) {
    // OLMo 3: the sliding layers rotate with the default RoPE at the same base (no scaling).
    m.out.layers.emplace_back("full_attention", global);
    m.out.layers.emplace_back("sliding_attention", sliding_rope(base));
  }
}

void read_layer_rope_theta(const Model& m, const RopeContext& c) {
  const Reader& r = m.r;
  if (!r.value().find("layer_rope_theta")) return;
  const auto thetas = r.numbers("layer_rope_theta");
  if (!thetas) return;  // null
  std::vector<LayerSpec>& layers = m.out.per_layer;
  if (thetas->size() != layers.size())
    r.fail("layer_rope_theta", "must have num_hidden_layers = " + std::to_string(layers.size()) + " entries (it has " +
                                   std::to_string(thetas->size()) + ")");
  if (!m.fam)
    m.assume("layer_rope_theta", "one base per layer, 0 = no RoPE", "read as Muse Glimmer reads it, and " + m.not_in_table());
  const ModelRope& global = *m.out.rope;
  // Which layers of a kind share one base: such a kind's layers are keyed by its layer-type name.
  auto type_name = [](LayerAttention a) { return std::string(layer_attention_name(a)) + "_attention"; };
  auto uniform = [&](LayerAttention a, double t) {
    for (size_t i = 0; i < layers.size(); ++i)
      if (layers[i].attention == a && (*thetas)[i] != 0 && (*thetas)[i] != t) return false;
    return true;
  };
  auto rope_of = [&](const std::string& key) -> const ModelRope* {
    for (const auto& [name, rope] : m.out.layers)
      if (name == key) return &rope;
    return nullptr;
  };
  for (size_t i = 0; i < layers.size(); ++i) {
    LayerSpec& l = layers[i];
    const double t = (*thetas)[i];
    // The modeling code's use_rope = bool(layer_rope_theta[i]): 0 makes an attention layer NoPE.
    if (l.attention == LayerAttention::Linear || l.attention == LayerAttention::None) continue;
    if (t == 0) {
      l.rope = false;
      l.rope_key.clear();
      continue;
    }
    check_base(t, r.path("layer_rope_theta") + "[" + std::to_string(i) + "]");
    l.rope = true;
    const ModelRope* now = l.rope_key.empty() ? &global : rope_of(l.rope_key);
    if (now && now->base == t) continue;
    // Another base: the default RoPE at it (Muse Glimmer: initialize_rope with rope_type default at the layer's theta).
    const std::string key = uniform(l.attention, t) ? type_name(l.attention) : "layer_" + std::to_string(i);
    if (!rope_of(key)) {
      ModelRope own = sliding_layer_rope(now ? *now : global, t, c.softmax);
      own.softmax_scale_from = c.softmax_from;
      m.out.layers.emplace_back(key, own);
    }
    l.rope_key = key;
  }
  // With per-layer RoPEs listed, every rotating layer names its own (the model's RoPE as "full_attention").
  if (m.out.layers.empty()) return;
  for (LayerSpec& l : layers)
    if (l.rope && l.rope_key.empty()) {
      if (!rope_of("full_attention")) m.out.layers.emplace(m.out.layers.begin(), "full_attention", global);
      l.rope_key = "full_attention";
    }
}

}  // namespace posenc::hf
