// Permutation: shuffle the tokens of a short sentence. Without a positional encoding attention is
// permutation-equivariant (output rows are the same rows permuted; a mean-pooled output is identical);
// with sinusoidal PE or RoPE the outputs differ.
#pragma once

#include <string>
#include <vector>

#include "app/heatmap.h"
#include "app/view.h"
#include "core/permutation.h"

namespace posenc::app {

class PermutationView final : public View {
 public:
  const char* id() const override { return "permutation"; }
  const char* title() const override { return "Permutation"; }
  const char* caption() const override {
    return "O = softmax(Q K^T / sqrt(d)) V;  without PE: Attn(P X) = P Attn(X) and mean(Attn(P X)) = mean(Attn(X))";
  }
  bool draw_controls() override;
  void draw_content(ImVec2 size) override;
  void save_state(StateMap& out) const override;
  void load_state(const StateMap& in, std::string& notices) override;
  void prepare() override;
  std::string error() const override { return error_; }
  void export_data(std::vector<ExportTable>& tables) const override;

  static constexpr int kMaxWords = 16;
  static constexpr int kMaxWordLength = 24;
  static constexpr int kMaxD = 64;

 private:
  struct Tile {
    const char* title;
    const char* probe;
    const Matrix* values;
    bool shuffled_rows;  // rows labelled by the shuffled sentence
    HeatmapWidget heatmap;
  };
  void recompute();
  void upload_heatmaps();
  bool set_sentence(const std::string& text, std::string* notices);
  void draw_tile(Tile& tile, ImVec2 size, float vmax, const std::vector<std::string>* row_labels);

  std::string sentence_ = "the cat sat on the mat";
  int shuffle_ = 1;
  int encoding_ = static_cast<int>(PermutationEncoding::None);
  int d_ = 16;
  int seed_ = 1;

  bool dirty_ = true;
  bool upload_pending_ = false;
  std::string error_;
  std::vector<std::string> words_, shuffled_words_;
  PermutationResult result_;
  Matrix pooled_;  // 2 x d: mean of O, mean of O'
  float vmax_ = 1;
  Tile tiles_[4] = {
      {"O = Attn(X): original order", "heatmap.perm.output", nullptr, false, {}},
      {"O' = Attn(shuffled X)", "heatmap.perm.shuffled", nullptr, true, {}},
      {"O'[r] - O[perm[r]] (same colour scale)", "heatmap.perm.difference", nullptr, true, {}},
      {"mean over rows: O (row 0), O' (row 1)", "heatmap.perm.pooled", nullptr, false, {}},
  };
};

}  // namespace posenc::app
