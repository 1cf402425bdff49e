// RoPE: one pair's rotation animated over position, RoFormer's long-range decay bound of q.k versus
// relative distance, and the context-extension methods beyond the trained length (per-pair frequency
// ratio; rotation angle at the target length vs. the angle seen in training). A real model
// (model=<preset id>, or a loaded config) fills the keys: dim = its rotary dims, base, scaling and its
// parameters, trained and target lengths.
//
// Sections, top to bottom: the view's keys (params) and numbers; scaling and filling from a model
// (scaling_for, fill_from_model); recompute; controls; the rotation dial and the pair tooltip; the export;
// the animation; draw_figure (dial, decay bound, per-pair extension plots).
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "app/theme.h"
#include "app/controls.h"
#include "app/i18n.h"
#include "app/model_link.h"
#include "app/plot.h"
#include "app/input.h"
#include "app/probe.h"
#include "app/views/view_texts.h"
#include "app/views/views.h"
#include "core/encodings/rope.h"
#include "core/analysis/rope_analysis.h"

namespace posenc::app {
namespace {

constexpr int kMaxHeadWidth = 1024;
constexpr int kMaxContext = 1 << 22;  // target / trained lengths and decay distances accepted
constexpr double kMaxFactor = 64.0;
// The methods this view compares: every scaling but LongRoPE, whose per-pair factors come from a model
// (the Model view shows it).
constexpr auto kScalingNames = names_of<RopeScalingType>().first(size_t(RopeScalingType::Longrope));
constexpr int kScalingCount = int(kScalingNames.size());
constexpr double kTwoPi = 2.0 * std::numbers::pi;
// What the combo shows, in RopeScalingType order (the URL names are the core's).
constexpr const char* kScalingLabels[] = {"none",     "linear (position interpolation)", "NTK-aware", "dynamic NTK", "YaRN",
                                          "Llama 3.1"};
static_assert(std::size(kScalingLabels) == kScalingCount);
// One colour per method in every plot (palette index), so legends and tests can rely on it.
constexpr int kScalingColor[] = {7, 1, 2, 4, 5, 6};

ImU32 scaling_color(RopeScalingType type) { return palette_color(kScalingColor[int(type)]); }

class RopeView final : public ModelLinkedView {
 public:
  explicit RopeView(ViewText text) : ModelLinkedView(std::move(text)) {}

  void params(ParamList& p) override {
    declare_model(p);
    p.integer("dim", dim_, 2, kMaxHeadWidth, {.label = "Head width d (even)", .format = "d = %d", .log = true, .even = true});
    p.real("base", base_, kBaseMin, kBaseMax, {.label = "Base", .format = "base = %.0f", .log = true});
    p.choice("scaling", scaling_, kScalingNames, {.label = "Context extension", .labels = kScalingLabels});
    p.real("factor", factor_, 1.0, kMaxFactor, {.label = "Factor f", .format = "f = %.3g", .log = true});
    p.integer("orig", orig_, 16, kMaxContext, {.label = "Trained length L", .format = "L = %d", .log = true});
    p.integer("target", target_, 16, kMaxContext, {.label = "Target length T", .format = "T = %d", .log = true});
    p.integer("pair", pair_, 0, dim_ / 2 - 1, {.label = "Pair k (animation)", .format = "k = %d"});
    p.integer("pos", pos_, 0, target_ - 1, {.label = "Position p", .format = "p = %d", .log = true});
    p.flag("play", play_, {.label = "Play"});
    p.flag("compare", compare_, {.label = "compare all methods"});
    p.integer("decay", decay_max_, 1, kMaxContext, {.label = "Decay plot: max distance", .format = "%d", .log = true});
    extra_.declare(p);
  }

