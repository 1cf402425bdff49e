// Score heatmaps: n x n attention logits and softmax weights for every positional scheme, with the
// scheme's additive terms (the four-term absolute expansion, XL's four, DeBERTa's c2p / p2c, biases)
// side by side with the total. A real model (model=<preset id>, or a loaded config) fills the keys: the
// scheme from its position kind with its parameters, d = head_dim, and for RoPE its rotary dims, layout
// and scaling; for ALiBi its head count. A model's layer (layer=<i>) adds what that layer runs: its mask
// (sliding window or chunks over the causal one), an attention sink as an extra column of the logits and
// weights, its query scale by position, NoPE; drop_rope scores a RoPE model without the rotation (DroPE).
//
// This file declares, draws and uploads; scores_model.cpp computes. Sections, top to bottom: the view's
// keys (params), export, numbers and notes; controls (the scheme's own keys from its table row); the RoPE
// position the scores use (the keys', or a layer's own); recompute; upload (textures and colour scales);
// the readout (draw_hover); draw_figure (the tiles' grid) and the sink column's label.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "app/controls.h"
#include "app/heatmap.h"
#include "app/i18n.h"
#include "app/input.h"
#include "app/model_link.h"
#include "app/probe.h"
#include "app/views/scores_model.h"
#include "app/views/views.h"

namespace posenc::app {
namespace {

using namespace scores_limits;

class ScoresView final : public ModelLinkedView {
 public:
  explicit ScoresView(ViewText text) : ModelLinkedView(std::move(text)) {}

  const char* caption() const override { return scores_scheme(k_.scheme).caption; }

  void params(ParamList& p) override {
    declare_model(p);
    p.integer(
        "layer", k_.layer, 0, std::max(0, layer_count() - 1),
        {.label = "Layer", .format = "layer = %d", .help = "the model's layer (0-based): its mask, sink, query scale, NoPE"});
    p.choice("scheme", k_.scheme, scores_scheme_names(), {.label = "Scheme", .labels = scores_scheme_labels()});
    p.flag("drop_rope", k_.drop_rope,
           {.label = "drop RoPE (DroPE)", .help = "q.k / sqrt(d) on the same q, k: RoPE's positional rotation removed"});
    p.real("sink", k_.sink_logit, -64.0, 64.0,
           {.label = "Sink logit s (learned per head)",
            .format = "s = %.4g",
            .help = "a layer with attention sinks: the logit of the extra softmax column"});
    p.integer("n", k_.n, 1, kMaxPositions, {.label = "Sequence length n", .format = "n = %d", .log = true});
    p.integer("d", k_.d, 2, kMaxWidth, {.label = "Width d (even)", .format = "d = %d", .log = true, .even = true});
    p.integer("seed", k_.seed, 0, kMaxSeed, {.label = "Seed"});
    p.choice("content", k_.content, scores_content_names(), {.label = "Token content", .widget = ChoiceWidget::Radio});
    p.flag("causal", k_.causal, {.label = "causal mask"});
    p.flag("shared", k_.shared_scale, {.label = "one colour scale for all terms"});
    p.real("base", k_.base, kBaseMin, kBaseMax, {.label = "Base", .format = "base = %.0f", .log = true});
    p.integer("buckets", k_.t5_buckets, 4, 256,
              {.label = "Buckets (per direction: half)", .format = "buckets = %d", .log = true, .even = true});
    p.integer("max_distance", k_.t5_max_distance, 2, 4096, {.label = "Max distance", .format = "max_distance = %d", .log = true});
    // Even on the slider only, as before: the URL takes any value in range (odd sizes compute).
    p.integer("deberta_buckets", k_.deberta_buckets, 2, 1024,
              {.label = "Bucket size (position_buckets)", .format = "buckets = %d", .log = true});
    p.integer("deberta_max_position", k_.deberta_max_position, 4, 4096,
              {.label = "Max relative positions", .format = "max = %d", .log = true});
    p.integer("clip", k_.clip, 0, kMaxClip, {.label = "Clip distance K", .format = "K = %d"});
    p.integer("heads", k_.heads, 1, kMaxHeadCount, {.label = "Heads H", .format = "H = %d"});
    p.integer("head", k_.head, 0, k_.heads - 1, {.label = "Head h", .format = "h = %d"});
    // RoPE as a model has it: partial rotary, pair layout, context extension.
    p.integer("rotary_dim", k_.rotary_dim, 0, k_.d,
              {.label = "RoPE rotary dims (0 = all of d)", .format = "rotary_dim = %d", .even = true});
    p.choice("layout", k_.layout, names_of<RopeLayout>(), {.label = "RoPE pair layout"});
    p.choice("scaling", k_.scaling, scores_scaling_names(), {.label = "RoPE context extension"});
    p.real("factor", k_.factor, 1.0, kMaxFactor, {.label = "Factor f", .format = "f = %.6g", .log = true});
    p.integer("orig", k_.orig, 1, kMaxLength, {.label = "Trained length L", .format = "L = %d", .log = true});
    k_.extra.declare(p);
  }

