#include "app/views/similarity_view.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "app/controls.h"
#include "app/probe.h"
#include "app/state_params.h"

namespace posenc::app {
namespace {

constexpr AbsoluteScheme kSchemes[] = {AbsoluteScheme::Sinusoidal, AbsoluteScheme::SineOnly, AbsoluteScheme::Binary,
                                       AbsoluteScheme::Integer,    AbsoluteScheme::Normalised, AbsoluteScheme::Learned};
constexpr const char* kSchemeLabels[] = {"sinusoidal (sin/cos)", "sine only", "binary", "integer p",
                                         "normalised p/(n-1)", "learned (BERT table)"};

// Non-finite points are dropped (undefined rows of the learned table), so no NaN reaches a readout.
Series make_series(std::string label, const std::vector<double>& y, int64_t x0, ImU32 color) {
  Series s{std::move(label), {}, {}, color, false, false};
  for (size_t i = 0; i < y.size(); ++i) {
    if (!std::isfinite(y[i])) continue;
    s.x.push_back(double(x0 + int64_t(i)));
    s.y.push_back(y[i]);
  }
  return s;
}

}  // namespace

bool SimilarityView::draw_controls() {
  bool changed = false;
  ImGui::TextUnformatted("Absolute scheme (heatmap)");
  int idx = int(std::find(std::begin(kSchemes), std::end(kSchemes), scheme_) - std::begin(kSchemes));
  if (ImGui::Combo("##scheme", &idx, kSchemeLabels, IM_ARRAYSIZE(kSchemeLabels))) {
    scheme_ = kSchemes[idx];
    changed = true;
  }
  probe_last_item("combo.scheme");
  ImGui::TextUnformatted("Sequence length n");
  changed |= ImGui::SliderInt("##n", &n_, 2, kMaxN, "n = %d", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  probe_last_item("slider.n");
  changed |= even_width_slider("Model width d (even)", d_, kMaxD);
  changed |= base_slider(base_);
  ImGui::TextUnformatted("Curves at p = 0, s, 2s, 3s");
  changed |= ImGui::SliderInt("##pstep", &p_step_, 1, 1024, "s = %d", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  probe_last_item("slider.pstep");
  if (scheme_ == AbsoluteScheme::Learned) {
    ImGui::TextUnformatted("Learned table rows (max_len)");
    changed |= ImGui::SliderInt("##max_len", &max_len_, 2, 512, "max_len = %d", ImGuiSliderFlags_AlwaysClamp);
    probe_last_item("slider.max_len");
    ImGui::TextUnformatted("Seed");
    changed |= ImGui::SliderInt("##seed", &seed_, 0, 1000, "seed = %d", ImGuiSliderFlags_AlwaysClamp);
    probe_last_item("slider.seed");
  }
  ImGui::Separator();
  ImGui::TextWrapped(
      "Sinusoidal: every row of P P^T is the same curve shifted, so the heatmap is constant along each "
      "diagonal and brightest on it. Sine only loses that: P_p . P_{p+delta} moves with p. Binary codes "
      "are unique but neighbours can be far apart (7 -> 8 flips four bits).");
  if (changed) dirty_ = true;
  return changed;
}

void SimilarityView::recompute() {
  dirty_ = false;
  error_.clear();
  binary_note_.clear();
  dots_.reset();
  AbsoluteParams params;
  params.base = base_;
  params.learned_max_len = max_len_;
  params.seed = uint64_t(seed_);
  heatmap_n_ = std::min(n_, kMaxHeatmapN);
  const int64_t curve_limit = int64_t(kCurves - 1) * p_step_ + n_;

  // Heatmap of the selected scheme: exact dots here, the float texture in upload_heatmap() (GL).
  try {
    dots_ = std::make_unique<PositionDots>(scheme_, n_, d_, params, n_);
    upload_pending_ = true;
  } catch (const InvalidArgument& e) {
    error_ = std::string(absolute_scheme_name(scheme_)) + ": " + e.what();
    if (scheme_ == AbsoluteScheme::Binary) {
      int bits = 1;
      while ((int64_t{1} << bits) < n_) ++bits;
      error_ += " (n = " + std::to_string(n_) + " needs d >= " + std::to_string(bits) + " bits)";
    }
    dots_.reset();
  }

  // P_p . P_{p+delta} for the same p values, sinusoidal beside sine only.
  sinus_curves_.clear();
  sine_only_curves_.clear();
  curve_y_min_ = std::numeric_limits<double>::infinity();
  curve_y_max_ = -curve_y_min_;
  try {
    const PositionDots sinus(AbsoluteScheme::Sinusoidal, n_, d_, params, curve_limit);
    const PositionDots sine_only(AbsoluteScheme::SineOnly, n_, d_, params, curve_limit);
    for (int c = 0; c < kCurves; ++c) {
      const int64_t p = int64_t(c) * p_step_;
      const std::string label = "p = " + std::to_string(p);
      sinus_curves_.push_back(make_series(label, shifted_dot_curve(sinus, p, n_), 0, palette_color(c)));
      sine_only_curves_.push_back(make_series(label, shifted_dot_curve(sine_only, p, n_), 0, palette_color(c)));
    }
    for (const auto* set : {&sinus_curves_, &sine_only_curves_})
      for (const Series& s : *set)
        for (double y : s.y) {
          curve_y_min_ = std::min(curve_y_min_, y);
          curve_y_max_ = std::max(curve_y_max_, y);
        }
  } catch (const InvalidArgument& e) {
    if (error_.empty()) error_ = std::string("curves: ") + e.what();
  }

  // Neighbour distance: the selected scheme, with binary and sinusoidal for reference (sinusoidal last, so
  // its flat line stays visible over binary's jumps).
  neighbour_.clear();
  std::vector<AbsoluteScheme> shown = {AbsoluteScheme::Binary, AbsoluteScheme::Sinusoidal};
  if (scheme_ != AbsoluteScheme::Sinusoidal && scheme_ != AbsoluteScheme::Binary) shown.insert(shown.begin(), scheme_);
  for (size_t i = 0; i < shown.size(); ++i) {
    try {
      const PositionDots dots(shown[i], n_, d_, params, n_);
      const int color = int(std::find(std::begin(kSchemes), std::end(kSchemes), shown[i]) - std::begin(kSchemes));
      neighbour_.push_back(make_series(absolute_scheme_name(shown[i]), neighbour_distances(dots, n_ - 1), 0,
                                       palette_color(color)));
    } catch (const InvalidArgument& e) {
      if (shown[i] == AbsoluteScheme::Binary)
        binary_note_ = "binary not shown: " + std::string(e.what()) + " (d = " + std::to_string(d_) + ")";
    }
  }
}

void SimilarityView::prepare() {
  if (dirty_) recompute();
}

void SimilarityView::upload_heatmap() {
  upload_pending_ = false;
  if (!dots_) return;
  AbsoluteParams params;
  params.base = base_;
  params.learned_max_len = max_len_;
  params.seed = uint64_t(seed_);
  MatrixF G;
  try {
    G = position_similarity_f(scheme_, heatmap_n_, d_, params);
  } catch (const InvalidArgument& e) {
    error_ = std::string(absolute_scheme_name(scheme_)) + ": " + e.what();
    return;
  }
  if (scheme_ == AbsoluteScheme::Normalised && heatmap_n_ < n_) {
    // The normalised code depends on n: rescale the capped block to the real n.
    const double s = double(heatmap_n_ - 1) / double(n_ - 1);
    G *= float(s * s);
  }
  float lo = std::numeric_limits<float>::infinity(), hi = -lo;
  for (Eigen::Index i = 0; i < G.size(); ++i) {
    float& v = G.data()[i];
    if (!std::isfinite(v)) {
      v = kMaskedCell;  // undefined rows of the learned table
      continue;
    }
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  if (!(hi > lo)) {  // a constant matrix (e.g. integer at n = 1): any non-empty range
    lo = std::isfinite(lo) ? lo - 1 : 0;
    hi = std::isfinite(hi) ? hi + 1 : 1;
  }
  vmin_ = lo;
  vmax_ = hi;
  heatmap_.map().set_values(G.data(), int(G.rows()), int(G.cols()));
}

void SimilarityView::export_data(std::vector<ExportTable>& tables) const {
  if (dots_) {
    // P_a . P_b in double precision from the same PositionDots the hover reads (NaN where undefined).
    tables.push_back(matrix_table("similarity", "position a", "position b", "a", heatmap_n_, heatmap_n_,
                                  [&](int a, int b) { return dots_->dot(a, b); }));
  }
  if (!sinus_curves_.empty()) {
    tables.push_back(curve_table("shifted_dot_sinusoidal", "offset delta", "P_p . P_{p+delta}", "delta", sinus_curves_));
    tables.push_back(curve_table("shifted_dot_sine_only", "offset delta", "P_p . P_{p+delta}", "delta", sine_only_curves_));
  }
  tables.push_back(curve_table("neighbour_distance", "position p", "||P_{p+1} - P_p||", "p", neighbour_));
}

void SimilarityView::draw_content(ImVec2 size) {
  prepare();
  if (upload_pending_) upload_heatmap();
  const ImGuiStyle& style = ImGui::GetStyle();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float left_w = std::max(200.0f, std::min(size.x * 0.5f, size.y - line));
  const float right_w = size.x - left_w - style.ItemSpacing.x;

  ImGui::BeginGroup();
  if (!error_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.55f, 0.4f, 1.0f));
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + left_w);
    ImGui::TextWrapped("Cannot draw P P^T: %s", error_.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    ImGui::Dummy(ImVec2(left_w, size.y - 2 * line));
  } else {
    if (heatmap_n_ < n_)
      ImGui::TextColored(ImVec4(1.0f, 0.75f, 0.3f, 1.0f), "P P^T capped: positions 0..%d of n = %d", heatmap_n_ - 1, n_);
    else
      ImGui::Text("P P^T, %s, n = %d, d = %d", absolute_scheme_name(scheme_), n_, d_);
    const float h = std::min(left_w, size.y - line);
    const HeatmapAxes axes{"position b", "position a", 0, 0};
    const HeatmapHover hover = heatmap_.draw("heatmap.similarity", ImVec2(left_w, h), axes, Colormap::Viridis, vmin_, vmax_);
    if (hover.active && dots_) {
      const int64_t a = hover.row, b = hover.col;
      ImGui::BeginTooltip();
      ImGui::Text("a = %lld, b = %lld, b - a = %lld", (long long)a, (long long)b, (long long)(b - a));
      if (dots_->defined(a) && dots_->defined(b)) {
        ImGui::Text("P_a . P_b = %.17g", dots_->dot(a, b));
        if (scheme_ == AbsoluteScheme::Sinusoidal) ImGui::TextDisabled("= sum_k cos((a - b) w_k): depends on b - a only");
      } else {
        ImGui::TextUnformatted("undefined: the learned table has no row past max_len");
      }
      ImGui::EndTooltip();
    }
  }
  ImGui::EndGroup();
  ImGui::SameLine();

  ImGui::BeginGroup();
  const float note_h = binary_note_.empty() ? 0.0f : line;
  // Each plot gets a header line (the shared axis title sits half left of the plot: too little room here).
  const float plot_h = (size.y - note_h - 3 * line - 2 * style.ItemSpacing.y) / 3.0f;
  LinePlotOptions co;
  co.x_title = "offset delta";
  co.hover_format = "%.12g";
  if (std::isfinite(curve_y_min_)) {
    co.y_min = curve_y_min_ - 0.05 * (curve_y_max_ - curve_y_min_ + 1e-9);
    co.y_max = curve_y_max_ + 0.05 * (curve_y_max_ - curve_y_min_ + 1e-9);
  }
  ImGui::Text("Sinusoidal: P_p . P_{p+delta} over delta (the curves coincide)");
  line_plot("plot.curves_sinusoidal", ImVec2(right_w, plot_h), sinus_curves_, co);
  ImGui::Text("Sine only: P_p . P_{p+delta} over delta (each p differs)");
  line_plot("plot.curves_sine_only", ImVec2(right_w, plot_h), sine_only_curves_, co);
  LinePlotOptions no;
  no.x_title = "position p";
  no.hover_format = "%.12g";
  no.y_min = 0;
  ImGui::Text("Neighbour distance ||P_{p+1} - P_p|| over p");
  line_plot("plot.neighbour", ImVec2(right_w, plot_h), neighbour_, no);
  if (!binary_note_.empty()) ImGui::TextDisabled("%s", binary_note_.c_str());
  ImGui::EndGroup();
}

void SimilarityView::save_state(StateMap& out) const {
  out["scheme"] = absolute_scheme_name(scheme_);
  out["n"] = std::to_string(n_);
  out["d"] = std::to_string(d_);
  out["base"] = format_number(base_);
  out["pstep"] = std::to_string(p_step_);
  out["max_len"] = std::to_string(max_len_);
  out["seed"] = std::to_string(seed_);
}

void SimilarityView::load_state(const StateMap& in, std::string& notices) {
  if (auto it = in.find("scheme"); it != in.end()) {
    const auto s = absolute_scheme_from_name(it->second);
    if (s)
      scheme_ = *s;
    else
      notices += "scheme=\"" + it->second +
                 "\" is not one of sinusoidal, sine_only, binary, integer, normalised, learned: ignored. ";
  }
  read_int(in, "n", 2, kMaxN, n_, notices);
  read_int(in, "d", 2, kMaxD, d_, notices);
  if (d_ % 2) {
    notices += "d must be even: using " + std::to_string(d_ - 1) + ". ";
    d_ -= 1;
  }
  read_double(in, "base", kBaseMin, kBaseMax, base_, notices);
  read_int(in, "pstep", 1, 1024, p_step_, notices);
  read_int(in, "max_len", 2, 512, max_len_, notices);
  read_int(in, "seed", 0, 1000, seed_, notices);
  dirty_ = true;
}

}  // namespace posenc::app
