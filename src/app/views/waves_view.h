// PE waves: an absolute positional encoding P (positions x dims) as curves of selected dimensions
// over position and as a heatmap of the whole matrix.
#pragma once

#include <string>
#include <vector>

#include "app/heatmap.h"
#include "app/view.h"
#include "core/absolute.h"
#include "core/types.h"

namespace posenc::app {

class WavesView final : public View {
 public:
  const char* id() const override { return "waves"; }
  const char* title() const override { return "PE waves"; }
  const char* caption() const override;
  bool draw_controls() override;
  void draw_content(ImVec2 size) override;
  void save_state(StateMap& out) const override;
  void load_state(const StateMap& in, std::string& notices) override;
  void prepare() override;
  std::string error() const override { return error_; }
  void export_data(std::vector<ExportTable>& tables) const override;

  static constexpr int kMaxN = 4096;
  static constexpr int kMaxD = 1024;
  static constexpr int kMaxCurves = 6;

 private:
  void recompute();
  int defined_rows() const;             // rows of P that exist (learned: none past max_len)
  double value_at(int p, int i) const;  // exact (double) entry of P for the hover readout

  AbsoluteScheme scheme_ = AbsoluteScheme::Sinusoidal;
  FrequencySchedule schedule_ = FrequencySchedule::Geometric;
  int n_ = 64;
  int d_ = 128;
  double base_ = 10000.0;
  int learned_max_len_ = 512;
  std::vector<int> dims_{0, 1, 8, 32};  // dimensions drawn as curves
  char dims_text_[64] = "0,1,8,32";

  bool dirty_ = true;
  bool upload_pending_ = false;  // table_ changed since the heatmap texture was filled
  std::string error_;  // why the current parameters cannot be drawn (e.g. binary needs n <= 2^d)
  Matrix table_;       // double precision, for curves and hover
  float vmin_ = -1, vmax_ = 1;
  Colormap cmap_ = Colormap::Viridis;
  HeatmapWidget heatmap_;
};

}  // namespace posenc::app
