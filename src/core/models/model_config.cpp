// config.json -> ModelPosition: the orchestration of the reader (transformers' rules, docs/models.md).
//   small rules     the query scale at a position, a RoPE's head width and zero pairs
//   other schemes   ALiBi, T5, DeBERTa, learned absolute (by the family table's position)
//   RoPE models     dims, layout, softmax scale, the RoPE of each layer type (hf_rope.cpp), the layers
//                   (hf_layers.cpp), the assumptions for a model_type outside the family table
//   entry point     read_hf_config, unread keys (unread_keys.cpp)
//
// Rules follow Hugging Face transformers (docs/models.md has the table and the files):
//   modeling_rope_utils.py  _compute_*_parameters (inv_freq, attention_factor)
//   configuration_utils.py  standardize_rope_params (rope_scaling v4 / rope_parameters v5, "type" -> "rope_type")
//   configuration_*.py / modeling_*.py of each model_type (key names, layout, softmax scale): the family
//   table, data/model_families.json.
#include "core/models/model_config.h"

#include <cmath>

#include "core/bounds.h"
#include "core/encodings/alibi.h"
#include "core/models/hf_reading.h"

namespace posenc {

// ---------------------------------------------------------------- small rules

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

int rope_head_dim(const ModelPosition& m, const ModelRope& r) { return r.head_dim > 0 ? r.head_dim : m.head_dim; }

int rope_frequency_zero_pairs(const ModelRope& r) {
  if (r.scaling.type != RopeScalingType::Proportional) return 0;
  int n = 0;
  for (double f : r.frequencies.inv_freq) n += f == 0.0;
  return n;
}

namespace hf {
namespace {

// ---------------------------------------------------------------- schemes without RoPE

// The family's position kind, with its ALiBi switch (Falcon: alibi, default false; MPT: attn_config.alibi,
// default true: MptAttentionConfig; MPT without ALiBi has a learned table of max_seq_len).
PositionKind position_of(const Model& m) {
  if (!m.fam) return PositionKind::Rope;
  if (m.fam->alibi_key.empty()) return m.fam->position;
  const bool default_on = m.fam->position == PositionKind::Alibi;
  const std::string& key = m.fam->alibi_key;
  std::optional<bool> on;
  if (const size_t dot = key.find('.'); dot != std::string::npos) {
    if (const auto inner = m.r.object(key.substr(0, dot).c_str())) on = inner->boolean(key.substr(dot + 1).c_str());
  } else {
    on = m.r.boolean(key.c_str());
  }
  if (on.value_or(default_on)) return PositionKind::Alibi;
  return default_on ? PositionKind::Learned : m.fam->position;
}

void read_t5(const Model& m) {
  const Reader& r = m.r;
  const int64_t nb = r.integer("relative_attention_num_buckets").value_or(32);
  const int64_t md = r.integer("relative_attention_max_distance").value_or(128);
  if (nb < 1 || nb > kMaxBuckets)
    throw InvalidArgument(r.path("relative_attention_num_buckets"),
                          r.path("relative_attention_num_buckets") + " must be in [1, 2^20]");
  if (md < 1 || md > kMaxLength)
    throw InvalidArgument(r.path("relative_attention_max_distance"),
                          r.path("relative_attention_max_distance") + " must be in [1, 2^30]");
  m.out.t5_num_buckets = static_cast<int>(nb);
  m.out.t5_max_distance = md;
  m.out.t5_bidirectional = true;  // encoder self-attention (the decoder's is causal: bidirectional=False)
}

void read_deberta(const Model& m) {
  const Reader& r = m.r;
  const int64_t max_pos = read_max_positions(r, nullptr, m.fam);
  if (!r.boolean("relative_attention").value_or(false)) {
    m.out.position = PositionKind::Learned;
    m.out.learned_max_position_embeddings = max_pos;
    return;
  }
  // DisentangledSelfAttention: max_relative_positions < 1 -> max_position_embeddings.
  int64_t mrp = r.integer("max_relative_positions").value_or(-1);
  if (mrp < 1) mrp = max_pos;
  m.out.deberta_bucket_size = r.integer("position_buckets").value_or(-1);
  m.out.deberta_max_position = mrp;
  if (m.out.deberta_bucket_size > kMaxBuckets)
    throw InvalidArgument(r.path("position_buckets"), r.path("position_buckets") + " must be <= 2^20");
}

void read_learned(const Model& m) {
  const Reader& r = m.r;
  const char* which = nullptr;
  m.out.learned_max_position_embeddings = read_max_positions(r, &which, m.fam);
  if (m.out.learned_max_position_embeddings == 0)
    throw InvalidArgument(r.path("max_position_embeddings"),
                          "missing " + r.path("max_position_embeddings") + " (or n_positions)");
  if (const auto pet = r.string("position_embedding_type"); pet && *pet != "absolute")
    throw InvalidArgument(r.path("position_embedding_type"),
                          r.path("position_embedding_type") + " '" + *pet + "' is not supported (only absolute)");
}

// ---------------------------------------------------------------- RoPE models

// Whether the attention layers rotate at all (the row's rope_on switches); false: position none.
bool rotates(const Model& m) {
  if (!m.fam) return true;
  switch (m.fam->rope_on) {
    case RopeOn::None: return false;
    case RopeOn::PositionEmbeddingType: {
      // GraniteMoeHybridConfig: None or "rope" (the published 4.0-H configs say "nope").
      const auto pet = m.r.string("position_embedding_type");
      if (!pet || *pet == "nope") return false;
      if (*pet == "rope") return true;
      m.r.fail("position_embedding_type", "'" + *pet + "' is neither \"rope\" nor \"nope\"");
    }
    case RopeOn::MlaUseNope: return !m.r.boolean("mla_use_nope").value_or(false);
    default: return true;
  }
}

// What multiplies q.k (before YaRN's mscale^2), by the row's softmax rule, times the row's logit scales; `from`
// receives each factor's source.
double rule_softmax_scale(const Model& m, const Dims& dims, std::vector<std::string>& from) {
  const Reader& r = m.r;
  const double plain = 1.0 / std::sqrt(static_cast<double>(dims.head_dim));
  const SoftmaxRule rule = m.fam ? m.fam->softmax : SoftmaxRule::HeadDim;
  if (!m.fam) m.assume("softmax_scale", "1/sqrt(head_dim)", m.not_in_table());
  switch (rule) {
    case SoftmaxRule::HeadDim: from.push_back("head_dim^-0.5"); return plain;
    case SoftmaxRule::QueryPreAttnScalar: {
      // Gemma-2/3 scale q by query_pre_attn_scalar^-0.5 instead of head_dim^-0.5 (default 256).
      const double qs = r.number("query_pre_attn_scalar").value_or(m.fam->query_pre_attn_scalar);
      if (!(qs > 0)) throw InvalidArgument(r.path("query_pre_attn_scalar"), r.path("query_pre_attn_scalar") + " must be > 0");
      from.push_back(r.path("query_pre_attn_scalar") + "^-0.5");
      return 1.0 / std::sqrt(qs);
    }
    // Gemma 3n and Gemma 4 normalise q and k per head and multiply q.k by 1 (Gemma3nTextAttention /
    // Gemma4TextAttention scaling = 1.0): their query_pre_attn_scalar is not read (unread_keys names it).
    case SoftmaxRule::One: return 1.0;
    case SoftmaxRule::AttentionMultiplier: {
      const auto am = r.number("attention_multiplier");
      if (am && !(*am > 0)) r.fail("attention_multiplier", "must be > 0");
      from.push_back(am ? r.path("attention_multiplier") : std::string("attention_multiplier default 1"));
      return am.value_or(1.0);  // GraniteConfig default 1.0
    }
    case SoftmaxRule::KeyMultiplier: {
      const auto km = r.number("key_multiplier");
      if (km && !(*km > 0)) r.fail("key_multiplier", "must be > 0");
      from.push_back("head_dim^-0.5");
      if (km) from.push_back(r.path("key_multiplier"));
      return plain * km.value_or(1.0);
    }
  }
  return plain;
}

double softmax_scale(const Model& m, const Dims& dims, std::vector<std::string>& from) {
  double scale = rule_softmax_scale(m, dims, from);
  // Extra factors on q.k the family's modeling code applies (Muse Glimmer's qk_scale_factor on q).
  if (m.fam)
    for (const std::string& key : m.fam->logit_scales)
      if (const auto v = m.r.number(key.c_str())) {
        if (!(*v > 0 && std::isfinite(*v))) m.r.fail(key, "must be a finite number > 0");
        scale *= *v;
        from.push_back(m.r.path(key.c_str()));
      }
  return scale;
}

RopeLayout layout_of(const Model& m) {
  RopeLayout layout = m.fam ? m.fam->layout : RopeLayout::Half;
  if (const auto interleave = m.r.boolean("rope_interleave")) return *interleave ? RopeLayout::Interleaved : RopeLayout::Half;
  if (!m.fam) m.assume("layout", "half", m.not_in_table());
  return layout;
}

void read_rope_model(const Model& m) {
  const Dims dims = read_dims(m);
  ModelPosition& out = m.out;
  out.head_dim = dims.head_dim;
  out.num_attention_heads = dims.num_heads;
  const RopeParams params = find_rope_params(m.r);
  if (!rotates(m)) {
    // No position encoding (Nemotron-H, Kimi Linear's NoPE MLA, Granite 4.0-H with position_embedding_type nope):
    // the layers are still read; rope_theta and the like stay unread and are named.
    out.position = PositionKind::None;
    (void)read_max_positions(m.r, nullptr, m.fam);
    read_layers(m, params, false);
    return;
  }
  out.position = PositionKind::Rope;
  RopeContext c;
  c.dims = dims;
  const char* max_key = nullptr;
  c.max_pos = read_max_positions(m.r, &max_key, m.fam);
  if (c.max_pos == 0 && m.fam) c.max_pos = m.fam->max_positions;  // class defaults (FalconConfig, Gemma3TextConfig)
  if (c.max_pos == 0) {
    // A model that names no trained length (RecurrentGemma: its local attention sees attention_window_size keys)
    // is read all the same; the length its pairs are drawn at is an assumption.
    c.max_pos = kAssumedMaxPositions;
    m.assume("max_position_embeddings", std::to_string(kAssumedMaxPositions),
             "the config has no max_position_embeddings (nor n_positions, max_seq_len, seq_length): the RoPE's pairs are "
             "drawn and counted at this length");
  }
  c.layout = layout_of(m);
  if (!m.fam)
    m.assume("rope_layers", "every attention layer", "nothing in the config says which layers rotate, and " + m.not_in_table());
  // GPT-J / CodeGen publish "rotary": true; their attention always rotates (rotary_dim is read below).
  if (is_one_of(m.type, {"gptj", "codegen"}) && m.r.boolean("rotary").value_or(true) == false)
    m.r.fail("rotary", "false is not supported (GPTJAttention always rotates rotary_dim dims)");
  c.softmax = softmax_scale(m, dims, c.softmax_from);
  read_ropes(m, c, params);
  read_layers(m, params, true);
  read_layer_rope_theta(m, c);
}

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
  const ModelFamily* fam = find_model_family(inner_type);
  if (!fam) fam = find_model_family(out.model_type);  // a wrapper whose text_config names no model_type of its own
  out.family = fam ? fam->family : "";
  const Model m{root, r, inner_type, fam, seq_len, out};
  if (fam) out.assumptions.insert(out.assumptions.end(), fam->not_modelled.begin(), fam->not_modelled.end());
  // An unknown family's layers are drawn as a decoder's: said once, after the reading's own assumptions.
  auto assume_direction = [&] {
    if (!fam)
      m.assume("causal", "true",
               "every layer is drawn as a decoder's (query i sees keys j <= i): " + m.not_in_table() +
                   ", which says which way its layers attend");
  };
  out.position = position_of(m);
  if (out.position == PositionKind::Rope || out.position == PositionKind::None) {
    read_rope_model(m);
    assume_direction();
    return out;
  }
  const Dims d = read_dims(m);
  out.head_dim = d.head_dim;
  out.num_attention_heads = d.num_heads;
  switch (out.position) {
    case PositionKind::Alibi: out.alibi_slopes = alibi_slopes(d.num_heads); break;
    case PositionKind::T5: read_t5(m); break;
    case PositionKind::Deberta: read_deberta(m); break;
    case PositionKind::Learned: read_learned(m); break;
    default: break;
  }
  read_plain_layers(m);
  assume_direction();
  return out;
}

}  // namespace
}  // namespace hf

ModelPosition read_hf_config(const ConfigValue& config, std::optional<int64_t> seq_len) {
  if (!config.is_object()) throw InvalidArgument("", "a model config must be a JSON object");
  if (seq_len && (*seq_len < 1 || *seq_len > kMaxLength))
    throw InvalidArgument("seq_len", "seq_len must be an integer in [1, 2^30]");
  std::set<std::string> seen;
  ModelPosition out = hf::read_hf_position(config, seq_len, seen);
  out.unread_keys = hf::unread_keys(config, seen);
  return out;
}

}  // namespace posenc
