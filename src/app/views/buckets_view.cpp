// Bias buckets: how relative schemes turn the distance j - i into a bucket, a clipped index or a bias —
// T5 buckets (bidirectional / causal) with a seeded bias per bucket, DeBERTa log buckets, Shaw's clip
// window, ALiBi's per-head lines — each as curves over j - i and as the n x n matrix they induce.
//
// Sections, top to bottom: curve helpers (steps, symmetric_range); the view's keys; the per-scheme table
// (kSchemeRows: names, texts, controls, export names, and each scheme's numbers, curves and matrix, readout)
// with the scheme's functions it names; upload and export; draw_figure.
#include <algorithm>
#include <array>
#include <cmath>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "app/controls.h"
#include "app/heatmap.h"
#include "app/i18n.h"
#include "app/input.h"
#include "app/plot.h"
#include "app/probe.h"
#include "app/views/views.h"
#include "core/encodings/alibi.h"
#include "core/encodings/deberta.h"
#include "core/encodings/shaw.h"
#include "core/attention/score_kernels.h"
#include "core/analysis/similarity.h"
#include "core/encodings/t5.h"

namespace posenc::app {
namespace {

constexpr int kMaxPositions = 8192;  // relative distances of the curves: -(n-1)..n-1
constexpr int kMaxHeatmapN = 2048;   // the matrix is drawn for at most this many positions
constexpr int kMaxNumBuckets = 256;
constexpr int kMaxT5Distance = 65536;
constexpr int kMaxSeed = 1000;
constexpr int kMaxBucketSize = 4096;
constexpr int kMaxDebertaPosition = 65536;
constexpr int kMaxClip = 1024;
constexpr int kMaxAlibiHeads = 64;

enum class Scheme { T5, Deberta, Shaw, Alibi };
struct SchemeRow;
// The scheme's row of kSchemeRows (below the view, whose members its functions name).
const SchemeRow& row_of(Scheme s);
std::span<const char* const> scheme_names();
std::span<const char* const> scheme_labels();
// What the T5 matrix shows; drawn as the checkbox "matrix shows the bias".
enum class Shown { Bucket, Bias };
constexpr const char* kShownNames[] = {"bucket", "bias"};

Series steps(std::string label, int64_t r0, const std::vector<double>& y, ImU32 color) {
  Series s{std::move(label), {}, {}, color, false, true};
  s.x.reserve(y.size());
  for (size_t i = 0; i < y.size(); ++i) s.x.push_back(double(r0 + int64_t(i)));
  s.y = y;
  return s;
}

// A sequential colour scale for many lines (viridis: matplotlib's values at 0, 1/4, 1/2, 3/4 and 1,
// interpolated linearly between them), t in [0, 1].
ImU32 head_scale_color(double t) {
  static constexpr unsigned char kStops[5][3] = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
  const double x = std::clamp(t, 0.0, 1.0) * 4;
  const int k = std::min(3, int(x));
  const double f = x - k;
  auto mix = [&](int c) { return int(std::lround(kStops[k][c] + f * (kStops[k + 1][c] - kStops[k][c]))); };
  return IM_COL32(mix(0), mix(1), mix(2), 255);
}

void symmetric_range(const std::vector<double>& v, float& lo, float& hi) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  if (m == 0) m = 1;
  lo = float(-m);
  hi = float(m);
}

class BucketsView final : public View {
 public:
  explicit BucketsView(ViewText text) : View(std::move(text)) {}

  const char* caption() const override;

