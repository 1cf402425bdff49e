// Toy sentence: the seed texts' three tokens "I like apples" as editable 2-D vectors, and their 3x3
// score matrix q_i . k_j (q = k = x, no projections, as in the seed) with no positional encoding, with
// absolute vectors added, with a hand-set relative bias (0 / +2 / -1), and with RoPE, side by side.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

#include "app/controls.h"
#include "app/heatmap.h"
#include "app/i18n.h"
#include "app/input.h"
#include "app/probe.h"
#include "app/views/views.h"
#include "core/attention/attention.h"
#include "core/encodings/rope.h"

namespace posenc::app {
namespace {

constexpr int kTokens = 3;
constexpr int kPanels = 4;
// The seed's three tokens (token1 "I", token2 "like", token3 "apples"), shown in the interface's language
// (the Chinese catalogue: 我 / 喜欢 / 苹果, three tokens as in the seed; the vectors are the seed's).
constexpr const char* kWords[] = {"I", "like", "apples"};
constexpr const char* kPanelTitles[] = {"no PE", "absolute PE  x + p", "relative bias  b(|j - i|)", "RoPE  R(p θ) x"};
constexpr const char* kPanelProbes[] = {"heatmap.toy.none", "heatmap.toy.absolute", "heatmap.toy.relative", "heatmap.toy.rope"};
constexpr const char* kPanelIds[] = {"none", "absolute", "relative", "rope"};
constexpr double kValueLimit = 10.0;  // editable components and biases lie in [-10, 10]
// Two-valued choices drawn as checkboxes (unchecked = the first name).
constexpr const char* kOrderNames[] = {"forward", "reversed"};
constexpr const char* kShowNames[] = {"scores", "weights"};

// Seed positions are numbered from 1 ("position 1: rotate by theta").
const std::vector<int64_t> kPositions = {1, 2, 3};

class ToyView final : public View {
 public:
  explicit ToyView(ViewText text) : View(std::move(text)) {}

  void numbers(std::vector<DescribedNumber>& out) const override {
    static const char* names[] = {"no PE: score(1, 2)", "absolute PE: score(1, 2)", "relative bias: score(1, 2)",
                                  "RoPE: score(1, 2)"};
    for (int k = 0; k < kPanels; ++k)
      if (scores_[size_t(k)].rows() > 1) out.push_back({names[k], scores_[size_t(k)](0, 1)});
  }

  void params(ParamList& p) override {
    const char* const x_keys[] = {"x1", "x2", "x3"};
    const char* const x_labels[] = {"x(I)", "x(like)", "x(apples)"};
    const char* const x_help[] = {"token vector \"a,b\" of I", "token vector \"a,b\" of like", "token vector \"a,b\" of apples"};
    for (int k = 0; k < kTokens; ++k)
      p.numbers(x_keys[k], words_[size_t(k)], -kValueLimit, kValueLimit, {.label = x_labels[k], .help = x_help[k]});
    const char* const p_keys[] = {"p1", "p2", "p3"};
    for (int k = 0; k < kTokens; ++k)
      p.numbers(p_keys[k], positions_[size_t(k)], -kValueLimit, kValueLimit,
                {.label = p_keys[k], .help = "absolute position vector \"a,b\""});
    p.numbers("bias", bias_, -kValueLimit, kValueLimit,
              {.label = "Relative bias b(0), b(1), b(>=2)", .format = "%.2f", .help = "relative bias for |j-i| = 0, 1, >= 2"});
    p.real("theta", theta_, -std::numbers::pi, std::numbers::pi,
           {.label = "RoPE angle theta per position", .format = "theta = %.4f rad", .help = "RoPE angle per position (rad)"});
    p.choice("order", reversed_, kOrderNames,
             {.label = "reverse: \"apples like I\"", .help = "word order", .widget = ChoiceWidget::Checkbox});
    p.choice(
        "show", show_weights_, kShowNames,
        {.label = "softmax weights instead of scores", .help = "scores or softmax weights", .widget = ChoiceWidget::Checkbox});
  }

  void export_data(std::vector<ExportTable>& tables) const override {
    if (failed() || x_.size() == 0) return;
    // Positions are numbered from 1 like the seed's example (row / column coordinates 1..3).
    for (int k = 0; k < kPanels; ++k)
      tables.push_back(matrix_table(std::string("scores: ") + kPanelIds[k], "query position i", "key position j", "i",
                                    scores_[size_t(k)], 1, 1));
    for (int k = 0; k < kPanels; ++k)
      tables.push_back(matrix_table(std::string("weights: ") + kPanelIds[k], "query position i", "key position j", "i",
                                    weights_[size_t(k)], 1, 1));
  }

 private:
  using Vec2 = std::array<double, 2>;

