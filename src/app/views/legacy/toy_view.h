// Toy sentence: the seed texts' three tokens "I like apples" as editable 2-D vectors, and their 3x3
// score matrix q_i . k_j (q = k = x, no projections, as in the seed) with no positional encoding, with
// absolute vectors added, with a hand-set relative bias (0 / +2 / -1), and with RoPE, side by side.
#pragma once

#include <array>
#include <string>

#include "app/heatmap.h"
#include "app/view.h"
#include "core/types.h"

namespace posenc::app {

class ToyView final : public View {
 public:
  const char* id() const override { return "toy"; }
  const char* title() const override { return "Toy sentence"; }
  const char* caption() const override {
    return "score(i, j) = x_i . x_j  |  (x_i + p_i) . (x_j + p_j)  |  x_i . x_j + b(|j - i|)  |  "
           "(R(i theta) x_i) . (R(j theta) x_j)";
  }
  bool draw_controls() override;
  void draw_content(ImVec2 size) override;
  void save_state(StateMap& out) const override;
  void load_state(const StateMap& in, std::string& notices) override;
  void prepare() override;
  void export_data(std::vector<ExportTable>& tables) const override;

  static constexpr int kTokens = 3;
  static constexpr int kPanels = 4;

 private:
  void recompute();
  void upload_heatmaps();
  void draw_hover(int panel, int i, int j) const;

  using Vec2 = std::array<double, 2>;
  // The seed's example (seeds/000: "I like apples" 2-D vectors, position vectors, relative bias).
  std::array<Vec2, kTokens> words_ = {{{1, 0}, {0, 1}, {1, 1}}};
  std::array<Vec2, kTokens> positions_ = {{{0.1, 0.2}, {0.2, 0.3}, {0.3, 0.4}}};
  std::array<double, 3> bias_ = {0, 2, -1};  // |j - i| = 0, 1, >= 2
  double theta_ = 0.5;                        // RoPE angle per position (radians)
  bool reversed_ = false;                     // "apples like I": the same words at other positions
  bool show_weights_ = false;                 // softmax weights instead of scores

  bool dirty_ = true;
  bool upload_pending_ = false;
  std::array<Matrix, kPanels> scores_, weights_;
  Matrix x_, x_abs_, x_rope_;  // token vectors at positions 1..3 (after reordering), +P, rotated
  float range_ = 1;
  std::array<HeatmapWidget, kPanels> heatmaps_;
};

}  // namespace posenc::app
