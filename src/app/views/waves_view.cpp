#include "app/views/waves_view.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>

#include "app/controls.h"
#include "app/plot.h"
#include "app/probe.h"
#include "app/state_params.h"
#include "core/sinusoidal.h"

namespace posenc::app {
namespace {

constexpr AbsoluteScheme kSchemes[] = {AbsoluteScheme::Sinusoidal, AbsoluteScheme::SineOnly, AbsoluteScheme::Binary,
                                       AbsoluteScheme::Integer, AbsoluteScheme::Normalised, AbsoluteScheme::Learned};
constexpr const char* kScheduleNames[] = {"geometric", "linear", "increasing"};

const char* schedule_name(FrequencySchedule s) { return kScheduleNames[static_cast<int>(s)]; }

// "0, 1,8" -> {0, 1, 8}; false if any item is not an integer.
bool parse_dims(const std::string& text, std::vector<int>& out) {
  std::vector<int> dims;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    item.erase(std::remove(item.begin(), item.end(), ' '), item.end());
    if (item.empty()) continue;
    char* end = nullptr;
    const long v = std::strtol(item.c_str(), &end, 10);
    if (*end != '\0' || v < 0 || v > 100000) return false;
    dims.push_back(int(v));
  }
  if (dims.size() > size_t(WavesView::kMaxCurves)) dims.resize(WavesView::kMaxCurves);
  out = dims;
  return true;
}

std::string dims_to_text(const std::vector<int>& dims) {
  std::string s;
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + std::to_string(dims[i]);
  return s;
}

}  // namespace

const char* WavesView::caption() const {
  switch (scheme_) {
    case AbsoluteScheme::Sinusoidal: return "P[p][2k] = sin(p w_k), P[p][2k+1] = cos(p w_k), w_k = base^(-2k/d)";
    case AbsoluteScheme::SineOnly: return "P[p][c] = sin(p w_c), w_c = base^(-c/d): no cosine partner, so P_m.P_n depends on m and n";
    case AbsoluteScheme::Binary: return "P[p][c] = bit c of p: unique but discontinuous (7 -> 8 flips 4 bits)";
    case AbsoluteScheme::Integer: return "P[p][c] = p: unbounded, dwarfs the token embedding for long sequences";
    case AbsoluteScheme::Normalised: return "P[p][c] = p / (n - 1): the step between neighbours depends on n";
    case AbsoluteScheme::Learned: return "P = learned table (max_len x d, N(0, 0.02) init): no row past max_len";
  }
  return "";
}

bool WavesView::draw_controls() {
  bool changed = false;
  ImGui::TextUnformatted("Encoding");
  if (ImGui::BeginCombo("##scheme", absolute_scheme_name(scheme_))) {
    for (AbsoluteScheme s : kSchemes)
      if (ImGui::Selectable(absolute_scheme_name(s), s == scheme_)) scheme_ = s, changed = true;
    ImGui::EndCombo();
  }
  probe_last_item("combo.scheme");
  ImGui::TextUnformatted("Sequence length n");
  changed |= ImGui::SliderInt("##n", &n_, 1, kMaxN, "n = %d", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  probe_last_item("slider.n");
  changed |= even_width_slider("Model width d (even)", d_, kMaxD);
  if (scheme_ == AbsoluteScheme::Sinusoidal || scheme_ == AbsoluteScheme::SineOnly) {
    changed |= base_slider(base_);
    ImGui::TextUnformatted("Frequency schedule");
    int sched = static_cast<int>(schedule_);
    if (ImGui::Combo("##schedule", &sched, kScheduleNames, 3)) schedule_ = FrequencySchedule(sched), changed = true;
  }
  if (scheme_ == AbsoluteScheme::Learned) {
    ImGui::TextUnformatted("Trained length max_len");
    changed |= ImGui::SliderInt("##maxlen", &learned_max_len_, 1, kMaxN, "max_len = %d",
                                ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  }
  ImGui::TextUnformatted("Curves: dimensions");
  if (ImGui::InputText("##dims", dims_text_, sizeof dims_text_)) {
    if (parse_dims(dims_text_, dims_)) changed = true;
  }
  if (changed) dirty_ = true;
  return changed;
}

void WavesView::recompute() {
  dirty_ = false;
  error_.clear();
  AbsoluteParams params;
  params.base = base_;
  params.schedule = schedule_;
  params.learned_max_len = learned_max_len_;
  try {
    table_ = absolute_encoding(scheme_, n_, d_, params);
  } catch (const InvalidArgument& e) {
    error_ = std::string(e.what()) + " (" + e.field() + ")";
    table_.resize(0, 0);
    return;
  }
  switch (scheme_) {
    case AbsoluteScheme::Sinusoidal:
    case AbsoluteScheme::SineOnly: vmin_ = -1, vmax_ = 1, cmap_ = Colormap::Viridis; break;
    case AbsoluteScheme::Binary:
    case AbsoluteScheme::Normalised: vmin_ = 0, vmax_ = 1, cmap_ = Colormap::Viridis; break;
    case AbsoluteScheme::Integer: vmin_ = 0, vmax_ = float(std::max(1, n_ - 1)), cmap_ = Colormap::Viridis; break;
    case AbsoluteScheme::Learned: vmin_ = -0.06f, vmax_ = 0.06f, cmap_ = Colormap::Diverging; break;
  }
  upload_pending_ = true;
}

void WavesView::prepare() {
  if (dirty_) recompute();
}

int WavesView::defined_rows() const {
  return scheme_ == AbsoluteScheme::Learned ? std::min(n_, learned_max_len_) : n_;
}

double WavesView::value_at(int p, int i) const { return table_(p, i); }

void WavesView::draw_content(ImVec2 size) {
  prepare();
  if (upload_pending_ && error_.empty()) {
    // Rows past max_len do not exist in a learned model: drawn masked.
    heatmap_.map().set_values(table_.data(), int(table_.rows()), int(table_.cols()), defined_rows());
    upload_pending_ = false;
  }
  if (!error_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.6f, 0.4f, 1.0f));
    ImGui::TextWrapped("Cannot draw these parameters: %s", error_.c_str());
    ImGui::PopStyleColor();
    return;
  }
  // Curves of the chosen dimensions over position.
  std::vector<Series> curves;
  const int defined = defined_rows();
  for (size_t c = 0; c < dims_.size(); ++c) {
    const int i = dims_[c];
    if (i >= d_) continue;
    Series s{"dim " + std::to_string(i), {}, {}, palette_color(int(c)), n_ <= 64, scheme_ == AbsoluteScheme::Binary};
    s.x.reserve(defined);
    s.y.reserve(defined);
    for (int p = 0; p < defined; ++p) {
      s.x.push_back(p);
      s.y.push_back(table_(p, i));
    }
    curves.push_back(std::move(s));
  }
  const float curves_h = std::max(120.0f, size.y * 0.34f);
  LinePlotOptions opt;
  opt.x_title = "position p";
  opt.y_title = "P[p][i]";
  opt.x_min = 0;
  opt.x_max = std::max(1, n_ - 1);
  opt.hover_format = "%.10g";
  line_plot("plot.waves", ImVec2(size.x, curves_h), curves, opt);

  const HeatmapAxes axes{"dimension i", "position p", 0, 0};
  const float heat_h = size.y - curves_h - ImGui::GetStyle().ItemSpacing.y;
  const HeatmapHover hover = heatmap_.draw("heatmap.pe", ImVec2(size.x, heat_h), axes, cmap_, vmin_, vmax_);
  if (hover.active) {
    const int p = hover.row, i = hover.col;
    ImGui::BeginTooltip();
    ImGui::Text("position p = %d, dim i = %d", p, i);
    if (scheme_ == AbsoluteScheme::Learned && p >= learned_max_len_) {
      ImGui::TextUnformatted("no learned row past max_len: undefined");
    } else {
      if (scheme_ == AbsoluteScheme::Sinusoidal) {
        const double w = sinusoidal_frequencies(d_, base_, schedule_)[i / 2];
        ImGui::Text("pair k = %d (%s), w_k = %.10g, angle p w_k = %.10g", i / 2, i % 2 ? "cos" : "sin", w, p * w);
      }
      ImGui::Text("P[p][i] = %.17g", value_at(p, i));
    }
    ImGui::EndTooltip();
  }
}

