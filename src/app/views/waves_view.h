// PE waves: the sinusoidal positional-encoding matrix P (positions x dims) as a heatmap.
#pragma once

#include "app/heatmap.h"
#include "app/view.h"
#include "core/types.h"

namespace posenc::app {

class WavesView final : public View {
 public:
  const char* id() const override { return "waves"; }
  const char* title() const override { return "PE waves"; }
  const char* caption() const override {
    return "P[p][2k] = sin(p w_k), P[p][2k+1] = cos(p w_k), w_k = base^(-2k/d)";
  }
  bool draw_controls() override;
  void draw_content(ImVec2 size) override;
  void save_state(StateMap& out) const override;
  void load_state(const StateMap& in, std::string& notices) override;

  static constexpr int kMaxN = 4096;
  static constexpr int kMaxD = 1024;

 private:
  void recompute();

  int n_ = 64;
  int d_ = 128;
  double base_ = 10000.0;
  bool dirty_ = true;
  MatrixF table_;
  HeatmapWidget heatmap_;
};

}  // namespace posenc::app
