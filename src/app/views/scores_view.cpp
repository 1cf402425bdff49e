// Score heatmaps: n x n attention logits and softmax weights for every positional scheme, with the
// scheme's additive terms (the four-term absolute expansion, XL's four, DeBERTa's c2p / p2c, biases)
// side by side with the total. A real model (model=<preset id>, or a loaded config) fills the keys: the
// scheme from its position kind with its parameters, d = head_dim, and for RoPE its rotary dims, layout
// and scaling; for ALiBi its head count. A model's layer (layer=<i>) adds what that layer runs: its mask
// (sliding window or chunks over the causal one), an attention sink as an extra column of the logits and
// weights, its query scale by position, NoPE; drop_rope scores a RoPE model without the rotation (DroPE).
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <list>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "app/controls.h"
#include "app/heatmap.h"
#include "app/model_link.h"
#include "app/input.h"
#include "app/probe.h"
#include "app/views/view_texts.h"
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
#include "core/attention/layer_mask.h"

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
  ScoresView() : ModelLinkedView(view_texts::kScores) {}

  const char* caption() const override;

  void params(ParamList& p) override {
    declare_model(p);
    p.integer(
        "layer", layer_, 0, std::max(0, layer_count() - 1),
        {.label = "Layer", .format = "layer = %d", .help = "the model's layer (0-based): its mask, sink, query scale, NoPE"});
    p.choice("scheme", scheme_, kSchemeNames, {.label = "Scheme", .labels = kSchemeLabels});
    p.flag("drop_rope", drop_rope_,
           {.label = "drop RoPE (DroPE)", .help = "q.k / sqrt(d) on the same q, k: RoPE's positional rotation removed"});
    p.real("sink", sink_logit_, -64.0, 64.0,
           {.label = "Sink logit s (learned per head)",
            .format = "s = %.4g",
            .help = "a layer with attention sinks: the logit of the extra softmax column"});
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
    if (layer_spec()) out.push_back({"layer", double(layer_)});
    if (last.sink_weight) out.push_back({"sink weight of the last query", (*last.sink_weight)[0]});
    if (!query_scales_.empty() && query_scales_.back() != 1.0)
      out.push_back({"query scale of the last query", query_scales_.back()});
  }
  void notes(Notices& out) const override {
    ModelLinkedView::notes(out);
    const LayerSpec* l = layer_spec();
    if (l && (l->attention == LayerAttention::Linear || l->attention == LayerAttention::None))
      out.push_back({"layer", "layer=" + std::to_string(layer_) +
                                  " is a linear-attention (or state-space) layer or a block without token mixing: it computes "
                                  "no softmax scores and uses no position encoding, so the scores drawn are not what this layer "
                                  "runs (pick a full or sliding layer)."});
    if (l && l->attention == LayerAttention::Compressed)
      out.push_back({"layer", "layer=" + std::to_string(layer_) +
                                  " is a compressed layer: its sliding window is drawn; the pooled keys it also attends to "
                                  "(one per " + std::to_string(l->ratio) + " earlier keys) are not modelled."});
    if (l && scheme_ == Scheme::Sinusoidal)
      out.push_back({"layer", "layer=" + std::to_string(layer_) +
                                  ": the sinusoidal scheme is drawn without the layer's mask, sink and query scale (they apply "
                                  "to the q/k schemes)."});
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
  // The model's layers (0 without a model or for a model whose layers are not described).
  int layer_count() const { return model_source() ? int(model_source()->per_layer.size()) : 0; }
  const LayerSpec* layer_spec() const {
    return layer_ >= 0 && layer_ < layer_count() ? &model_source()->per_layer[size_t(layer_)] : nullptr;
  }
  // The layer's mask (Full without a layer), its sink with this view's logit, and whether it drops RoPE.
  LayerMask layer_mask() const;
  bool rope_dropped() const { return scheme_ == Scheme::Rope && (drop_rope_ || (layer_spec() && !layer_spec()->rope)); }
  std::string layer_text() const;
  std::string query_scale_text() const;
  int shown_head() const { return std::clamp(head_, 0, heads_ - 1); }
  std::string bucket_text(int i, int j) const;
  void draw_hover(int i, int j) const;  // j = -1: the sink column
  void draw_sink_label(const std::string& probe) const;
  // Cells of the picture the sink column spans (it is one column of the softmax).
  int sink_cells() const { return std::max(1, int(std::ceil(double(grid_pos_.size()) / 24.0))); }
  bool masked(int i, int j) const { return !layer_mask_allows(mask_, causal_, i, j); }
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
  int layer_ = 0;
  bool drop_rope_ = false;
  double sink_logit_ = 0.0;

  // Inputs of the last computation (double, O(n d)): the exact values are recomputed from them.
  bool computed_ = false;
  Matrix x_, wq_, wk_, q_, k_, pe_;
  // x, W_Q, W_K, x W_Q, x W_K for content_key_ = (n, d, seed, content), reused while those stay.
  std::array<int, 4> content_key_{};
  Matrix content_x_, content_wq_, content_wk_, content_q_, content_k_;
  AttentionSpec spec_;
  LayerMask mask_;                    // the layer's, as last computed
  std::vector<double> query_scales_;  // per query position 0..n-1 (all 1 without a query-scale rule)
  std::vector<MatrixF> sink_tiles_;   // logits / weights with the sink as an extra last column
  // Float32 scores for the pictures (kernels); released once the textures hold them.
  std::optional<kernels::AttentionF> result_f_;
  std::vector<std::string> term_names_;
  // Positions of the pictures' rows and columns: 0..n-1, or a preview's coarser grid (readouts map a
  // cell to its position through it).
  std::vector<int64_t> grid_pos_;
  // Exact rows, most recent first: the hovered query's while the mouse stays on it, and the first and
  // last query's that numbers() reads on every description of the page (asked on each state change and
  // again when the frames settle). One cached row made those two evict each other, so every description
  // recomputed both in double (at n = 2048 DeBERTa's m x 2s p2c product each time). A list: references
  // handed out stay valid while other rows are added.
  static constexpr size_t kCachedRows = 3;
  mutable std::list<std::pair<int, AttentionResult>> exact_rows_;
  mutable Matrix exact_kx_, exact_kp_;  // sinusoidal: x W_K and P W_K (double) of the exact rows
  double alibi_slope_ = 0;
  std::vector<Tile> tiles_;
  double shared_max_ = 0;                                 // the terms' common colour scale (shared = 1)
  std::vector<std::unique_ptr<HeatmapWidget>> heatmaps_;  // one per tile, reused across recomputes
};

