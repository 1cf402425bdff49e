#include "app/views/frequencies_view.h"

#include <cmath>
#include <numbers>

#include "app/controls.h"
#include "app/plot.h"
#include "app/probe.h"
#include "app/state_params.h"
#include "core/sinusoidal.h"

namespace posenc::app {

bool FrequenciesView::draw_controls() {
  bool changed = false;
  changed |= even_width_slider("Model width d (even)", d_, 1024);
  changed |= base_slider(base_);
  ImGui::TextUnformatted("Sequence length n (reference line)");
  changed |= ImGui::SliderInt("##n", &n_, 1, 1 << 20, "n = %d", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  probe_last_item("slider.n");
  ImGui::Separator();
  changed |= ImGui::Checkbox("geometric (standard)", &show_geometric_);
  changed |= ImGui::Checkbox("linear", &show_linear_);
  changed |= ImGui::Checkbox("increasing (reversed)", &show_increasing_);
  ImGui::Separator();
  const double longest = 2 * std::numbers::pi * std::pow(base_, double(d_ - 2) / d_);
  ImGui::TextWrapped("Geometric wavelengths run from 2 pi = 6.28 to 2 pi base^((d-2)/d) = %.4g positions. "
                     "Pairs whose wavelength exceeds n never complete a turn within the sequence.",
                     longest);
  return changed;
}

void FrequenciesView::draw_content(ImVec2 size) {
  struct Schedule {
    bool show;
    const char* label;
    FrequencySchedule schedule;
  };
  const Schedule schedules[] = {{show_geometric_, "geometric", FrequencySchedule::Geometric},
                                {show_linear_, "linear", FrequencySchedule::Linear},
                                {show_increasing_, "increasing", FrequencySchedule::Increasing}};
  std::vector<Series> freq, wave;
  int color = 0;
  for (const Schedule& s : schedules) {
    const int c = color++;
    if (!s.show) continue;
    const std::vector<double> w = sinusoidal_frequencies(d_, base_, s.schedule);
    Series f{s.label, {}, {}, palette_color(c), d_ <= 128, false};
    Series l{s.label, {}, {}, palette_color(c), d_ <= 128, false};
    for (size_t k = 0; k < w.size(); ++k) {
      f.x.push_back(double(k));
      f.y.push_back(w[k]);
      l.x.push_back(double(k));
      l.y.push_back(2 * std::numbers::pi / w[k]);
    }
    freq.push_back(std::move(f));
    wave.push_back(std::move(l));
  }
  // Sequence length as a flat reference line on the wavelength plot.
  wave.push_back(Series{"n = " + std::to_string(n_), {0.0, double(d_ / 2 - 1)}, {double(n_), double(n_)},
                        IM_COL32(255, 255, 255, 150), false, false});
  const float h = (size.y - ImGui::GetStyle().ItemSpacing.y) * 0.5f;
  LinePlotOptions fo;
  fo.x_title = "pair k";
  fo.y_title = "frequency w_k (rad / position)";
  fo.log_y = true;
  fo.x_min = 0;
  fo.x_max = std::max(1, d_ / 2 - 1);
  line_plot("plot.frequency", ImVec2(size.x, h), freq, fo);
  LinePlotOptions wo = fo;
  wo.y_title = "wavelength 2 pi / w_k (positions)";
  line_plot("plot.wavelength", ImVec2(size.x, h), wave, wo);
}

void FrequenciesView::export_data(std::vector<ExportTable>& tables) const {
  const std::pair<bool, FrequencySchedule> schedules[] = {{show_geometric_, FrequencySchedule::Geometric},
                                                          {show_linear_, FrequencySchedule::Linear},
                                                          {show_increasing_, FrequencySchedule::Increasing}};
  const char* labels[] = {"geometric", "linear", "increasing"};
  std::vector<ExportSeries> freq, wave;
  for (int i = 0; i < 3; ++i) {
    if (!schedules[i].first) continue;
    const std::vector<double> w = sinusoidal_frequencies(d_, base_, schedules[i].second);
    ExportSeries f{labels[i], {}, {}}, l{labels[i], {}, {}};
    for (size_t k = 0; k < w.size(); ++k) {
      f.x.push_back(double(k));
      f.y.push_back(w[k]);
      l.x.push_back(double(k));
      l.y.push_back(2 * std::numbers::pi / w[k]);
    }
    freq.push_back(std::move(f));
    wave.push_back(std::move(l));
  }
  // The sequence length reference line of the wavelength plot, at every pair.
  ExportSeries n_line{"n", {}, {}};
  for (int k = 0; k < d_ / 2; ++k) n_line.x.push_back(k), n_line.y.push_back(n_);
  wave.push_back(std::move(n_line));
  tables.push_back(curve_table("frequency", "pair k", "frequency w_k (rad / position)", "k", freq));
  tables.push_back(curve_table("wavelength", "pair k", "wavelength 2 pi / w_k (positions)", "k", wave));
}

void FrequenciesView::save_state(StateMap& out) const {
  out["d"] = std::to_string(d_);
  out["base"] = format_number(base_);
  out["n"] = std::to_string(n_);
  out["schedules"] = std::string(show_geometric_ ? "g" : "") + (show_linear_ ? "l" : "") + (show_increasing_ ? "i" : "");
}

void FrequenciesView::load_state(const StateMap& in, std::string& notices) {
  read_int(in, "d", 2, 1024, d_, notices);
  if (d_ % 2) {
    notices += "d must be even: using " + std::to_string(d_ - 1) + ". ";
    d_ -= 1;
  }
  read_double(in, "base", kBaseMin, kBaseMax, base_, notices);
  read_int(in, "n", 1, 1 << 20, n_, notices);
  if (auto it = in.find("schedules"); it != in.end()) {
    if (it->second.find_first_not_of("gli") != std::string::npos) {
      notices += "schedules=\"" + it->second + "\" may only use the letters g, l, i: ignored. ";
    } else {
      show_geometric_ = it->second.find('g') != std::string::npos;
      show_linear_ = it->second.find('l') != std::string::npos;
      show_increasing_ = it->second.find('i') != std::string::npos;
    }
  }
}

}  // namespace posenc::app
