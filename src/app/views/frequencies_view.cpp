// Frequencies: w_k per pair for the geometric, linear and increasing schedules, and the wavelengths
// 2 pi / w_k against the sequence length.
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "app/controls.h"
#include "app/i18n.h"
#include "app/plot.h"
#include "app/probe.h"
#include "app/views/views.h"
#include "core/encodings/sinusoidal.h"

namespace posenc::app {
namespace {

constexpr int kMaxWidth = 1024;
constexpr int kMaxLength = 1 << 20;
constexpr int kSchedules = 3;
// URL letters of the schedules, in FrequencySchedule order.
constexpr char kScheduleLetters[kSchedules + 1] = "gli";
constexpr const char* kScheduleLabels[kSchedules] = {"geometric (standard)", "linear", "increasing (reversed)"};

class FrequenciesView final : public View {
 public:
  explicit FrequenciesView(ViewText text) : View(std::move(text)) {}

  void params(ParamList& p) override {
    p.integer("d", d_, 2, kMaxWidth, {.label = "Model width d (even)", .format = "d = %d", .log = true, .even = true});
    p.real("base", base_, kBaseMin, kBaseMax, {.label = "Base", .format = "base = %.0f", .log = true});
    p.integer("n", n_, 1, kMaxLength, {.label = "Sequence length n (reference line)", .format = "n = %d", .log = true});
    p.text(
        "schedules", [this](const std::string& s) { return parse_schedules(s); }, [this] { return schedules_text(); },
        {.label = "Schedules", .help = "subset of the letters `gli` (geometric, linear, increasing)"});
  }

  void numbers(std::vector<DescribedNumber>& out) const override {
    const std::vector<double> w = sinusoidal_frequencies(d_, base_, FrequencySchedule::Geometric);
    if (w.empty()) return;
    const double two_pi = 2 * std::numbers::pi;
    int turning = 0;
    for (double f : w)
      if (two_pi / f <= n_) ++turning;
    out.push_back({"pairs d/2", double(w.size())});
    out.push_back({"shortest wavelength (positions)", two_pi / w.front()});
    out.push_back({"longest wavelength (positions, geometric)", two_pi / w.back()});
    out.push_back({"pairs completing a turn within n (geometric)", double(turning)});
  }

  void export_data(std::vector<ExportTable>& tables) const override {
    tables.push_back(curve_table("frequency", "pair k", "frequency w_k (rad / position)", "k", frequency_));
    std::vector<Series> wavelength = wavelength_;
    wavelength.back().label = "n";
    tables.push_back(curve_table("wavelength", "pair k", "wavelength 2 pi / w_k (positions)", "k", wavelength));
  }

 private:
  void controls(Controls& c) override {
    c.draw("d");
    c.draw("base");
    c.draw("n");
    ImGui::Separator();
    note_shown_param("schedules");
    for (int s = 0; s < kSchedules; ++s) {
      ImGui::Checkbox(tr_id(kScheduleLabels[s]).c_str(), &show_[s]);
      probe_last_item((std::string("check.schedules.") + kScheduleLetters[s]).c_str());
    }
    ImGui::Separator();
    const double longest = 2 * std::numbers::pi * std::pow(base_, double(d_ - 2) / d_);
    ImGui::TextWrapped(tr("Geometric wavelengths run from 2π = 6.28 to 2π·base^((d−2)/d) = %.4g positions. "
                          "Pairs whose wavelength exceeds n never complete a turn within the sequence."),
                       longest);
  }

  std::string parse_schedules(const std::string& s) {
    if (s.find_first_not_of(kScheduleLetters) != std::string::npos) return "may only use the letters g, l, i";
    for (int k = 0; k < kSchedules; ++k) show_[k] = s.find(kScheduleLetters[k]) != std::string::npos;
    return {};
  }
  std::string schedules_text() const {
    std::string out;
    for (int k = 0; k < kSchedules; ++k)
      if (show_[k]) out += kScheduleLetters[k];
    return out;
  }

  // The curves of every shown schedule, and n as a flat reference line on the wavelength plot.
  void recompute() override {
    frequency_.clear();
    wavelength_.clear();
    for (int s = 0; s < kSchedules; ++s) {
      if (!show_[s]) continue;
      const auto schedule = static_cast<FrequencySchedule>(s);
      const std::vector<double> w = sinusoidal_frequencies(d_, base_, schedule);
      Series f{name_of(schedule), {}, {}, palette_color(s), d_ <= 128, false};
      Series l = f;
      for (size_t k = 0; k < w.size(); ++k) {
        f.x.push_back(double(k));
        f.y.push_back(w[k]);
        l.x.push_back(double(k));
        l.y.push_back(2 * std::numbers::pi / w[k]);
      }
      frequency_.push_back(std::move(f));
      wavelength_.push_back(std::move(l));
    }
    Series n_line{"n", {}, {}, 0, false, false};
    for (int k = 0; k < d_ / 2; ++k) n_line.x.push_back(k), n_line.y.push_back(n_);
    wavelength_.push_back(std::move(n_line));
  }

  void draw_figure(ImVec2 size) override {
    // The reference line in the theme's text colour, so it reads on light and dark backgrounds.
    wavelength_.back().color = ImGui::GetColorU32(ImGuiCol_Text, 0.6f);
    wavelength_.back().label = "n = " + std::to_string(n_);
    // The legends in the interface's language while drawn (the exports keep the English names).
    const TranslatedLabels frequency_labels(frequency_), wavelength_labels(wavelength_);
    const float h = alone() ? size.y : (size.y - ImGui::GetStyle().ItemSpacing.y) * 0.5f;
    LinePlotOptions fo;
    fo.x_title = tr("pair k");
    fo.y_title = tr("frequency ωₖ (rad / position)");
    fo.log_y = true;
    fo.x_min = 0;
    fo.x_max = std::max(1, d_ / 2 - 1);
    if (shows("frequency")) line_plot("plot.frequency", ImVec2(size.x, h), frequency_, fo);
    LinePlotOptions wo = fo;
    wo.y_title = tr("wavelength 2π / ωₖ (positions)");
    if (shows("wavelength")) line_plot("plot.wavelength", ImVec2(size.x, h), wavelength_, wo);
  }

  int d_ = 128;
  double base_ = 10000.0;
  int n_ = 512;
  bool show_[kSchedules] = {true, true, true};
  std::vector<Series> frequency_, wavelength_;
};

}  // namespace

std::unique_ptr<View> make_frequencies_view(ViewText text) { return std::make_unique<FrequenciesView>(std::move(text)); }

}  // namespace posenc::app