const char* ScoresView::caption() const {
  switch (scheme_) {
    case Scheme::None: return "eᵢⱼ = qᵢ · kⱼ / √d, aᵢⱼ = softmaxⱼ(eᵢⱼ): no position at all (NoPE)";
    case Scheme::Sinusoidal:
      return "(xᵢ+pᵢ)W_Q · (xⱼ+pⱼ)W_K / √d = content-content + content-position + position-content + "
             "position-position";
    case Scheme::Rope: return "eᵢⱼ = (Rᵢ qᵢ) · (Rⱼ kⱼ) / √d = qᵢ · R₍ⱼ₋ᵢ₎ kⱼ / √d: depends on j − i only";
    case Scheme::T5: return "eᵢⱼ = qᵢ · kⱼ + b[bucket(j − i)]  (no 1/√d: T5 folds it into W_Q's init)";
    case Scheme::Alibi:
      return "eᵢⱼ = qᵢ · kⱼ / √d − mₕ |i − j|,  mₕ = 2^(−8(h+1)/H) (H a power of two; else Press et al.'s "
             "interleaving)";
    case Scheme::Shaw: return "eᵢⱼ = qᵢ · (kⱼ + a^K[clip(j − i, −K, K)]) / √d";
    case Scheme::Deberta: return "eᵢⱼ = (qᵢ·kⱼ + qᵢ·kʳ[δ(i,j)] + kⱼ·qʳ[δ(i,j)]) / √(3d): c2p + p2c, no p2p";
    case Scheme::Xl: return "eᵢⱼ = (qᵢ·kⱼ + qᵢ·W_R R₍ᵢ₋ⱼ₎ + u·kⱼ + v·W_R R₍ᵢ₋ⱼ₎) / √d";
    case Scheme::Learned: return "eᵢⱼ = qᵢ · kⱼ / √d + b[clip(j − i, −K, K)]  (Embedding(2K+1, heads))";
  }
  return "";
}