  void export_data(std::vector<ExportTable>& tables) const override;
  int behaviour(PairBehaviour b) const { return analysis_.behaviours[static_cast<size_t>(b)]; }
  // rope_extension_summary in the interface's language, one behaviour at a time (the core's phrases are
  // the catalogue's keys).
  std::string summary_text() const {
    const std::string list = pair_behaviour_counts_shown(analysis_.behaviours, analysis_.target_length, analysis_.trained_length);
    return trf("At T = {0} with L = {1}: {2}",
               {std::to_string(analysis_.target_length), std::to_string(analysis_.trained_length), list});
  }
  void numbers(std::vector<DescribedNumber>& out) const override {
    // The Model view's classes: "interpolated" only where the scaling slows a pair.
    out.push_back({"pairs turned fully in training", double(behaviour(PairBehaviour::FullTurn))});
    out.push_back({"pairs interpolated", double(behaviour(PairBehaviour::Interpolated))});
    out.push_back({"pairs extrapolated", double(behaviour(PairBehaviour::Extrapolated))});
    out.push_back({"pairs turning less than once in training", double(behaviour(PairBehaviour::LessThanOnce))});
    if (behaviour(PairBehaviour::NoRotation) > 0)
      out.push_back({"pairs not rotating (frequency 0)", double(behaviour(PairBehaviour::NoRotation))});
    out.push_back({"attention scaling", analysis_.attention_scaling});
  }

 private:
  void controls(Controls& c) override;
  void recompute() override;
  void draw_figure(ImVec2 size) override;
  std::string key_for_field(const std::string& field) const override;

  RopeScaling scaling_for(RopeScalingType type) const;
  ModelFill fill_from_model(const ModelPosition& m) override;
  void draw_rotation(ImVec2 size);
  void pair_tooltip(double x) const;
  bool scaled() const { return scaling_ != RopeScalingType::None; }
  std::vector<double> pair_indices() const;

  int dim_ = 128;
  double base_ = 10000.0;
  RopeScalingType scaling_ = RopeScalingType::Yarn;
  double factor_ = 4.0;
  int orig_ = 4096;
  int target_ = 16384;
  int pair_ = 48;
  int pos_ = 0;
  bool play_ = true;
  bool compare_ = true;
  int decay_max_ = 512;
  RopeExtraKeys extra_;  // YaRN's and Llama 3's parameters