  void export_data(std::vector<ExportTable>& tables) const override {
    if (failed() || !model_.computed()) return;
    // Its matrices (a table each, as the tiles: the terms, logits, weights): over an export's budget the
    // exact numbers, O(n^2 d) in double, are not even computed.
    const size_t n = size_t(model_.rows());
    if (const size_t values = n * (n + 1) * tiles_.size(); !export_fits(values)) {
      export_needs(values);
      return;
    }
    model_.export_tables(tables, layer_spec());
  }
  std::vector<std::string> figures() const override {
    std::vector<std::string> out{"total", "weights"};
    for (const Tile& t : tiles_)
      if (!t.figure.empty() && t.figure != "total" && t.figure != "weights") out.push_back(t.figure);
    return out;
  }
  std::string formula_words() const override { return scores_scheme(k_.scheme).words; }
  // From the exact (double) rows of the first and last query, so every number read is the core's.
  void numbers(std::vector<DescribedNumber>& out) const override {
    if (!model_.computed() || failed() || model_.rows() == 0) return;
    const int n = model_.rows();
    const AttentionResult& last = model_.exact_row(n - 1);
    double mx = 0;
    for (int j = 0; j < n; ++j)
      if (!last.masked(0, j) && std::isfinite(last.logits(0, j))) mx = std::max(mx, std::abs(last.logits(0, j)));
    out.push_back({"positions n", double(k_.n)});
    out.push_back({"largest |logit| of the last query", mx});
    out.push_back({"weight of the last query on itself", last.weights(0, n - 1)});
    if (n > 1) out.push_back({"weight a_01", model_.exact_row(0).weights(0, 1)});
    if (k_.scheme == ScoresScheme::Alibi) out.push_back({"ALiBi slope m_h", k_.alibi_slope()});
    if (layer_spec()) out.push_back({"layer", double(k_.layer)});
    if (last.sink_weight) out.push_back({"sink weight of the last query", (*last.sink_weight)[0]});
    if (!model_.query_scales().empty() && model_.query_scales().back() != 1.0)
      out.push_back({"query scale of the last query", model_.query_scales().back()});
  }
  void notes(Notices& out) const override {
    ModelLinkedView::notes(out);
    const LayerSpec* l = layer_spec();
    if (l && (l->attention == LayerAttention::Linear || l->attention == LayerAttention::None))
      out.push_back({"layer", "layer=" + std::to_string(k_.layer) +
                                  " is a linear-attention (or state-space) layer or a block without token mixing: it computes "
                                  "no softmax scores and uses no position encoding, so the scores drawn are not what this layer "
                                  "runs (pick a full or sliding layer)."});
    if (l && l->attention == LayerAttention::Compressed)
      out.push_back({"layer", "layer=" + std::to_string(k_.layer) +
                                  " is a compressed layer: its sliding window is drawn; the pooled keys it also attends to "
                                  "(one per " +
                                  std::to_string(l->ratio) + " earlier keys) are not modelled."});
    if (l && k_.scheme == ScoresScheme::Sinusoidal &&
        (l->attention == LayerAttention::Sliding || l->attention == LayerAttention::Chunked ||
         l->attention == LayerAttention::Compressed || l->sinks || l->query_scale.rule != QueryScale::Rule::None))
      out.push_back({"layer", "layer=" + std::to_string(k_.layer) +
                                  ": the sinusoidal scheme is drawn without the layer's mask, sink and query scale (they apply "
                                  "to the q/k schemes)."});
  }

 private:
  // A picture as drawn: its texture's colour range, and whether the texture holds it (tiles not on screen
  // wait until they are shown).
  struct Tile : ScoresPicture {
    float vmin = 0, vmax = 1;
    float own_max = 1;  // largest |value| of this tile (its own colour scale)
    bool uploaded = false;
  };

