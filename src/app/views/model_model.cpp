#include "app/views/model_model.h"

#include <cmath>
#include <numbers>

#include "core/analysis/rope_analysis.h"
#include "core/models/rope_assembly.h"

namespace posenc::app {
namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

// head_dim: the width of the heads the panel's RoPE rotates (rope_head_dim: Gemma 4's full layers 512).
void summary_and_pairs(const RopePanel& p, int head_dim, const std::string& prefix, std::vector<ExportTable>& tables) {
  const ModelRope& r = p.rope;
  const RopeScaling& s = r.scaling;
  const double mscale = s.mscale.value_or(NAN), mscale_all_dim = s.mscale_all_dim.value_or(NAN);
  tables.push_back(
      ExportTable{prefix + p.name + ": summary (" + rope_type_name(s.type) + ", " + rope_layout_name(r.layout) + ")",
                  "",
                  "",
                  {"rotary_dim", "base", "factor", "attention_scaling", "mscale", "mscale_all_dim", "softmax_scale",
                   "max_position_embeddings", "original_max_position_embeddings", "full_turns", "interpolated", "extrapolated",
                   "long_factors", "less_than_once", "no_rotation", "head_dim"},
                  {{double(r.rotary_dim), r.base, s.factor, r.frequencies.attention_scaling, mscale, mscale_all_dim,
                    r.softmax_scale, double(r.max_position_embeddings), double(r.original_max_position_embeddings),
                    double(p.counts[size_t(PairBehaviour::FullTurn)]), double(p.counts[size_t(PairBehaviour::Interpolated)]),
                    double(p.counts[size_t(PairBehaviour::Extrapolated)]), r.frequencies.long_factors ? 1.0 : 0.0,
                    double(p.counts[size_t(PairBehaviour::LessThanOnce)]), double(p.counts[size_t(PairBehaviour::NoRotation)]),
                    double(head_dim)}}});
  // class: what the pair does at max_position_embeddings (the core's PairBehaviour, as the card says it).
  ExportTable pairs{prefix + p.name + ": pairs",
                    "pair k",
                    "class: 0 full turn, 1 less than once, 2 interpolated, 3 extrapolated, 4 no rotation",
                    {"pair", "inv_freq", "inv_freq_unscaled", "ratio", "wavelength", "wavelength_unscaled", "class"},
                    {}};
  if (!p.short_inv.empty()) {
    pairs.columns.push_back("inv_freq_short");
    pairs.columns.push_back("inv_freq_long");
  }
  for (size_t i = 0; i < p.unscaled.size(); ++i) {
    const double w = r.frequencies.inv_freq[i], u = p.unscaled[i];
    std::vector<double> row{double(i), w, u, w / u, kTwoPi / w, kTwoPi / u, double(p.classes[i])};
    if (!p.short_inv.empty()) {
      row.push_back(p.short_inv[i]);
      row.push_back(p.long_inv[i]);
    }
    pairs.rows.push_back(std::move(row));
  }
  tables.push_back(std::move(pairs));
}

void layer_table(const ModelPosition& m, const std::string& prefix, std::vector<ExportTable>& tables) {
  ExportTable t{prefix +
                    "layers (attention: 0 full, 1 sliding, 2 chunked, 3 linear, 4 compressed, 5 none; query_scale: 0 "
                    "none, 1 llama4_temperature, 2 llama4_scaling_beta)",
                "layer",
                "",
                {"layer", "attention", "window", "rope", "sinks", "query_scale", "ratio"},
                {}};
  for (size_t i = 0; i < m.per_layer.size(); ++i) {
    const LayerSpec& l = m.per_layer[i];
    t.rows.push_back({double(i), double(int(l.attention)), double(l.window), l.rope ? 1.0 : 0.0, l.sinks ? 1.0 : 0.0,
                      double(int(l.query_scale.rule)), double(l.ratio)});
  }
  tables.push_back(std::move(t));
}

void mrope_tables(const MropeExample& e, const std::string& prefix, std::vector<ExportTable>& tables) {
  ExportTable t{prefix + "mrope: axis per pair (0 t, 1 h, 2 w)", "pair k", "", {"pair", "axis"}, {}};
  for (size_t k = 0; k < e.axes.size(); ++k) t.rows.push_back({double(k), double(e.axes[k])});
  tables.push_back(std::move(t));
  ExportTable pos{
      prefix + "mrope: example positions (" + (e.image ? "image" : "text") + ")", "token", "", {"token", "t", "h", "w"}, {}};
  for (size_t i = 0; i < e.rows[0].size(); ++i)
    pos.rows.push_back({double(i), double(e.rows[0][i]), double(e.rows[1][i]), double(e.rows[2][i])});
  tables.push_back(std::move(pos));
}

void extension_table(const ExtensionPanel& e, const std::string& prefix, std::vector<ExportTable>& tables) {
  ExportTable t{prefix + "context extension to " + std::to_string(e.target) + " from " + std::to_string(e.trained) +
                    " (method: 0 none, 1 linear, 2 dynamic, 4 yarn, 5 llama3, 6 longrope; counted 0 = factors unknown)",
                "method",
                "",
                {"method", "factor", "original_max_position_embeddings", "max_position_embeddings", "counted", "full_turn",
                 "interpolated", "extrapolated", "kept", "divided", "blended", "attention_scaling"},
                {}};
  for (const ExtensionRecipe& r : e.recipes) {
    const bool c = r.counted;
    t.rows.push_back({double(int(r.scaling.type)), r.scaling.type == RopeScalingType::None ? 1.0 : r.scaling.factor,
                      r.sets_original ? double(r.scaling.original_max_position_embeddings) : NAN,
                      double(r.max_position_embeddings), c ? 1.0 : 0.0, c ? double(r.full_turn) : NAN,
                      c ? double(r.interpolated) : NAN, c ? double(r.extrapolated) : NAN, c ? double(r.kept) : NAN,
                      c ? double(r.divided) : NAN, c ? double(r.blended) : NAN, c ? r.attention_scaling : NAN});
  }
  tables.push_back(std::move(t));
}

void scheme_tables(const ModelPosition& m, const std::string& prefix, std::vector<ExportTable>& tables) {
  switch (m.position) {
    case PositionKind::Alibi: {
      ExportTable t{prefix + "alibi: slopes", "head h", "slope", {"head", "slope"}, {}};
      for (size_t h = 0; h < m.alibi_slopes.size(); ++h) t.rows.push_back({double(h), m.alibi_slopes[h]});
      tables.push_back(std::move(t));
      break;
    }
    case PositionKind::T5:
      tables.push_back(ExportTable{prefix + "t5",
                                   "",
                                   "",
                                   {"num_buckets", "max_distance", "bidirectional"},
                                   {{double(m.t5_num_buckets), double(m.t5_max_distance), m.t5_bidirectional ? 1.0 : 0.0}}});
      break;
    case PositionKind::Deberta:
      tables.push_back(ExportTable{prefix + "deberta",
                                   "",
                                   "",
                                   {"bucket_size", "max_position"},
                                   {{double(m.deberta_bucket_size), double(m.deberta_max_position)}}});
      break;
    case PositionKind::Learned:
      tables.push_back(
          ExportTable{prefix + "learned", "", "", {"max_position_embeddings"}, {{double(m.learned_max_position_embeddings)}}});
      break;
    default: break;
  }
}

}  // namespace

