// Bias buckets: how relative schemes turn the distance j - i into a bucket, a clipped index or a bias —
// T5 buckets (bidirectional / causal) with a seeded bias per bucket, DeBERTa log buckets, Shaw's clip
// window, ALiBi's per-head lines — each as curves over j - i and as the n x n matrix they induce.
#pragma once

#include <string>
#include <vector>

#include "app/heatmap.h"
#include "app/plot.h"
#include "app/view.h"

namespace posenc::app {

class BucketsView final : public View {
 public:
  enum class Scheme { T5, Deberta, Shaw, Alibi };

  const char* id() const override { return "buckets"; }
  const char* title() const override { return "Bias buckets"; }
  const char* caption() const override;
  bool draw_controls() override;
  void draw_content(ImVec2 size) override;
  void save_state(StateMap& out) const override;
  void load_state(const StateMap& in, std::string& notices) override;
  void prepare() override;
  std::string error() const override { return error_; }
  void export_data(std::vector<ExportTable>& tables) const override;

  static constexpr int kMaxN = 8192;         // relative distances of the curves: -(n-1)..n-1
  static constexpr int kMaxHeatmapN = 2048;  // the matrix is drawn for at most this many positions

 private:
  void recompute();
  void upload_heatmap();  // the drawn n x n block into the texture (GL)
  const std::vector<double>& drawn_by_offset() const;
  void draw_hover(int i, int j) const;
  int64_t offset_index(int64_t r) const { return r + n_ - 1; }

  Scheme scheme_ = Scheme::T5;
  int n_ = 64;
  // T5
  bool bidirectional_ = true;
  int num_buckets_ = 32;
  int max_distance_ = 128;
  int seed_ = 0;
  bool show_bias_ = false;  // matrix shows the bias instead of the bucket index
  // DeBERTa
  int bucket_size_ = 32;
  int max_position_ = 512;
  // Shaw
  int clip_ = 8;
  // ALiBi
  int heads_ = 8;
  int head_ = 0;

  bool dirty_ = true;
  bool upload_pending_ = false;
  std::string error_;
  int heatmap_n_ = 0;
  float vmin_ = 0, vmax_ = 1;
  Colormap cmap_ = Colormap::Viridis;
  // By relative distance r = j - i, index r + n - 1: the bucket (or clipped index) and the value drawn.
  std::vector<double> bucket_by_offset_, value_by_offset_;
  std::vector<double> t5_bias_, alibi_slopes_;
  std::vector<Series> index_series_, value_series_;
  const char* index_title_ = "";
  const char* value_title_ = "";
  HeatmapWidget heatmap_;
};

}  // namespace posenc::app
