// What the scores view computes (no ImGui, no GL; scores_view.cpp declares, draws and uploads it): its
// keys, one table row per scheme (names, formulas, the scheme's own keys, the position it adds, what a
// cell reads), the same q, k for every scheme, the float32 pictures of the terms, logits and weights
// (core kernels), the exact double rows behind readouts and numbers, the exports, and what a model fills.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <list>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "app/export.h"
#include "app/model_keys.h"
#include "core/attention/attention.h"
#include "core/attention/layer_mask.h"
#include "core/attention/score_kernels.h"
#include "core/models/model_config.h"

namespace posenc::app {

// The scores view's limits: its keys' ranges (a model's values are clamped into them).
namespace scores_limits {
inline constexpr int kMaxPositions = 4096;         // accepted by the slider and the URL
inline constexpr int kMaxHeatmapPositions = 2048;  // positions actually computed and drawn (float32 kernels)
inline constexpr int kMaxWidth = 256;
inline constexpr int kMaxSeed = 1000000;
inline constexpr int kMaxClip = 64;
inline constexpr int kMaxHeadCount = 128;  // BLOOM has 112 ALiBi heads
inline constexpr int kMaxFactor = 1024;
inline constexpr int kMaxLength = 1 << 22;
}  // namespace scores_limits

// The scores view's schemes (one position scheme each, compared on the same q, k): no single core enum.
enum class ScoresScheme { None, Sinusoidal, Rope, T5, Alibi, Shaw, Deberta, Xl, Learned };

// The view's keys, each declared once in ScoresView::params().
struct ScoresKeys {
  ScoresScheme scheme = ScoresScheme::Sinusoidal;
  int n = 32, d = 32;
  int seed = 1;
  int content = 0;  // index into scores_content_names(): 1 = every token the same
  bool causal = false;
  bool shared_scale = false;
  double base = 10000.0;
  int t5_buckets = 32, t5_max_distance = 128;
  int deberta_buckets = 256, deberta_max_position = 512;
  int clip = 4;             // Shaw, learned bias
  int heads = 8, head = 0;  // ALiBi: the heads, and the head drawn
  int rotary_dim = 0;       // 0 = every dim rotates
  RopeLayout layout = RopeLayout::Half;
  RopeScalingType scaling = RopeScalingType::None;
  double factor = 4.0;
  int orig = 4096;
  RopeExtraKeys extra;
  int layer = 0;
  bool drop_rope = false;
  double sink_logit = 0.0;

  int shown_head() const;
  double alibi_slope() const;  // of the head drawn
};

// Everything that differs by scheme, one row each in the enum's order (scores_scheme()).
struct ScoresSchemeRow {
  ScoresScheme scheme;
  const char* name;     // scheme=<name>
  const char* label;    // what the scheme control shows
  const char* caption;  // the formula over the figure
  const char* words;    // the formula in words (the page's description)
  // The scheme's own keys under its controls, in order (RoPE: the ones its scaling uses).
  std::vector<const char*> (*keys)(const ScoresKeys&);
  // A line under them (T5's bucket direction, ALiBi's slope), or "".
  std::string (*note)(const ScoresKeys&);
  // The position the scores add to q.k; `rope` is the RoPE to score with (nullopt: dropped). Null for
  // Sinusoidal, which adds position vectors to the tokens instead (absolute attention's four terms).
  PositionScheme (*position)(const ScoresKeys&, int d, const std::optional<RopePosition>& rope);
  // T5: no 1/sqrt(d) in the logits; its W_Q init carries it, so q is scaled by it instead.
  bool q_carries_scale;
  // The bucket or distance the cell (query i, key j) reads, for the readout ("" when none).
  std::string (*bucket)(const ScoresKeys&, int i, int j);
  bool note_disabled = false;  // the note is a remark (drawn dimmed), not a value
};
const ScoresSchemeRow& scores_scheme(ScoresScheme s);
std::span<const char* const> scores_scheme_names();
std::span<const char* const> scores_scheme_labels();
std::span<const char* const> scores_content_names();
// RoPE scaling methods the view computes: every one but LongRoPE (its per-pair factors come from a model).
std::span<const char* const> scores_scaling_names();

// A term's figure name: its first words without the "(a) " label, e.g. "content-position",
// "global-content" (XL's u.k), "content-rotated" (RoPE), "bias".
std::string term_figure(const std::string& name);

// One float32 picture the view draws: a term, the total logits or the softmax weights.
struct ScoresPicture {
  std::string title;
  std::string figure;  // figure= name: total, weights or the term's short name
  std::string probe;
  MatrixF* values = nullptr;  // points into the model's float results (with a sink: its extra column)
  bool weights = false;       // softmax weights: sequential colormap from 0
  bool masked = false;        // the masked cells already hold kMaskedCell
};

class ScoresModel {
 public:
  ScoresKeys keys;