  void params(ParamList& p) override {
    p.choice("scheme", scheme_, scheme_names(), {.label = "Scheme", .labels = scheme_labels()});
    p.integer("n", n_, 2, kMaxPositions, {.label = "Sequence length n", .format = "n = %d", .log = true});
    // T5
    p.flag("bidirectional", bidirectional_, {.label = "bidirectional (encoder)"});
    p.integer("num_buckets", num_buckets_, 2, kMaxNumBuckets,
              {.label = "num_buckets", .format = "num_buckets = %d", .log = true});
    p.integer("max_distance", max_distance_, 2, kMaxT5Distance,
              {.label = "max_distance", .format = "max_distance = %d", .log = true});
    // T5 and Shaw
    p.integer("seed", seed_, 0, kMaxSeed,
              {.label = scheme_ == Scheme::Shaw ? "Table seed" : "Bias table seed", .format = "seed = %d"});
    p.choice("show", shown_, kShownNames, {.label = "matrix shows the bias", .widget = ChoiceWidget::Checkbox});
    // DeBERTa
    p.integer("bucket_size", bucket_size_, 0, kMaxBucketSize,
              {.label = "bucket_size (position_buckets)", .format = "bucket_size = %d", .log = true});
    p.integer("max_position", max_position_, 0, kMaxDebertaPosition,
              {.label = "max_position (max_relative_positions)", .format = "max_position = %d", .log = true});
    // Shaw
    p.integer("clip", clip_, 1, kMaxClip, {.label = "Clip distance K", .format = "K = %d", .log = true});
    // ALiBi
    p.integer("heads", heads_, 1, kMaxAlibiHeads, {.label = "Heads H", .format = "H = %d"});
    p.integer("head", head_, 0, heads_ - 1, {.label = "Head drawn in the matrix", .format = "head h = %d"});
  }

  void export_data(std::vector<ExportTable>& tables) const override;
  std::string formula_words() const override;
  void numbers(std::vector<DescribedNumber>& out) const override;

 private:
  void controls(Controls& c) override;
  std::string key_for_field(const std::string& field) const override {
    return renamed_key(field, {{"max_relative_position", "clip"}, {"relative_positions", "n"}});
  }
  void recompute() override;
  void upload() override;
  void draw_figure(ImVec2 size) override;

  const std::vector<double>& drawn_by_offset() const;
  void draw_hover(int i, int j) const;

  // Each scheme's numbers, curves and matrix (recompute), and readout of one cell (hover; o = offset_index(r)).
  friend const SchemeRow& row_of(Scheme s);
  void t5_numbers(std::vector<DescribedNumber>& out) const;
  void deberta_numbers(std::vector<DescribedNumber>& out) const;
  void shaw_numbers(std::vector<DescribedNumber>& out) const;
  void alibi_numbers(std::vector<DescribedNumber>& out) const;
  void t5_compute(int64_t r0);
  void deberta_compute(int64_t r0);
  void shaw_compute(int64_t r0);
  void alibi_compute(int64_t r0);
  void t5_hover(size_t o, int64_t r) const;
  void deberta_hover(size_t o, int64_t r) const;
  void shaw_hover(size_t o, int64_t r) const;
  void alibi_hover(size_t o, int64_t r) const;
  int64_t offset_index(int64_t r) const { return r + n_ - 1; }
  bool show_bias() const { return shown_ == Shown::Bias; }

  Scheme scheme_ = Scheme::T5;
  int n_ = 64;
  // T5
  bool bidirectional_ = true;
  int num_buckets_ = 32, max_distance_ = 128;
  int seed_ = 0;
  Shown shown_ = Shown::Bucket;  // the matrix shows the bucket index or the bias
  // DeBERTa
  int bucket_size_ = 32, max_position_ = 512;
  // Shaw
  int clip_ = 8;
  // ALiBi: the heads, and the head drawn in the matrix
  int heads_ = 8, head_ = 0;

