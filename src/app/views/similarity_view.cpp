// Similarity: the Gram matrix P P^T of an absolute scheme, the curve P_p . P_{p+delta} over delta for
// several p (sinusoidal beside sine only), and the neighbour distance ||P_{p+1} - P_p|| over p.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "app/controls.h"
#include "app/heatmap.h"
#include "app/i18n.h"
#include "app/input.h"
#include "app/plot.h"
#include "app/probe.h"
#include "app/views/views.h"
#include "core/encodings/absolute.h"
#include "core/attention/score_kernels.h"
#include "core/analysis/similarity.h"

namespace posenc::app {
namespace {

constexpr int kMaxPositions = 4096;  // positions of the curves
constexpr int kMaxHeatmapN = 4096;   // P P^T is drawn for at most this many positions (float32 kernels)
constexpr int kMaxWidth = 1024;
constexpr int kMaxStep = 1024;        // s: curves at p = 0, s, 2s, 3s
constexpr int kMaxLearnedRows = 512;  // learned table rows (max_len)
constexpr int kMaxSeed = 1000;
constexpr int kCurves = 4;

// What the scheme combo shows, in AbsoluteScheme order (the URL values are names_of<AbsoluteScheme>()).
constexpr const char* kSchemeLabels[] = {"sinusoidal (sin/cos)", "sine only",           "binary", "integer p",
                                         "normalised p/(n-1)",   "learned (BERT table)"};

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

class SimilarityView final : public View {
 public:
  explicit SimilarityView(ViewText text) : View(std::move(text)) {}

  void params(ParamList& p) override {
    p.choice("scheme", scheme_, names_of<AbsoluteScheme>(), {.label = "Absolute scheme (heatmap)", .labels = kSchemeLabels});
    p.integer("n", n_, 2, kMaxPositions, {.label = "Sequence length n", .format = "n = %d", .log = true});
    p.integer("d", d_, 2, kMaxWidth, {.label = "Model width d (even)", .format = "d = %d", .log = true, .even = true});
    p.real("base", base_, kBaseMin, kBaseMax, {.label = "Base", .format = "base = %.0f", .log = true});
    p.integer("pstep", p_step_, 1, kMaxStep, {.label = "Curves at p = 0, s, 2s, 3s", .format = "s = %d", .log = true});
    p.integer("max_len", max_len_, 2, kMaxLearnedRows, {.label = "Learned table rows (max_len)", .format = "max_len = %d"});
    p.integer("seed", seed_, 0, kMaxSeed, {.label = "Seed", .format = "seed = %d"});
  }

  void export_data(std::vector<ExportTable>& tables) const override;
  void numbers(std::vector<DescribedNumber>& out) const override {
    if (!dots_) return;
    out.push_back({"P_0 . P_0", dots_->dot(0, 0)});
    if (n_ > 1 && dots_->defined(1)) out.push_back({"P_0 . P_1", dots_->dot(0, 1)});
    if (n_ > 10 && dots_->defined(10)) out.push_back({"P_0 . P_10", dots_->dot(0, 10)});
    out.push_back({"positions n", double(n_)});
  }

 private:
  void controls(Controls& c) override {
    c.draw("scheme");
    c.draw("n");
    c.draw("d");
    c.draw("base");
    c.draw("pstep");
    if (scheme_ == AbsoluteScheme::Learned) {
      c.draw("max_len");
      c.draw("seed");
    }
    ImGui::Separator();
    ImGui::TextWrapped("%s", tr("Sinusoidal: every row of P P^T is the same curve shifted, so the heatmap is constant "
                                "along each diagonal and brightest on it. Sine only loses that: P_p . P_{p+delta} "
                                "moves with p. Binary codes are unique but neighbours can be far apart (7 -> 8 flips "
                                "four bits)."));
  }
  std::string key_for_field(const std::string& field) const override {
    return renamed_key(field, {{"dim", "d"}, {"learned_max_len", "max_len"}, {"limit", "pstep"}, {"count", "n"}});
  }
  void recompute() override;
  void upload() override;
  void draw_figure(ImVec2 size) override;

  AbsoluteParams absolute_params() const {
    AbsoluteParams params;
    params.base = base_;
    params.learned_max_len = max_len_;
    params.seed = uint64_t(seed_);
    return params;
  }

  AbsoluteScheme scheme_ = AbsoluteScheme::Sinusoidal;
  int n_ = 128, d_ = 64;
  double base_ = 10000.0;
  int p_step_ = 24;
  int max_len_ = 512;
  int seed_ = 0;

