#include "app/views/toy_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "app/probe.h"
#include "app/state_params.h"
#include "core/attention.h"
#include "core/rope.h"

namespace posenc::app {
namespace {

constexpr const char* kWords[] = {"I", "like", "apples"};
constexpr const char* kPanelTitles[] = {"no PE", "absolute PE  x + p", "relative bias  b(|j - i|)", "RoPE  R(p theta) x"};
constexpr const char* kPanelProbes[] = {"heatmap.toy.none", "heatmap.toy.absolute", "heatmap.toy.relative", "heatmap.toy.rope"};
constexpr double kValueLimit = 10.0;  // editable components and biases lie in [-10, 10]

// Seed positions are numbered from 1 ("position 1: rotate by theta").
const std::vector<int64_t> kPositions = {1, 2, 3};

// "a,b[,c]" -> values, all finite and within [-limit, limit]; otherwise a notice and no change.
template <size_t N>
void read_list(const StateMap& in, const std::string& key, std::array<double, N>& values, std::string& notices) {
  auto it = in.find(key);
  if (it == in.end()) return;
  std::array<double, N> parsed{};
  const std::string& s = it->second;
  size_t start = 0;
  for (size_t k = 0; k < N; ++k) {
    const size_t comma = s.find(',', start);
    const bool last = k + 1 == N;
    if (last != (comma == std::string::npos)) {
      notices += key + "=\"" + s + "\" needs " + std::to_string(N) + " comma-separated numbers: ignored. ";
      return;
    }
    const std::string part = s.substr(start, last ? std::string::npos : comma - start);
    char* end = nullptr;
    const double v = part.empty() ? NAN : std::strtod(part.c_str(), &end);
    if (part.empty() || end != part.c_str() + part.size() || !std::isfinite(v) || std::abs(v) > kValueLimit) {
      notices += key + "=\"" + s + "\" needs numbers in [-10, 10]: ignored. ";
      return;
    }
    parsed[k] = v;
    start = comma + 1;
  }
  values = parsed;
}

template <size_t N>
std::string list_text(const std::array<double, N>& values) {
  std::string out;
  for (size_t k = 0; k < N; ++k) out += (k ? "," : "") + format_number(values[k]);
  return out;
}

bool drag_vec2(const char* label, const char* probe, std::array<double, 2>& v) {
  const double lo = -kValueLimit, hi = kValueLimit;
  ImGui::TextUnformatted(label);
  ImGui::PushID(probe);
  const bool changed = ImGui::DragScalarN("##v", ImGuiDataType_Double, v.data(), 2, 0.01f, &lo, &hi, "%.3f",
                                          ImGuiSliderFlags_AlwaysClamp);
  ImGui::PopID();
  probe_last_item(probe);
  return changed;
}

}  // namespace

bool ToyView::draw_controls() {
  bool changed = false;
  ImGui::TextWrapped("Word vectors (the seed's example)");
  changed |= drag_vec2("x(I)", "drag.x1", words_[0]);
  changed |= drag_vec2("x(like)", "drag.x2", words_[1]);
  changed |= drag_vec2("x(apples)", "drag.x3", words_[2]);
  changed |= ImGui::Checkbox("reverse: \"apples like I\"", &reversed_);
  probe_last_item("check.reversed");
  ImGui::Separator();
  ImGui::TextWrapped("Absolute position vectors");
  changed |= drag_vec2("p1", "drag.p1", positions_[0]);
  changed |= drag_vec2("p2", "drag.p2", positions_[1]);
  changed |= drag_vec2("p3", "drag.p3", positions_[2]);
  ImGui::Separator();
  ImGui::TextWrapped("Relative bias b(0), b(1), b(>=2)");
  {
    const double lo = -kValueLimit, hi = kValueLimit;
    changed |= ImGui::DragScalarN("##bias", ImGuiDataType_Double, bias_.data(), 3, 0.01f, &lo, &hi, "%.2f",
                                  ImGuiSliderFlags_AlwaysClamp);
    probe_last_item("drag.bias");
  }
  ImGui::TextUnformatted("RoPE angle theta per position");
  {
    const double lo = -3.14159265358979, hi = 3.14159265358979;
    changed |= ImGui::SliderScalar("##theta", ImGuiDataType_Double, &theta_, &lo, &hi, "theta = %.4f rad",
                                   ImGuiSliderFlags_AlwaysClamp);
    probe_last_item("slider.theta");
  }
  ImGui::Separator();
  changed |= ImGui::Checkbox("softmax weights instead of scores", &show_weights_);
  probe_last_item("check.weights");
  if (changed) dirty_ = true;
  return changed;
}

void ToyView::recompute() {
  dirty_ = false;
  x_.resize(kTokens, 2);
  Matrix p(kTokens, 2);
  for (int i = 0; i < kTokens; ++i) {
    const int word = reversed_ ? kTokens - 1 - i : i;
    x_(i, 0) = words_[size_t(word)][0];
    x_(i, 1) = words_[size_t(word)][1];
    p(i, 0) = positions_[size_t(i)][0];
    p(i, 1) = positions_[size_t(i)][1];
  }
  x_abs_ = x_ + p;
  // One pair rotated by position * theta (the seed's R(theta), R(2 theta), ...).
  const RopeFrequencies freqs{{theta_}, 1.0};
  x_rope_ = rope_apply(x_, kPositions, freqs, RopeLayout::Interleaved);

  // Raw dot products like the seed (scale 1); the relative bias is a clipped table over j - i = -2..2.
  AttentionSpec plain{NoPosition{}, 1.0, false};
  Matrix table(5, 1);
  table << bias_[2], bias_[1], bias_[0], bias_[1], bias_[2];
  AttentionSpec relative{LearnedBiasPosition{table, 0}, 1.0, false};
  const AttentionResult results[kPanels] = {
      attention(x_, x_, nullptr, kPositions, kPositions, plain),
      attention(x_abs_, x_abs_, nullptr, kPositions, kPositions, plain),
      attention(x_, x_, nullptr, kPositions, kPositions, relative),
      attention(x_rope_, x_rope_, nullptr, kPositions, kPositions, plain),
  };
  double range = 0;
  for (int k = 0; k < kPanels; ++k) {
    scores_[size_t(k)] = results[k].logits;
    weights_[size_t(k)] = results[k].weights;
    range = std::max(range, scores_[size_t(k)].cwiseAbs().maxCoeff());
  }
  range_ = float(range > 0 ? range : 1.0);
  upload_pending_ = true;
}

void ToyView::prepare() {
  if (dirty_) recompute();
}

void ToyView::export_data(std::vector<ExportTable>& tables) const {
  static constexpr const char* kPanelIds[] = {"none", "absolute", "relative", "rope"};
  // Positions are numbered from 1 like the seed's example (row / column coordinates 1..3).
  for (int k = 0; k < kPanels; ++k)
    tables.push_back(matrix_table(std::string("scores: ") + kPanelIds[k], "query position i", "key position j", "i",
                                  scores_[size_t(k)], 1, 1));
  for (int k = 0; k < kPanels; ++k)
    tables.push_back(matrix_table(std::string("weights: ") + kPanelIds[k], "query position i", "key position j", "i",
                                  weights_[size_t(k)], 1, 1));
}

void ToyView::upload_heatmaps() {
  upload_pending_ = false;
  for (int k = 0; k < kPanels; ++k) {
    const MatrixF values = (show_weights_ ? weights_[size_t(k)] : scores_[size_t(k)]).cast<float>();
    heatmaps_[size_t(k)].map().set_values(values.data(), kTokens, kTokens);
  }
}

void ToyView::draw_hover(int panel, int i, int j) const {
  const int r = j - i;
  const double content = x_.row(i).dot(x_.row(j));
  ImGui::BeginTooltip();
  auto word = [&](int pos) { return kWords[reversed_ ? kTokens - 1 - pos : pos]; };
  ImGui::Text("query i = %d (\"%s\"), key j = %d (\"%s\"), j - i = %d", i + 1, word(i), j + 1, word(j), r);
  switch (panel) {
    case 0: ImGui::Text("x_i . x_j = %.17g", content); break;
    case 1:
      ImGui::Text("x_i . x_j = %.17g", content);
      ImGui::Text("(x_i + p_i) . (x_j + p_j) = %.17g", scores_[1](i, j));
      break;
    case 2:
      ImGui::Text("x_i . x_j = %.17g", content);
      ImGui::Text("b(|j - i| = %d) = %.17g", std::abs(r), bias_[size_t(std::min(2, std::abs(r)))]);
      ImGui::Text("score = %.17g", scores_[2](i, j));
      break;
    case 3:
      ImGui::Text("x_i . x_j = %.17g", content);
      ImGui::Text("angle between rotations (j - i) theta = %.17g rad", r * theta_);
      ImGui::Text("x_i^T R((j - i) theta) x_j = %.17g", scores_[3](i, j));
      break;
  }
  ImGui::Text("softmax weight a_ij = %.17g", weights_[size_t(panel)](i, j));
  ImGui::EndTooltip();
}

void ToyView::draw_content(ImVec2 size) {
  prepare();
  if (upload_pending_) upload_heatmaps();
  const ImGuiStyle& style = ImGui::GetStyle();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  // Four panels in a row when there is room for readable cells, otherwise a 2 x 2 grid.
  const int columns = size.x >= 4 * 330.0f ? 4 : 2;
  const int grid_rows = kPanels / columns;
  const float text_h = 6 * line;
  const float panel_w = std::max(150.0f, (size.x - (columns - 1) * style.ItemSpacing.x) / columns);
  const float heat_h = std::max(120.0f, std::min(panel_w * 0.8f, (size.y - text_h) / grid_rows - line - style.ItemSpacing.y));
  const float vmin = show_weights_ ? -1.0f : -range_, vmax = show_weights_ ? 1.0f : range_;
  int hovered_panel = -1;
  HeatmapHover hovered;
  for (int k = 0; k < kPanels; ++k) {
    if (k % columns) ImGui::SameLine();
    ImGui::BeginGroup();
    ImGui::TextUnformatted(kPanelTitles[k]);
    const HeatmapAxes axes{"key position j", "query position i", 1, 1};
    const HeatmapHover h = heatmaps_[size_t(k)].draw(kPanelProbes[k], ImVec2(panel_w, heat_h), axes,
                                                     Colormap::Diverging, vmin, vmax);
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

  // The sentence and what each panel changes.
  ImGui::Spacing();
  ImGui::Text("Sentence: \"%s %s %s\"  (positions 1, 2, 3)", kWords[reversed_ ? 2 : 0], kWords[1], kWords[reversed_ ? 0 : 2]);
  ImGui::TextWrapped(
      "No PE: reversing the sentence only permutes rows and columns; the model cannot tell the orders apart. "
      "Absolute PE: each position adds its own vector. Relative bias: b depends only on |j - i| (neighbours +2, "
      "farther -1), the same for every row. RoPE: the score depends on the angle (j - i) theta between the "
      "rotated vectors, i.e. on the relative position only.");
  ImGui::TextDisabled("%s", show_weights_ ? "Cells: softmax weights per row." : "Cells: raw scores q_i . k_j (q = k = x, no 1/sqrt(d)), as in the seed.");
}

void ToyView::save_state(StateMap& out) const {
  out["x1"] = list_text(words_[0]);
  out["x2"] = list_text(words_[1]);
  out["x3"] = list_text(words_[2]);
  out["p1"] = list_text(positions_[0]);
  out["p2"] = list_text(positions_[1]);
  out["p3"] = list_text(positions_[2]);
  out["bias"] = list_text(bias_);
  out["theta"] = format_number(theta_);
  out["order"] = reversed_ ? "reversed" : "forward";
  out["show"] = show_weights_ ? "weights" : "scores";
}

void ToyView::load_state(const StateMap& in, std::string& notices) {
  read_list(in, "x1", words_[0], notices);
  read_list(in, "x2", words_[1], notices);
  read_list(in, "x3", words_[2], notices);
  read_list(in, "p1", positions_[0], notices);
  read_list(in, "p2", positions_[1], notices);
  read_list(in, "p3", positions_[2], notices);
  read_list(in, "bias", bias_, notices);
  read_double(in, "theta", -3.14159265358979, 3.14159265358979, theta_, notices);
  if (auto it = in.find("order"); it != in.end()) {
    if (it->second == "forward" || it->second == "reversed")
      reversed_ = it->second == "reversed";
    else
      notices += "order=\"" + it->second + "\" is not forward or reversed: ignored. ";
  }
  if (auto it = in.find("show"); it != in.end()) {
    if (it->second == "scores" || it->second == "weights")
      show_weights_ = it->second == "weights";
    else
      notices += "show=\"" + it->second + "\" is not scores or weights: ignored. ";
  }
  dirty_ = true;
}

}  // namespace posenc::app