  void advance_animation();
  double anim_pos_ = 0;      // animated position (fractional between frames); not part of the state
  int advanced_frame_ = -1;  // the ImGui frame anim_pos_ was last advanced in
  int anim_from_ = -1;       // pos_ the animation last started from: a new pos_ restarts it there
  RopeExtensionAnalysis analysis_;
  std::vector<double> ratio_by_type_[kScalingCount];  // per scaling type, per pair (empty when it cannot be computed)
  std::vector<double> decay_x_, decay_plain_, decay_scaled_;
};

RopeScaling RopeView::scaling_for(RopeScalingType type) const {
  RopeScaling s;
  s.type = type;
  s.factor = factor_;
  s.original_max_position_embeddings = orig_;
  extra_.apply(s);  // YaRN's and Llama 3's keys (default: transformers' defaults, Llama 3.1's values)
  return s;
}

// The model's full-attention RoPE into this view's keys. LongRoPE's per-pair factors, other layer types'
// RoPE and a softmax factor beyond 1/sqrt(head_dim) have no key here: each is a notice naming `model`.
ModelFill RopeView::fill_from_model(const ModelPosition& m) {
  ModelFill f;
  const std::string name = m.model_type.empty() ? std::string("the model") : m.model_type;
  if (m.position != PositionKind::Rope || !m.rope) {
    f.gap(name + " uses " + position_kind_name(m.position) +
          " positions, not RoPE: the RoPE view's keys are unchanged (view=model shows its scheme).");
    return f;
  }
  const ModelRope& r = *m.rope;
  const RopeScaling& s = r.scaling;
  auto clamped = [&](const char* key, double v, double lo, double hi) {
    if (v < lo || v > hi)
      f.gap(name + "'s " + key + " " + format_number(v) + " is outside the RoPE view's range [" + format_number(lo) + ", " +
            format_number(hi) + "]: shown at " + format_number(std::clamp(v, lo, hi)) + ".");
    return std::clamp(v, lo, hi);
  };
  dim_ = int(clamped("rotary dims", r.rotary_dim, 2, kMaxHeadWidth)) & ~1;
  base_ = clamped("base", r.base, kBaseMin, kBaseMax);
  if (s.type == RopeScalingType::Proportional) {
    scaling_ = RopeScalingType::None;
    f.gap(name +
          " uses proportional RoPE (zero frequencies beyond a fraction of the pairs), which the RoPE view "
          "has no keys for: it shows unscaled RoPE. view=model shows it exactly.");
  } else if (s.type == RopeScalingType::Longrope) {
    scaling_ = RopeScalingType::None;
    f.gap(name + " uses LongRoPE: per-pair short/long factors (" + std::to_string(s.short_factor.size()) + " each, long beyond " +
          std::to_string(s.original_max_position_embeddings) +
          " positions), which the RoPE view has no keys for: it shows unscaled RoPE at the model's base and lengths. "
          "view=model shows LongRoPE exactly.");
  } else {
    scaling_ = s.type;
  }
  f.keys = {"dim", "base", "scaling", "orig", "target"};
  if (scaling_ != RopeScalingType::None) {
    factor_ = clamped("factor", s.factor, 1.0, kMaxFactor);
    f.keys.push_back("factor");
  }
  const int64_t trained = scaling_ != RopeScalingType::None
                              ? trained_length(s.original_max_position_embeddings, r.original_max_position_embeddings)
                              : r.original_max_position_embeddings;
  orig_ = int(clamped("original length", double(trained), 16, kMaxContext));
  target_ = int(clamped("max length", double(r.max_position_embeddings), 16, kMaxContext));
  RopeScaling shown = s;
  shown.type = scaling_;  // the keys of the scaling the view shows (none for LongRoPE and p-RoPE)
  extra_.fill(shown, f.keys);
  pair_ = std::min(pair_, dim_ / 2 - 1);
  pos_ = std::min(pos_, target_ - 1);
  if (!m.layers.empty())
    f.gap(name + " has layer types with their own RoPE (" + other_layer_ropes(m) +
          "): the RoPE view shows the full_attention layers'; view=model shows each.");
  const double plain = 1.0 / std::sqrt(double(m.head_dim));
  if (std::abs(r.softmax_scale - plain) > 1e-12 * plain)
    f.gap(name + " multiplies q.k by " + format_number(r.softmax_scale) + " (1/sqrt(head_dim) = " + format_number(plain) + ", x" +
          format_number(r.softmax_scale / plain) + "), a factor outside the rotation the RoPE view draws.");
  return f;
}

std::string RopeView::key_for_field(const std::string& field) const {
  // The core's field names (rope.cpp, rope_analysis.cpp) to this view's keys (dim and base are both).
  const std::string key = renamed_key(
      field, {{"scaling.original_max_position_embeddings", "orig"}, {"target_length", "target"}, {"max_distance", "decay"}});
  return key.empty() ? scaling_key(field, "scaling.", "scaling") : key;
}

void RopeView::recompute() {
  // A position set from outside (URL, slider, pause) is where the animation continues from.
  if (pos_ != anim_from_) anim_pos_ = anim_from_ = pos_;
  analysis_ = {};
  for (auto& r : ratio_by_type_) r.clear();
  decay_x_.clear();
  decay_plain_.clear();
  decay_scaled_.clear();
  analysis_ = rope_extension_analysis(dim_, base_, scaling_for(scaling_), target_);
  for (int t = 0; t < kScalingCount; ++t) {
    try {
      const auto a = rope_extension_analysis(dim_, base_, scaling_for(static_cast<RopeScalingType>(t)), target_);
      for (const auto& p : a.pairs) ratio_by_type_[t].push_back(p.ratio);
    } catch (const InvalidArgument&) {
      // A method that cannot run at this dim (NTK needs dim >= 4) is left out of the comparison.
    }
  }
  const std::vector<int64_t> dist = sample_distances(decay_max_, 2048);
  std::vector<double> plain_freq, scaled_freq;
  for (const auto& p : analysis_.pairs) {
    plain_freq.push_back(p.inv_freq);
    scaled_freq.push_back(p.inv_freq_scaled);
  }
  decay_plain_ = rope_decay_bound_normalised(plain_freq, dist);
  decay_scaled_ = rope_decay_bound_normalised(scaled_freq, dist);
  decay_x_.assign(dist.begin(), dist.end());
}

void RopeView::controls(Controls& c) {
  draw_model_controls();
  if (c.draw("dim")) pair_ = std::min(pair_, dim_ / 2 - 1);
  c.draw("base");
  c.draw("scaling");
  c.draw("factor");
  for (const char* k : RopeExtraKeys::keys_of(scaling_)) c.draw(k);
  c.draw("orig");
  if (c.draw("target")) pos_ = std::min(pos_, target_ - 1);
  if (ImGui::SmallButton("T = f L")) {
    const Param& t = c.param("target");
    target_ = std::clamp(int(std::lround(factor_ * orig_)), int(t.lo), int(t.hi));
    pos_ = std::min(pos_, target_ - 1);
  }
  ImGui::Separator();
  c.draw("pair");
  {
    // The position slider follows the animation while it plays; moving it pauses there.
    advance_animation();
    const Param& p = c.param("pos");
    ImGui::TextUnformatted(tr(p.label()));
    int shown = play_ ? int(anim_pos_) : pos_;
    if (ImGui::SliderInt("##pos", &shown, int(p.lo), int(p.hi), p.opt.format,
                         ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp)) {
      pos_ = shown;
      anim_pos_ = shown;
      play_ = false;
    }
    probe_last_item("slider.pos");
    if (const int steps = focused_slider_steps(p)) {  // an arrow key steps from the shown position, and pauses
      pos_ = shown;
      if (step_param(p, steps) || play_) anim_pos_ = pos_, play_ = false;
    }
  }
  note_shown_param("play");
  if (ImGui::Button((std::string(tr(play_ ? "Pause" : "Play")) + "###play").c_str())) {
    play_ = !play_;
    if (!play_) pos_ = std::min(int(anim_pos_), target_ - 1);
    anim_pos_ = pos_;
  }
  probe_last_item("button.play");
  c.draw("decay");
  c.draw("compare");
}

void RopeView::draw_rotation(ImVec2 size) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const int pair = std::clamp(pair_, 0, int(analysis_.pairs.size()) - 1);
  const RopePairAnalysis& p = analysis_.pairs[pair];
  const double pos = play_ ? std::floor(anim_pos_) : pos_;
  const double angle = pos * p.inv_freq, angle_scaled = pos * p.inv_freq_scaled;

