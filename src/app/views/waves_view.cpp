#include "app/views/waves_view.h"

#include <cmath>
#include <cstdlib>
#include <string>

#include "app/probe.h"
#include "app/state_params.h"
#include "core/sinusoidal.h"

namespace posenc::app {

bool WavesView::draw_controls() {
  bool changed = false;
  ImGui::TextUnformatted("Sequence length n");
  changed |= ImGui::SliderInt("##n", &n_, 1, kMaxN, "n = %d", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  probe_last_item("slider.n");
  ImGui::TextUnformatted("Model width d (even)");
  int d = d_;
  if (ImGui::SliderInt("##d", &d, 2, kMaxD, "d = %d", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp)) {
    d_ = std::max(2, d - d % 2);  // sin/cos pairs need an even width
    changed = true;
  }
  probe_last_item("slider.d");
  ImGui::TextUnformatted("Base");
  changed |= ImGui::SliderScalar("##base", ImGuiDataType_Double, &base_, &kBaseMin, &kBaseMax, "base = %.0f",
                                 ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  probe_last_item("slider.base");
  if (changed) dirty_ = true;
  return changed;
}

void WavesView::recompute() {
  table_ = sinusoidal_table_f(n_, d_, base_);
  heatmap_.map().set_values(table_.data(), int(table_.rows()), int(table_.cols()));
  dirty_ = false;
}

void WavesView::draw_content(ImVec2 size) {
  if (dirty_) recompute();
  const HeatmapAxes axes{"dimension i", "position p", 0, 0};
  const HeatmapHover hover = heatmap_.draw("heatmap.pe", size, axes, Colormap::Viridis, -1.0f, 1.0f);
  if (hover.active) {
    // Exact value from the core in double precision (the texture holds float32).
    const int64_t p = hover.row;
    const int i = hover.col, k = i / 2;
    const double w = std::pow(base_, -2.0 * k / d_);
    const double angle = double(p) * w;
    const double value = (i % 2 == 0) ? std::sin(angle) : std::cos(angle);
    ImGui::BeginTooltip();
    ImGui::Text("position p = %lld, dim i = %d", static_cast<long long>(p), i);
    ImGui::Text("pair k = %d (%s), w_k = %.10g", k, i % 2 == 0 ? "sin" : "cos", w);
    ImGui::Text("angle p w_k = %.10g rad", angle);
    ImGui::Text("P[p][i] = %.17g", value);
    ImGui::EndTooltip();
  }
}

void WavesView::save_state(StateMap& out) const {
  out["n"] = std::to_string(n_);
  out["d"] = std::to_string(d_);
  out["base"] = format_number(base_);
}

void WavesView::load_state(const StateMap& in, std::string& notices) {
  read_int(in, "n", 1, kMaxN, n_, notices);
  read_int(in, "d", 2, kMaxD, d_, notices);
  if (d_ % 2) {
    notices += "d must be even: using " + std::to_string(d_ - 1) + ". ";
    d_ -= 1;
  }
  read_double(in, "base", kBaseMin, kBaseMax, base_, notices);
  dirty_ = true;
}

}  // namespace posenc::app