  void controls(Controls& c) override;
  void draw_scheme_key(Controls& c, const char* key);
  void recompute() override;
  void upload() override;  // the shown tiles' textures and colour ranges (GL)
  void upload_tile(size_t k);
  void apply_shared_scale();
  ModelFill fill_from_model(const ModelPosition& m) override { return model_.fill_from_model(m); }
  RopePosition rope_position() const;
  void draw_figure(ImVec2 size) override;
  std::string key_for_field(const std::string& field) const override;

  int shown_n() const { return std::min(k_.n, kMaxHeatmapPositions); }
  // The model's layers (0 without a model or for a model whose layers are not described).
  int layer_count() const { return model_source() ? int(model_source()->per_layer.size()) : 0; }
  const LayerSpec* layer_spec() const {
    return k_.layer >= 0 && k_.layer < layer_count() ? &model_source()->per_layer[size_t(k_.layer)] : nullptr;
  }
  void draw_hover(int i, int j) const;  // j = -1: the sink column
  void draw_sink_label(const std::string& probe) const;

  ScoresModel model_;
  ScoresKeys& k_ = model_.keys;
  std::vector<Tile> tiles_;
  double shared_max_ = 0;                                 // the terms' common colour scale (shared = 1)
  std::vector<std::unique_ptr<HeatmapWidget>> heatmaps_;  // one per tile, reused across recomputes
};

void ScoresView::controls(Controls& c) {
  draw_model_controls();
  if (layer_count() > 0) {
    c.draw("layer");
    ImGui::TextWrapped("%s", model_.layer_text(layer_spec(), layer_count()).c_str());
    probe_last_item("text.scores.layer_controls");
    if (layer_spec() && layer_spec()->sinks) c.draw("sink");
  }
  c.draw("scheme");
  if (k_.scheme == ScoresScheme::Rope) c.draw("drop_rope");
  c.draw("n");
  if (k_.n > kMaxHeatmapPositions) {
    ImGui::PushStyleColor(ImGuiCol_Text, warning_color());
    ImGui::TextWrapped(tr("n capped at %d: the score heatmaps show the first %d positions."), kMaxHeatmapPositions,
                       kMaxHeatmapPositions);
    ImGui::PopStyleColor();
  }
  c.draw("d");
  c.draw("content");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("All tokens identical: only the position terms vary."));
  {
    // A seed is typed, not dragged: an input field over the declared range.
    const Param& p = c.param("seed");
    ImGui::TextUnformatted(tr(p.label()));
    int seed = k_.seed;
    if (ImGui::InputInt("##seed", &seed)) k_.seed = std::clamp(seed, int(p.lo), int(p.hi));
    probe_last_item("input.seed");
  }
  c.draw("causal");
  c.draw("shared");
  ImGui::Separator();
  const ScoresSchemeRow& row = scores_scheme(k_.scheme);
  for (const char* key : row.keys(k_)) draw_scheme_key(c, key);
  if (const std::string note = row.note(k_); !note.empty()) {
    if (row.note_disabled) ImGui::TextDisabled("%s", tr_message(note).c_str());
    else ImGui::Text("%s", tr_message(note).c_str());
  }
}

// One of the scheme's own keys: its declared control, but for DeBERTa's bucket size (a slider in even
// sizes) and the head count (the head drawn stays below it).
void ScoresView::draw_scheme_key(Controls& c, const char* key) {
  if (std::strcmp(key, "deberta_buckets") == 0) {
    // The slider steps over even sizes, as it always did (the URL takes any size in range).
    const Param& p = c.param("deberta_buckets");
    ImGui::TextUnformatted(tr(p.label()));
    int v = k_.deberta_buckets;
    if (ImGui::SliderInt("##deberta_buckets", &v, int(p.lo), int(p.hi), p.opt.format,
                         ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
      k_.deberta_buckets = std::max(int(p.lo), v - v % 2);
    probe_last_item("slider.deberta_buckets");
    if (const int steps = focused_slider_steps(p))  // in even sizes, like the slider
      k_.deberta_buckets =
          std::clamp(k_.deberta_buckets - k_.deberta_buckets % 2 + 2 * steps, int(p.lo), int(p.hi) - int(p.hi) % 2);
    return;
  }
  if (c.draw(key) && std::strcmp(key, "heads") == 0) k_.head = std::min(k_.head, k_.heads - 1);
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
  p.base = k_.base;
  p.layout = k_.layout;
  if (k_.rotary_dim > 0 && k_.rotary_dim < k_.d) p.rotary_dim = k_.rotary_dim;
  p.scaling.type = k_.scaling;
  if (k_.scaling != RopeScalingType::None) {
    p.scaling.factor = k_.factor;
    p.scaling.original_max_position_embeddings = k_.orig;
    k_.extra.apply(p.scaling);
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
        p.rotary_dim = lr.rotary_dim > 0 && lr.rotary_dim < k_.d ? std::optional<int>(lr.rotary_dim) : std::nullopt;
      }
  return p;  // dynamic NTK sees one past the last position as its current length (attention())
}

void ScoresView::recompute() {
  tiles_.clear();
  const int n = shown_n();
  model_.compute(n, preview_stride(int64_t{n} * n), layer_spec(), rope_position());
  for (const ScoresPicture& p : model_.pictures()) {
    Tile t;
    static_cast<ScoresPicture&>(t) = p;
    tiles_.push_back(std::move(t));
  }
}

void ScoresView::upload() {
  if (!model_.holds_pictures()) return;
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
      if (!t.weights && k_.shared_scale) {
        model_.mask_picture(t);
        const kernels::ValueRange range = kernels::value_range(t.values->data(), size_t(t.values->size()), kMaskedCell);
        const float mx = range.any ? std::max(std::abs(range.lo), std::abs(range.hi)) : 0.0f;
        shared_max = std::max(shared_max, double(mx == 0 ? 1.0f : mx));  // as upload_tile's own range
      }
    }
    if (!t.weights && t.uploaded) shared_max = std::max(shared_max, double(t.own_max));
  }
  if (all_uploaded) {  // the textures hold the pictures; hover and export recompute in double
    model_.release_pictures();
  }
  shared_max_ = shared_max;
  apply_shared_scale();
}

void ScoresView::upload_tile(size_t k) {
  Tile& t = tiles_[k];
  if (t.uploaded || !t.values) return;
  const int n = int(model_.grid().size());
  model_.mask_picture(t);
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
      const float mx = k_.shared_scale ? float(shared_max_) : t.own_max;
      t.vmin = -mx, t.vmax = mx;
    }
}

