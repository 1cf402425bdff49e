#include "app/views/rope_view.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "app/controls.h"
#include "app/plot.h"
#include "app/probe.h"
#include "app/state_params.h"

namespace posenc::app {
namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;
const char* const kScalingNames[] = {"none", "linear", "ntk", "dynamic", "yarn", "llama3"};
const char* const kScalingLabels[] = {"none",         "linear (position interpolation)", "NTK-aware",
                                      "dynamic NTK",  "YaRN",                            "Llama 3.1"};
// One colour per method in every plot (palette index), so legends and tests can rely on it.
const int kScalingColor[] = {7, 1, 2, 4, 5, 6};

ImU32 scaling_color(int type) { return palette_color(kScalingColor[type]); }

}  // namespace

RopeScaling RopeView::scaling_for(RopeScalingType type) const {
  RopeScaling s;
  s.type = type;
  s.factor = factor_;
  s.original_max_position_embeddings = orig_;
  s.low_freq_factor = 1.0;  // Llama 3.1's published values
  s.high_freq_factor = 4.0;
  return s;
}

void RopeView::recompute() {
  dirty_ = false;
  error_.clear();
  analysis_ = {};
  for (auto& r : ratio_by_type_) r.clear();
  decay_x_.clear();
  decay_plain_.clear();
  decay_scaled_.clear();
  const auto selected = static_cast<RopeScalingType>(scaling_);
  try {
    analysis_ = rope_extension_analysis(dim_, base_, scaling_for(selected), target_);
    for (int t = 0; t < 6; ++t) {
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
  } catch (const InvalidArgument& e) {
    error_ = "Cannot compute (" + e.field() + "): " + e.what();
    analysis_ = {};
  }
}

bool RopeView::draw_controls() {
  bool changed = false;
  const auto log_clamp = ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp;
  ImGui::TextUnformatted("Head width d (even)");
  int d = dim_;
  if (ImGui::SliderInt("##dim", &d, 2, kMaxDim, "d = %d", log_clamp)) {
    d = std::max(2, d - d % 2);
    if (d != dim_) {
      dim_ = d;
      pair_ = std::min(pair_, dim_ / 2 - 1);
      changed = true;
    }
  }
  probe_last_item("slider.dim");
  changed |= base_slider(base_);
  ImGui::TextUnformatted("Context extension");
  changed |= ImGui::Combo("##scaling", &scaling_, kScalingLabels, 6);
  probe_last_item("combo.scaling");
  ImGui::TextUnformatted("Factor f");
  static constexpr double kOne = 1.0, kMaxF = kMaxFactor;
  changed |= ImGui::SliderScalar("##factor", ImGuiDataType_Double, &factor_, &kOne, &kMaxF, "f = %.3g", log_clamp);
  probe_last_item("slider.factor");
  ImGui::TextUnformatted("Trained length L");
  changed |= ImGui::SliderInt("##orig", &orig_, 16, kMaxLength, "L = %d", log_clamp);
  probe_last_item("slider.orig");
  ImGui::TextUnformatted("Target length T");
  changed |= ImGui::SliderInt("##target", &target_, 16, kMaxLength, "T = %d", log_clamp);
  probe_last_item("slider.target");
  if (ImGui::SmallButton("T = f L")) {
    target_ = std::clamp(int(std::lround(factor_ * orig_)), 16, kMaxLength);
    changed = true;
  }
  ImGui::Separator();
  ImGui::TextUnformatted("Pair k (animation)");
  changed |= ImGui::SliderInt("##pair", &pair_, 0, dim_ / 2 - 1, "k = %d", ImGuiSliderFlags_AlwaysClamp);
  probe_last_item("slider.pair");
  ImGui::TextUnformatted("Position p");
  int shown = play_ ? int(anim_pos_) : pos_;
  if (ImGui::SliderInt("##pos", &shown, 0, target_ - 1, "p = %d", log_clamp)) {
    pos_ = shown;
    anim_pos_ = shown;
    play_ = false;
    changed = true;
  }
  probe_last_item("slider.pos");
  if (ImGui::Button(play_ ? "Pause" : "Play")) {
    play_ = !play_;
    if (!play_) pos_ = std::min(int(anim_pos_), target_ - 1);
    anim_pos_ = pos_;
    changed = true;
  }
  probe_last_item("button.play");
  ImGui::TextUnformatted("Decay plot: max distance");
  changed |= ImGui::SliderInt("##decay", &decay_max_, 1, kMaxLength, "%d", log_clamp);
  probe_last_item("slider.decay");
  changed |= ImGui::Checkbox("compare all methods", &compare_);
  error_text(error_);
  if (changed) dirty_ = true;
  return changed;
}

void RopeView::draw_rotation(ImVec2 size) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const RopePairAnalysis& p = analysis_.pairs[pair_];
  const double pos = play_ ? std::floor(anim_pos_) : pos_;
  const double angle = pos * p.inv_freq, angle_scaled = pos * p.inv_freq_scaled;
  const auto type = static_cast<RopeScalingType>(scaling_);

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
  if (type != RopeScalingType::None) arrow(angle_scaled, scaling_color(scaling_), radius * 0.8f);
  arrow(angle, palette_color(0), radius);

  ImGui::PushTextWrapPos(origin.x + size.x);
  ImGui::Text("pair k = %d: w_k = %.6g, wavelength %.6g", pair_, p.inv_freq, p.wavelength);
  ImGui::Text("p = %.0f: p w_k = %.6g rad = %.4g turns", pos, angle, angle / kTwoPi);
  if (type != RopeScalingType::None)
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(scaling_color(scaling_)),
                       "%s: w'_k = %.6g (x%.4g), p w'_k = %.6g rad", kScalingNames[scaling_], p.inv_freq_scaled,
                       p.ratio, angle_scaled);
  ImGui::TextColored(ImVec4(0.0f, 0.62f, 0.45f, 1.0f), "green: seen in training, L w_k = %.6g rad%s",
                     p.trained_angle, p.trained_angle >= kTwoPi ? " (full turn)" : "");
  ImGui::PopTextWrapPos();
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + size.y));
  ImGui::Dummy(ImVec2(size.x, 0));
}