  const float text_h = 5 * line;
  const float radius = std::max(10.0f, std::min(size.x * 0.5f, size.y - text_h) * 0.5f - 12);
  const ImVec2 c(origin.x + size.x * 0.5f, origin.y + text_h + (size.y - text_h) * 0.5f);
  probe_rect("canvas.rotation", ImVec2(c.x - radius, c.y - radius), ImVec2(c.x + radius, c.y + radius));

  // Trained range: angles swept by a length-L window, [0, L w_k] (the whole circle after one turn).
  const double trained = std::min(p.trained_angle, kTwoPi);
  const int segments = std::max(2, int(trained / kTwoPi * 96));
  dl->PathLineTo(c);
  for (int s = 0; s <= segments; ++s) {
    const double a = trained * s / segments;  // y up: screen y = c.y - r sin(a)
    dl->PathLineTo(ImVec2(c.x + radius * float(std::cos(a)), c.y - radius * float(std::sin(a))));
  }
  dl->PathFillConvex(IM_COL32(0, 158, 115, trained >= kTwoPi ? 40 : 70));
  dl->AddCircle(c, radius, IM_COL32(160, 160, 160, 160), 96);
  dl->AddLine(ImVec2(c.x - radius, c.y), ImVec2(c.x + radius, c.y), IM_COL32(120, 120, 120, 80));
  dl->AddLine(ImVec2(c.x, c.y - radius), ImVec2(c.x, c.y + radius), IM_COL32(120, 120, 120, 80));
  auto arrow = [&](double a, ImU32 col, float r) {
    const ImVec2 tip(c.x + r * float(std::cos(a)), c.y - r * float(std::sin(a)));
    dl->AddLine(c, tip, col, 3.0f);
    dl->AddCircleFilled(tip, 5.0f, col);
  };
  if (scaled()) arrow(angle_scaled, scaling_color(scaling_), radius * 0.8f);
  arrow(angle, palette_color(0), radius);