void ScoresView::draw_hover(int i, int j) const {
  begin_readout();
  if (j < 0) {  // the sink column
    const AttentionResult& row = model_.exact_row(i);
    ImGui::Text(tr("query i = %d, attention sink (extra softmax column, dropped after it)"), i);
    ImGui::Separator();
    ImGui::Text(tr("sink logit s    = %.17g"), model_.mask().sink.value_or(0.0));
    if (row.sink_weight) ImGui::Text(tr("sink weight     = %.17g"), (*row.sink_weight)[0]);
    ImGui::TextUnformatted(tr("weights of the keys sum to 1 - sink weight"));
    end_readout();
    return;
  }
  ImGui::Text(tr("query i = %d, key j = %d, relative distance j - i = %d"), i, j, j - i);
  const std::string bucket = scores_scheme(k_.scheme).bucket(k_, i, j);
  if (!bucket.empty()) ImGui::TextUnformatted(tr_message(bucket).c_str());
  ImGui::Separator();
  const AttentionResult& row = model_.exact_row(i);  // double precision: what the user reads is exact
  // Each term's name, then its value in a column after the longest name (drawn as two texts: the name is words).
  float column = 0;
  for (const AttentionTerm& t : row.terms) column = std::max(column, ImGui::CalcTextSize(tr_message(t.name).c_str()).x);
  for (const AttentionTerm& t : row.terms) {
    ImGui::TextUnformatted(tr_message(t.name).c_str());
    ImGui::SameLine(column + ImGui::GetStyle().ItemSpacing.x * 2 + ImGui::GetStyle().WindowPadding.x);
    ImGui::Text("%.17g", t.values(0, j));
  }
  ImGui::Separator();
  if (model_.query_scales().size() > size_t(i) && model_.query_scales()[size_t(i)] != 1.0)
    ImGui::Text(tr("query scale s_i = %.17g (on q_i)"), model_.query_scales()[size_t(i)]);
  if (row.masked(0, j)) {
    const bool after = k_.causal && j > i;
    ImGui::Text(tr("total: masked (%s), weight 0"), tr(after                                     ? "key after query"
                                                       : model_.mask().kind == MaskKind::Sliding ? "outside the sliding window"
                                                                                                 : "outside the query's chunk"));
  } else {
    ImGui::Text(tr("total logit e_ij = %.17g"), row.logits(0, j));
    ImGui::Text(tr("weight a_ij     = %.17g"), row.weights(0, j));
  }
  end_readout();
}

