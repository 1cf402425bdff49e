// PE waves: an absolute positional encoding P (positions x dims) as curves of selected dimensions over
// position and as a heatmap of the whole matrix.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numbers>
#include <string>
#include <vector>

#include "app/controls.h"
#include "app/heatmap.h"
#include "app/i18n.h"
#include "app/input.h"
#include "app/number_text.h"
#include "app/plot.h"
#include "app/probe.h"
#include "app/views/views.h"
#include "core/text_split.h"
#include "core/encodings/absolute.h"
#include "core/attention/score_kernels.h"
#include "core/encodings/sinusoidal.h"

namespace posenc::app {
namespace {

constexpr int kMaxPositions = 4096;
constexpr int kMaxWidth = 1024;
constexpr int kMaxCurves = 6;

class WavesView final : public View {
 public:
  explicit WavesView(ViewText text) : View(std::move(text)) {}

  const char* caption() const override;

  void params(ParamList& p) override {
    p.choice("scheme", scheme_, names_of<AbsoluteScheme>(), {.label = "Encoding"});
    p.integer("n", n_, 1, kMaxPositions, {.label = "Sequence length n", .format = "n = %d", .log = true});
    p.integer("d", d_, 2, kMaxWidth, {.label = "Model width d (even)", .format = "d = %d", .log = true, .even = true});
    p.real("base", base_, kBaseMin, kBaseMax, {.label = "Base", .format = "base = %.0f", .log = true});
    p.choice("schedule", schedule_, names_of<FrequencySchedule>(), {.label = "Frequency schedule"});
    p.integer("max_len", max_len_, 1, kMaxPositions, {.label = "Trained length max_len", .format = "max_len = %d", .log = true});
    p.text(
        "dims", [this](const std::string& s) { return parse_dims(s); }, [this] { return dims_text(); },
        {.label = "Curves: dimensions", .help = "comma list of dimensions, at most 6, each below d"});
  }

  void export_data(std::vector<ExportTable>& tables) const override;
  std::string formula_words() const override;
  void numbers(std::vector<DescribedNumber>& out) const override;

 private:
  void controls(Controls& c) override {
    c.draw("scheme");
    c.draw("n");
    c.draw("d");
    if (scheme_ == AbsoluteScheme::Sinusoidal || scheme_ == AbsoluteScheme::SineOnly) {
      c.draw("base");
      c.draw("schedule");
    }
    if (scheme_ == AbsoluteScheme::Learned) c.draw("max_len");
    c.draw("dims");
  }
  void recompute() override;
  std::string key_for_field(const std::string& field) const override { return field == "dim" ? "d" : View::key_for_field(field); }
  void upload() override {
    if (sinusoidal()) {
      heatmap_.map().set_values(picture_.data(), int(picture_.rows()), int(picture_.cols()));
      return;
    }
    // Rows past max_len do not exist in a learned model: drawn masked.
    heatmap_.map().set_values(table_.data(), int(table_.rows()), int(table_.cols()), defined_rows());
  }
  void draw_figure(ImVec2 size) override;

  // "0, 1,8" -> {0, 1, 8}: at most kMaxCurves dimensions, each below d.
  std::string parse_dims(const std::string& text) {
    std::vector<int> dims;
    // "" (or spaces) is no dimension; "1,,2", "1," or "," has an empty entry and "0x10" or "010" is no
    // plain number: refused.
    if (text.find_first_not_of(' ') == std::string::npos) {
      dims_.clear();
      return {};
    }
    std::vector<std::string> items = split_list(text, ',');
    if (text.back() == ',') items.emplace_back();  // split_list drops a trailing empty entry
    for (std::string item : items) {
      item.erase(std::remove(item.begin(), item.end(), ' '), item.end());
      long long v = 0;
      if (item.empty()) return "has an empty entry";
      if (!parse_decimal_int(item, v) || v < 0) return "is not a comma list of dimensions";
      if (v >= d_) return "has dimension " + item + ", not below d = " + std::to_string(d_);
      dims.push_back(int(v));
    }
    if (dims.size() > size_t(kMaxCurves)) return "has more than " + std::to_string(kMaxCurves) + " dimensions";
    dims_ = dims;
    return {};
  }
  std::string dims_text() const {
    std::string s;
    for (size_t i = 0; i < dims_.size(); ++i) s += (i ? "," : "") + std::to_string(dims_[i]);
    return s;
  }
  int defined_rows() const { return scheme_ == AbsoluteScheme::Learned ? std::min(n_, max_len_) : n_; }
  // The sinusoidal table is the one that grows with n x d and costs sin/cos per cell: its picture comes from
  // the float kernel, and every number shown (curves, hover, export) from the double core.
  bool sinusoidal() const { return scheme_ == AbsoluteScheme::Sinusoidal; }
  // P[p][i] in double precision, as the core computes it.
  double value(int p, int i) const {
    return sinusoidal() ? sinusoidal_table(std::vector<int64_t>{p}, d_, base_, schedule_)(0, i) : table_(p, i);
  }
  // Column i over the defined positions, in double precision.
  std::vector<double> column(int i) const {
    if (sinusoidal()) return sinusoidal_column(n_, d_, i, base_, schedule_);
    std::vector<double> out(static_cast<size_t>(defined_rows()));
    for (int p = 0; p < defined_rows(); ++p) out[p] = table_(p, i);
    return out;
  }
  Matrix double_table() const {
    if (!sinusoidal()) return table_;
    AbsoluteParams params;
    params.base = base_;
    params.schedule = schedule_;
    return absolute_encoding(scheme_, n_, d_, params);
  }