  ImGui::PushTextWrapPos(origin.x + size.x);
  ImGui::Text(tr("pair k = %d: ωₖ = %.6g, wavelength %.6g"), pair, p.inv_freq, p.wavelength);
  ImGui::Text(tr("p = %.0f: p·ωₖ = %.6g rad = %.4g turns"), pos, angle, angle / kTwoPi);
  if (scaled())
    ImGui::TextColored(readable_text(scaling_color(scaling_)), tr("%s: ω′ₖ = %.6g (×%.4g), p·ω′ₖ = %.6g rad"),
                       tr_name(name_of(scaling_)), p.inv_freq_scaled, p.ratio, angle_scaled);
  ImGui::TextColored(readable_text(IM_COL32(0, 158, 115, 255)), tr("green: seen in training, L·ωₖ = %.6g rad%s"), p.trained_angle,
                     p.trained_angle >= kTwoPi ? tr(" (full turn)") : "");
  ImGui::PopTextWrapPos();
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + size.y));
  ImGui::Dummy(ImVec2(size.x, 0));
}

// Appends the selected method's numbers for the pair nearest to x to the plot's hover tooltip.
void RopeView::pair_tooltip(double x) const {
  const int k = std::clamp(int(std::lround(x)), 0, int(analysis_.pairs.size()) - 1);
  const RopePairAnalysis& p = analysis_.pairs[k];
  begin_readout();
  ImGui::Separator();
  ImGui::Text(tr("pair k = %d (%s): %s"), k, tr_name(name_of(scaling_)), tr(pair_coverage_name(p.coverage)));
  ImGui::Text("ωₖ = %.17g, ω′ₖ = %.17g", p.inv_freq, p.inv_freq_scaled);
  ImGui::Text(tr("ratio ω′ₖ / ωₖ = %.17g, wavelength 2π / ωₖ = %.10g"), p.ratio, p.wavelength);
  ImGui::Text("L·ωₖ = %.17g rad, T·ω′ₖ = %.17g rad", p.trained_angle, p.target_angle);
  end_readout();
}

std::vector<double> RopeView::pair_indices() const {
  std::vector<double> ks(analysis_.pairs.size());
  for (size_t k = 0; k < ks.size(); ++k) ks[k] = double(k);
  return ks;
}

void RopeView::export_data(std::vector<ExportTable>& tables) const {
  if (failed() || analysis_.pairs.empty()) return;
  const int selected = int(scaling_);
  std::vector<ExportSeries> decay{{"no scaling", decay_x_, decay_plain_}};
  if (scaled()) decay.push_back({name_of(scaling_), decay_x_, decay_scaled_});
  tables.push_back(curve_table("decay", "relative distance m", "bound / bound(0)", "m", decay));

  const int half = int(analysis_.pairs.size());
  const std::vector<double> ks = pair_indices();
  // The ratio plot's curves in its order: the compared methods, then the selected one.
  std::vector<ExportSeries> ratio;
  for (int t = 1; t < kScalingCount; ++t)
    if (t != selected && compare_ && !ratio_by_type_[t].empty())
      ratio.push_back({name_of(static_cast<RopeScalingType>(t)), ks, ratio_by_type_[t]});
  if (!ratio_by_type_[selected].empty())
    ratio.push_back({std::string(name_of(scaling_)) + " (selected)", ks, ratio_by_type_[selected]});
  tables.push_back(curve_table("frequency_ratio", "pair k", "w'_k / w_k", "k", ratio));

  ExportSeries trained{"trained L w_k", ks, {}}, target{"target T w'_k", ks, {}}, extrapolated{"extrapolated", ks, {}};
  ExportSeries turn{"2 pi", ks, std::vector<double>(size_t(half), kTwoPi)};
  for (const auto& p : analysis_.pairs) {
    trained.y.push_back(p.trained_angle);
    target.y.push_back(p.target_angle);
    extrapolated.y.push_back(p.coverage == PairCoverage::Extrapolated ? p.target_angle : NAN);
  }
  tables.push_back(curve_table("angles", "pair k", "rotation angle (rad)", "k", {trained, target, extrapolated, turn}));

  // Every pair's numbers of the selected method (what the hovers show).
  ExportTable pairs{"pairs",
                    "pair k",
                    "",
                    {"k", "inv_freq", "inv_freq_scaled", "ratio", "wavelength", "trained_angle", "target_angle", "extrapolated"},
                    {}};
  for (const auto& p : analysis_.pairs)
    pairs.rows.push_back({double(p.pair), p.inv_freq, p.inv_freq_scaled, p.ratio, p.wavelength, p.trained_angle, p.target_angle,
                          p.coverage == PairCoverage::Extrapolated ? 1.0 : 0.0});
  tables.push_back(std::move(pairs));
  // The selected method's magnitude and the counts the summary line gives.
  tables.push_back(ExportTable{std::string("summary (") + name_of(scaling_) + ")",
                               "",
                               "",
                               {"dim", "base", "factor", "orig", "target", "attention_scaling", "full_turns", "interpolated",
                                "extrapolated", "less_than_once", "no_rotation"},
                               {{double(dim_), base_, factor_, double(orig_), double(target_), analysis_.attention_scaling,
                                 double(behaviour(PairBehaviour::FullTurn)), double(behaviour(PairBehaviour::Interpolated)),
                                 double(behaviour(PairBehaviour::Extrapolated)), double(behaviour(PairBehaviour::LessThanOnce)),
                                 double(behaviour(PairBehaviour::NoRotation))}}});
}

