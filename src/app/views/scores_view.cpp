// Score heatmaps: n x n attention logits and softmax weights for every positional scheme, with the
// scheme's additive terms (the four-term absolute expansion, XL's four, DeBERTa's c2p / p2c, biases)
// side by side with the total. A real model (model=<preset id>, or a loaded config) fills the keys: the
// scheme from its position kind with its parameters, d = head_dim, and for RoPE its rotary dims, layout
// and scaling; for ALiBi its head count.
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "app/controls.h"
#include "app/heatmap.h"
#include "app/model_link.h"
#include "app/input.h"
#include "app/probe.h"
#include "app/views/views.h"
#include "core/attention/absolute_attention.h"
#include "core/encodings/alibi.h"
#include "core/attention/attention.h"
#include "core/encodings/deberta.h"
#include "core/encodings/relative_bias.h"
#include "core/rng.h"
#include "core/attention/score_kernels.h"
#include "core/encodings/shaw.h"
#include "core/encodings/sinusoidal.h"
#include "core/encodings/t5.h"

namespace posenc::app {
namespace {

constexpr int kMaxPositions = 4096;         // accepted by the slider and the URL
constexpr int kMaxHeatmapPositions = 2048;  // positions actually computed and drawn (float32 kernels)
constexpr int kMaxWidth = 256;
constexpr int kMaxSeed = 1000000;
constexpr int kMaxClip = 64;
constexpr int kMaxHeadCount = 128;  // BLOOM has 112 ALiBi heads
constexpr int kMaxFactor = 1024;
constexpr int kMaxLength = 1 << 22;
// RoPE scaling methods this view computes: every one but LongRoPE (its per-pair factors come from a model).
constexpr auto kScalingNames = names_of<RopeScalingType>().first(size_t(RopeScalingType::Longrope));

// The scores view's schemes (one position scheme each, compared on the same q, k): no single core enum.
enum class Scheme { None, Sinusoidal, Rope, T5, Alibi, Shaw, Deberta, Xl, Learned };
constexpr const char* kSchemeNames[] = {"none", "sinusoidal", "rope", "t5", "alibi", "shaw", "deberta", "xl", "learned"};
constexpr const char* kSchemeLabels[] = {"none (NoPE)",
                                         "sinusoidal absolute (4 terms)",
                                         "RoPE",
                                         "T5 bucketed bias",
                                         "ALiBi",
                                         "Shaw relative (keys)",
                                         "DeBERTa (c2p, p2c)",
                                         "Transformer-XL (4 terms)",
                                         "learned relative bias"};
static_assert(std::size(kSchemeLabels) == std::size(kSchemeNames));
constexpr const char* kContentNames[] = {"random", "constant"};

std::string term_figure(const std::string& name);

// Seeds of the different random tables drawn from one user seed.
uint64_t sub_seed(int seed, uint64_t which) { return uint64_t(seed) * 1000003ull + which; }

class ScoresView final : public ModelLinkedView {
 public:
  ScoresView() : ModelLinkedView({.id = "scores", .title = "Scores"}) {}

  const char* caption() const override;

  void params(ParamList& p) override {
    declare_model(p);
    p.choice("scheme", scheme_, kSchemeNames, {.label = "Scheme", .labels = kSchemeLabels});
    p.integer("n", n_, 1, kMaxPositions, {.label = "Sequence length n", .format = "n = %d", .log = true});
    p.integer("d", d_, 2, kMaxWidth, {.label = "Width d (even)", .format = "d = %d", .log = true, .even = true});
    p.integer("seed", seed_, 0, kMaxSeed, {.label = "Seed"});
    p.choice("content", content_, kContentNames, {.label = "Token content", .widget = ChoiceWidget::Radio});
    p.flag("causal", causal_, {.label = "causal mask"});
    p.flag("shared", shared_scale_, {.label = "one colour scale for all terms"});
    p.real("base", base_, kBaseMin, kBaseMax, {.label = "Base", .format = "base = %.0f", .log = true});
    p.integer("buckets", t5_buckets_, 4, 256,
              {.label = "Buckets (per direction: half)", .format = "buckets = %d", .log = true, .even = true});
    p.integer("max_distance", t5_max_distance_, 2, 4096, {.label = "Max distance", .format = "max_distance = %d", .log = true});
    // Even on the slider only, as before: the URL takes any value in range (odd sizes compute).
    p.integer("deberta_buckets", deberta_buckets_, 2, 1024,
              {.label = "Bucket size (position_buckets)", .format = "buckets = %d", .log = true});
    p.integer("deberta_max_position", deberta_max_position_, 4, 4096,
              {.label = "Max relative positions", .format = "max = %d", .log = true});
    p.integer("clip", clip_, 0, kMaxClip, {.label = "Clip distance K", .format = "K = %d"});
    p.integer("heads", heads_, 1, kMaxHeadCount, {.label = "Heads H", .format = "H = %d"});
    p.integer("head", head_, 0, heads_ - 1, {.label = "Head h", .format = "h = %d"});
    // RoPE as a model has it: partial rotary, pair layout, context extension.
    p.integer("rotary_dim", rotary_dim_, 0, d_,
              {.label = "RoPE rotary dims (0 = all of d)", .format = "rotary_dim = %d", .even = true});
    p.choice("layout", layout_, names_of<RopeLayout>(), {.label = "RoPE pair layout"});
    p.choice("scaling", scaling_, kScalingNames, {.label = "RoPE context extension"});
    p.real("factor", factor_, 1.0, kMaxFactor, {.label = "Factor f", .format = "f = %.6g", .log = true});
    p.integer("orig", orig_, 1, kMaxLength, {.label = "Trained length L", .format = "L = %d", .log = true});
    extra_.declare(p);
  }

