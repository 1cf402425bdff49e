// Similarity: the Gram matrix P P^T of an absolute scheme, the curve P_p . P_{p+delta} over delta for
// several p (sinusoidal beside sine only), and the neighbour distance ||P_{p+1} - P_p|| over p.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/heatmap.h"
#include "app/plot.h"
#include "app/view.h"
#include "core/absolute.h"
#include "core/similarity.h"

namespace posenc::app {

class SimilarityView final : public View {
 public:
  const char* id() const override { return "similarity"; }
  const char* title() const override { return "Similarity"; }
  const char* caption() const override {
    return "G[a][b] = P_a . P_b;  sinusoidal: P_p . P_{p+delta} = sum_k cos(delta w_k) for every p;  "
           "neighbour distance ||P_{p+1} - P_p||";
  }
  bool draw_controls() override;
  void draw_content(ImVec2 size) override;
  void save_state(StateMap& out) const override;
  void load_state(const StateMap& in, std::string& notices) override;
  void prepare() override;
  std::string error() const override { return error_; }
  void export_data(std::vector<ExportTable>& tables) const override;

  static constexpr int kMaxN = 4096;         // positions of the curves
  static constexpr int kMaxHeatmapN = 2048;  // P P^T is drawn for at most this many positions
  static constexpr int kMaxD = 1024;
  static constexpr int kCurves = 4;          // p = 0, s, 2s, 3s

 private:
  void recompute();
  void upload_heatmap();  // P P^T (float) into the texture, and its colour range

  AbsoluteScheme scheme_ = AbsoluteScheme::Sinusoidal;
  int n_ = 128;
  int d_ = 64;
  double base_ = 10000.0;
  int p_step_ = 24;
  int max_len_ = 512;  // learned table rows
  int seed_ = 0;

  bool dirty_ = true;
  bool upload_pending_ = false;      // the heatmap texture needs the new P P^T
  std::string error_;                // why the selected scheme cannot be drawn (e.g. binary with too few bits)
  std::string binary_note_;          // why the binary reference curve is missing
  int heatmap_n_ = 0;                // rows drawn (n capped at kMaxHeatmapN)
  float vmin_ = 0, vmax_ = 1;
  std::unique_ptr<PositionDots> dots_;  // the selected scheme, for exact hover values
  HeatmapWidget heatmap_;
  std::vector<Series> sinus_curves_, sine_only_curves_, neighbour_;
  double curve_y_min_ = 0, curve_y_max_ = 1;
};

}  // namespace posenc::app
