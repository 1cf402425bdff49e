#include "app/views/model_cards.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "app/controls.h"
#include "app/i18n.h"
#include "app/params.h"
#include "app/plot.h"
#include "app/probe.h"
#include "app/views/model_layers.h"
#include "app/views/view_texts.h"
#include "core/models/rope_assembly.h"

namespace posenc::app {
namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

// The palette slots of a model's curves: A from 1, B from 4 (Okabe-Ito), so the two read apart; the lengths'
// lines take 5 and 6 (A) and 0 (B).
int first_colour(bool b) { return b ? 4 : 1; }

Series curve(const std::string& label, int colour, const std::vector<double>& y_of_k) {
  Series s;
  s.label = label;
  s.color = palette_color(colour);
  s.markers = y_of_k.size() <= 64;
  for (size_t i = 0; i < y_of_k.size(); ++i) {
    s.x.push_back(double(i));
    s.y.push_back(y_of_k[i]);
  }
  return s;
}

// The ratio w'_k / w_k of every panel of one model ("A: " / "B: " leading the labels of a compared pair).
void ratio_series(const ModelShown& s, const std::string& who, int colour, std::vector<Series>& out) {
  for (const RopePanel& p : s.panels) {
    const std::string prefix = who + (s.panels.size() > 1 ? p.name + ": " : "");
    auto add = [&](const std::string& label, const std::vector<double>& inv) {
      std::vector<double> y(inv.size());
      for (size_t i = 0; i < inv.size(); ++i) y[i] = inv[i] / p.unscaled[i];
      out.push_back(curve(prefix + label, colour++, y));
    };
    if (!p.short_inv.empty()) {
      add(trf("short factors (seq_len ≤ {0})", {std::to_string(p.rope.scaling.original_max_position_embeddings)}), p.short_inv);
      add(tr("long factors"), p.long_inv);
    } else {
      add("ω′ₖ / ωₖ", p.rope.frequencies.inv_freq);
    }
  }
}

std::vector<double> wavelengths(const std::vector<double>& inv) {
  std::vector<double> y(inv.size());
  for (size_t i = 0; i < inv.size(); ++i) y[i] = kTwoPi / inv[i];
  return y;
}

// The wavelengths in force at the lengths drawn: LongRoPE's short factors up to its original length and its long
// ones past it; otherwise those at the max length (dynamic NTK: rescaled there); the unscaled ones for one panel.
void wavelength_series(const ModelShown& s, const std::string& who, int colour, bool alone, std::vector<Series>& out) {
  for (const RopePanel& p : s.panels) {
    const std::string prefix = who + (s.panels.size() > 1 ? p.name + ": " : "");
    const ModelRope& r = p.rope;
    const int64_t switch_at = r.scaling.original_max_position_embeddings;
    if (!p.short_inv.empty() && r.max_position_embeddings > switch_at) {
      out.push_back(
          curve(prefix + trf("short factors (≤ {0})", {std::to_string(switch_at)}), colour++, wavelengths(p.short_inv)));
      out.push_back(curve(prefix + trf("long factors (> {0})", {std::to_string(switch_at)}), colour++, wavelengths(p.long_inv)));
    } else if (r.scaling.type == RopeScalingType::None) {
      out.push_back(curve(prefix + tr("wavelength 2π / ωₖ"), colour++, wavelengths(p.at_max)));
    } else {
      out.push_back(curve(prefix + (r.scaling.type == RopeScalingType::Dynamic
                                        ? trf("2π / ω′ₖ at {0}", {std::to_string(r.max_position_embeddings)})
                                        : std::string(tr("wavelength 2π / ω′ₖ"))),
                          colour++, wavelengths(p.at_max)));
    }
    if (alone && s.panels.size() == 1 && r.scaling.type != RopeScalingType::None)
      out.push_back(curve(prefix + tr("unscaled"), 0, wavelengths(p.unscaled)));
  }
}

// Horizontal lines at a model's trained and max lengths.
void length_lines(const ModelShown& s, const std::string& who, int first, double x_end, std::vector<Series>& out) {
  const ModelRope& r = s.panels.front().rope;
  const double trained = double(r.original_max_position_embeddings), max = double(r.max_position_embeddings);
  if (trained == max) {
    out.push_back(Series{who + trf("trained length {0}", {std::to_string(r.max_position_embeddings)}),
                         {0, x_end},
                         {max, max},
                         palette_color(first)});
    return;
  }
  out.push_back(Series{who + trf("original length {0}", {std::to_string(r.original_max_position_embeddings)}),
                       {0, x_end},
                       {trained, trained},
                       palette_color(first)});
  out.push_back(Series{who + trf("max length {0}", {std::to_string(r.max_position_embeddings)}),
                       {0, x_end},
                       {max, max},
                       palette_color(first + 1)});
}

double pairs_end(const ModelShown& s) {
  double end = 1;
  for (const RopePanel& p : s.panels) end = std::max(end, double(p.unscaled.size()) - 1);
  return end;
}

}  // namespace