  void export_data(std::vector<ExportTable>& tables) const override;
  std::vector<std::string> figures() const override {
    std::vector<std::string> out{"total", "weights"};
    for (const Tile& t : tiles_)
      if (!t.figure.empty() && t.figure != "total" && t.figure != "weights") out.push_back(t.figure);
    return out;
  }
  std::string formula_words() const override;
  // From the exact (double) rows of the first and last query, so every number read is the core's.
  void numbers(std::vector<DescribedNumber>& out) const override {
    if (!computed_ || failed() || q_.rows() == 0) return;
    const int n = int(q_.rows());
    const AttentionResult& last = exact_row(n - 1);
    double mx = 0;
    for (int j = 0; j < n; ++j)
      if (!last.masked(0, j) && std::isfinite(last.logits(0, j))) mx = std::max(mx, std::abs(last.logits(0, j)));
    out.push_back({"positions n", double(n_)});
    out.push_back({"largest |logit| of the last query", mx});
    out.push_back({"weight of the last query on itself", last.weights(0, n - 1)});
    if (n > 1) out.push_back({"weight a_01", exact_row(0).weights(0, 1)});
    if (scheme_ == Scheme::Alibi) out.push_back({"ALiBi slope m_h", alibi_slope_});
  }

 private:
  struct Tile {
    std::string title;
    std::string figure;  // figure= name: total, weights or the term's short name
    std::string probe;
    MatrixF* values = nullptr;  // float32 picture (points into result_f_), until upload()
    bool weights = false;       // softmax weights: sequential colormap from 0
    float vmin = 0, vmax = 1;
    float own_max = 1;      // largest |value| of this tile (its own colour scale)
    bool masked = false;    // causal: keys after the query marked in `values`
    bool uploaded = false;  // the texture holds it (tiles not on screen wait until they are shown)
  };

  void controls(Controls& c) override;
  void recompute() override;
  void upload() override;  // the shown tiles' textures and colour ranges (GL)
  void upload_tile(size_t k);
  void mask_tile(Tile& t) const;
  void apply_shared_scale();
  ModelFill fill_from_model(const ModelPosition& m) override;
  RopePosition rope_position() const;
  void draw_figure(ImVec2 size) override;
  std::string key_for_field(const std::string& field) const override;

  int shown_n() const { return std::min(n_, kMaxHeatmapPositions); }
  int shown_head() const { return std::clamp(head_, 0, heads_ - 1); }
  std::string bucket_text(int i, int j) const;
  void draw_hover(int i, int j) const;
  bool masked(int i, int j) const { return causal_ && j > i; }
  // The double-precision core on the view's inputs: every row (export) or the one query row `row` (hover).
  AttentionResult exact(int row) const;
  const AttentionResult& exact_row(int row) const;

  Scheme scheme_ = Scheme::Sinusoidal;
  int n_ = 32, d_ = 32;
  int seed_ = 1;
  int content_ = 0;  // index into kContentNames: 1 = every token the same
  bool causal_ = false;
  bool shared_scale_ = false;
  double base_ = 10000.0;
  int t5_buckets_ = 32, t5_max_distance_ = 128;
  int deberta_buckets_ = 256, deberta_max_position_ = 512;
  int clip_ = 4;              // Shaw
  int heads_ = 8, head_ = 0;  // ALiBi: the heads, and the head drawn
  int rotary_dim_ = 0;        // 0 = every dim rotates
  RopeLayout layout_ = RopeLayout::Half;
  RopeScalingType scaling_ = RopeScalingType::None;
  double factor_ = 4.0;
  int orig_ = 4096;
  RopeExtraKeys extra_;