void WavesView::export_data(std::vector<ExportTable>& tables) const {
  if (!error_.empty() || table_.size() == 0) return;
  const int defined = defined_rows();
  tables.push_back(matrix_table("P", "position p", "dimension i", "p", table_, 0, 0, defined));
  std::vector<ExportSeries> curves;
  for (int i : dims_) {
    if (i >= d_) continue;
    ExportSeries s{"dim " + std::to_string(i), {}, {}};
    for (int p = 0; p < n_; ++p) {
      s.x.push_back(p);
      s.y.push_back(p < defined ? table_(p, i) : NAN);
    }
    curves.push_back(std::move(s));
  }
  tables.push_back(curve_table("curves", "position p", "P[p][i]", "p", curves));
}

void WavesView::save_state(StateMap& out) const {
  out["scheme"] = absolute_scheme_name(scheme_);
  out["n"] = std::to_string(n_);
  out["d"] = std::to_string(d_);
  out["base"] = format_number(base_);
  out["schedule"] = schedule_name(schedule_);
  out["max_len"] = std::to_string(learned_max_len_);
  out["dims"] = dims_to_text(dims_);
}

void WavesView::load_state(const StateMap& in, std::string& notices) {
  if (auto it = in.find("scheme"); it != in.end()) {
    if (auto s = absolute_scheme_from_name(it->second))
      scheme_ = *s;
    else
      notices += "scheme=\"" + it->second + "\" is not an absolute encoding: ignored. ";
  }
  read_int(in, "n", 1, kMaxN, n_, notices);
  read_int(in, "d", 2, kMaxD, d_, notices);
  if (d_ % 2) {
    notices += "d must be even: using " + std::to_string(d_ - 1) + ". ";
    d_ -= 1;
  }
  read_double(in, "base", kBaseMin, kBaseMax, base_, notices);
  if (auto it = in.find("schedule"); it != in.end()) {
    const auto* found = std::find(std::begin(kScheduleNames), std::end(kScheduleNames), it->second);
    if (found != std::end(kScheduleNames))
      schedule_ = FrequencySchedule(found - std::begin(kScheduleNames));
    else
      notices += "schedule=\"" + it->second + "\" is not geometric, linear or increasing: ignored. ";
  }
  read_int(in, "max_len", 1, kMaxN, learned_max_len_, notices);
  if (auto it = in.find("dims"); it != in.end()) {
    if (!parse_dims(it->second, dims_)) notices += "dims=\"" + it->second + "\" is not a list of dimensions: ignored. ";
  }
  std::snprintf(dims_text_, sizeof dims_text_, "%s", dims_to_text(dims_).c_str());
  dirty_ = true;
}

}  // namespace posenc::app
