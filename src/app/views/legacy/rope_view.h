// RoPE: one pair's rotation animated over position, RoFormer's long-range decay bound of q.k versus
// relative distance, and the context-extension methods beyond the trained length (per-pair frequency
// ratio; rotation angle at the target length vs. the angle seen in training).
#pragma once

#include <string>
#include <vector>

#include "app/view.h"
#include "core/rope.h"
#include "core/rope_analysis.h"

namespace posenc::app {

class RopeView final : public View {
 public:
  const char* id() const override { return "rope"; }
  const char* title() const override { return "RoPE"; }
  const char* caption() const override {
    return "pair k of q rotated by p w_k: q_m . k_n = Re[sum_k q_k conj(k_k) e^{i(m-n)w_k}];  w'_k = scaled "
           "frequency, bound (1/(d/2)) sum_j |S_j|";
  }
  bool draw_controls() override;
  void draw_content(ImVec2 size) override;
  void save_state(StateMap& out) const override;
  void load_state(const StateMap& in, std::string& notices) override;
  void prepare() override;
  std::string error() const override { return error_; }
  void export_data(std::vector<ExportTable>& tables) const override;

  static constexpr int kMaxDim = 1024;
  static constexpr int kMaxLength = 1 << 22;  // target / trained lengths accepted
  static constexpr double kMaxFactor = 64.0;

 private:
  RopeScaling scaling_for(RopeScalingType type) const;
  void recompute();
  void draw_rotation(ImVec2 size);
  void pair_tooltip(double x) const;

  int dim_ = 128;
  double base_ = 10000.0;
  int scaling_ = static_cast<int>(RopeScalingType::Yarn);
  double factor_ = 4.0;
  int orig_ = 4096;
  int target_ = 16384;
  int pair_ = 48;
  int pos_ = 0;
  bool play_ = true;
  bool compare_ = true;
  int decay_max_ = 512;

  bool dirty_ = true;
  std::string error_;
  double anim_pos_ = 0;  // animated position (fractional between frames)
  RopeExtensionAnalysis analysis_;
  std::vector<double> ratio_by_type_[6];  // per scaling type, per pair (empty when it cannot be computed)
  std::vector<double> decay_x_, decay_plain_, decay_scaled_;
};

}  // namespace posenc::app