// Appends the selected method's numbers for the pair nearest to x to the plot's hover tooltip.
void RopeView::pair_tooltip(double x) const {
  const int k = std::clamp(int(std::lround(x)), 0, int(analysis_.pairs.size()) - 1);
  const RopePairAnalysis& p = analysis_.pairs[k];
  ImGui::BeginTooltip();
  ImGui::Separator();
  ImGui::Text("pair k = %d (%s): %s", k, kScalingNames[scaling_], pair_coverage_name(p.coverage));
  ImGui::Text("w_k = %.17g, w'_k = %.17g", p.inv_freq, p.inv_freq_scaled);
  ImGui::Text("ratio w'_k / w_k = %.17g, wavelength 2 pi / w_k = %.10g", p.ratio, p.wavelength);
  ImGui::Text("L w_k = %.17g rad, T w'_k = %.17g rad", p.trained_angle, p.target_angle);
  ImGui::EndTooltip();
}

void RopeView::prepare() {
  if (dirty_) recompute();
}

void RopeView::export_data(std::vector<ExportTable>& tables) const {
  if (analysis_.pairs.empty()) return;
  std::vector<ExportSeries> decay{{"no scaling", decay_x_, decay_plain_}};
  if (scaling_ != int(RopeScalingType::None)) decay.push_back({kScalingNames[scaling_], decay_x_, decay_scaled_});
  tables.push_back(curve_table("decay", "relative distance m", "bound / bound(0)", "m", decay));

  const int half = int(analysis_.pairs.size());
  std::vector<double> ks(half);
  for (int k = 0; k < half; ++k) ks[k] = k;
  // The ratio plot's curves in its order: the compared methods, then the selected one.
  std::vector<ExportSeries> ratio;
  for (int t = 1; t < 6; ++t)
    if (t != scaling_ && compare_ && !ratio_by_type_[t].empty()) ratio.push_back({kScalingNames[t], ks, ratio_by_type_[t]});
  if (!ratio_by_type_[scaling_].empty())
    ratio.push_back({std::string(kScalingNames[scaling_]) + " (selected)", ks, ratio_by_type_[scaling_]});
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
  ExportTable pairs{"pairs", "pair k", "", {"k", "inv_freq", "inv_freq_scaled", "ratio", "wavelength", "trained_angle",
                                             "target_angle", "extrapolated"}, {}};
  for (const auto& p : analysis_.pairs)
    pairs.rows.push_back({double(p.pair), p.inv_freq, p.inv_freq_scaled, p.ratio, p.wavelength, p.trained_angle,
                          p.target_angle, p.coverage == PairCoverage::Extrapolated ? 1.0 : 0.0});
  tables.push_back(std::move(pairs));
}