void ScoresView::draw_figure(ImVec2 size) {
  if (const std::string caption = model_caption(); !caption.empty() && !alone()) {
    const float top = ImGui::GetCursorPosY();
    ImGui::TextWrapped("%s", tr_message(caption).c_str());
    probe_last_item("text.scores.model");
    size.y -= ImGui::GetCursorPosY() - top;
  }
  if (const std::string layer = model_.layer_text(layer_spec(), layer_count()); !layer.empty() && !alone()) {
    const float top = ImGui::GetCursorPosY();
    ImGui::TextWrapped("%s", layer.c_str());
    probe_last_item("text.scores.layer");
    size.y -= ImGui::GetCursorPosY() - top;
  }
  if (k_.n > kMaxHeatmapPositions) {
    ImGui::PushStyleColor(ImGuiCol_Text, warning_color());
    ImGui::Text(tr("n = %d is above the heatmap cap: showing positions 0..%d."), k_.n, kMaxHeatmapPositions - 1);
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
      if (std::all_of(tiles_.begin(), tiles_.end(), [](const Tile& x) { return x.uploaded; })) model_.release_pictures();
    }
    const ImVec2 at(origin.x + (slot % best_cols) * tile_w, origin.y + (slot / best_cols) * tile_h);
    ImGui::SetCursorScreenPos(at);
    if (!alone()) ImGui::TextUnformatted(tr_message(tile.title).c_str());
    ImGui::SetCursorScreenPos(ImVec2(at.x, at.y + (alone() ? 0.0f : line)));
    HeatmapAxes axes{"key j", "query i", 0, 0};  // the heatmap translates its titles
    if (model_.grid().size() > 1) axes.cell_step = double(model_.grid().back()) / double(model_.grid().size() - 1);
    // Square cells: the image is as wide as it is tall (axes and colorbar take ~140 x 60 px around it).
    const float hm_h = alone() ? tile_h : tile_h - line - 4;
    const float hm_w = alone() ? tile_w : std::min(tile_w - 8, hm_h - 60 + 140);
    const HeatmapHover h = heatmaps_[t]->draw(tile.probe.c_str(), ImVec2(hm_w, hm_h), axes,
                                              tile.weights ? Colormap::Viridis : Colormap::Diverging, tile.vmin, tile.vmax);
    probe_plot(tile.figure, tile.probe.c_str());
    const bool sink_col = model_.mask().sink && (tile.figure == "total" || tile.figure == "weights");
    if (sink_col && heatmaps_[t]->zoom_window().z == 1 && heatmaps_[t]->zoom_window().w == 1) draw_sink_label(tile.probe);
    if (h.active && size_t(h.row) < model_.grid().size() && size_t(h.col) < model_.grid().size())
      hover_i = int(model_.grid()[size_t(h.row)]), hover_j = int(model_.grid()[size_t(h.col)]);
    else if (h.active && sink_col && size_t(h.row) < model_.grid().size() && size_t(h.col) >= model_.grid().size())
      hover_i = int(model_.grid()[size_t(h.row)]), hover_j = -1;
  }
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + size.y));
  ImGui::Dummy(ImVec2(size.x, 0));
  if (hover_i >= 0) draw_hover(hover_i, hover_j);
}

// Over the sink column of a tile (its last, after the keys): a separating line and the label "sink".
void ScoresView::draw_sink_label(const std::string& probe) const {
  ImVec2 lo, hi;
  if (!find_probe(probe, &lo, &hi)) return;
  const float x = hi.x - (hi.x - lo.x) * float(model_.sink_cells()) / float(model_.grid().size() + size_t(model_.sink_cells()));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  // A gap in the window's colour between the keys and the sink, and the label over the sink.
  dl->AddLine(ImVec2(x, lo.y), ImVec2(x, hi.y), ImGui::GetColorU32(ImGuiCol_WindowBg), 2.0f);
  // Outlined: a sink logit of 0 is the diverging map's white, which a light theme's background is too.
  dl->AddRect(ImVec2(x + 1.0f, lo.y), hi, ImGui::GetColorU32(ImGuiCol_Text));
  const char* label = tr("sink");
  const ImVec2 sz = ImGui::CalcTextSize(label);
  dl->AddText(ImVec2(std::min(0.5f * (x + hi.x) - 0.5f * sz.x, hi.x - sz.x), lo.y - sz.y - 2), ImGui::GetColorU32(ImGuiCol_Text),
              label);
  probe_rect((probe + ".sink").c_str(), ImVec2(x, lo.y), hi);
}

}  // namespace

std::unique_ptr<View> make_scores_view(ViewText text) { return std::make_unique<ScoresView>(std::move(text)); }

}  // namespace posenc::app