  std::string binary_note_;  // why the binary reference curve is missing
  int heatmap_n_ = 0;        // rows drawn (n capped at kMaxHeatmapN)
  float vmin_ = 0, vmax_ = 1;
  std::optional<PositionDots> dots_;  // the selected scheme, for exact hover values and export
  MatrixF gram_;                      // P P^T (float) of the drawn block, until upload()
  HeatmapWidget heatmap_;
  std::vector<Series> sinus_curves_, sine_only_curves_, neighbour_;
  double curve_y_min_ = 0, curve_y_max_ = 1;
};

void SimilarityView::recompute() {
  binary_note_.clear();
  dots_.reset();
  sinus_curves_.clear();
  sine_only_curves_.clear();
  neighbour_.clear();
  const AbsoluteParams params = absolute_params();
  heatmap_n_ = std::min(n_, kMaxHeatmapN);
  const int64_t curve_limit = int64_t(kCurves - 1) * p_step_ + n_;

  // The selected scheme: exact dots for hover and export, P P^T as floats for the texture.
  if (scheme_ == AbsoluteScheme::Binary && d_ < 31 && n_ > (1 << d_)) {
    int bits = 1;
    while ((int64_t{1} << bits) < n_) ++bits;
    throw CannotCompute{"n", "binary codes of " + std::to_string(d_) + " bits reach only " + std::to_string(1 << d_) +
                                 " positions; n = " + std::to_string(n_) + " needs d >= " + std::to_string(bits)};
  }
  dots_.emplace(scheme_, n_, d_, params, n_);
  if (scheme_ == AbsoluteScheme::Sinusoidal) {
    // P_a . P_b = sum_k cos((a - b) w_k): one value per offset, rows filled by the relative-matrix kernel.
    const int hn = heatmap_n_;
    std::vector<double> by_offset(size_t(2 * hn - 1));
    for (int o = 0; o < 2 * hn - 1; ++o) by_offset[size_t(o)] = dots_->dot(0, std::abs(o - (hn - 1)));
    gram_ = kernels::relative_matrix(by_offset, hn);
  } else if (scheme_ == AbsoluteScheme::Learned) {
    // P P^T of the defined rows with the float32 GEMM kernel; rows past max_len are undefined.
    const int rows = learned_defined_rows(heatmap_n_, params);
    const MatrixF P = learned_position_table(params.learned_max_len, d_, params.seed).topRows(rows).cast<float>();
    gram_.setConstant(heatmap_n_, heatmap_n_, std::numeric_limits<float>::quiet_NaN());
    gram_.topLeftCorner(rows, rows) = kernels::gram(P);
  } else {
    gram_ = position_similarity_f(scheme_, heatmap_n_, d_, params);  // closed forms: one expression a cell
  }
  if (scheme_ == AbsoluteScheme::Normalised && heatmap_n_ < n_) {
    // The normalised code depends on n: rescale the capped block to the real n.
    const double s = double(heatmap_n_ - 1) / double(n_ - 1);
    gram_ *= float(s * s);
  }
  float lo = std::numeric_limits<float>::infinity(), hi = -lo;
  for (Eigen::Index i = 0; i < gram_.size(); ++i) {
    float& v = gram_.data()[i];
    if (!std::isfinite(v)) {
      v = kMaskedCell;  // undefined rows of the learned table
      continue;
    }
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  if (!(hi > lo)) {  // a constant matrix: any non-empty range
    lo = std::isfinite(lo) ? lo - 1 : 0;
    hi = std::isfinite(hi) ? hi + 1 : 1;
  }
  vmin_ = lo;
  vmax_ = hi;

  // P_p . P_{p+delta} for the same p values, sinusoidal beside sine only.
  curve_y_min_ = std::numeric_limits<double>::infinity();
  curve_y_max_ = -curve_y_min_;
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

  // Neighbour distance: the selected scheme, with binary and sinusoidal for reference (sinusoidal last, so
  // its flat line stays visible over binary's jumps). Binary is a reference only: when d bits cannot code
  // n positions it is left out with a note.
  std::vector<AbsoluteScheme> shown = {AbsoluteScheme::Binary, AbsoluteScheme::Sinusoidal};
  if (scheme_ != AbsoluteScheme::Sinusoidal && scheme_ != AbsoluteScheme::Binary) shown.insert(shown.begin(), scheme_);
  for (AbsoluteScheme s : shown) {
    try {
      const PositionDots dots(s, n_, d_, params, n_);
      neighbour_.push_back(make_series(name_of(s), neighbour_distances(dots, n_ - 1), 0, palette_color(int(s))));
    } catch (const InvalidArgument& e) {
      if (s != AbsoluteScheme::Binary) throw;
      binary_note_ = "binary not shown: " + std::string(e.what()) + " (d = " + std::to_string(d_) + ")";
    }
  }
}

void SimilarityView::upload() {
  heatmap_.map().set_values(gram_.data(), int(gram_.rows()), int(gram_.cols()));
  gram_ = MatrixF();  // the texture holds it now
}

void SimilarityView::export_data(std::vector<ExportTable>& tables) const {
  if (failed() || !dots_) return;
  // P_a . P_b in double precision from the same PositionDots the hover reads (NaN where undefined).
  tables.push_back(matrix_table("similarity", "position a", "position b", "a", heatmap_n_, heatmap_n_,
                                [&](int a, int b) { return dots_->dot(a, b); }));
  tables.push_back(curve_table("shifted_dot_sinusoidal", "offset delta", "P_p . P_{p+delta}", "delta", sinus_curves_));
  tables.push_back(curve_table("shifted_dot_sine_only", "offset delta", "P_p . P_{p+delta}", "delta", sine_only_curves_));
  tables.push_back(curve_table("neighbour_distance", "position p", "||P_{p+1} - P_p||", "p", neighbour_));
}

void SimilarityView::draw_figure(ImVec2 size) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  // Wide: the matrix left, the three curves right; stacked: one figure per row at full width.
  const bool stack = stacked();
  const int curves = (shows("curves_sinusoidal") ? 1 : 0) + (shows("curves_sine_only") ? 1 : 0) + (shows("neighbour") ? 1 : 0);
  const int shown = curves + (shows("similarity") ? 1 : 0);
  const float note_h = binary_note_.empty() ? 0.0f : line;
  const float row_h = stack ? (size.y - note_h - (shown - 1) * style.ItemSpacing.y) / std::max(1, shown) : 0;
  const float left_w = stack ? size.x : std::max(200.0f, std::min(size.x * 0.5f, size.y - line));
  const float right_w = stack ? size.x : size.x - left_w - style.ItemSpacing.x;

  if (shows("similarity")) {
    ImGui::BeginGroup();
    if (heatmap_n_ < n_) ImGui::TextColored(warning_color(), tr("P P^T capped: positions 0..%d of n = %d"), heatmap_n_ - 1, n_);
    else if (!alone()) ImGui::Text(tr("P P^T, %s, n = %d, d = %d"), tr_name(name_of(scheme_)), n_, d_);
    const float header = alone() && heatmap_n_ >= n_ ? 0.0f : line;
    const float h = alone() ? size.y - header : stack ? row_h - line : std::min(left_w, size.y - line);
    const HeatmapAxes axes{"position b", "position a", 0, 0};
    const HeatmapHover hover = heatmap_.draw("heatmap.similarity", ImVec2(left_w, h), axes, Colormap::Viridis, vmin_, vmax_);
    probe_plot("similarity", "heatmap.similarity");
    if (hover.active && dots_) {
      const int64_t a = hover.row, b = hover.col;
      begin_readout();
      ImGui::Text("a = %lld, b = %lld, b - a = %lld", (long long)a, (long long)b, (long long)(b - a));
      if (dots_->defined(a) && dots_->defined(b)) {
        ImGui::Text("P_a . P_b = %.17g", dots_->dot(a, b));
        if (scheme_ == AbsoluteScheme::Sinusoidal) ImGui::TextDisabled("%s", tr("= ∑ₖ cos((a − b) ωₖ): depends on b − a only"));
      } else {
        ImGui::TextUnformatted(tr("undefined: the learned table has no row past max_len"));
      }
      end_readout();
    }
    ImGui::EndGroup();
    if (!stack && curves) ImGui::SameLine();
  }
  if (!curves) return;

  ImGui::BeginGroup();
  // Each plot gets a header line (the shared axis title sits half left of the plot: too little room here).
  const float plot_h = stack ? row_h - line : (size.y - note_h - curves * line - (curves - 1) * style.ItemSpacing.y) / curves;
  LinePlotOptions co;
  co.x_title = tr("offset delta");
  co.hover_format = "%.12g";
  if (std::isfinite(curve_y_min_)) {
    co.y_min = curve_y_min_ - 0.05 * (curve_y_max_ - curve_y_min_ + 1e-9);
    co.y_max = curve_y_max_ + 0.05 * (curve_y_max_ - curve_y_min_ + 1e-9);
  }
  if (shows("curves_sinusoidal")) {
    text_fit(tr("Sinusoidal: Pₚ · Pₚ₊δ over δ (the curves coincide)"));
    line_plot("plot.curves_sinusoidal", ImVec2(right_w, plot_h), sinus_curves_, co);
  }
  if (shows("curves_sine_only")) {
    text_fit(tr("Sine only: Pₚ · Pₚ₊δ over δ (each p differs)"));
    line_plot("plot.curves_sine_only", ImVec2(right_w, plot_h), sine_only_curves_, co);
  }
  LinePlotOptions no;
  no.x_title = tr("position p");
  no.hover_format = "%.12g";
  no.y_min = 0;
  if (shows("neighbour")) {
    text_fit(tr("Neighbour distance ‖Pₚ₊₁ − Pₚ‖ over p"));
    const TranslatedLabels neighbour_labels(neighbour_);  // "binary", "sinusoidal": the exports keep English
    line_plot("plot.neighbour", ImVec2(right_w, plot_h), neighbour_, no);
  }
  if (!binary_note_.empty() && !alone()) ImGui::TextDisabled("%s", tr_message(binary_note_).c_str());
  ImGui::EndGroup();
}

}  // namespace

std::unique_ptr<View> make_similarity_view(ViewText text) { return std::make_unique<SimilarityView>(std::move(text)); }

}  // namespace posenc::app