  // The layer's mask (Full without a layer; none for Sinusoidal), with its sink at this view's logit.
  LayerMask layer_mask(const LayerSpec* layer) const;
  bool rope_dropped(const LayerSpec* layer) const;
  // "layer 1 of 24: sliding window W = 128 (...), RoPE, sink column s = 0"; "" without a layer.
  std::string layer_text(const LayerSpec* layer, int layer_count) const;
  // Fills the keys from a model; what the keys cannot hold is a notice naming `model`.
  ModelFill fill_from_model(const ModelPosition& m);

  // Computes the pictures of `n` positions on every stride-th row and column (and the last); `rope`: the
  // RoPE position to score with (the keys', or the layer's own).
  void compute(int n, int stride, const LayerSpec* layer, const RopePosition& rope);
  bool computed() const { return computed_; }
  int rows() const { return int(q_.rows()); }
  std::vector<ScoresPicture>& pictures() { return pictures_; }
  // The float results the pictures point into (released once the textures hold them).
  void release_pictures();
  bool holds_pictures() const { return result_f_.has_value(); }
  // Marks the masked cells of a picture in place (once).
  void mask_picture(ScoresPicture& p) const;

  // Positions of the pictures' rows and columns: 0..n-1, or a preview's coarser grid.
  const std::vector<int64_t>& grid() const { return grid_pos_; }
  // Cells of the picture the sink column spans (it is one column of the softmax).
  int sink_cells() const { return std::max(1, int(std::ceil(double(grid_pos_.size()) / 24.0))); }
  const LayerMask& mask() const { return mask_; }
  const std::vector<double>& query_scales() const { return query_scales_; }

  // The double-precision core on the computed inputs: every row (row < 0, export) or one query row.
  AttentionResult exact(int row) const;
  // The same for one row, from a small cache (the hovered row, the first and the last).
  const AttentionResult& exact_row(int row) const;
  // The tables of the export: every term, logits and weights in double, and the position's numbers.
  void export_tables(std::vector<ExportTable>& tables, const LayerSpec* layer) const;

 private:
  std::string query_scale_text(const LayerSpec* layer) const;

  // Inputs of the last computation (double, O(n d)): the exact values are recomputed from them.
  bool computed_ = false;
  Matrix x_, wq_, wk_, q_, k_, pe_;
  // x, W_Q, W_K, x W_Q, x W_K for content_key_ = (n, d, seed, content), reused while those stay.
  std::array<int, 4> content_key_{};
  Matrix content_x_, content_wq_, content_wk_, content_q_, content_k_;
  AttentionSpec spec_;
  RopePosition rope_;                 // the RoPE of the last computation (export: its frequencies)
  LayerMask mask_;                    // the layer's, as last computed
  std::vector<double> query_scales_;  // per query position 0..n-1 (all 1 without a query-scale rule)
  std::vector<MatrixF> sink_tiles_;   // logits / weights with the sink as an extra last column
  // Float32 scores for the pictures (kernels); released once the textures hold them.
  std::optional<kernels::AttentionF> result_f_;
  std::vector<std::string> term_names_;
  std::vector<int64_t> grid_pos_;
  std::vector<ScoresPicture> pictures_;
  // Exact rows, most recent first: the hovered query's while the mouse stays on it, and the first and
  // last query's that numbers() reads on every description of the page (asked on each state change and
  // again when the frames settle). One cached row made those two evict each other, so every description
  // recomputed both in double (at n = 2048 DeBERTa's m x 2s p2c product each time). A list: references
  // handed out stay valid while other rows are added.
  static constexpr size_t kCachedRows = 3;
  mutable std::list<std::pair<int, AttentionResult>> exact_rows_;
  mutable Matrix exact_kx_, exact_kp_;  // sinusoidal: x W_K and P W_K (double) of the exact rows

  void compute_content(int n, int d);
  void make_pictures(bool masked);
};

}  // namespace posenc::app
