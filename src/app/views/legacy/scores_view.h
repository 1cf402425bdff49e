// Score heatmaps: n x n attention logits and softmax weights for every positional scheme, with the
// scheme's additive terms (the four-term absolute expansion, XL's four, DeBERTa's c2p / p2c, biases)
// side by side with the total.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/heatmap.h"
#include "app/view.h"
#include "core/attention.h"

namespace posenc::app {

class ScoresView final : public View {
 public:
  enum Scheme { None, Sinusoidal, Rope, T5, Alibi, Shaw, Deberta, Xl, Learned, kSchemeCount };

  const char* id() const override { return "scores"; }
  const char* title() const override { return "Scores"; }
  const char* caption() const override;
  bool draw_controls() override;
  void draw_content(ImVec2 size) override;
  void save_state(StateMap& out) const override;
  void load_state(const StateMap& in, std::string& notices) override;
  void prepare() override;
  std::string error() const override { return error_; }
  void export_data(std::vector<ExportTable>& tables) const override;

  static constexpr int kMaxN = 4096;         // accepted by the slider and the URL
  static constexpr int kMaxHeatmapN = 1024;  // positions actually computed and drawn
  static constexpr int kMaxD = 256;

 private:
  struct Tile {
    std::string title;
    std::string probe;
    const Matrix* values = nullptr;  // double-precision source (points into result_)
    bool weights = false;            // softmax weights: sequential colormap from 0
    float vmin = 0, vmax = 1;
    std::unique_ptr<HeatmapWidget> heatmap;
  };

  void recompute();
  void upload_heatmaps();  // tiles' float textures and colour ranges (GL)
  int shown_n() const { return n_ < kMaxHeatmapN ? n_ : kMaxHeatmapN; }
  std::string bucket_text(int i, int j) const;
  void draw_hover(int i, int j) const;

  int scheme_ = Sinusoidal;
  int n_ = 32;
  int d_ = 32;
  int seed_ = 1;
  bool constant_content_ = false;
  bool causal_ = false;
  bool shared_scale_ = false;
  double base_ = 10000.0;
  int t5_buckets_ = 32;
  int t5_max_distance_ = 128;
  int deberta_buckets_ = 256;
  int deberta_max_position_ = 512;
  int clip_ = 4;
  int heads_ = 8;
  int head_ = 0;

  bool dirty_ = true;
  bool upload_pending_ = false;
  std::string error_;
  std::optional<AttentionResult> result_;
  double alibi_slope_ = 0;
  std::vector<Tile> tiles_;
};

}  // namespace posenc::app