void ScoresView::controls(Controls& c) {
  draw_model_controls();
  if (layer_count() > 0) {
    c.draw("layer");
    ImGui::TextWrapped("%s", layer_text().c_str());
    probe_last_item("text.scores.layer_controls");
    if (layer_spec() && layer_spec()->sinks) c.draw("sink");
  }
  c.draw("scheme");
  if (scheme_ == Scheme::Rope) c.draw("drop_rope");
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
                                              {"position.scaling.original_max_position_embeddings", "orig"},
                                              {"mask.window", "layer"},
                                              {"mask.sink", "sink"}});
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
  // A layer with a RoPE of its own (Gemma's sliding_attention, ...), while the keys hold the model's: that
  // RoPE exactly (the keys show the full_attention layers').
  const LayerSpec* l = layer_spec();
  if (l && l->rope && !l->rope_key.empty() && l->rope_key != "full_attention" && model_exact())
    for (const auto& [type, lr] : model_source()->layers)
      if (type == l->rope_key) {
        p.base = lr.base;
        p.layout = lr.layout;
        p.scaling = lr.scaling;
        p.rotary_dim = lr.rotary_dim > 0 && lr.rotary_dim < d_ ? std::optional<int>(lr.rotary_dim) : std::nullopt;
      }
  return p;  // dynamic NTK sees one past the last position as its current length (attention())
}

LayerMask ScoresView::layer_mask() const {
  LayerMask m;
  const LayerSpec* l = layer_spec();
  if (!l || scheme_ == Scheme::Sinusoidal) return m;
  if (l->attention == LayerAttention::Sliding || l->attention == LayerAttention::Compressed)
    m.kind = MaskKind::Sliding, m.window = l->window;
  if (l->attention == LayerAttention::Chunked) m.kind = MaskKind::Chunked, m.window = l->window;
  if (l->sinks) m.sink = sink_logit_;
  return m;
}

// "layer 1 of 24: sliding window W = 128 (...), RoPE, sink column s = 0".
std::string ScoresView::layer_text() const {
  const LayerSpec* l = layer_spec();
  if (!l) return "";
  std::string t = "layer " + std::to_string(layer_) + " of " + std::to_string(layer_count()) + ": ";
  switch (l->attention) {
    case LayerAttention::Full: t += "full attention"; break;
    case LayerAttention::Sliding:
      t += "sliding window W = " + std::to_string(l->window) + " (query i sees keys i - W < j <= i)";
      break;
    case LayerAttention::Chunked:
      t += "chunked C = " + std::to_string(l->window) + " (keys j <= i in the query's chunk floor(j / C) = floor(i / C))";
      break;
    case LayerAttention::Linear: t += "linear attention (no softmax scores)"; break;
    case LayerAttention::Compressed:
      t += "compressed: sliding window W = " + std::to_string(l->window) + " drawn (its pooled keys, one per " +
           std::to_string(l->ratio) + ", not modelled)";
      break;
    case LayerAttention::None: t += "no token mixing (no scores)"; break;
  }
  t += l->rope ? (l->rope_key.empty() ? ", RoPE" : ", RoPE (" + l->rope_key + ")") : ", NoPE (no rotation)";
  if (l->rope && drop_rope_ && scheme_ == Scheme::Rope) t += " dropped";
  if (l->sinks) t += ", attention sink: an extra softmax column with logit s = " + format_number(sink_logit_);
  const std::string qs = query_scale_text();
  if (!qs.empty()) t += "; " + qs;
  return t;
}

// The layer's query scale: its rule and its values over the shown rows.
std::string ScoresView::query_scale_text() const {
  const LayerSpec* l = layer_spec();
  if (!l || l->query_scale.rule == QueryScale::Rule::None || query_scales_.empty()) return "";
  const QueryScale& q = l->query_scale;
  std::string t = q.rule == QueryScale::Rule::Llama4Temperature
                      ? "query scale s_p = log(floor((p + 1) / " + format_number(q.floor_scale) + ") + 1) * " +
                            format_number(q.attn_scale) + " + 1 (Llama 4 attn_temperature_tuning)"
                      : "query scale s_p = 1 + " + format_number(q.beta) + " ln(1 + floor(p / " +
                            std::to_string(q.original_max_position_embeddings) + ")) (llama_4_scaling_beta)";
  const double first = query_scales_.front(), last = query_scales_.back();
  const int n = int(query_scales_.size());
  if (first == last) t += ": s = " + format_number(first) + " on every row p = 0.." + std::to_string(n - 1);
  else
    t += ": per row, from s = " + format_number(first) + " at p = 0 to " + format_number(last) +
         " at p = " + std::to_string(n - 1);
  return t;
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
              " has layer types with their own RoPE: the keys show the full_attention layers'; a layer of another "
              "type (layer=<i>) is scored with its own RoPE while the keys hold the model's.");
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
  layer_ = std::clamp(layer_, 0, std::max(0, int(m.per_layer.size()) - 1));
  // A decoder's layer masks (sliding, chunked, sinks) are defined over its causal mask: on with them.
  for (const LayerSpec& l : m.per_layer)
    if (l.attention == LayerAttention::Sliding || l.attention == LayerAttention::Chunked ||
        l.attention == LayerAttention::Compressed || l.sinks) {
      causal_ = true;
      f.keys.push_back("causal");
      break;
    }
  if (m.rope && !m.rope->mrope_section.empty())
    f.gap(name +
          " uses M-RoPE (sections over t, h, w positions): the scores view's tokens are text, t = h = w = p, "
          "which rotate exactly as 1-D RoPE.");
  return f;
}

