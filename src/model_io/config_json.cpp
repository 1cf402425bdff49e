#include "config_json.h"

#include <cmath>

#include "core/analysis/rope_analysis.h"
#include "core/models/rope_assembly.h"
#include "core/types.h"

namespace posenc::model_io {
namespace {

using ojson = nlohmann::ordered_json;

constexpr int kMaxDepth = 64;

ConfigValue convert(const nlohmann::json& j, const std::string& path, int depth) {
  if (depth > kMaxDepth) throw InvalidArgument(path, "config nested deeper than 64 levels at '" + path + "'");
  switch (j.type()) {
    case nlohmann::json::value_t::null: return ConfigValue();
    case nlohmann::json::value_t::boolean: return ConfigValue::boolean(j.get<bool>());
    case nlohmann::json::value_t::number_integer: return ConfigValue::integer(j.get<int64_t>());
    case nlohmann::json::value_t::number_unsigned: {
      const uint64_t u = j.get<uint64_t>();
      return u <= static_cast<uint64_t>(INT64_MAX) ? ConfigValue::integer(static_cast<int64_t>(u))
                                                   : ConfigValue::number(static_cast<double>(u));
    }
    case nlohmann::json::value_t::number_float: return ConfigValue::number(j.get<double>());
    case nlohmann::json::value_t::string: return ConfigValue::string(j.get<std::string>());
    case nlohmann::json::value_t::array: {
      ConfigValue::Array a;
      a.reserve(j.size());
      std::size_t i = 0;
      for (const auto& e : j) a.push_back(convert(e, path + "[" + std::to_string(i++) + "]", depth + 1));
      return ConfigValue::array(std::move(a));
    }
    case nlohmann::json::value_t::object: {
      ConfigValue::Object o;
      o.reserve(j.size());
      for (const auto& [k, v] : j.items()) o.emplace_back(k, convert(v, path.empty() ? k : path + "." + k, depth + 1));
      return ConfigValue::object(std::move(o));
    }
    default: throw InvalidArgument(path, "unsupported JSON value at '" + path + "'");
  }
}

double finite(double x, const char* field) {
  if (!std::isfinite(x)) throw InvalidArgument(field, std::string(field) + ": the result is not finite");
  return x;
}

ojson doubles(const std::vector<double>& v, const char* field) {
  ojson a = ojson::array();
  for (double x : v) a.push_back(finite(x, field));
  return a;
}

// head_dim: the width of the heads this RoPE rotates (rope_head_dim: a layer type's own, else the model's).
ojson rope_json(const ModelRope& r, int head_dim) {
  ojson o;
  o["rotary_dim"] = r.rotary_dim;
  o["rotary_offset"] = r.rotary_offset;
  o["head_dim"] = head_dim;
  o["layout"] = rope_layout_name(r.layout);
  o["rope_type"] = rope_type_name(r.scaling.type);
  o["base"] = finite(r.base, "base");
  o["inv_freq"] = doubles(r.frequencies.inv_freq, "inv_freq");
  o["attention_scaling"] = finite(r.frequencies.attention_scaling, "attention_scaling");
  o["softmax_scale"] = finite(r.softmax_scale, "softmax_scale");
  o["softmax_scale_from"] = r.softmax_scale_from;
  o["max_position_embeddings"] = r.max_position_embeddings;
  o["original_max_position_embeddings"] = r.original_max_position_embeddings;
  // What the pairs do at max_position_embeddings (the Model view's summary counts, by the same rule).
  const PairBehaviourCounts c = rope_pair_counts(r, r.max_position_embeddings);
  o["pairs_at_max"] = {{"length", r.max_position_embeddings},
                       {"full_turn", c[size_t(PairBehaviour::FullTurn)]},
                       {"less_than_once", c[size_t(PairBehaviour::LessThanOnce)]},
                       {"interpolated", c[size_t(PairBehaviour::Interpolated)]},
                       {"extrapolated", c[size_t(PairBehaviour::Extrapolated)]},
                       {"no_rotation", c[size_t(PairBehaviour::NoRotation)]}};
  if (!r.mrope_section.empty()) {
    o["mrope_section"] = r.mrope_section;
    o["mrope_interleaved"] = r.mrope_interleaved;
  }
  return o;
}

ojson layer_json(const LayerSpec& l) {
  ojson o;
  o["attention"] = layer_attention_name(l.attention);
  if (l.attention == LayerAttention::Sliding || l.attention == LayerAttention::Chunked ||
      l.attention == LayerAttention::Compressed)
    o["window"] = l.window;
  if (l.attention == LayerAttention::Compressed) o["ratio"] = l.ratio;
  if (l.attention == LayerAttention::Linear) o["mixer"] = l.mixer;
  if (l.attention == LayerAttention::None) {
    o["reason"] = l.reason;
    if (!l.mixer.empty()) o["block"] = l.mixer;
  }
  if (!l.parallel_mixer.empty()) o["parallel_mixer"] = l.parallel_mixer;
  o["causal"] = l.causal;
  if (!l.stack.empty()) o["stack"] = l.stack;
  // RoPE models: whether the layer rotates; others: the model's scheme on every attention layer (ALiBi, T5 and
  // DeBERTa biases in the scores, a learned table added to the input).
  const bool mixes = l.attention != LayerAttention::Linear && l.attention != LayerAttention::None;
  if (l.scheme == PositionKind::Rope || l.scheme == PositionKind::None || !mixes) o["position"] = l.rope ? "rope" : "none";
  else o["position"] = position_kind_name(l.scheme);
  if (l.rope && !l.rope_key.empty()) o["rope"] = l.rope_key;
  if (l.query_scale.rule != QueryScale::Rule::None) {
    ojson q;
    q["rule"] = query_scale_rule_name(l.query_scale.rule);
    if (l.query_scale.rule == QueryScale::Rule::Llama4Temperature) {
      q["floor_scale"] = finite(l.query_scale.floor_scale, "floor_scale");
      q["attn_scale"] = finite(l.query_scale.attn_scale, "attn_scale");
    } else {
      q["beta"] = finite(l.query_scale.beta, "llama_4_scaling_beta");
      q["original_max_position_embeddings"] = l.query_scale.original_max_position_embeddings;
    }
    o["query_scale"] = std::move(q);
  }
  if (l.sinks) o["sinks"] = true;
  if (!l.key_selection.kind.empty()) {
    ojson k;
    k["kind"] = l.key_selection.kind;
    k["top_k"] = l.key_selection.top_k;
    if (l.key_selection.kind == "block_topk") k["block"] = l.key_selection.block;
    k["keys"] = l.key_selection.keys;
    o["key_selection"] = std::move(k);
  }
  return o;
}

}  // namespace

ConfigValue config_from_json(const nlohmann::json& j, const std::string& path) { return convert(j, path, 0); }

ConfigValue parse_config_text(std::string_view text) {
  if (text.size() > kMaxConfigBytes)
    throw InvalidArgument("", "the config is " + std::to_string(text.size()) + " bytes; the limit is 8 MiB");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::exception& e) {
    std::string what = e.what();
    if (auto p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
    throw InvalidArgument("", "malformed config JSON: " + what);
  }
  return config_from_json(j);
}

nlohmann::ordered_json model_position_json(const ModelPosition& m) {
  ojson o;
  o["model_type"] = m.model_type;
  o["family"] = m.family;
  o["position"] = position_kind_name(m.position);
  o["head_dim"] = m.head_dim;
  o["num_attention_heads"] = m.num_attention_heads;
  switch (m.position) {
    case PositionKind::Rope:
      o["rope"] = rope_json(*m.rope, rope_head_dim(m, *m.rope));
      if (!m.layers.empty()) {
        ojson layers;
        for (const auto& [name, r] : m.layers) layers[name] = rope_json(r, rope_head_dim(m, r));
        o["layers"] = std::move(layers);
      }
      break;
    case PositionKind::Alibi: o["alibi"] = {{"slopes", doubles(m.alibi_slopes, "slopes")}}; break;
    case PositionKind::T5:
      o["t5"] = {{"num_buckets", m.t5_num_buckets}, {"max_distance", m.t5_max_distance}, {"bidirectional", m.t5_bidirectional}};
      break;
    case PositionKind::Deberta:
      o["deberta"] = {{"bucket_size", m.deberta_bucket_size}, {"max_position", m.deberta_max_position}};
      break;
    case PositionKind::Learned: o["learned"] = {{"max_position_embeddings", m.learned_max_position_embeddings}}; break;
    case PositionKind::None: break;
  }
  if (m.num_hidden_layers > 0) o["num_hidden_layers"] = m.num_hidden_layers;
  if (!m.per_layer.empty()) {
    ojson layers = ojson::array();
    for (const LayerSpec& l : m.per_layer) layers.push_back(layer_json(l));
    o["per_layer"] = std::move(layers);
  }
  o["unread_keys"] = m.unread_keys;
  ojson assumed = ojson::array();
  for (const Assumption& a : m.assumptions) assumed.push_back({{"what", a.what}, {"value", a.value}, {"why", a.why}});
  o["assumptions"] = std::move(assumed);
  return o;
}

nlohmann::ordered_json differences_json(const std::vector<ModelDifference>& diffs) {
  ojson out = ojson::array();
  auto value = [](const DiffValue& v) -> ojson {
    if (v.number) {
      // Counts and lengths as integers (32, not 32.0); every other number as it is.
      const double x = *v.number;
      if (std::isfinite(x) && std::floor(x) == x && std::fabs(x) < 9007199254740992.0) return ojson(static_cast<int64_t>(x));
      return finite(x, "difference");
    }
    return v.text;
  };
  for (const ModelDifference& d : diffs) {
    ojson e = {{"what", d.what}, {"a", value(d.a)}, {"b", value(d.b)}};
    if (!d.assumed.empty()) e["assumed"] = d.assumed;
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace posenc::model_io