  int heatmap_n_ = 0;
  float vmin_ = 0, vmax_ = 1;
  Colormap cmap_ = Colormap::Viridis;
  // By relative distance r = j - i, index r + n - 1: the bucket (or clipped index) and the value drawn.
  std::vector<double> bucket_by_offset_, value_by_offset_;
  std::vector<double> t5_bias_, alibi_slopes_;
  std::vector<Series> index_series_, value_series_;
  int reference_series_ = -1;  // index_series_ entry drawn in the theme's text colour (DeBERTa's i - j)
  const char* index_title_ = "";
  const char* value_title_ = "";
  HeatmapWidget heatmap_;
};

// One row per scheme: what the view says, draws, computes and exports for it.
struct SchemeRow {
  Scheme scheme;
  const char* name;               // the URL value (PositionSchemeKind's name)
  const char* label;              // the scheme control's text
  const char* caption;            // the formula line
  const char* words;              // the formula in words
  std::vector<const char*> keys;  // its controls, below scheme and n
  const char* note;               // a line under them, or nullptr
  const char* matrix;             // what the n x n matrix shows
  const char* matrix_table;       // export names: the matrix, the index curves, the value curves
  const char* index_table;
  const char* value_table;
  void (BucketsView::*numbers)(std::vector<DescribedNumber>&) const;
  void (BucketsView::*compute)(int64_t r0);  // curves and matrix range, r0 = -(n - 1)
  void (BucketsView::*hover)(size_t o, int64_t r) const;
};

const SchemeRow& row_of(Scheme s) {
  static const SchemeRow kSchemeRows[] = {
      {Scheme::T5,
       name_of(PositionSchemeKind::T5),
       "T5 buckets",
       "T5: score = qᵢ · kⱼ + b[bucket(j − i)]; exact buckets below max_exact, log-spaced up to max_distance",
       "T5 adds a learned bias to each attention score, chosen by the bucket of the distance j - i: small "
       "distances get a bucket each, larger ones share log-spaced buckets up to max_distance.",
       {"bidirectional", "num_buckets", "max_distance", "seed", "show"},
       nullptr,
       "bucket index",
       "bucket_matrix",
       "bucket_curve",
       "bias_curve",
       &BucketsView::t5_numbers,
       &BucketsView::t5_compute,
       &BucketsView::t5_hover},
      {Scheme::Deberta,
       name_of(PositionSchemeKind::Deberta),
       "DeBERTa log buckets",
       "DeBERTa: δ(i, j) = i − j if |i − j| ≤ bucket_size/2, else sign · (ceil(log ratio · (mid−1)) + mid)",
       "DeBERTa maps the distance i - j to a bucket: itself within half the bucket size, log-spaced beyond.",
       {"bucket_size", "max_position"},
       "bucket_size = 0 turns log bucketing off",
       "bucketed relative position delta(i, j)",
       "delta_matrix",
       "delta_curve",
       "table_row_curve",
       &BucketsView::deberta_numbers,
       &BucketsView::deberta_compute,
       &BucketsView::deberta_hover},
      {Scheme::Shaw,
       name_of(PositionSchemeKind::Shaw),
       "Shaw clip window",
       "Shaw: eᵢⱼ = qᵢ · (kⱼ + a^K[clip(j − i, −K, K)]) / √d; distances past K share the end vector",
       "Shaw adds a learned vector to each key, chosen by the distance j - i clipped to plus or minus K.",
       {"clip", "seed"},
       nullptr,
       "clipped distance",
       "clip_matrix",
       "clip_curve",
       "table_curve",
       &BucketsView::shaw_numbers,
       &BucketsView::shaw_compute,
       &BucketsView::shaw_hover},
      {Scheme::Alibi,
       name_of(PositionSchemeKind::Alibi),
       "ALiBi per head",
       "ALiBi: qᵢ · kⱼ − mₕ |i − j|; h = 0…H−1, P = largest power of 2 ≤ H: mₕ = 2^(−8(h+1)/P) for h < P, "
       "then the odd slopes of 2P heads",
       "ALiBi subtracts m_h times the distance from each score. Heads are numbered h = 0 to H - 1; with P "
       "the largest power of two not above H, the first P heads take m_h = 2 to the power -8(h + 1)/P, "
       "the other H - P heads the odd-numbered slopes of 2P heads, 2 to the power -4(2k + 1)/P for "
       "k = 0, 1 and on (Press et al.)",
       {"heads", "head"},
       nullptr,
       "bias of the selected head",
       "bias_matrix",
       "bias_curves",
       "slopes",
       &BucketsView::alibi_numbers,
       &BucketsView::alibi_compute,
       &BucketsView::alibi_hover},
  };
  static_assert(std::size(kSchemeRows) == 4);
  return kSchemeRows[size_t(s)];
}

std::span<const char* const> scheme_names() {
  static const std::array<const char*, 4> names{row_of(Scheme::T5).name, row_of(Scheme::Deberta).name, row_of(Scheme::Shaw).name,
                                                row_of(Scheme::Alibi).name};
  return names;
}

std::span<const char* const> scheme_labels() {
  static const std::array<const char*, 4> labels{row_of(Scheme::T5).label, row_of(Scheme::Deberta).label,
                                                 row_of(Scheme::Shaw).label, row_of(Scheme::Alibi).label};
  return labels;
}

const char* BucketsView::caption() const { return row_of(scheme_).caption; }

std::string BucketsView::formula_words() const { return row_of(scheme_).words; }

void BucketsView::numbers(std::vector<DescribedNumber>& out) const {
  (this->*row_of(scheme_).numbers)(out);
  out.push_back({"positions n", double(n_)});
}

void BucketsView::t5_numbers(std::vector<DescribedNumber>& out) const {
  for (int dist : {1, 10, 100})
    out.push_back(
        {"bucket of distance " + std::to_string(dist), double(t5_bucket(dist, bidirectional_, num_buckets_, max_distance_))});
}

void BucketsView::deberta_numbers(std::vector<DescribedNumber>& out) const {
  for (int dist : {1, 10, 100})
    out.push_back(
        {"delta of distance " + std::to_string(dist), double(deberta_relative_position(0, dist, bucket_size_, max_position_))});
}

void BucketsView::shaw_numbers(std::vector<DescribedNumber>& out) const { out.push_back({"clip distance K", double(clip_)}); }

void BucketsView::alibi_numbers(std::vector<DescribedNumber>& out) const {
  if (alibi_slopes_.empty()) return;
  out.push_back({"slope of head 0", alibi_slopes_.front()});
  out.push_back({"slope of head H - 1", alibi_slopes_.back()});
}

void BucketsView::controls(Controls& c) {
  c.draw("scheme");
  c.draw("n");
  ImGui::Separator();
  const SchemeRow& row = row_of(scheme_);
  for (const char* k : row.keys) {
    if (std::string_view(k) == "head") head_ = std::min(head_, heads_ - 1);  // heads just moved below the drawn head
    c.draw(k);
  }
  if (row.note) ImGui::TextDisabled("%s", tr(row.note));
}

void BucketsView::recompute() {
  index_series_.clear();
  value_series_.clear();
  reference_series_ = -1;
  bucket_by_offset_.assign(size_t(2 * n_ - 1), 0.0);
  value_by_offset_.assign(size_t(2 * n_ - 1), 0.0);
  heatmap_n_ = std::min(n_, kMaxHeatmapN);
  const int64_t r0 = -(n_ - 1);
  (this->*row_of(scheme_).compute)(r0);
}

void BucketsView::t5_compute(int64_t r0) {
  std::vector<int64_t> rel(size_t(2 * n_ - 1));
  for (size_t i = 0; i < rel.size(); ++i) rel[i] = r0 + int64_t(i);
  const std::vector<int> buckets = t5_buckets(rel, bidirectional_, num_buckets_, max_distance_);
  t5_bias_ = seeded_bias(num_buckets_, uint64_t(seed_));
  for (size_t i = 0; i < rel.size(); ++i) {
    bucket_by_offset_[i] = buckets[i];
    value_by_offset_[i] = t5_bias_[size_t(buckets[i])];
  }
  index_title_ = "bucket(j - i)";
  value_title_ = "bias b[bucket(j - i)] (seeded)";
  index_series_.push_back(steps(bidirectional_ ? "bidirectional" : "causal", r0, bucket_by_offset_, palette_color(0)));
  value_series_.push_back(steps("bias", r0, value_by_offset_, palette_color(1)));
  if (show_bias()) {
    cmap_ = Colormap::Diverging;
    symmetric_range(t5_bias_, vmin_, vmax_);
  } else {
    cmap_ = Colormap::Viridis;
    vmin_ = 0;
    vmax_ = float(std::max(1, num_buckets_ - 1));
  }
}

void BucketsView::deberta_compute(int64_t r0) {
  validate_deberta_buckets(bucket_size_, max_position_);
  const int64_t span = deberta_span(bucket_size_, max_position_);
  if (span < 1)
    throw CannotCompute{"max_position", "with bucket_size = 0 and max_position = 0 the position table has no rows (span s = 0)"};
  for (size_t i = 0; i < bucket_by_offset_.size(); ++i) {
    const int64_t r = r0 + int64_t(i);  // j - i; DeBERTa's own relative position is i - j = -r
    const int64_t delta = deberta_relative_position(0, r, bucket_size_, max_position_);
    bucket_by_offset_[i] = double(delta);
    value_by_offset_[i] = double(std::clamp<int64_t>(delta + span, 0, 2 * span - 1));
  }
  index_title_ = "delta = log bucket of (i - j)";
  value_title_ = "row of the 2s position table: clamp(delta + s, 0, 2s - 1)";
  index_series_.push_back(steps("delta(i, j)", r0, bucket_by_offset_, palette_color(0)));
  std::vector<double> identity(bucket_by_offset_.size());
  for (size_t i = 0; i < identity.size(); ++i) identity[i] = -double(r0 + int64_t(i));
  reference_series_ = int(index_series_.size());
  index_series_.push_back(steps("i - j (no bucketing)", r0, identity, 0));
  value_series_.push_back(steps("table row", r0, value_by_offset_, palette_color(1)));
  cmap_ = Colormap::Diverging;
  symmetric_range(bucket_by_offset_, vmin_, vmax_);
}

void BucketsView::shaw_compute(int64_t r0) {
  const Matrix table = shaw_random_table(clip_, 3, uint64_t(seed_));
  std::vector<std::vector<double>> comps(3, std::vector<double>(bucket_by_offset_.size()));
  for (size_t i = 0; i < bucket_by_offset_.size(); ++i) {
    const int64_t r = r0 + int64_t(i);
    const int64_t row = shaw_index(0, r, clip_);
    bucket_by_offset_[i] = double(row - clip_);  // clip(j - i, -K, K)
    value_by_offset_[i] = double(row - clip_);
    for (int c = 0; c < 3; ++c) comps[size_t(c)][i] = table(row, c);
  }
  index_title_ = "clip(j - i, -K, K)";
  value_title_ = "a^K[clip(j - i)][c], c = 0..2 (seeded table)";
  index_series_.push_back(steps("clipped distance", r0, bucket_by_offset_, palette_color(0)));
  for (int c = 0; c < 3; ++c)
    value_series_.push_back(steps("component " + std::to_string(c), r0, comps[size_t(c)], palette_color(c + 1)));
  cmap_ = Colormap::Diverging;
  vmin_ = float(-clip_);
  vmax_ = float(clip_);
}

void BucketsView::alibi_compute(int64_t r0) {
  alibi_slopes_ = alibi_slopes(heads_);
  const double m = alibi_slopes_[size_t(std::min(head_, heads_ - 1))];
  for (size_t i = 0; i < bucket_by_offset_.size(); ++i) {
    const int64_t r = r0 + int64_t(i);
    bucket_by_offset_[i] = double(std::abs(r));
    value_by_offset_[i] = -m * double(std::abs(r));
  }
  index_title_ = "bias -m_h |j - i| of every head";
  value_title_ = "slope m_h per head";
  // Up to 8 heads: a palette colour and a legend entry each. More: a colour scale over the heads
  // (dark to light by h) whose legend names five heads spread over it, first and last included.
  for (int h = 0; h < heads_; ++h) {
    std::vector<double> x = {double(r0), 0.0, double(n_ - 1)};
    std::vector<double> y = {-alibi_slopes_[size_t(h)] * (n_ - 1), 0.0, -alibi_slopes_[size_t(h)] * (n_ - 1)};
    const bool few = heads_ <= 8;
    bool named = few;
    for (int k = 0; k <= 4; ++k) named = named || h == int(std::lround(k * (heads_ - 1) / 4.0));
    // From 0.2 of the scale: its darkest purple would not read on the dark theme.
    Series s{named ? "h = " + std::to_string(h) : std::string(),
             x,
             y,
             few ? palette_color(h) : head_scale_color(0.2 + 0.8 * h / (heads_ - 1)),
             false,
             false};
    index_series_.push_back(std::move(s));
  }
  Series slopes{"m_h", {}, alibi_slopes_, palette_color(0), true, false};
  for (int h = 0; h < heads_; ++h) slopes.x.push_back(h);
  value_series_.push_back(std::move(slopes));
  cmap_ = Colormap::Viridis;
  vmin_ = float(-m * double(heatmap_n_ - 1));
  vmax_ = 0;
  if (!(vmax_ > vmin_)) vmin_ = -1;
}

// Bias values for ALiBi and T5 (when asked), otherwise the bucket / bucketed or clipped distance.
const std::vector<double>& BucketsView::drawn_by_offset() const {
  const bool draw_values = scheme_ == Scheme::Alibi || (scheme_ == Scheme::T5 && show_bias());
  return draw_values ? value_by_offset_ : bucket_by_offset_;
}

void BucketsView::upload() {
  // The capped matrix uses the offsets -(heatmap_n - 1)..heatmap_n - 1 of the full vectors.
  const std::vector<double>& drawn = drawn_by_offset();
  const auto first = drawn.begin() + (n_ - heatmap_n_);
  const std::vector<double> block(first, first + (2 * heatmap_n_ - 1));
  const MatrixF M = kernels::relative_matrix(block, heatmap_n_);  // SIMD row copies of the offset vector
  heatmap_.map().set_values(M.data(), int(M.rows()), int(M.cols()));
}

void BucketsView::export_data(std::vector<ExportTable>& tables) const {
  if (failed() || bucket_by_offset_.empty()) return;
  const SchemeRow& row = row_of(scheme_);
  const std::vector<double>& drawn = drawn_by_offset();
  const std::string matrix_name = scheme_ == Scheme::T5 && show_bias() ? "bias_matrix" : row.matrix_table;
  tables.push_back(matrix_table(matrix_name, "query i", "key j", "i", heatmap_n_, heatmap_n_,
                                [&](int i, int j) { return drawn[size_t(offset_index(int64_t(j) - i))]; }));
  if (scheme_ == Scheme::Alibi) {
    // The plot draws each head as a 3-point polyline; export its value at every distance.
    std::vector<ExportSeries> heads;
    for (int h = 0; h < heads_; ++h) {
      ExportSeries e{"h = " + std::to_string(h), {}, {}};
      for (int64_t r = -(n_ - 1); r <= n_ - 1; ++r) {
        e.x.push_back(double(r));
        e.y.push_back(-alibi_slopes_[size_t(h)] * double(std::abs(r)));
      }
      heads.push_back(std::move(e));
    }
    tables.push_back(curve_table(row.index_table, "relative distance j - i", index_title_, "j - i", heads));
    tables.push_back(curve_table(row.value_table, "head h", value_title_, "h", value_series_));
  } else {
    tables.push_back(curve_table(row.index_table, "relative distance j - i", index_title_, "j - i", index_series_));
    tables.push_back(curve_table(row.value_table, "relative distance j - i", value_title_, "j - i", value_series_));
  }
}

void BucketsView::draw_hover(int i, int j) const {
  const int64_t r = int64_t(j) - i;
  const size_t o = size_t(offset_index(r));
  begin_readout();
  ImGui::Text(tr("query i = %d, key j = %d, relative distance j - i = %lld"), i, j, (long long)r);
  (this->*row_of(scheme_).hover)(o, r);
  end_readout();
}

void BucketsView::t5_hover(size_t o, int64_t /*r*/) const {
  ImGui::Text(tr("bucket = %d of %d (%s)"), int(bucket_by_offset_[o]), num_buckets_,
              tr(bidirectional_ ? "bidirectional" : "causal"));
  ImGui::Text(tr("bias b[bucket] = %.17g"), value_by_offset_[o]);
}

void BucketsView::deberta_hover(size_t o, int64_t r) const {
  ImGui::Text(tr("DeBERTa relative i - j = %lld, bucketed delta = %lld"), (long long)-r, (long long)bucket_by_offset_[o]);
  ImGui::Text(tr("position-table row = %lld"), (long long)value_by_offset_[o]);
}

void BucketsView::shaw_hover(size_t o, int64_t /*r*/) const {
  ImGui::Text(tr("clip(j - i, -%d, %d) = %lld, table row = %lld"), clip_, clip_, (long long)bucket_by_offset_[o],
              (long long)bucket_by_offset_[o] + clip_);
}

void BucketsView::alibi_hover(size_t o, int64_t /*r*/) const {
  ImGui::Text(tr("head %d, slope m = %.17g"), head_, alibi_slopes_[size_t(head_)]);
  ImGui::Text(tr("bias -m |j - i| = %.17g"), value_by_offset_[o]);
}

void BucketsView::draw_figure(ImVec2 size) {
  // The reference line in the theme's text colour, so it reads on light and dark backgrounds.
  if (reference_series_ >= 0) index_series_[size_t(reference_series_)].color = ImGui::GetColorU32(ImGuiCol_Text, 0.6f);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  // Wide: the matrix left, the two curves right; stacked: one figure per row at full width.
  const bool stack = stacked();
  const int curves = (shows("index") ? 1 : 0) + (shows("value") ? 1 : 0);
  const int shown = curves + (shows("buckets") ? 1 : 0);
  const float row_h = stack ? (size.y - (shown - 1) * style.ItemSpacing.y) / std::max(1, shown) : 0;
  const float left_w = stack ? size.x : std::max(200.0f, std::min(size.x * 0.5f, size.y - line));
  const float right_w = stack ? size.x : size.x - left_w - style.ItemSpacing.x;

  if (shows("buckets")) {
    ImGui::BeginGroup();
    const char* what = scheme_ == Scheme::T5 && show_bias() ? "bias" : row_of(scheme_).matrix;
    if (heatmap_n_ < n_) ImGui::TextColored(warning_color(), tr("matrix capped: positions 0..%d of n = %d"), heatmap_n_ - 1, n_);
    else if (!alone()) ImGui::Text(tr("n x n matrix: %s"), tr(what));
    const float header = alone() && heatmap_n_ >= n_ ? 0.0f : line;
    const float h = alone() ? size.y - header : stack ? row_h - line : std::min(left_w, size.y - line);
    const HeatmapAxes axes{"key j", "query i", 0, 0};  // the heatmap translates its titles
    const HeatmapHover hover = heatmap_.draw("heatmap.buckets", ImVec2(left_w, h), axes, cmap_, vmin_, vmax_);
    probe_plot("buckets", "heatmap.buckets");
    if (hover.active) draw_hover(hover.row, hover.col);
    ImGui::EndGroup();
    if (!stack && curves) ImGui::SameLine();
  }
  if (!curves) return;

  ImGui::BeginGroup();
  const TranslatedLabels index_labels(index_series_), value_labels(value_series_);
  const float plot_h = stack ? row_h : (size.y - style.ItemSpacing.y) / curves;
  LinePlotOptions io;
  io.x_title = tr("relative distance j - i");
  io.y_title = tr(index_title_);
  io.hover_format = "%.12g";
  if (shows("index")) {
    line_plot("plot.buckets.index", ImVec2(right_w, plot_h), index_series_, io);
    probe_plot("index", "plot.buckets.index");
  }
  LinePlotOptions vo = io;
  vo.y_title = tr(value_title_);
  if (scheme_ == Scheme::Alibi) vo.x_title = tr("head h");
  if (shows("value")) {
    line_plot("plot.buckets.value", ImVec2(right_w, plot_h), value_series_, vo);
    probe_plot("value", "plot.buckets.value");
  }
  ImGui::EndGroup();
}

}  // namespace

std::unique_ptr<View> make_buckets_view(ViewText text) { return std::make_unique<BucketsView>(std::move(text)); }

}  // namespace posenc::app