void RopeView::draw_content(ImVec2 size) {
  prepare();
  if (analysis_.pairs.empty()) {
    ImGui::TextWrapped("%s", error_.empty() ? "Nothing to show." : error_.c_str());
    return;
  }
  pair_ = std::clamp(pair_, 0, int(analysis_.pairs.size()) - 1);
  if (play_) {
    // Cheap per-frame work only: advance the position so one sweep of [0, T) takes about 12 s.
    anim_pos_ += ImGui::GetIO().DeltaTime * std::max(1.0, target_ / 12.0);
    if (anim_pos_ >= target_) anim_pos_ = 0;
  }

  const float line = ImGui::GetTextLineHeightWithSpacing();
  ImGui::Text("At T = %d with L = %d: %d pairs turned fully in training, %d interpolated, %d extrapolated%s", target_,
              orig_, analysis_.full_turn, analysis_.interpolated, analysis_.extrapolated,
              analysis_.attention_scaling != 1.0 ? "" : ".");
  if (analysis_.attention_scaling != 1.0) {
    ImGui::SameLine(0, 0);
    ImGui::Text("; YaRN attention scaling %.6g.", analysis_.attention_scaling);
  }
  size.y -= line;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float half_w = size.x * 0.5f, half_h = size.y * 0.5f;

  // Top left: the rotating pair.
  draw_rotation(ImVec2(half_w - 8, half_h - 4));

  // Top right: long-range decay.
  ImGui::SetCursorScreenPos(ImVec2(origin.x + half_w, origin.y));
  {
    std::vector<Series> s;
    s.push_back(Series{"no scaling", decay_x_, decay_plain_, palette_color(0), false, false});
    if (scaling_ != int(RopeScalingType::None))
      s.push_back(Series{kScalingNames[scaling_], decay_x_, decay_scaled_, scaling_color(scaling_), false, false});
    LinePlotOptions o;
    o.x_title = "relative distance m";
    o.y_title = "bound / bound(0)";
    o.y_min = 0;
    o.y_max = 1.02;
    o.x_min = 0;
    o.x_max = decay_max_;
    line_plot("plot.decay", ImVec2(half_w, half_h - 4), s, o);
  }

  // Bottom left: per-pair frequency ratio w'_k / w_k.
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + half_h));
  {
    std::vector<Series> s;
    const int half = int(analysis_.pairs.size());
    std::vector<double> ks(half);
    for (int k = 0; k < half; ++k) ks[k] = k;
    for (int t = 1; t < 6; ++t) {
      if (t == scaling_ || !compare_ || ratio_by_type_[t].empty()) continue;
      s.push_back(Series{kScalingNames[t], ks, ratio_by_type_[t], scaling_color(t), false, false});
    }
    if (!ratio_by_type_[scaling_].empty())  // the selected method last: drawn on top
      s.push_back(Series{std::string(kScalingNames[scaling_]) + " (selected)", ks, ratio_by_type_[scaling_],
                         scaling_color(scaling_), half <= 64, false});
    LinePlotOptions o;
    o.x_title = "pair k";
    o.y_title = "w'_k / w_k";
    o.y_min = 0;
    o.y_max = 1.05;
    o.x_min = 0;
    o.x_max = std::max(1, half - 1);
    const PlotHover h = line_plot("plot.ratio", ImVec2(half_w - 8, half_h), s, o);
    if (h.active) pair_tooltip(h.x);
  }

  // Bottom right: largest angle at the target length vs. the angle seen in training.
  ImGui::SetCursorScreenPos(ImVec2(origin.x + half_w, origin.y + half_h));
  {
    const int half = int(analysis_.pairs.size());
    Series trained{"trained L w_k", {}, {}, palette_color(0), false, false};
    Series target{"target T w'_k", {}, {}, scaling_color(scaling_), false, false};
    Series extrapolated{"extrapolated", {}, {}, IM_COL32(230, 60, 60, 255), true, false};
    Series turn{"2 pi", {0.0, double(std::max(1, half - 1))}, {kTwoPi, kTwoPi}, IM_COL32(255, 255, 255, 120), false, false};
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
    o.x_title = "pair k";
    o.y_title = "rotation angle (rad), log";
    o.log_y = true;
    o.x_min = 0;
    o.x_max = std::max(1, half - 1);
    const PlotHover h = line_plot("plot.angles", ImVec2(half_w, half_h), {trained, target, extrapolated, turn}, o);
    if (h.active) pair_tooltip(h.x);
  }
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + size.y));
  ImGui::Dummy(ImVec2(size.x, 0));
}