void draw_model_header(const ModelShown& s, const std::string& label, const std::string& tail, const char* probe) {
  const ModelPosition& m = s.pos;
  ImGui::TextWrapped(tr("%s: model_type %s, position %s, head_dim %d, %d heads%s"), label.c_str(), m.model_type.c_str(),
                     position_kind_name(m.position), m.head_dim, m.num_attention_heads, tail.c_str());
  probe_last_item(probe);
  if (!m.per_layer.empty()) {
    ImGui::TextWrapped("%s", layer_summary_text(m.per_layer).c_str());
    probe_last_item((std::string(probe) + ".layers").c_str());
  }
  for (const Assumption& a : m.assumptions) {
    ImGui::PushStyleColor(ImGuiCol_Text, warning_color());
    ImGui::TextWrapped("%s", tr_message("assumed " + a.what + " = " + a.value + " (" + a.why + ")").c_str());
    ImGui::PopStyleColor();
  }
}

void draw_rope_card(const RopePanel& p, int head_dim, const std::string& probe_prefix) {
  const ModelRope& r = p.rope;
  const RopeScaling& sc = r.scaling;
  const bool scaled = sc.type != RopeScalingType::None;
  // As rope_width_text says it (posenc inspect): proportional RoPE's pairs split into rotating and frequency 0.
  if (const int zero = rope_frequency_zero_pairs(r); zero > 0)
    ImGui::TextWrapped(tr("rotary dims %d of %d (%d pairs: %d rotating, %d at frequency 0; %s layout), base %s"), r.rotary_dim,
                       head_dim, r.rotary_dim / 2, r.rotary_dim / 2 - zero, zero, rope_layout_name(r.layout),
                       format_number(r.base).c_str());
  else
    ImGui::TextWrapped(tr("rotary dims %d of %d (%d pairs, %s layout), base %s"), r.rotary_dim, head_dim, r.rotary_dim / 2,
                       rope_layout_name(r.layout), format_number(r.base).c_str());
  // Where the slice sits when it does not start the head (multi-head latent attention: q = [q_nope, q_pe]).
  if (r.rotary_offset > 0)
    ImGui::TextWrapped(tr("the rope slice is dims %d..%d of the head, the last (the first %d dims pass through)"),
                       r.rotary_offset, r.rotary_offset + r.rotary_dim - 1, r.rotary_offset);
  const long long trained = r.original_max_position_embeddings, max = r.max_position_embeddings;
  if (scaled)
    ImGui::TextWrapped(tr("rope_type %s, factor %s; lengths: original %lld, max %lld"), rope_type_name(sc.type),
                       format_number(sc.factor).c_str(), trained, max);
  else if (trained == max) ImGui::TextWrapped(tr("rope_type default (no scaling); trained length %lld"), max);
  else ImGui::TextWrapped(tr("rope_type default (no scaling); lengths: trained %lld, max %lld"), trained, max);
  // Only what applies: the cos/sin magnitude where a scaling sets one, a softmax scale that is not the
  // plain 1/sqrt(head_dim).
  const double plain_softmax = 1.0 / std::sqrt(double(head_dim));
  if (sc.type == RopeScalingType::Yarn || sc.type == RopeScalingType::Longrope || r.frequencies.attention_scaling != 1.0)
    ImGui::TextWrapped(tr("%s magnitude: attention_factor on cos/sin = %s"),
                       sc.type == RopeScalingType::Longrope ? "LongRoPE" : "YaRN",
                       format_number(r.frequencies.attention_scaling).c_str());
  if (std::abs(r.softmax_scale - plain_softmax) > 1e-12 * plain_softmax)
    ImGui::TextWrapped(tr("softmax scale on q·k = %s (not 1/√head_dim = %s)"), format_number(r.softmax_scale).c_str(),
                       format_number(plain_softmax).c_str());
  if (sc.mscale || sc.mscale_all_dim)
    ImGui::TextWrapped("mscale %s, mscale_all_dim %s", sc.mscale ? format_number(*sc.mscale).c_str() : tr("unset"),
                       sc.mscale_all_dim ? format_number(*sc.mscale_all_dim).c_str() : tr("unset"));
  for (const PairCounts& c : p.said) {
    const std::string counts = pair_behaviour_counts_shown(c.count, c.length, trained);
    const std::string line = *c.factors ? trf("pairs at {0} ({1:tr}): {2}", {std::to_string(c.length), c.factors, counts})
                                        : trf("pairs at {0}: {1}", {std::to_string(c.length), counts});
    ImGui::TextWrapped("%s", line.c_str());
    probe_last_item((probe_prefix + "pairs." + std::to_string(c.length)).c_str());
  }
  if (sc.type == RopeScalingType::Longrope)
    ImGui::TextWrapped(tr("LongRoPE: short factors up to seq_len %lld, long factors beyond (switch point)"),
                       (long long)sc.original_max_position_embeddings);
}