RopePanel rope_panel(const std::string& name, const ModelRope& r) {
  RopePanel p;
  p.name = name;
  p.rope = r;
  p.unscaled = rope_unscaled_inv_freq(r.rotary_dim, r.base, r.scaling);
  const int64_t trained = r.original_max_position_embeddings, max = r.max_position_embeddings;
  // Each length with the frequencies in force there: LongRoPE's short factors up to the original
  // length, its long ones past it (and dynamic NTK's base rescaled at max).
  auto in_force = [&](int64_t length) {
    return inv_freq_at_length(r.rotary_dim, r.base, r.scaling, length, r.frequencies.inv_freq);
  };
  auto said_at = [&](int64_t length, const std::vector<double>& inv, const char* factors) {
    p.said.push_back({length, factors, count_pair_behaviours(p.unscaled, inv, trained, length)});
  };
  p.at_max = in_force(max);
  for (PairBehaviour b : rope_pair_classes(r, max)) {
    p.classes.push_back(static_cast<int>(b));
    ++p.counts[size_t(b)];
  }
  const bool longrope = r.scaling.type == RopeScalingType::Longrope;
  if (longrope) {
    p.short_inv = in_force(r.scaling.original_max_position_embeddings);
    p.long_inv = in_force(r.scaling.original_max_position_embeddings + 1);
  }
  // LongRoPE past its original length: both factor sets matter, each at the length it is used for.
  if (longrope && max > r.scaling.original_max_position_embeddings) {
    said_at(std::min(trained, r.scaling.original_max_position_embeddings), p.short_inv, "short factors");
    said_at(max, p.at_max, "long factors");
  } else {
    said_at(max, p.at_max, "");
  }
  return p;
}

ModelShown compute_model_shown(const ModelPosition& m, int64_t target_len, bool mrope_image) {
  ModelShown s;
  s.pos = m;
  if (m.position != PositionKind::Rope || !m.rope) return s;
  if (m.layers.empty()) s.panels.push_back(rope_panel("rope", *m.rope));
  for (const auto& [name, r] : m.layers) s.panels.push_back(rope_panel("layers." + name, r));
  const ModelRope& r = *m.rope;
  if (!r.mrope_section.empty()) s.mrope = mrope_example(r, mrope_image);
  s.extension = extension_panel(r, target_len);
  return s;
}

void model_tables(const ModelShown& s, const std::string& prefix, std::vector<ExportTable>& tables) {
  const ModelPosition& m = s.pos;
  tables.push_back(ExportTable{prefix + "model: " + m.model_type + " (" + position_kind_name(m.position) + ")",
                               "",
                               "",
                               {"head_dim", "num_attention_heads"},
                               {{double(m.head_dim), double(m.num_attention_heads)}}});
  for (const RopePanel& p : s.panels) summary_and_pairs(p, rope_head_dim(m, p.rope), prefix, tables);
  if (!m.per_layer.empty()) layer_table(m, prefix, tables);
  if (s.mrope) mrope_tables(*s.mrope, prefix, tables);
  if (s.extension) extension_table(*s.extension, prefix, tables);
  scheme_tables(m, prefix, tables);
}

ExportTable differences_table(const std::vector<ModelDifference>& d) {
  ExportTable t{"compare: differences (numeric ones; row 0 the model, row 1 the compared one)", "model", "", {}, {{}, {}}};
  for (const ModelDifference& x : d)
    if (x.a.number && x.b.number) {
      t.columns.push_back(x.what);
      t.rows[0].push_back(*x.a.number);
      t.rows[1].push_back(*x.b.number);
    }
  return t;
}

}  // namespace posenc::app