  void controls(Controls& c) override {
    ImGui::TextWrapped("%s", tr("Word vectors (the seed's example)"));
    c.draw("x1");
    c.draw("x2");
    c.draw("x3");
    c.draw("order");
    ImGui::Separator();
    ImGui::TextWrapped("%s", tr("Absolute position vectors"));
    c.draw("p1");
    c.draw("p2");
    c.draw("p3");
    ImGui::Separator();
    c.draw("bias");
    c.draw("theta");
    ImGui::Separator();
    c.draw("show");
  }
  void recompute() override;
  std::string key_for_field(const std::string& field) const override {
    // The only core inputs are the vectors (x, q, k), the bias table and the RoPE angle.
    if (field == "x" || field == "q" || field == "k") return "x1";
    if (field.rfind("position", 0) == 0) return "bias";
    if (field == "inv_freq" || field == "positions") return "theta";
    return View::key_for_field(field);
  }
  // Which matrices the heatmaps show is a URL choice (show): a change recomputes, then uploads.
  void upload() override {
    for (int k = 0; k < kPanels; ++k) {
      const MatrixF values = (show_weights_ ? weights_[size_t(k)] : scores_[size_t(k)]).cast<float>();
      heatmaps_[size_t(k)].map().set_values(values.data(), kTokens, kTokens);
    }
  }
  void draw_figure(ImVec2 size) override;
  void draw_hover(int panel, int i, int j) const;

  // The seed's example (seeds/000: "I like apples" 2-D vectors, position vectors, relative bias).
  std::array<Vec2, kTokens> words_ = {{{1, 0}, {0, 1}, {1, 1}}};
  std::array<Vec2, kTokens> positions_ = {{{0.1, 0.2}, {0.2, 0.3}, {0.3, 0.4}}};
  std::array<double, 3> bias_ = {0, 2, -1};  // |j - i| = 0, 1, >= 2
  double theta_ = 0.5;                       // RoPE angle per position (radians)
  bool reversed_ = false;                    // "apples like I": the same words at other positions
  bool show_weights_ = false;                // softmax weights instead of scores