void draw_other_scheme(const ModelPosition& m, ImVec2 size) {
  switch (m.position) {
    case PositionKind::Alibi: {
      ImGui::TextWrapped(tr("ALiBi: score + slope_h * -(i - j), slopes by Press et al. for %zu heads (first %s, last %s)"),
                         m.alibi_slopes.size(), format_number(m.alibi_slopes.front()).c_str(),
                         format_number(m.alibi_slopes.back()).c_str());
      Series slopes = curve(tr("slope"), 1, m.alibi_slopes);
      slopes.markers = true;
      log_plot("plot.slopes", ImVec2(size.x, std::max(160.0f, size.y - 3 * ImGui::GetTextLineHeightWithSpacing())), {slopes},
               tr("head h"), tr("slope (log)"));
      break;
    }
    case PositionKind::T5:
      ImGui::TextWrapped(tr("T5 relative buckets: num_buckets %d, max_distance %lld, %s"), m.t5_num_buckets,
                         (long long)m.t5_max_distance, tr(m.t5_bidirectional ? "bidirectional (encoder)" : "causal"));
      ImGui::TextWrapped("%s", tr("Half the buckets are exact offsets, the rest log-spaced up to max_distance (Buckets view)."));
      break;
    case PositionKind::Deberta:
      ImGui::TextWrapped(tr("DeBERTa disentangled attention: bucket_size %lld, max_position %lld"),
                         (long long)m.deberta_bucket_size, (long long)m.deberta_max_position);
      break;
    case PositionKind::Learned:
      ImGui::TextWrapped(tr("Learned absolute positions: a table of %lld position vectors"),
                         (long long)m.learned_max_position_embeddings);
      break;
    default:
      ImGui::TextWrapped("%s",
                         tr(m.per_layer.empty() ? "No positional encoding."
                                                : "No positional encoding: no attention layer rotates (the layers below)."));
      break;
  }
}

void draw_model_differences(const std::vector<ModelDifference>& d, int64_t target) {
  ImGui::Separator();
  if (d.empty()) {
    ImGui::TextWrapped(tr("A and B place positions alike (no differences at length %lld)."), (long long)target);
  } else {
    ImGui::TextWrapped(tr("Differences, A vs B (extrapolated pairs at length %lld, the longer trained length):"),
                       (long long)target);
    // An assumed value (a default posenc took) is marked as such, as posenc inspect A B marks it.
    for (const ModelDifference& x : d) {
      const std::string a = tr_message(x.a.text) + (difference_assumed(x, "a") ? std::string(" ") + tr("(assumed)") : "");
      const std::string b = tr_message(x.b.text) + (difference_assumed(x, "b") ? std::string(" ") + tr("(assumed)") : "");
      ImGui::BulletText(tr("%s: %s vs %s"), tr_message(x.what).c_str(), a.c_str(), b.c_str());
    }
  }
  probe_last_item("text.model.differences");
}

void draw_model_plots(const ModelPlots& p, float width, float plot_h) {
  const bool two = p.b && !p.b->panels.empty();
  const std::string a_who = two ? "A: " : "", b_who = "B: ";
  if (p.ratio) {
    std::vector<Series> ratio;
    ratio_series(*p.a, a_who, first_colour(false), ratio);
    if (two) ratio_series(*p.b, b_who, first_colour(true), ratio);
    log_plot("plot.ratio", ImVec2(width, plot_h), ratio, tr("pair k"), tr("ω′ₖ / ωₖ (log)"));
  }
  if (p.wavelength) {
    std::vector<Series> wl;
    wavelength_series(*p.a, a_who, first_colour(false), !two, wl);
    if (two) wavelength_series(*p.b, b_who, first_colour(true), false, wl);
    const double x_end = std::max(pairs_end(*p.a), two ? pairs_end(*p.b) : 1.0);
    length_lines(*p.a, a_who, 5, x_end, wl);
    if (two) length_lines(*p.b, b_who, 7, x_end, wl);
    log_plot("plot.wavelength", ImVec2(width, plot_h), wl, tr("pair k"), tr("positions per turn (log)"));
  }
}

}  // namespace posenc::app
