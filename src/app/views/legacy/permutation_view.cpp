#include "app/views/permutation_view.h"

#include <algorithm>
#include <cmath>

#include "app/controls.h"
#include "app/probe.h"
#include "app/state_params.h"

namespace posenc::app {
namespace {

const char* const kEncodingNames[] = {"none", "sinusoidal", "rope"};
const char* const kEncodingLabels[] = {"none (NoPE)", "sinusoidal (added to x)", "RoPE (rotates q, k)"};

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

// "0 (exactly)" for an exact zero, otherwise the value in scientific notation.
std::string difference_text(double v) {
  if (v == 0.0) return "0 (exactly)";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3e", v);
  return buf;
}

}  // namespace

bool PermutationView::set_sentence(const std::string& text, std::string* notices) {
  const std::vector<std::string> words = split_words(text);
  std::string problem;
  if (words.empty()) problem = "needs at least one word";
  if (int(words.size()) > kMaxWords) problem = "has more than " + std::to_string(kMaxWords) + " words";
  for (const auto& w : words)
    if (int(w.size()) > kMaxWordLength) problem = "has a word longer than " + std::to_string(kMaxWordLength) + " characters";
  if (!problem.empty()) {
    if (notices) *notices += "sentence=\"" + text + "\" " + problem + ": ignored. ";
    return false;
  }
  sentence_ = join(words);
  return true;
}

bool PermutationView::draw_controls() {
  bool changed = false;
  ImGui::TextUnformatted("Sentence (up to 16 words)");
  char buf[kMaxWords * (kMaxWordLength + 1) + 1];
  std::snprintf(buf, sizeof buf, "%s", sentence_.c_str());
  if (ImGui::InputText("##sentence", buf, sizeof buf)) {
    if (set_sentence(buf, nullptr)) changed = true;
  }
  probe_last_item("input.sentence");
  if (ImGui::Button("Shuffle")) {
    shuffle_ = shuffle_ >= 1000000 ? 1 : shuffle_ + 1;
    changed = true;
  }
  probe_last_item("button.shuffle");
  ImGui::SameLine();
  if (ImGui::Button("Original order")) {
    changed |= shuffle_ != 0;
    shuffle_ = 0;
  }
  ImGui::Text("shuffle seed = %d", shuffle_);
  ImGui::TextUnformatted("Positional encoding");
  for (int e = 0; e < 3; ++e) changed |= ImGui::RadioButton(kEncodingLabels[e], &encoding_, e);
  ImGui::TextUnformatted("Width d (even)");
  int d = d_;
  if (ImGui::SliderInt("##d", &d, 2, kMaxD, "d = %d", ImGuiSliderFlags_AlwaysClamp)) {
    d = std::max(2, d - d % 2);
    changed |= d != d_;
    d_ = d;
  }
  probe_last_item("slider.d");
  ImGui::TextUnformatted("Embedding / weight seed");
  if (ImGui::InputInt("##seed", &seed_)) {
    seed_ = std::clamp(seed_, 0, 1000000);
    changed = true;
  }
  error_text(error_);
  if (changed) dirty_ = true;
  return changed;
}

void PermutationView::recompute() {
  dirty_ = false;
  error_.clear();
  words_ = split_words(sentence_);
  try {
    const Matrix x = word_embeddings(words_, d_, uint64_t(seed_));
    const std::vector<int> perm = seeded_permutation(int(words_.size()), uint64_t(shuffle_));
    result_ = permutation_test(x, perm, static_cast<PermutationEncoding>(encoding_), uint64_t(seed_) + 7919);
  } catch (const InvalidArgument& e) {
    error_ = "Cannot compute (" + e.field() + "): " + e.what();
    result_ = {};
    return;
  }
  shuffled_words_.clear();
  for (int p : result_.perm) shuffled_words_.push_back(words_[p]);
  pooled_.resize(2, result_.pooled.size());
  pooled_.row(0) = result_.pooled.transpose();
  pooled_.row(1) = result_.pooled_shuffled.transpose();
  tiles_[0].values = &result_.output;
  tiles_[1].values = &result_.output_shuffled;
  tiles_[2].values = &result_.row_difference;
  tiles_[3].values = &pooled_;
  // One colour scale for all four, so a difference is seen against the size of the outputs.
  double mx = std::max(result_.output.cwiseAbs().maxCoeff(), result_.output_shuffled.cwiseAbs().maxCoeff());
  vmax_ = mx > 0 ? float(mx) : 1.0f;
  upload_pending_ = true;
}

void PermutationView::prepare() {
  if (dirty_) recompute();
}

void PermutationView::upload_heatmaps() {
  upload_pending_ = false;
  for (Tile& t : tiles_) {
    const MatrixF f = t.values->cast<float>();
    t.heatmap.map().set_values(f.data(), int(f.rows()), int(f.cols()));
  }
}

void PermutationView::export_data(std::vector<ExportTable>& tables) const {
  if (result_.perm.empty()) return;
  tables.push_back(matrix_table("output", "row r (original order)", "dimension", "r", result_.output));
  tables.push_back(matrix_table("output_shuffled", "row r (shuffled order)", "dimension", "r", result_.output_shuffled));
  tables.push_back(matrix_table("row_difference", "row r: O'[r] - O[perm[r]]", "dimension", "r", result_.row_difference));
  tables.push_back(matrix_table("pooled", "0 = mean of O, 1 = mean of O'", "dimension", "row", pooled_));
  ExportTable perm{"perm", "shuffled row r", "original row perm[r]", {"r", "perm[r]"}, {}};
  for (size_t r = 0; r < result_.perm.size(); ++r) perm.rows.push_back({double(r), double(result_.perm[r])});
  tables.push_back(std::move(perm));
}

void PermutationView::draw_tile(Tile& tile, ImVec2 size, float vmax, const std::vector<std::string>* row_labels) {
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  ImGui::TextUnformatted(tile.title);
  // Word labels in a column left of the heatmap's own axis.
  float label_w = 0;
  if (row_labels)
    for (const auto& w : *row_labels) label_w = std::max(label_w, ImGui::CalcTextSize(w.c_str()).x);
  if (label_w > 0) label_w += 8;
  ImGui::SetCursorScreenPos(ImVec2(at.x + label_w, at.y + line));
  const HeatmapAxes axes{"dimension", "row", 0, 0};
  const HeatmapHover h =
      tile.heatmap.draw(tile.probe, ImVec2(size.x - label_w, size.y - line), axes, Colormap::Diverging, -vmax, vmax);
  ImVec2 img_min, img_max;
  if (row_labels && find_probe(tile.probe, &img_min, &img_max)) {
    const int rows = int(row_labels->size());
    for (int r = 0; r < rows; ++r) {
      const float y = img_min.y + (r + 0.5f) * (img_max.y - img_min.y) / rows - ImGui::GetTextLineHeight() * 0.5f;
      ImGui::GetWindowDrawList()->AddText(ImVec2(at.x, y), ImGui::GetColorU32(ImGuiCol_Text), (*row_labels)[r].c_str());
    }
  }
  if (h.active) {
    const Matrix& m = *tile.values;
    ImGui::BeginTooltip();
    if (row_labels) ImGui::Text("row %d (\"%s\"), dimension %d", h.row, (*row_labels)[h.row].c_str(), h.col);
    else ImGui::Text("%s, dimension %d", h.row == 0 ? "mean of O" : "mean of O'", h.col);
    ImGui::Text("value = %.17g", m(h.row, h.col));
    if (&m == &result_.row_difference) {
      ImGui::Text("O'[%d] = %.17g", h.row, result_.output_shuffled(h.row, h.col));
      ImGui::Text("O[perm[%d] = %d] = %.17g", h.row, result_.perm[h.row], result_.output(result_.perm[h.row], h.col));
    }
    ImGui::EndTooltip();
  }
}

void PermutationView::draw_content(ImVec2 size) {
  prepare();
  if (upload_pending_ && !result_.perm.empty()) upload_heatmaps();
  if (result_.perm.empty()) {
    ImGui::TextWrapped("%s", error_.empty() ? "Nothing to show." : error_.c_str());
    return;
  }
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 start = ImGui::GetCursorScreenPos();
  ImGui::Text("original: %s", join(words_).c_str());
  std::string perm_text;
  for (int p : result_.perm) perm_text += (perm_text.empty() ? "" : ",") + std::to_string(p);
  ImGui::Text("shuffled: %s    (perm = %s)", join(shuffled_words_).c_str(), perm_text.c_str());
  const bool equivariant = encoding_ == int(PermutationEncoding::None);
  const ImVec4 good(0.4f, 0.85f, 0.5f, 1.0f), differ(1.0f, 0.6f, 0.35f, 1.0f);
  ImGui::TextColored(equivariant ? good : differ, "max |O'[r] - O[perm[r]]| = %s   max |mean(O') - mean(O)| = %s",
                     difference_text(result_.max_row_difference).c_str(),
                     difference_text(result_.max_pooled_difference).c_str());
  ImGui::TextDisabled(equivariant ? "No PE: the shuffled outputs are the same rows, permuted (up to float rounding); "
                                    "pooling cannot tell the orders apart."
                                  : "With PE the token at a new position gets a different output: order is visible.");
  const float used = ImGui::GetCursorScreenPos().y - start.y;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float w = size.x * 0.5f, h = (size.y - used) * 0.5f;
  const std::vector<std::string>* labels[4] = {&words_, &shuffled_words_, &shuffled_words_, nullptr};
  for (int t = 0; t < 4; ++t) {
    ImGui::SetCursorScreenPos(ImVec2(origin.x + (t % 2) * w, origin.y + (t / 2) * h));
    // The pooled tile has two rows: keep its cells from turning into tall bars.
    const ImVec2 tile_size(w - 8, t == 3 ? std::min(h - 4, 6 * line + 60) : h - 4);
    draw_tile(tiles_[t], tile_size, vmax_, labels[t]);
  }
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + 2 * h));
  ImGui::Dummy(ImVec2(size.x, 0));
}

void PermutationView::save_state(StateMap& out) const {
  out["sentence"] = sentence_;
  out["shuffle"] = std::to_string(shuffle_);
  out["pe"] = kEncodingNames[encoding_];
  out["d"] = std::to_string(d_);
  out["seed"] = std::to_string(seed_);
}

void PermutationView::load_state(const StateMap& in, std::string& notices) {
  if (auto it = in.find("sentence"); it != in.end()) set_sentence(it->second, &notices);
  read_int(in, "shuffle", 0, 1000000, shuffle_, notices);
  read_choice(in, "pe", kEncodingNames, 3, encoding_, notices);
  read_int(in, "d", 2, kMaxD, d_, notices);
  if (d_ % 2) {
    notices += "d must be even: using " + std::to_string(d_ - 1) + ". ";
    d_ -= 1;
  }
  read_int(in, "seed", 0, 1000000, seed_, notices);
  dirty_ = true;
}

}  // namespace posenc::app