  // Inputs of the last computation (double, O(n d)): the exact values are recomputed from them.
  bool computed_ = false;
  Matrix x_, wq_, wk_, q_, k_, pe_;
  // x, W_Q, W_K, x W_Q, x W_K for content_key_ = (n, d, seed, content), reused while those stay.
  std::array<int, 4> content_key_{};
  Matrix content_x_, content_wq_, content_wk_, content_q_, content_k_;
  AttentionSpec spec_;
  // Float32 scores for the pictures (kernels); released once the textures hold them.
  std::optional<kernels::AttentionF> result_f_;
  std::vector<std::string> term_names_;
  // Positions of the pictures' rows and columns: 0..n-1, or a preview's coarser grid (readouts map a
  // cell to its position through it).
  std::vector<int64_t> grid_pos_;
  // Hover: the exact row of the hovered query, cached while the mouse stays on it.
  mutable int hover_row_ = -1;
  mutable std::optional<AttentionResult> hover_result_;
  double alibi_slope_ = 0;
  std::vector<Tile> tiles_;
  double shared_max_ = 0;                                 // the terms' common colour scale (shared = 1)
  std::vector<std::unique_ptr<HeatmapWidget>> heatmaps_;  // one per tile, reused across recomputes
};

const char* ScoresView::caption() const {
  switch (scheme_) {
    case Scheme::None: return "e_ij = q_i . k_j / sqrt(d), a_ij = softmax_j(e_ij): no position at all (NoPE)";
    case Scheme::Sinusoidal:
      return "(x_i+p_i)W_Q . (x_j+p_j)W_K / sqrt(d) = content-content + content-position + position-content + "
             "position-position";
    case Scheme::Rope: return "e_ij = (R_i q_i) . (R_j k_j) / sqrt(d) = q_i . R_(j-i) k_j / sqrt(d): depends on j - i only";
    case Scheme::T5: return "e_ij = q_i . k_j + b[bucket(j - i)]  (no 1/sqrt(d): T5 folds it into W_Q's init)";
    case Scheme::Alibi:
      return "e_ij = q_i . k_j / sqrt(d) - m_h |i - j|,  m_h = 2^(-8(h+1)/H) (H a power of two; else Press et al.'s "
             "interleaving)";
    case Scheme::Shaw: return "e_ij = q_i . (k_j + a^K[clip(j - i, -K, K)]) / sqrt(d)";
    case Scheme::Deberta: return "e_ij = (q_i.k_j + q_i.k^r[delta(i,j)] + k_j.q^r[delta(i,j)]) / sqrt(3d): c2p + p2c, no p2p";
    case Scheme::Xl: return "e_ij = (q_i.k_j + q_i.W_R R_(i-j) + u.k_j + v.W_R R_(i-j)) / sqrt(d)";
    case Scheme::Learned: return "e_ij = q_i . k_j / sqrt(d) + b[clip(j - i, -K, K)]  (Embedding(2K+1, heads))";
  }
  return "";
}

void ScoresView::controls(Controls& c) {
  draw_model_controls();
  c.draw("scheme");
  c.draw("n");
  if (n_ > kMaxHeatmapPositions) {
    ImGui::PushStyleColor(ImGuiCol_Text, warning_color());
    ImGui::TextWrapped("n capped at %d: the score heatmaps show the first %d positions.", kMaxHeatmapPositions,
                       kMaxHeatmapPositions);
    ImGui::PopStyleColor();
  }
  c.draw("d");
  c.draw("content");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("All tokens identical: only the position terms vary.");
  {
    // A seed is typed, not dragged: an input field over the declared range.
    const Param& p = c.param("seed");
    ImGui::TextUnformatted(p.label());
    int seed = seed_;
    if (ImGui::InputInt("##seed", &seed)) seed_ = std::clamp(seed, int(p.lo), int(p.hi));
    probe_last_item("input.seed");
  }
  c.draw("causal");
  c.draw("shared");
  ImGui::Separator();
  switch (scheme_) {
    case Scheme::Sinusoidal:
    case Scheme::Xl: c.draw("base"); break;
    case Scheme::Rope:
      for (const char* k : {"base", "rotary_dim", "layout", "scaling"}) c.draw(k);
      if (scaling_ != RopeScalingType::None)
        for (const char* k : {"factor", "orig"}) c.draw(k);
      if (scaling_ == RopeScalingType::Yarn)
        for (const char* k : RopeExtraKeys::kYarnKeys) c.draw(k);
      if (scaling_ == RopeScalingType::Llama3)
        for (const char* k : RopeExtraKeys::kLlama3Keys) c.draw(k);
      break;
    case Scheme::T5:
      c.draw("buckets");
      c.draw("max_distance");
      ImGui::TextDisabled(causal_ ? "causal: unidirectional buckets" : "bidirectional buckets");
      break;
    case Scheme::Deberta: {
      // The slider steps over even sizes, as it always did (the URL takes any size in range).
      const Param& p = c.param("deberta_buckets");
      ImGui::TextUnformatted(p.label());
      int v = deberta_buckets_;
      if (ImGui::SliderInt("##deberta_buckets", &v, int(p.lo), int(p.hi), p.opt.format,
                           ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
        deberta_buckets_ = std::max(int(p.lo), v - v % 2);
      probe_last_item("slider.deberta_buckets");
      if (const int steps = focused_slider_steps(p))  // in even sizes, like the slider
        deberta_buckets_ = std::clamp(deberta_buckets_ - deberta_buckets_ % 2 + 2 * steps, int(p.lo), int(p.hi) - int(p.hi) % 2);
      c.draw("deberta_max_position");
      break;
    }
    case Scheme::Shaw:
    case Scheme::Learned: c.draw("clip"); break;
    case Scheme::Alibi:
      if (c.draw("heads")) head_ = std::min(head_, heads_ - 1);
      c.draw("head");
      ImGui::Text("slope m_h = %.10g", alibi_slopes(heads_)[shown_head()]);
      break;
    case Scheme::None: break;
  }
}

std::string ScoresView::key_for_field(const std::string& field) const {
  // The core's field names (attention() prefixes the position's with "position.") to this view's keys.
  const std::string key = renamed_key(field, {{"position.num_buckets", "buckets"},
                                              {"position.max_distance", "max_distance"},
                                              {"position.bucket_size", "deberta_buckets"},
                                              {"position.max_position", "deberta_max_position"},
                                              {"position.max_relative_position", "clip"},
                                              {"position.slope", "head"},
                                              {"dim", "d"},
                                              {"q", "d"},
                                              {"k", "d"},
                                              {"x", "d"},
                                              {"position.rotary_dim", "rotary_dim"},
                                              {"position.dim", "rotary_dim"},
                                              {"position.base", "base"},
                                              {"position.scaling.original_max_position_embeddings", "orig"}});
  if (!key.empty()) return key;
  const std::string scaling = scaling_key(field, "position.scaling.", "scaling");
  return scaling.empty() ? "scheme" : scaling;  // any other position table: the scheme cannot compute this state
}

RopePosition ScoresView::rope_position() const {
  RopePosition p;
  p.base = base_;
  p.layout = layout_;
  if (rotary_dim_ > 0 && rotary_dim_ < d_) p.rotary_dim = rotary_dim_;
  p.scaling.type = scaling_;
  if (scaling_ != RopeScalingType::None) {
    p.scaling.factor = factor_;
    p.scaling.original_max_position_embeddings = orig_;
    extra_.apply(p.scaling);
  }
  return p;  // dynamic NTK sees one past the last position as its current length (attention())
}

// The model's scheme and its numbers into this view's keys. What the keys cannot hold (LongRoPE's factors,
// other layer types, a softmax factor beyond 1/sqrt(d), learned absolute tables) is a notice naming `model`.
ModelFill ScoresView::fill_from_model(const ModelPosition& m) {
  ModelFill f;
  const std::string name = m.model_type.empty() ? std::string("the model") : m.model_type;
  auto clamped = [&](const char* what, double v, double lo, double hi) {
    if (v < lo || v > hi)
      f.gap(name + "'s " + what + " " + format_number(v) + " is outside the scores view's range [" + format_number(lo) + ", " +
            format_number(hi) + "]: shown at " + format_number(std::clamp(v, lo, hi)) + ".");
    return std::clamp(v, lo, hi);
  };
  d_ = int(clamped("head_dim", m.head_dim, 2, kMaxWidth));
  if (d_ % 2) {
    f.gap(name + "'s head_dim " + std::to_string(m.head_dim) + " is odd: the scores view's width d is even, shown at " +
          std::to_string(d_ - 1) + ".");
    d_ -= 1;
  }
  f.keys = {"scheme", "d"};
  const double plain = 1.0 / std::sqrt(double(m.head_dim));
  switch (m.position) {
    case PositionKind::Rope: {
      const ModelRope& r = *m.rope;
      const RopeScaling& s = r.scaling;
      scheme_ = Scheme::Rope;
      base_ = clamped("base", r.base, kBaseMin, kBaseMax);
      rotary_dim_ = r.rotary_dim >= m.head_dim ? 0 : std::min(r.rotary_dim, d_);
      layout_ = r.layout;
      const bool no_keys = s.type == RopeScalingType::Longrope || s.type == RopeScalingType::Proportional;
      scaling_ = no_keys ? RopeScalingType::None : s.type;
      f.keys.insert(f.keys.end(), {"base", "rotary_dim", "layout", "scaling"});
      if (scaling_ != RopeScalingType::None) {
        factor_ = clamped("factor", s.factor, 1.0, kMaxFactor);
        orig_ = int(clamped("original length", double(s.original_max_position_embeddings), 1, kMaxLength));
        f.keys.insert(f.keys.end(), {"factor", "orig"});
      }
      extra_.fill(s, f.keys);
      if (s.type == RopeScalingType::Longrope)
        f.gap(name + " uses LongRoPE: per-pair short/long factors (" + std::to_string(s.short_factor.size()) +
              " each), which the scores view has no keys for: it shows unscaled RoPE. view=model shows LongRoPE "
              "exactly.");
      if (s.type == RopeScalingType::Proportional)
        f.gap(name +
              " uses proportional RoPE (zero frequencies beyond a fraction of the pairs), which the scores "
              "view has no keys for: it shows unscaled RoPE. view=model shows it exactly.");
      if (!m.layers.empty())
        f.gap(name +
              " has layer types with their own RoPE: the scores view shows the full_attention layers' "
              "(view=model shows each).");
      if (std::abs(r.softmax_scale - plain) > 1e-12 * plain)
        f.gap(name + " multiplies q.k by " + format_number(r.softmax_scale) + " = " + format_number(r.softmax_scale / plain) +
              " / sqrt(head_dim): the scores view scales by 1/sqrt(d) only.");
      break;
    }
    case PositionKind::Alibi:
      scheme_ = Scheme::Alibi;
      heads_ = int(clamped("head count", double(m.alibi_slopes.size()), 1, kMaxHeadCount));
      head_ = 0;
      f.keys.insert(f.keys.end(), {"heads", "head"});
      break;
    case PositionKind::T5:
      scheme_ = Scheme::T5;
      t5_buckets_ = int(clamped("num_buckets", m.t5_num_buckets, 4, 256)) & ~1;
      t5_max_distance_ = int(clamped("max_distance", double(m.t5_max_distance), 2, 4096));
      causal_ = !m.t5_bidirectional;
      f.keys.insert(f.keys.end(), {"buckets", "max_distance", "causal"});
      if (t5_buckets_ != m.t5_num_buckets)
        f.gap(name + "'s num_buckets " + std::to_string(m.t5_num_buckets) + " is not an even count in [4, 256].");
      break;
    case PositionKind::Deberta:
      scheme_ = Scheme::Deberta;
      if (m.deberta_bucket_size < 1)
        f.gap(name +
              " does not bucket relative positions (position_buckets <= 0), which the scores view always "
              "does: shown with bucket_size = max_position.");
      deberta_max_position_ = int(clamped("max_position", double(m.deberta_max_position), 4, 4096));
      deberta_buckets_ =
          int(clamped("bucket_size", double(m.deberta_bucket_size < 1 ? deberta_max_position_ : m.deberta_bucket_size), 2, 1024));
      f.keys.insert(f.keys.end(), {"deberta_buckets", "deberta_max_position"});
      break;
    case PositionKind::Learned:
      scheme_ = Scheme::Sinusoidal;
      f.gap(name + " learns its absolute position vectors (a table of " + std::to_string(m.learned_max_position_embeddings) +
            " trained rows that posenc does not have): the scores view shows the same four terms with the sinusoidal "
            "table in its place.");
      break;
    case PositionKind::None: scheme_ = Scheme::None; break;
  }
  head_ = std::min(head_, heads_ - 1);
  return f;
}

void ScoresView::recompute() {
  computed_ = false;
  result_f_.reset();
  term_names_.clear();
  hover_row_ = -1;
  hover_result_.reset();
  tiles_.clear();
  const int n = shown_n(), d = d_;
  std::vector<int64_t> pos(n);
  std::iota(pos.begin(), pos.end(), int64_t{0});

  // Token content x (n x d) and projections: the same q, k for every scheme, so schemes compare. They
  // depend on n, d, seed and content only: kept across recomputes of the other keys (a dragged base
  // or bucket count recomputes the scores, not the random draws and the n d^2 double products).
  const double inv_sqrt_d = 1.0 / std::sqrt(double(d));
  const std::array<int, 4> content_key{n, d, seed_, content_};
  if (content_key != content_key_ || content_x_.rows() != n) {
    content_key_ = {};
    content_x_ = seeded_normal_matrix(n, d, sub_seed(seed_, 0), 1.0);
    if (content_ == 1)
      for (int r = 1; r < n; ++r) content_x_.row(r) = content_x_.row(0);
    content_wq_ = seeded_normal_matrix(d, d, sub_seed(seed_, 1), inv_sqrt_d);
    content_wk_ = seeded_normal_matrix(d, d, sub_seed(seed_, 2), inv_sqrt_d);
    content_q_ = content_x_ * content_wq_;
    content_k_ = content_x_ * content_wk_;
    content_key_ = content_key;
  }
  Matrix x = content_x_;
  const Matrix& wq = content_wq_;
  const Matrix& wk = content_wk_;
  Matrix q = content_q_;
  Matrix k = content_k_;
  Matrix pe;
  AttentionSpec spec;

  // The grid of the pictures: every position, or while a drag is previewed every stride-th (and the last).
  const int stride = preview_stride(int64_t{n} * n);
  std::vector<int> grid;
  for (int i = 0; i < n; i += stride) grid.push_back(i);
  if (grid.back() != n - 1) grid.push_back(n - 1);
  grid_pos_.assign(grid.begin(), grid.end());
  auto rows_of = [&](const Matrix& m) -> MatrixF {
    if (stride == 1) return m.cast<float>();
    return m(grid, Eigen::all).cast<float>();
  };

  if (scheme_ == Scheme::Sinusoidal) {
    pe = sinusoidal_table(pos, d, base_);
    result_f_ = kernels::absolute_attention_f(rows_of(x), rows_of(pe), wq.cast<float>(), wk.cast<float>(), inv_sqrt_d, causal_);
  } else {
    spec.causal = causal_;
    switch (scheme_) {
      case Scheme::None: spec.position = NoPosition{}; break;
      case Scheme::Rope: spec.position = rope_position(); break;
      case Scheme::T5: {
        T5Position t;
        t.bidirectional = !causal_;
        t.num_buckets = t5_buckets_;
        t.max_distance = t5_max_distance_;
        const Matrix b = seeded_normal_matrix(t5_buckets_, 1, sub_seed(seed_, 3), 1.0);
        t.bias.assign(b.data(), b.data() + b.size());
        spec.position = std::move(t);
        q *= inv_sqrt_d;  // T5 has no 1/sqrt(d) in the logits: its W_Q init carries it
        break;
      }
      case Scheme::Alibi:
        alibi_slope_ = alibi_slopes(heads_)[shown_head()];
        spec.position = AlibiPosition{alibi_slope_};
        break;
      case Scheme::Shaw: {
        ShawPosition s;
        s.max_relative_position = clip_;
        s.key_table = shaw_random_table(clip_, d, sub_seed(seed_, 4));
        spec.position = std::move(s);
        break;
      }
      case Scheme::Deberta: {
        DebertaPosition p;
        p.bucket_size = deberta_buckets_;
        p.max_position = deberta_max_position_;
        const int64_t span = deberta_span(p.bucket_size, p.max_position);
        p.pos_key = seeded_normal_matrix(2 * span, d, sub_seed(seed_, 5), 1.0);
        p.pos_query = seeded_normal_matrix(2 * span, d, sub_seed(seed_, 6), 1.0);
        spec.position = std::move(p);
        break;
      }
      case Scheme::Xl: {
        XlPosition p;
        p.u = seeded_normal_matrix(d, 1, sub_seed(seed_, 7), 1.0).col(0);
        p.v = seeded_normal_matrix(d, 1, sub_seed(seed_, 8), 1.0).col(0);
        p.r_proj = seeded_normal_matrix(d, d, sub_seed(seed_, 9), inv_sqrt_d);
        p.base = base_;
        spec.position = std::move(p);
        break;
      }
      case Scheme::Learned: spec.position = LearnedBiasPosition{relative_bias_table(clip_, 1, sub_seed(seed_, 10)), 0}; break;
      case Scheme::Sinusoidal: break;
    }
    result_f_ = kernels::attention_f(rows_of(q), rows_of(k), grid_pos_, grid_pos_, spec);
  }
  x_ = std::move(x);
  wq_ = wq;
  wk_ = wk;
  q_ = std::move(q);
  k_ = std::move(k);
  pe_ = std::move(pe);
  spec_ = std::move(spec);
  computed_ = true;
  kernels::AttentionF& r = *result_f_;
  for (const kernels::TermF& t : r.terms) term_names_.push_back(t.name);

  // Tiles: the terms (when there is more than one), the total logits, the softmax weights.
  auto add_tile = [&](std::string title, std::string figure, std::string probe, MatrixF* values, bool weights) {
    tiles_.push_back(Tile{std::move(title), std::move(figure), std::move(probe), values, weights});
  };
  if (r.terms.size() > 1)
    for (size_t i = 0; i < r.terms.size(); ++i)
      add_tile(r.terms[i].name, term_figure(r.terms[i].name), "heatmap.scores.term" + std::to_string(i), &r.terms[i].values,
               false);
  add_tile(r.terms.size() > 1 ? "total logits (sum of the terms)" : "logits e_ij", "total", "heatmap.scores.logits", &r.logits,
           false);
  add_tile("softmax weights a_ij", "weights", "heatmap.scores.weights", &r.weights, true);
}

AttentionResult ScoresView::exact(int row) const {
  const int n = int(q_.rows());
  std::vector<int64_t> pos(n);
  std::iota(pos.begin(), pos.end(), int64_t{0});
  if (row < 0) {
    if (scheme_ == Scheme::Sinusoidal)
      return absolute_attention(x_, pe_, wq_, wk_, nullptr, 1.0 / std::sqrt(double(d_)), causal_);
    return attention(q_, k_, nullptr, pos, pos, spec_);
  }
  const std::array<int64_t, 1> qpos{row};
  if (scheme_ != Scheme::Sinusoidal) return attention(q_.row(row), k_, nullptr, qpos, pos, spec_);
  // absolute_attention's four terms for one query row (its products, in the same order).
  const double scale = 1.0 / std::sqrt(double(d_));
  const Matrix qx = x_.row(row) * wq_, kx = x_ * wk_, qp = pe_.row(row) * wq_, kp = pe_ * wk_;
  AttentionResult out;
  out.scale = scale;
  out.terms.push_back({term_names_.at(0), scale * (qx * kx.transpose())});
  out.terms.push_back({term_names_.at(1), scale * (qx * kp.transpose())});
  out.terms.push_back({term_names_.at(2), scale * (qp * kx.transpose())});
  out.terms.push_back({term_names_.at(3), scale * (qp * kp.transpose())});
  out.logits = out.terms[0].values + out.terms[1].values + out.terms[2].values + out.terms[3].values;
  if (causal_) apply_causal_mask(out.logits, qpos, pos);
  out.weights = softmax_rows(out.logits);
  return out;
}

const AttentionResult& ScoresView::exact_row(int row) const {
  if (row != hover_row_ || !hover_result_) {
    hover_result_ = exact(row);
    hover_row_ = row;
  }
  return *hover_result_;
}

// A term's figure name: its first words without the "(a) " label, e.g. "content-position",
// "global-content" (XL's u.k), "content-rotated" (RoPE), "bias".
std::string term_figure(const std::string& name) {
  std::string rest = name;
  if (rest.size() > 4 && rest[0] == '(' && rest[2] == ')') rest = rest.substr(4);
  std::vector<std::string> words;
  std::string word;
  for (char ch : rest + " ") {
    if (ch == ' ') {
      if (!word.empty()) words.push_back(word);
      word.clear();
    } else if (std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_') {
      word += char(std::tolower(static_cast<unsigned char>(ch)));
    }
  }
  if (words.empty()) return "term";
  if (words[0].find('-') != std::string::npos || words.size() == 1) return words[0];
  return words[0] + "-" + words[1];
}

std::string ScoresView::formula_words() const {
  switch (scheme_) {
    case Scheme::None:
      return "The score of query i and key j is their dot product over the square root of d; nothing depends on position.";
    case Scheme::Sinusoidal:
      return "Position vectors are added to the tokens, so the score splits into four terms: content-content, "
             "content-position, position-content and position-position.";
    case Scheme::Rope: return "Query and key are rotated by their positions, so the score depends only on the distance j - i.";
    case Scheme::T5: return "A learned bias chosen by the bucket of the distance j - i is added to the dot product.";
    case Scheme::Alibi: return "The score is the dot product minus a head's slope m_h times the distance |i - j|.";
    case Scheme::Shaw: return "Each key gets a learned vector chosen by the distance clipped to plus or minus K.";
    case Scheme::Deberta:
      return "The score adds content-to-position and position-to-content terms on bucketed relative distances.";
    case Scheme::Xl:
      return "Transformer-XL's four terms: content, content-position, a global content bias and a global position bias.";
    case Scheme::Learned: return "A learned bias per clipped distance j - i is added to the dot product.";
  }
  return "";
}

void ScoresView::export_data(std::vector<ExportTable>& tables) const {
  if (failed() || !computed_) return;
  const int n = shown_n();
  // The whole matrix in double precision through the core (the pictures are float32).
  const AttentionResult result = exact(-1);
  // Masked cells (key after query under the causal mask) are undefined in every tile.
  auto table = [&](std::string name, const Matrix& m) {
    return matrix_table(std::move(name), "query i", "key j", "i", n, n,
                        [&](int i, int j) { return result.masked(i, j) ? NAN : m(i, j); });
  };
  if (result.terms.size() > 1)
    for (const AttentionTerm& t : result.terms) tables.push_back(table("term: " + t.name, t.values));
  tables.push_back(table("logits", result.logits));
  tables.push_back(table("weights", result.weights));
  // The position numbers behind the picture: RoPE's frequencies (as the core computes them for these
  // positions), ALiBi's slope.
  if (scheme_ == Scheme::Rope) {
    const RopePosition p = rope_position();
    std::vector<int64_t> pos(static_cast<size_t>(n));
    std::iota(pos.begin(), pos.end(), int64_t{0});
    const RopeFrequencies f = rope_frequencies(p.rotary_dim.value_or(d_), p.base, with_seq_len_from_positions(p.scaling, pos));
    ExportTable t{"rope: frequencies (" + std::string(name_of(p.layout)) + ", attention_scaling " +
                      format_number(f.attention_scaling) + ")",
                  "pair k",
                  "inv_freq",
                  {"pair", "inv_freq"},
                  {}};
    for (size_t k = 0; k < f.inv_freq.size(); ++k) t.rows.push_back({double(k), f.inv_freq[k]});
    tables.push_back(std::move(t));
  } else if (scheme_ == Scheme::Alibi) {
    tables.push_back(
        ExportTable{"alibi: slope", "", "", {"heads", "head", "slope"}, {{double(heads_), double(shown_head()), alibi_slope_}}});
  }
}

void ScoresView::upload() {
  if (!result_f_) return;
  while (heatmaps_.size() < tiles_.size()) heatmaps_.push_back(std::make_unique<HeatmapWidget>());
  // Only the tiles on screen become textures (a figure= embed shows one); the others keep their float
  // matrices and are uploaded when they are shown (upload_tile from draw_figure). The shared colour scale
  // needs every term's range: the hidden ones' is read without quantising or uploading them.
  double shared_max = 0;
  bool all_uploaded = true;
  for (size_t k = 0; k < tiles_.size(); ++k) {
    Tile& t = tiles_[k];
    if (shows(t.figure)) {
      upload_tile(k);
    } else {
      all_uploaded = false;
      if (!t.weights && shared_scale_) {
        mask_tile(t);
        const kernels::ValueRange range = kernels::value_range(t.values->data(), size_t(t.values->size()), kMaskedCell);
        const float mx = range.any ? std::max(std::abs(range.lo), std::abs(range.hi)) : 0.0f;
        shared_max = std::max(shared_max, double(mx == 0 ? 1.0f : mx));  // as upload_tile's own range
      }
    }
    if (!t.weights && t.uploaded) shared_max = std::max(shared_max, double(t.own_max));
  }
  if (all_uploaded) result_f_.reset();  // the textures hold the pictures; hover and export recompute in double
  shared_max_ = shared_max;
  apply_shared_scale();
}

void ScoresView::mask_tile(Tile& t) const {
  if (!causal_ || t.masked) return;
  // In place: keys after the query are marked masked (the float matrix becomes the texture's input).
  const int n = int(grid_pos_.size());
  float* data = t.values->data();
  for (int i = 0; i + 1 < n; ++i) std::fill(data + size_t(i) * n + i + 1, data + size_t(i + 1) * n, kMaskedCell);
  t.masked = true;
}

void ScoresView::upload_tile(size_t k) {
  Tile& t = tiles_[k];
  if (t.uploaded || !t.values) return;
  const int n = int(grid_pos_.size());
  mask_tile(t);
  const kernels::ValueRange range = heatmaps_[k]->map().set_values(t.values->data(), n, n);
  float mx = range.any ? std::max(std::abs(range.lo), std::abs(range.hi)) : 0.0f;
  if (mx == 0) mx = 1;  // all-zero matrix: any non-empty range
  t.vmin = t.weights ? 0.0f : -mx;
  t.vmax = mx;
  t.own_max = mx;
  t.values = nullptr;
  t.uploaded = true;
}

void ScoresView::apply_shared_scale() {
  for (Tile& t : tiles_)
    if (!t.weights && t.uploaded) {
      const float mx = shared_scale_ ? float(shared_max_) : t.own_max;
      t.vmin = -mx, t.vmax = mx;
    }
}

std::string ScoresView::bucket_text(int i, int j) const {
  char buf[160];
  switch (scheme_) {
    case Scheme::T5:
      std::snprintf(buf, sizeof buf, "T5 bucket(j - i) = %d of %d (%s)",
                    t5_bucket(j - i, !causal_, t5_buckets_, t5_max_distance_), t5_buckets_, causal_ ? "causal" : "bidirectional");
      return buf;
    case Scheme::Deberta:
      std::snprintf(buf, sizeof buf, "DeBERTa delta = log-bucket(i - j) = %lld",
                    static_cast<long long>(deberta_relative_position(i, j, deberta_buckets_, deberta_max_position_)));
      return buf;
    case Scheme::Shaw:
    case Scheme::Learned:
      std::snprintf(buf, sizeof buf, "clip(j - i, -%d, %d) = %d", clip_, clip_, std::clamp(j - i, -clip_, clip_));
      return buf;
    case Scheme::Xl: std::snprintf(buf, sizeof buf, "R_(i-j) with i - j = %d", i - j); return buf;
    case Scheme::Alibi: std::snprintf(buf, sizeof buf, "bias -m |i - j| with m = %.10g", alibi_slope_); return buf;
    default: return "";
  }
}

void ScoresView::draw_hover(int i, int j) const {
  begin_readout();
  ImGui::Text("query i = %d, key j = %d, relative distance j - i = %d", i, j, j - i);
  const std::string bucket = bucket_text(i, j);
  if (!bucket.empty()) ImGui::TextUnformatted(bucket.c_str());
  ImGui::Separator();
  const AttentionResult& row = exact_row(i);  // double precision: what the user reads is exact
  for (const AttentionTerm& t : row.terms) ImGui::Text("%-40s %.17g", t.name.c_str(), t.values(0, j));
  ImGui::Separator();
  if (row.masked(0, j)) {
    ImGui::TextUnformatted("total: masked (key after query), weight 0");
  } else {
    ImGui::Text("total logit e_ij = %.17g", row.logits(0, j));
    ImGui::Text("weight a_ij     = %.17g", row.weights(0, j));
  }
  end_readout();
}

void ScoresView::draw_figure(ImVec2 size) {
  if (const std::string caption = model_caption(); !caption.empty() && !alone()) {
    const float top = ImGui::GetCursorPosY();
    ImGui::TextWrapped("%s", caption.c_str());
    probe_last_item("text.scores.model");
    size.y -= ImGui::GetCursorPosY() - top;
  }
  if (n_ > kMaxHeatmapPositions) {
    ImGui::PushStyleColor(ImGuiCol_Text, warning_color());
    ImGui::Text("n = %d is above the heatmap cap: showing positions 0..%d.", n_, kMaxHeatmapPositions - 1);
    ImGui::PopStyleColor();
    size.y -= ImGui::GetTextLineHeightWithSpacing();
  }
  // Grid with the largest square cells; stacked: one tile per row; alone: the one figure fills the space.
  std::vector<int> shown;
  for (int t = 0; t < int(tiles_.size()); ++t)
    if (shows(tiles_[t].figure)) shown.push_back(t);
  // Stacked or not wide (the grid may not fit): the total and the weights first, then the terms.
  if (stacked() || mode() != LayoutMode::Wide)
    std::stable_partition(shown.begin(), shown.end(),
                          [&](int t) { return tiles_[t].figure == "total" || tiles_[t].figure == "weights"; });
  const int count = int(shown.size());
  if (count == 0) return;
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float extra_w = 140, extra_h = 60 + line;  // axes, colorbar, title around the square image
  int best_cols = 1;
  float best_side = -1;
  for (int cols = 1; cols <= (stacked() ? 1 : count); ++cols) {
    const int rows = (count + cols - 1) / cols;
    const float side = std::min(size.x / cols - extra_w, size.y / rows - extra_h);
    if (side > best_side) best_side = side, best_cols = cols;
  }
  const int rows = (count + best_cols - 1) / best_cols;
  const float tile_w = size.x / best_cols, tile_h = size.y / rows;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  int hover_i = -1, hover_j = -1;
  for (int slot = 0; slot < count; ++slot) {
    const int t = shown[slot];
    Tile& tile = tiles_[t];
    if (!tile.uploaded) {  // shown now, hidden at the last upload (figure= changed)
      upload_tile(size_t(t));
      apply_shared_scale();
      if (std::all_of(tiles_.begin(), tiles_.end(), [](const Tile& x) { return x.uploaded; })) result_f_.reset();
    }
    const ImVec2 at(origin.x + (slot % best_cols) * tile_w, origin.y + (slot / best_cols) * tile_h);
    ImGui::SetCursorScreenPos(at);
    if (!alone()) ImGui::TextUnformatted(tile.title.c_str());
    ImGui::SetCursorScreenPos(ImVec2(at.x, at.y + (alone() ? 0.0f : line)));
    HeatmapAxes axes{"key j", "query i", 0, 0};
    if (grid_pos_.size() > 1) axes.cell_step = double(grid_pos_.back()) / double(grid_pos_.size() - 1);
    // Square cells: the image is as wide as it is tall (axes and colorbar take ~140 x 60 px around it).
    const float hm_h = alone() ? tile_h : tile_h - line - 4;
    const float hm_w = alone() ? tile_w : std::min(tile_w - 8, hm_h - 60 + 140);
    const HeatmapHover h = heatmaps_[t]->draw(tile.probe.c_str(), ImVec2(hm_w, hm_h), axes,
                                              tile.weights ? Colormap::Viridis : Colormap::Diverging, tile.vmin, tile.vmax);
    probe_plot(tile.figure, tile.probe.c_str());
    if (h.active && size_t(std::max(h.row, h.col)) < grid_pos_.size())
      hover_i = int(grid_pos_[size_t(h.row)]), hover_j = int(grid_pos_[size_t(h.col)]);
  }
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + size.y));
  ImGui::Dummy(ImVec2(size.x, 0));
  if (hover_i >= 0) draw_hover(hover_i, hover_j);
}

}  // namespace

std::unique_ptr<View> make_scores_view() { return std::make_unique<ScoresView>(); }

}  // namespace posenc::app