void RopeView::advance_animation() {
  // Once per frame, before the slider or the figure reads it, so both show the same position whichever
  // is drawn first (the controls come first beside or above the plots; an embed may draw no controls).
  const int frame = ImGui::GetFrameCount();
  if (!play_ || frame == advanced_frame_) return;
  advanced_frame_ = frame;
  // Cheap per-frame work only: advance the position so one sweep of [0, T) takes about 12 s.
  anim_pos_ += ImGui::GetIO().DeltaTime * std::max(1.0, target_ / 12.0);
  if (anim_pos_ >= target_) anim_pos_ = 0;
}

void RopeView::draw_figure(ImVec2 size) {
  advance_animation();

  const float text_top = ImGui::GetCursorScreenPos().y;
  if (!alone()) {
    if (const std::string caption = model_caption(); !caption.empty()) {
      ImGui::TextWrapped("%s", tr_message(caption).c_str());
      probe_last_item("text.rope.model");
    }
    // What the pairs do at T, in the Model view's classes (only pairs a scaling slows are "interpolated").
    const std::string summary = summary_text() + (analysis_.attention_scaling != 1.0 ? "" : tr("."));
    ImGui::TextWrapped("%s", summary.c_str());
    probe_last_item("text.rope.summary");
    if (analysis_.attention_scaling != 1.0) ImGui::Text(tr("YaRN attention scaling %.6g."), analysis_.attention_scaling);
  }
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  size.y -= origin.y - text_top;
  const int selected = int(scaling_);
  const int half = int(analysis_.pairs.size());
  const std::vector<double> ks = pair_indices();
  // Wide: a 2 x 2 grid (rotation, decay / ratio, angles); stacked: the shown figures one per row.
  const char* order[4] = {"rotation", "decay", "ratio", "angles"};
  int shown = 0;
  for (const char* f : order) shown += shows(f) ? 1 : 0;
  const float row_h = stacked() ? size.y / std::max(1, shown) : size.y * 0.5f;
  const float cell_w = stacked() ? size.x : size.x * 0.5f;
  auto cell = [&](int grid_index) {
    // Stacked: the main figure (angles) first, then ratio, decay, rotation.
    int rank = 0;
    for (int k = grid_index + 1; k < 4; ++k) rank += shows(order[k]) ? 1 : 0;
    const ImVec2 at = stacked() ? ImVec2(origin.x, origin.y + rank * row_h)
                                : ImVec2(origin.x + (grid_index % 2) * cell_w, origin.y + (grid_index / 2) * row_h);
    ImGui::SetCursorScreenPos(at);
  };
  const float half_w = cell_w, half_h = row_h;

  // Top left: the rotating pair.
  if (shows("rotation")) {
    cell(0);
    draw_rotation(ImVec2(half_w - 8, half_h - 4));
    probe_plot("rotation", "canvas.rotation");
  }

  // Top right: long-range decay.
  if (shows("decay")) {
    cell(1);
    std::vector<Series> s;
    s.push_back(Series{tr("no scaling"), decay_x_, decay_plain_, palette_color(0), false, false});
    if (scaled()) s.push_back(Series{tr_name(name_of(scaling_)), decay_x_, decay_scaled_, scaling_color(scaling_), false, false});
    const LinePlotOptions o{.x_title = tr("relative distance m"),
                            .y_title = tr("bound / bound(0)"),
                            .y_min = 0,
                            .y_max = 1.02,
                            .x_min = 0,
                            .x_max = double(decay_max_)};
    line_plot("plot.decay", ImVec2(half_w, half_h - 4), s, o);
  }

  // Bottom left: per-pair frequency ratio w'_k / w_k.
  if (shows("ratio")) {
    cell(2);
    std::vector<Series> s;
    for (int t = 1; t < kScalingCount; ++t) {
      if (t == selected || !compare_ || ratio_by_type_[t].empty()) continue;
      const auto type = static_cast<RopeScalingType>(t);
      s.push_back(Series{tr_name(name_of(type)), ks, ratio_by_type_[t], scaling_color(type), false, false});
    }
    if (!ratio_by_type_[selected].empty())  // the selected method last: drawn on top
      s.push_back(Series{trf("{0} (selected)", {tr_name(name_of(scaling_))}), ks, ratio_by_type_[selected],
                         scaling_color(scaling_), half <= 64, false});
    const LinePlotOptions o{.x_title = tr("pair k"),
                            .y_title = "ω′ₖ / ωₖ",
                            .y_min = 0,
                            .y_max = 1.05,
                            .x_min = 0,
                            .x_max = double(std::max(1, half - 1))};
    const PlotHover h = line_plot("plot.ratio", ImVec2(half_w - 8, half_h), s, o);
    if (h.active) pair_tooltip(h.x);
  }

  // Bottom right: largest angle at the target length vs. the angle seen in training.
  if (shows("angles")) {
    cell(3);
    Series trained{tr("trained L·ωₖ"), {}, {}, palette_color(0), false, false};
    Series target{tr("target T·ω′ₖ"), {}, {}, scaling_color(scaling_), false, false};
    Series extrapolated{tr("extrapolated"), {}, {}, IM_COL32(230, 60, 60, 255), true, false};
    // The reference line in the theme's text colour, so it reads on light and dark backgrounds.
    Series turn{"2π", {0.0, double(std::max(1, half - 1))}, {kTwoPi, kTwoPi}, ImGui::GetColorU32(ImGuiCol_Text, 0.6f), false,
                false};
    for (const auto& p : analysis_.pairs) {
      trained.x.push_back(p.pair);
      trained.y.push_back(p.trained_angle);
      target.x.push_back(p.pair);
      target.y.push_back(p.target_angle);
      if (p.coverage == PairCoverage::Extrapolated) {  // only these points: the hover never shows a gap value
        extrapolated.x.push_back(p.pair);
        extrapolated.y.push_back(p.target_angle);
      }
    }
    LinePlotOptions o;
    o.x_title = tr("pair k");
    o.y_title = tr("rotation angle (rad), log");
    o.log_y = true;
    o.x_min = 0;
    o.x_max = std::max(1, half - 1);
    const PlotHover h = line_plot("plot.angles", ImVec2(half_w, half_h), {trained, target, extrapolated, turn}, o);
    if (h.active) pair_tooltip(h.x);
  }
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + size.y));
  ImGui::Dummy(ImVec2(size.x, 0));
}

}  // namespace

std::unique_ptr<View> make_rope_view(ViewText text) { return std::make_unique<RopeView>(std::move(text)); }

}  // namespace posenc::app