void ScoresView::recompute() {
  computed_ = false;
  result_f_.reset();
  term_names_.clear();
  exact_rows_.clear();
  exact_kx_.resize(0, 0);
  exact_kp_.resize(0, 0);
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
  // The layer: its mask and sink over the scores, its query scale on q's rows (Llama 4 multiplies
  // query_states by the scale before q.k).
  mask_ = layer_mask();
  query_scales_.assign(size_t(n), 1.0);
  if (const LayerSpec* l = layer_spec(); l && scheme_ != Scheme::Sinusoidal && l->query_scale.rule != QueryScale::Rule::None)
    for (int i = 0; i < n; ++i) {
      query_scales_[size_t(i)] = query_scale_at(l->query_scale, i);
      q.row(i) *= query_scales_[size_t(i)];
    }

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

  // Under the causal mask alone the hidden cells are not computed: the job fills them with the pictures'
  // masked-cell marker (about half the work of a square job at any n).
  const bool fill_masked = causal_ && !mask_.active();
  const std::optional<float> masked_fill = fill_masked ? std::optional<float>(kMaskedCell) : std::nullopt;
  if (scheme_ == Scheme::Sinusoidal) {
    pe = sinusoidal_table(pos, d, base_);
    result_f_ = kernels::absolute_attention_f(rows_of(x), rows_of(pe), wq.cast<float>(), wk.cast<float>(), inv_sqrt_d, causal_,
                                              kernels::Path::Best, masked_fill);
  } else {
    spec.causal = causal_;
    switch (scheme_) {
      case Scheme::None: spec.position = NoPosition{}; break;
      case Scheme::Rope:
        if (rope_dropped()) spec.position = NoPosition{};  // DroPE / a NoPE layer: the same q, k unrotated
        else spec.position = rope_position();
        break;
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
    result_f_ = kernels::attention_f(rows_of(q), rows_of(k), grid_pos_, grid_pos_, spec, kernels::Path::Best, mask_, masked_fill);
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
    tiles_.back().masked = fill_masked;  // the job marked the masked cells already
  };
  if (r.terms.size() > 1)
    for (size_t i = 0; i < r.terms.size(); ++i)
      add_tile(r.terms[i].name, term_figure(r.terms[i].name), "heatmap.scores.term" + std::to_string(i), &r.terms[i].values,
               false);
  // With a sink: the logits and weights get it as an extra last column (gpt-oss concatenates the sink
  // logit to each row before the softmax; its weight there is 1 - the row's sum).
  sink_tiles_.clear();
  MatrixF* logits = &r.logits;
  MatrixF* weights = &r.weights;
  if (mask_.sink) {
    // One column, drawn ~1/24 of the keys wide so it can be seen (and hovered) beside many keys.
    const Eigen::Index rows = r.logits.rows(), cols = r.logits.cols(), wide = sink_cells();
    sink_tiles_.reserve(2);
    sink_tiles_.emplace_back(rows, cols + wide);
    sink_tiles_.emplace_back(rows, cols + wide);
    sink_tiles_[0].leftCols(cols) = r.logits;
    sink_tiles_[0].rightCols(wide).setConstant(float(*mask_.sink));
    sink_tiles_[1].leftCols(cols) = r.weights;
    for (Eigen::Index i = 0; i < rows; ++i)
      sink_tiles_[1].row(i).tail(wide).setConstant(float(1.0 - r.weights.row(i).cast<double>().sum()));
    logits = &sink_tiles_[0];
    weights = &sink_tiles_[1];
  }
  add_tile(r.terms.size() > 1 ? "total logits (sum of the terms)" : "logits eᵢⱼ", "total", "heatmap.scores.logits", logits,
           false);
  add_tile("softmax weights aᵢⱼ", "weights", "heatmap.scores.weights", weights, true);
}

AttentionResult ScoresView::exact(int row) const {
  const int n = int(q_.rows());
  std::vector<int64_t> pos(n);
  std::iota(pos.begin(), pos.end(), int64_t{0});
  if (row < 0) {
    if (scheme_ == Scheme::Sinusoidal)
      return absolute_attention(x_, pe_, wq_, wk_, nullptr, 1.0 / std::sqrt(double(d_)), causal_);
    return attention(q_, k_, nullptr, pos, pos, spec_, mask_);
  }
  const std::array<int64_t, 1> qpos{row};
  if (scheme_ != Scheme::Sinusoidal) return attention(q_.row(row), k_, nullptr, qpos, pos, spec_, mask_);
  // absolute_attention's four terms for one query row (its products, in the same order).
  const double scale = 1.0 / std::sqrt(double(d_));
  if (exact_kx_.rows() != n) {  // the keys' projections: the same for every row of one computation
    exact_kx_ = x_ * wk_;
    exact_kp_ = pe_ * wk_;
  }
  const Matrix qx = x_.row(row) * wq_, qp = pe_.row(row) * wq_;
  const Matrix &kx = exact_kx_, &kp = exact_kp_;
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
  for (auto it = exact_rows_.begin(); it != exact_rows_.end(); ++it)
    if (it->first == row) {
      exact_rows_.splice(exact_rows_.begin(), exact_rows_, it);
      return it->second;
    }
  exact_rows_.emplace_front(row, exact(row));
  if (exact_rows_.size() > kCachedRows) exact_rows_.pop_back();  // never the row just asked for
  return exact_rows_.front().second;
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
  // Its matrices (a table each, as the tiles: the terms, logits, weights): over an export's budget the
  // exact numbers, O(n^2 d) in double, are not even computed.
  if (const size_t values = size_t(n) * size_t(n + 1) * tiles_.size(); !export_fits(values)) {
    export_needs(values);
    return;
  }
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
  // The layer's extra softmax column and query scale, per query row.
  if (result.sink_weight) {
    ExportTable t{"sink: weight per query (logit s = " + format_number(*mask_.sink) + ")",
                  "query i",
                  "sink weight",
                  {"i", "sink_weight"},
                  {}};
    for (int i = 0; i < n; ++i) t.rows.push_back({double(i), (*result.sink_weight)[i]});
    tables.push_back(std::move(t));
  }
  if (const LayerSpec* l = layer_spec(); l && l->query_scale.rule != QueryScale::Rule::None && !query_scales_.empty()) {
    ExportTable t{"query scale per position", "query i", "s_i", {"i", "query_scale"}, {}};
    for (int i = 0; i < n; ++i) t.rows.push_back({double(i), query_scales_[size_t(i)]});
    tables.push_back(std::move(t));
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
  if (all_uploaded) {  // the textures hold the pictures; hover and export recompute in double
    result_f_.reset();
    sink_tiles_.clear();
  }
  shared_max_ = shared_max;
  apply_shared_scale();
}

void ScoresView::mask_tile(Tile& t) const {
  if (t.masked) return;
  // In place: the float matrix becomes the texture's input, masked cells marked. A sink adds a last
  // column (never masked).
  const int n = int(grid_pos_.size());
  float* data = t.values->data();
  const size_t cols = size_t(t.values->cols());
  if (mask_.kind != MaskKind::Full) {  // the layer's sliding window or chunks (over the causal mask)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        if (!layer_mask_allows(mask_, causal_, grid_pos_[size_t(i)], grid_pos_[size_t(j)]))
          data[size_t(i) * cols + size_t(j)] = kMaskedCell;
  } else if (causal_) {  // keys after the query are masked
    for (int i = 0; i + 1 < n; ++i) std::fill(data + size_t(i) * cols + i + 1, data + size_t(i) * cols + n, kMaskedCell);
  }
  t.masked = true;
}

void ScoresView::upload_tile(size_t k) {
  Tile& t = tiles_[k];
  if (t.uploaded || !t.values) return;
  const int n = int(grid_pos_.size());
  mask_tile(t);
  const kernels::ValueRange range = heatmaps_[k]->map().set_values(t.values->data(), n, int(t.values->cols()));
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
  if (j < 0) {  // the sink column
    const AttentionResult& row = exact_row(i);
    ImGui::Text("query i = %d, attention sink (extra softmax column, dropped after it)", i);
    ImGui::Separator();
    ImGui::Text("sink logit s    = %.17g", mask_.sink.value_or(0.0));
    if (row.sink_weight) ImGui::Text("sink weight     = %.17g", (*row.sink_weight)[0]);
    ImGui::Text("weights of the keys sum to 1 - sink weight");
    end_readout();
    return;
  }
  ImGui::Text("query i = %d, key j = %d, relative distance j - i = %d", i, j, j - i);
  const std::string bucket = bucket_text(i, j);
  if (!bucket.empty()) ImGui::TextUnformatted(bucket.c_str());
  ImGui::Separator();
  const AttentionResult& row = exact_row(i);  // double precision: what the user reads is exact
  for (const AttentionTerm& t : row.terms) ImGui::Text("%-40s %.17g", t.name.c_str(), t.values(0, j));
  ImGui::Separator();
  if (query_scales_.size() > size_t(i) && query_scales_[size_t(i)] != 1.0)
    ImGui::Text("query scale s_i = %.17g (on q_i)", query_scales_[size_t(i)]);
  if (row.masked(0, j)) {
    const bool after = causal_ && j > i;
    ImGui::Text("total: masked (%s), weight 0", after                             ? "key after query"
                                                : mask_.kind == MaskKind::Sliding ? "outside the sliding window"
                                                                                  : "outside the query's chunk");
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
  if (const std::string layer = layer_text(); !layer.empty() && !alone()) {
    const float top = ImGui::GetCursorPosY();
    ImGui::TextWrapped("%s", layer.c_str());
    probe_last_item("text.scores.layer");
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
    const bool sink_col = mask_.sink && (tile.figure == "total" || tile.figure == "weights");
    if (sink_col && heatmaps_[t]->zoom_window().z == 1 && heatmaps_[t]->zoom_window().w == 1) draw_sink_label(tile.probe);
    if (h.active && size_t(h.row) < grid_pos_.size() && size_t(h.col) < grid_pos_.size())
      hover_i = int(grid_pos_[size_t(h.row)]), hover_j = int(grid_pos_[size_t(h.col)]);
    else if (h.active && sink_col && size_t(h.row) < grid_pos_.size() && size_t(h.col) >= grid_pos_.size())
      hover_i = int(grid_pos_[size_t(h.row)]), hover_j = -1;
  }
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + size.y));
  ImGui::Dummy(ImVec2(size.x, 0));
  if (hover_i >= 0) draw_hover(hover_i, hover_j);
}

// Over the sink column of a tile (its last, after the keys): a separating line and the label "sink".
void ScoresView::draw_sink_label(const std::string& probe) const {
  ImVec2 lo, hi;
  if (!find_probe(probe, &lo, &hi)) return;
  const float x = hi.x - (hi.x - lo.x) * float(sink_cells()) / float(grid_pos_.size() + size_t(sink_cells()));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  // A gap in the window's colour between the keys and the sink, and the label over the sink.
  dl->AddLine(ImVec2(x, lo.y), ImVec2(x, hi.y), ImGui::GetColorU32(ImGuiCol_WindowBg), 2.0f);
  // Outlined: a sink logit of 0 is the diverging map's white, which a light theme's background is too.
  dl->AddRect(ImVec2(x + 1.0f, lo.y), hi, ImGui::GetColorU32(ImGuiCol_Text));
  const char* label = "sink";
  const ImVec2 sz = ImGui::CalcTextSize(label);
  dl->AddText(ImVec2(std::min(0.5f * (x + hi.x) - 0.5f * sz.x, hi.x - sz.x), lo.y - sz.y - 2), ImGui::GetColorU32(ImGuiCol_Text),
              label);
  probe_rect((probe + ".sink").c_str(), ImVec2(x, lo.y), hi);
}

}  // namespace

std::unique_ptr<View> make_scores_view() { return std::make_unique<ScoresView>(); }

}  // namespace posenc::app