void RopeView::save_state(StateMap& out) const {
  out["dim"] = std::to_string(dim_);
  out["base"] = format_number(base_);
  out["scaling"] = kScalingNames[scaling_];
  out["factor"] = format_number(factor_);
  out["orig"] = std::to_string(orig_);
  out["target"] = std::to_string(target_);
  out["pair"] = std::to_string(pair_);
  out["pos"] = std::to_string(pos_);
  out["play"] = play_ ? "1" : "0";
  out["compare"] = compare_ ? "1" : "0";
  out["decay"] = std::to_string(decay_max_);
}

void RopeView::load_state(const StateMap& in, std::string& notices) {
  read_int(in, "dim", 2, kMaxDim, dim_, notices);
  if (dim_ % 2) {
    notices += "dim must be even: using " + std::to_string(dim_ - 1) + ". ";
    dim_ -= 1;
  }
  read_double(in, "base", kBaseMin, kBaseMax, base_, notices);
  read_choice(in, "scaling", kScalingNames, 6, scaling_, notices);
  read_double(in, "factor", 1.0, kMaxFactor, factor_, notices);
  read_int(in, "orig", 16, kMaxLength, orig_, notices);
  read_int(in, "target", 16, kMaxLength, target_, notices);
  read_int(in, "pair", 0, kMaxDim / 2 - 1, pair_, notices);
  if (pair_ > dim_ / 2 - 1) {  // a default pair past a small dim is clamped silently
    if (in.count("pair")) notices += "pair=" + std::to_string(pair_) + " needs pair < dim/2: using " + std::to_string(dim_ / 2 - 1) + ". ";
    pair_ = dim_ / 2 - 1;
  }
  read_int(in, "pos", 0, kMaxLength - 1, pos_, notices);
  if (pos_ >= target_) {
    if (in.count("pos")) notices += "pos=" + std::to_string(pos_) + " needs pos < target: using " + std::to_string(target_ - 1) + ". ";
    pos_ = target_ - 1;
  }
  read_flag(in, "play", play_, notices);
  read_flag(in, "compare", compare_, notices);
  read_int(in, "decay", 1, kMaxLength, decay_max_, notices);
  anim_pos_ = pos_;
  dirty_ = true;
}

}  // namespace posenc::app