  std::array<Matrix, kPanels> scores_, weights_;
  Matrix x_, x_abs_, x_rope_;  // token vectors at positions 1..3 (after reordering), +P, rotated
  float range_ = 1;
  std::array<HeatmapWidget, kPanels> heatmaps_;
};

void ToyView::recompute() {
  x_.resize(0, 0);
  Matrix x(kTokens, 2), p(kTokens, 2);
  for (int i = 0; i < kTokens; ++i) {
    const int word = reversed_ ? kTokens - 1 - i : i;
    x(i, 0) = words_[size_t(word)][0];
    x(i, 1) = words_[size_t(word)][1];
    p(i, 0) = positions_[size_t(i)][0];
    p(i, 1) = positions_[size_t(i)][1];
  }
  x_abs_ = x + p;
  // One pair rotated by position * theta (the seed's R(theta), R(2 theta), ...).
  const RopeFrequencies freqs{{theta_}, 1.0};
  x_rope_ = rope_apply(x, kPositions, freqs, RopeLayout::Interleaved);

  // Raw dot products like the seed (scale 1); the relative bias is a clipped table over j - i = -2..2.
  AttentionSpec plain{NoPosition{}, 1.0, false};
  Matrix table(5, 1);
  table << bias_[2], bias_[1], bias_[0], bias_[1], bias_[2];
  AttentionSpec relative{LearnedBiasPosition{table, 0}, 1.0, false};
  const AttentionResult results[kPanels] = {
      attention(x, x, nullptr, kPositions, kPositions, plain),
      attention(x_abs_, x_abs_, nullptr, kPositions, kPositions, plain),
      attention(x, x, nullptr, kPositions, kPositions, relative),
      attention(x_rope_, x_rope_, nullptr, kPositions, kPositions, plain),
  };
  double range = 0;
  for (int k = 0; k < kPanels; ++k) {
    scores_[size_t(k)] = results[k].logits;
    weights_[size_t(k)] = results[k].weights;
    range = std::max(range, scores_[size_t(k)].cwiseAbs().maxCoeff());
  }
  range_ = float(range > 0 ? range : 1.0);
  x_ = std::move(x);
}

void ToyView::draw_hover(int panel, int i, int j) const {
  const int r = j - i;
  const double content = x_.row(i).dot(x_.row(j));
  begin_readout();
  auto word = [&](int pos) { return tr(kWords[reversed_ ? kTokens - 1 - pos : pos]); };
  ImGui::Text(tr("query i = %d (\"%s\"), key j = %d (\"%s\"), j - i = %d"), i + 1, word(i), j + 1, word(j), r);
  switch (panel) {
    case 0: ImGui::Text("x_i . x_j = %.17g", content); break;
    case 1:
      ImGui::Text("x_i . x_j = %.17g", content);
      ImGui::Text("(x_i + p_i) . (x_j + p_j) = %.17g", scores_[1](i, j));
      break;
    case 2:
      ImGui::Text("x_i . x_j = %.17g", content);
      ImGui::Text("b(|j - i| = %d) = %.17g", std::abs(r), bias_[size_t(std::min(2, std::abs(r)))]);
      ImGui::Text(tr("score = %.17g"), scores_[2](i, j));
      break;
    case 3:
      ImGui::Text("x_i . x_j = %.17g", content);
      ImGui::Text(tr("angle between rotations (j − i) θ = %.17g rad"), r * theta_);
      ImGui::Text("xᵢ^T R((j − i) θ) xⱼ = %.17g", scores_[3](i, j));
      break;
  }
  ImGui::Text(tr("softmax weight a_ij = %.17g"), weights_[size_t(panel)](i, j));
  end_readout();
}

void ToyView::draw_figure(ImVec2 size) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  // Four panels in a row when there is room for readable cells, otherwise a 2 x 2 grid.
  // Stacked (narrow or one figure alone): one panel per row at full width.
  static const char* const kFigures[kPanels] = {"none", "absolute", "relative", "rope"};
  const int columns = stacked() ? 1 : size.x >= 4 * 330.0f ? 4 : 2;
  const int shown = alone() ? 1 : kPanels;
  const int grid_rows = shown / columns;
  const float text_h = alone() ? 0 : 6 * line;
  const float panel_w = std::max(150.0f, (size.x - (columns - 1) * style.ItemSpacing.x) / columns);
  const float heat_h =
      alone() ? std::max(120.0f, size.y - line)
              : std::max(120.0f, std::min(panel_w * 0.8f, (size.y - text_h) / grid_rows - line - style.ItemSpacing.y));
  int drawn = 0;
  const float vmin = show_weights_ ? -1.0f : -range_, vmax = show_weights_ ? 1.0f : range_;
  int hovered_panel = -1;
  HeatmapHover hovered;
  // Stacked: the main figure (RoPE) first.
  static const int kStackedOrder[kPanels] = {3, 0, 1, 2};
  for (int slot = 0; slot < kPanels; ++slot) {
    const int k = stacked() ? kStackedOrder[slot] : slot;
    if (!shows(kFigures[k])) continue;
    if (drawn++ % columns) ImGui::SameLine();
    ImGui::BeginGroup();
    ImGui::TextUnformatted(tr(kPanelTitles[k]));
    const HeatmapAxes axes{"key position j", "query position i", 1, 1};
    const HeatmapHover h =
        heatmaps_[size_t(k)].draw(kPanelProbes[k], ImVec2(panel_w, heat_h), axes, Colormap::Diverging, vmin, vmax);
    probe_plot(kFigures[k], kPanelProbes[k]);
    if (h.active) {
      hovered_panel = k;
      hovered = h;
    }
    // The numbers in the cells; dark text on the light middle of the map, light text on its ends.
    ImVec2 mn, mx;
    if (find_probe(kPanelProbes[k], &mn, &mx)) {
      const Matrix& m = show_weights_ ? weights_[size_t(k)] : scores_[size_t(k)];
      ImDrawList* dl = ImGui::GetWindowDrawList();
      const float cw = (mx.x - mn.x) / kTokens, ch = (mx.y - mn.y) / kTokens;
      for (int i = 0; i < kTokens; ++i) {
        for (int j = 0; j < kTokens; ++j) {
          char buf[32];
          std::snprintf(buf, sizeof buf, "%.3f", m(i, j) == 0 ? 0.0 : m(i, j));  // no "-0.000"
          const double t = std::abs(m(i, j)) / (vmax > 0 ? vmax : 1.0);
          const ImU32 col = t > 0.55 ? IM_COL32(255, 255, 255, 255) : IM_COL32(20, 20, 20, 255);
          const ImVec2 ts = ImGui::CalcTextSize(buf);
          dl->AddText(ImVec2(mn.x + (j + 0.5f) * cw - ts.x * 0.5f, mn.y + (i + 0.5f) * ch - ts.y * 0.5f), col, buf);
        }
      }
    }
    ImGui::EndGroup();
  }
  if (hovered_panel >= 0) draw_hover(hovered_panel, hovered.row, hovered.col);
  if (alone()) return;

  // The sentence and what each panel changes.
  ImGui::Spacing();
  ImGui::Text(tr("Sentence: \"%s %s %s\"  (positions 1, 2, 3)"), tr(kWords[reversed_ ? 2 : 0]), tr(kWords[1]),
              tr(kWords[reversed_ ? 0 : 2]));
  ImGui::TextWrapped("%s", tr("No PE: reversing the sentence only permutes rows and columns; the model cannot tell the orders "
                              "apart. Absolute PE: each position adds its own vector. Relative bias: b depends only on |j - i| "
                              "(neighbours +2, farther -1), the same for every row. RoPE: the score depends on the angle "
                              "(j - i) theta between the rotated vectors, i.e. on the relative position only."));
  ImGui::TextDisabled("%s", tr(show_weights_ ? "Cells: softmax weights per row."
                                             : "Cells: raw scores q_i . k_j (q = k = x, no 1/sqrt(d)), as in the seed."));
}

}  // namespace

std::unique_ptr<View> make_toy_view(ViewText text) { return std::make_unique<ToyView>(std::move(text)); }

}  // namespace posenc::app