  AbsoluteScheme scheme_ = AbsoluteScheme::Sinusoidal;
  FrequencySchedule schedule_ = FrequencySchedule::Geometric;
  int n_ = 64;
  int d_ = 128;
  double base_ = 10000.0;
  int max_len_ = 512;
  std::vector<int> dims_{0, 1, 8, 32};  // dimensions drawn as curves

  Matrix table_;     // double precision: every scheme but sinusoidal (cheap to compute: bits, p, seeded normals)
  MatrixF picture_;  // sinusoidal: the float32 heatmap (kernels::pe_table); empty otherwise
  float vmin_ = -1, vmax_ = 1;
  Colormap cmap_ = Colormap::Viridis;
  HeatmapWidget heatmap_;
};

const char* WavesView::caption() const {
  switch (scheme_) {
    case AbsoluteScheme::Sinusoidal: return "P[p][2k] = sin(p·ωₖ), P[p][2k+1] = cos(p·ωₖ), ωₖ = base^(−2k/d)";
    case AbsoluteScheme::SineOnly:
      return "P[p][c] = sin(p·ω_c), ω_c = base^(−c/d): no cosine partner, so Pₘ · Pₙ depends on m and n";
    case AbsoluteScheme::Binary: return "P[p][c] = bit c of p: unique but discontinuous (7 → 8 flips 4 bits)";
    case AbsoluteScheme::Integer: return "P[p][c] = p: unbounded, dwarfs the token embedding for long sequences";
    case AbsoluteScheme::Normalised: return "P[p][c] = p / (n - 1): the step between neighbours depends on n";
    case AbsoluteScheme::Learned: return "P = learned table (max_len × d, N(0, 0.02) init): no row past max_len";
  }
  return "";
}

void WavesView::recompute() {
  AbsoluteParams params;
  params.base = base_;
  params.schedule = schedule_;
  params.learned_max_len = max_len_;
  if (scheme_ == AbsoluteScheme::Binary && d_ < 31 && n_ > (1 << d_))
    throw CannotCompute{"n", "binary codes of " + std::to_string(d_) + " bits reach only " + std::to_string(1 << d_) +
                                 " positions; n = " + std::to_string(n_) +
                                 " needs d >= " + std::to_string(int(std::ceil(std::log2(double(n_)))))};
  if (sinusoidal()) {
    table_.resize(0, 0);
    std::vector<int64_t> positions(static_cast<size_t>(n_));
    for (int p = 0; p < n_; ++p) positions[p] = p;
    picture_ = kernels::pe_table(positions, sinusoidal_frequencies(d_, base_, schedule_));
  } else {
    picture_.resize(0, 0);
    table_ = absolute_encoding(scheme_, n_, d_, params);
  }
  switch (scheme_) {
    case AbsoluteScheme::Sinusoidal:
    case AbsoluteScheme::SineOnly: vmin_ = -1, vmax_ = 1, cmap_ = Colormap::Viridis; break;
    case AbsoluteScheme::Binary:
    case AbsoluteScheme::Normalised: vmin_ = 0, vmax_ = 1, cmap_ = Colormap::Viridis; break;
    case AbsoluteScheme::Integer: vmin_ = 0, vmax_ = float(std::max(1, n_ - 1)), cmap_ = Colormap::Viridis; break;
    case AbsoluteScheme::Learned: vmin_ = -0.06f, vmax_ = 0.06f, cmap_ = Colormap::Diverging; break;
  }
}

void WavesView::draw_figure(ImVec2 size) {
  // Curves of the chosen dimensions over position.
  std::vector<Series> curves;
  const int defined = defined_rows();
  for (size_t c = 0; c < dims_.size(); ++c) {
    const int i = dims_[c];
    if (i >= d_) continue;
    Series s{trf("dim {0}", {std::to_string(i)}), {}, {}, palette_color(int(c)), n_ <= 64, scheme_ == AbsoluteScheme::Binary};
    s.y = column(i);
    s.x.resize(s.y.size());
    for (int p = 0; p < defined; ++p) s.x[p] = p;
    curves.push_back(std::move(s));
  }
  const float curves_h = !shows("pe") ? size.y : std::max(120.0f, size.y * 0.34f);
  LinePlotOptions opt;
  opt.x_title = tr("position p");
  opt.y_title = "P[p][i]";
  opt.x_min = 0;
  opt.x_max = std::max(1, n_ - 1);
  opt.hover_format = "%.10g";
  if (shows("curves")) {
    line_plot("plot.waves", ImVec2(size.x, curves_h), curves, opt);
    probe_plot("curves", "plot.waves");
  }
  if (!shows("pe")) return;

  const HeatmapAxes axes{"dimension i", "position p", 0, 0};
  const float heat_h = alone() ? size.y : size.y - curves_h - ImGui::GetStyle().ItemSpacing.y;
  const HeatmapHover hover = heatmap_.draw("heatmap.pe", ImVec2(size.x, heat_h), axes, cmap_, vmin_, vmax_);
  probe_plot("pe", "heatmap.pe");
  if (hover.active) {
    const int p = hover.row, i = hover.col;
    begin_readout();
    ImGui::Text(tr("position p = %d, dim i = %d"), p, i);
    if (scheme_ == AbsoluteScheme::Learned && p >= max_len_) {
      ImGui::TextUnformatted(tr("no learned row past max_len: undefined"));
    } else {
      if (scheme_ == AbsoluteScheme::Sinusoidal) {
        const double w = sinusoidal_frequencies(d_, base_, schedule_)[i / 2];
        ImGui::Text(tr("pair k = %d (%s), w_k = %.10g, angle p w_k = %.10g"), i / 2, i % 2 ? "cos" : "sin", w, p * w);
      }
      ImGui::Text("P[p][i] = %.17g", value(p, i));
    }
    end_readout();
  }
}

std::string WavesView::formula_words() const {
  switch (scheme_) {
    case AbsoluteScheme::Sinusoidal:
      return "Each position p gets a vector: even dimensions 2k hold the sine of p times w_k, odd dimensions the "
             "cosine, with frequencies w_k = base to the power -2k/d falling from 1 to about 1/base.";
    case AbsoluteScheme::SineOnly: return "Each dimension c holds the sine of p times w_c, with no cosine partner.";
    case AbsoluteScheme::Binary: return "Dimension c holds bit c of the position p.";
    case AbsoluteScheme::Integer: return "Every dimension holds the position p itself.";
    case AbsoluteScheme::Normalised: return "Every dimension holds p divided by n - 1.";
    case AbsoluteScheme::Learned: return "A learned table of max_len rows; positions past max_len have no row.";
  }
  return "";
}

void WavesView::numbers(std::vector<DescribedNumber>& out) const {
  out.push_back({"positions n", double(n_)});
  out.push_back({"width d", double(d_)});
  if (scheme_ == AbsoluteScheme::Sinusoidal) {
    const std::vector<double> w = sinusoidal_frequencies(d_, base_, schedule_);
    if (!w.empty()) {
      out.push_back({"highest frequency w_0 (rad / position)", w.front()});
      out.push_back({"longest wavelength 2 pi / w (positions)", 2 * std::numbers::pi / w.back()});
    }
  }
  // (sinusoidal entries are sines and cosines: at most 1, not worth a pass over the table)
  if (table_.size() > 0) out.push_back({"largest |P[p][i]|", table_.cwiseAbs().maxCoeff()});
}

void WavesView::export_data(std::vector<ExportTable>& tables) const {
  if (failed() || (table_.size() == 0 && picture_.size() == 0)) return;
  const int defined = defined_rows();
  const Matrix table = double_table();
  tables.push_back(matrix_table("P", "position p", "dimension i", "p", table, 0, 0, defined));
  std::vector<ExportSeries> curves;
  for (int i : dims_) {
    if (i >= d_) continue;
    ExportSeries s{"dim " + std::to_string(i), {}, {}};
    for (int p = 0; p < n_; ++p) {
      s.x.push_back(p);
      s.y.push_back(p < defined ? table(p, i) : NAN);
    }
    curves.push_back(std::move(s));
  }
  tables.push_back(curve_table("curves", "position p", "P[p][i]", "p", curves));
}

}  // namespace

std::unique_ptr<View> make_waves_view(ViewText text) { return std::make_unique<WavesView>(std::move(text)); }

}  // namespace posenc::app
