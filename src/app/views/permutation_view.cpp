// Permutation: shuffle the tokens of a short sentence. Without a positional encoding attention is
// permutation-equivariant (output rows are the same rows permuted; a mean-pooled output is identical);
// with sinusoidal PE or RoPE the outputs differ. Tokens are split as a reader of Chinese counts them (one
// per CJK character, Latin words between spaces: core/unicode_text.h), so the seeds' 我不爱你 is four.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/controls.h"
#include "app/heatmap.h"
#include "app/i18n.h"
#include "app/input.h"
#include "app/probe.h"
#include "app/text_hook.h"
#include "app/views/views.h"
#include "core/analysis/permutation.h"
#include "core/unicode_text.h"

namespace posenc::app {
namespace {

constexpr int kMaxWords = 16;       // tokens
constexpr int kMaxWordLength = 24;  // characters (code points) of one token
constexpr int kMaxD = 64;
constexpr int kMaxSeed = 1000000;  // shuffle and embedding seeds

// What the radio buttons show, in PermutationEncoding order (the URL names are names_of<>()).
constexpr const char* kEncodingLabels[] = {"none (NoPE)", "sinusoidal (added to x)", "RoPE (rotates q, k)"};

// The pooled tile's two rows.
const std::vector<std::string> kPooledRows = {"mean O", "mean O'"};

// Example sentences and the shuffle seed that gives the shuffle of the seed texts (seeded_permutation;
// tests/unit/permutation_test.cpp checks each): 我不爱你 / 不我爱你 ("I don't love you" and its shuffle:
// without position information attention cannot tell them apart), 猫坐在垫子上 / 垫子坐在猫上 (the cat on the
// mat, the mat on the cat), and the toy view's I like apples / apples like I.
struct Example {
  const char* sentence;
  int shuffle;
  const char* shuffled;
};
constexpr Example kExamples[] = {
    {"我不爱你", 4, "不我爱你"},
    {"猫坐在垫子上", 259, "垫子坐在猫上"},
    {"I like apples", 2, "apples like I"},
    {"the cat sat on the mat", 1, ""},
};

// Tokens joined for reading: CJK characters side by side (as written), other tokens with a space.
std::string join(const std::vector<std::string>& words) {
  std::string out;
  bool last_cjk = false;
  for (const auto& w : words) {
    const std::vector<char32_t> cps = utf8_code_points(w);
    const bool cjk = cps.size() == 1 && is_cjk(cps[0]);
    if (!out.empty() && !(cjk && last_cjk)) out += ' ';
    out += w;
    last_cjk = cjk;
  }
  return out;
}

// "0 (exactly)" for an exact zero, otherwise the value in scientific notation.
std::string difference_text(double v) {
  if (v == 0.0) return tr("0 (exactly)");
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3e", v);
  return buf;
}

class PermutationView final : public View {
 public:
  explicit PermutationView(ViewText text) : View(std::move(text)) {}

  void numbers(std::vector<DescribedNumber>& out) const override {
    out.push_back({"max |O'[r] - O[perm r]|", result_.max_row_difference});
    out.push_back({"max |mean(O') - mean(O)|", result_.max_pooled_difference});
    out.push_back({"tokens", double(words_.size())});
  }

  void params(ParamList& p) override {
    p.text(
        "sentence", [this](const std::string& s) { return parse_sentence(s); }, [this] { return sentence_; },
        {.label = "Sentence (up to 16 tokens)",
         .help = "1..16 tokens of at most 24 characters: words separated by spaces, each CJK character a token"});
    p.integer("shuffle", shuffle_, 0, kMaxSeed,
              {.label = "Shuffle seed", .help = "seed of the permutation (0 = original order)"});
    p.choice("pe", encoding_, names_of<PermutationEncoding>(),
             {.label = "Positional encoding", .widget = ChoiceWidget::Radio, .labels = kEncodingLabels});
    p.integer("d", d_, 2, kMaxD, {.label = "Width d (even)", .format = "d = %d", .even = true});
    p.integer("seed", seed_, 0, kMaxSeed, {.label = "Embedding / weight seed"});
  }

  void export_data(std::vector<ExportTable>& tables) const override;
  void export_lists(std::vector<ExportList>& lists) const override {
    if (failed() || result_.perm.empty()) return;
    lists.push_back({"tokens", words_});
    lists.push_back({"tokens_shuffled", shuffled_words_});
  }

 private:
  struct Tile {
    const char* title;
    const char* probe;
    const Matrix* values;
    bool shuffled_rows;  // rows labelled by the shuffled sentence
    HeatmapWidget heatmap;
  };

  void controls(Controls& c) override;
  void recompute() override;
  std::string key_for_field(const std::string& field) const override {
    return renamed_key(field, {{"dim", "d"}, {"x", "sentence"}, {"n", "sentence"}, {"perm", "shuffle"}});
  }
  void upload() override {
    for (Tile& t : tiles_) {
      const MatrixF f = t.values->cast<float>();
      t.heatmap.map().set_values(f.data(), int(f.rows()), int(f.cols()));
    }
  }
  void draw_figure(ImVec2 size) override;
  // `title` above the map (nullptr: none, the figure alone says what it is).
  void draw_tile(Tile& tile, ImVec2 size, float vmax, const std::vector<std::string>* row_labels, const char* title);
  // O and O' side by side, one colour scale, rows labelled by their tokens: without PE the same rows in
  // another order, with PE other rows. plot.outputs covers both maps.
  void draw_outputs(ImVec2 size, const char* const titles[2]);

  // 1..kMaxWords tokens of at most kMaxWordLength characters; stored normalised (runs of whitespace as one
  // space, CJK characters as written).
  std::string parse_sentence(const std::string& text) {
    const std::vector<std::string> words = split_tokens(text);
    std::string problem;
    if (words.empty()) problem = "needs at least one token";
    if (int(words.size()) > kMaxWords) problem = "has more than " + std::to_string(kMaxWords) + " tokens";
    for (const auto& w : words)
      if (int(utf8_length(w)) > kMaxWordLength)
        problem = "has a token longer than " + std::to_string(kMaxWordLength) + " characters";
    if (!problem.empty()) return problem;
    sentence_ = join(words);
    return {};
  }

  std::string sentence_ = "the cat sat on the mat";
  int shuffle_ = 1;
  PermutationEncoding encoding_ = PermutationEncoding::None;
  int d_ = 16;
  int seed_ = 1;

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

void PermutationView::controls(Controls& c) {
  c.draw("sentence");
  // The seeds' examples: a sentence and the shuffle that gives the seeds' reordering.
  if (!controls_census()) {
    const Example* current = nullptr;
    for (const Example& e : kExamples)
      if (sentence_ == e.sentence && shuffle_ == e.shuffle) current = &e;
    const std::string none = tr("Example sentences...");
    const VerbatimText data(current != nullptr);  // the sentences are examples, not interface text
    if (ImGui::BeginCombo("##examples", current ? current->sentence : none.c_str())) {
      const VerbatimText items;
      for (const Example& e : kExamples) {
        const std::string item = *e.shuffled ? std::string(e.sentence) + "  /  " + e.shuffled : std::string(e.sentence);
        if (ImGui::Selectable(item.c_str(), &e == current)) sentence_ = e.sentence, shuffle_ = e.shuffle;
      }
      ImGui::EndCombo();
    }
    probe_last_item("combo.example");
  }
  const Param& shuffle = c.param("shuffle");
  if (ImGui::Button(tr_id("Shuffle").c_str())) shuffle_ = shuffle_ >= int(shuffle.hi) ? 1 : shuffle_ + 1;
  probe_last_item("button.shuffle");
  ImGui::SameLine();
  if (ImGui::Button(tr_id("Original order").c_str())) shuffle_ = int(shuffle.lo);
  probe_last_item("button.original");
  ImGui::Text(tr("shuffle seed = %d"), shuffle_);
  c.draw("pe");
  c.draw("d");
  const Param& seed = c.param("seed");
  ImGui::TextUnformatted(tr(seed.label()));
  if (ImGui::InputInt("##seed", &seed_)) seed_ = std::clamp(seed_, int(seed.lo), int(seed.hi));
  probe_last_item("input.seed");
}

void PermutationView::recompute() {
  result_ = {};
  words_ = split_tokens(sentence_);
  const Matrix x = word_embeddings(words_, d_, uint64_t(seed_));
  const std::vector<int> perm = seeded_permutation(int(words_.size()), uint64_t(shuffle_));
  result_ = permutation_test(x, perm, encoding_, uint64_t(seed_) + 7919);
  shuffled_words_.clear();
  for (int p : result_.perm) shuffled_words_.push_back(words_[size_t(p)]);
  pooled_.resize(2, result_.pooled.size());
  pooled_.row(0) = result_.pooled.transpose();
  pooled_.row(1) = result_.pooled_shuffled.transpose();
  tiles_[0].values = &result_.output;
  tiles_[1].values = &result_.output_shuffled;
  tiles_[2].values = &result_.row_difference;
  tiles_[3].values = &pooled_;
  // One colour scale for all four, so a difference is seen against the size of the outputs.
  const double mx = std::max(result_.output.cwiseAbs().maxCoeff(), result_.output_shuffled.cwiseAbs().maxCoeff());
  vmax_ = mx > 0 ? float(mx) : 1.0f;
}

void PermutationView::export_data(std::vector<ExportTable>& tables) const {
  if (failed() || result_.perm.empty()) return;
  tables.push_back(matrix_table("output", "row r (original order)", "dimension", "r", result_.output));
  tables.push_back(matrix_table("output_shuffled", "row r (shuffled order)", "dimension", "r", result_.output_shuffled));
  tables.push_back(matrix_table("row_difference", "row r: O'[r] - O[perm[r]]", "dimension", "r", result_.row_difference));
  tables.push_back(matrix_table("pooled", "0 = mean of O, 1 = mean of O'", "dimension", "row", pooled_));
  ExportTable perm{"perm", "shuffled row r", "original row perm[r]", {"r", "perm[r]"}, {}};
  for (size_t r = 0; r < result_.perm.size(); ++r) perm.rows.push_back({double(r), double(result_.perm[r])});
  tables.push_back(std::move(perm));
}

void PermutationView::draw_tile(Tile& tile, ImVec2 size, float vmax, const std::vector<std::string>* row_labels,
                                const char* title) {
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float line = title ? ImGui::GetTextLineHeightWithSpacing() : 0.0f;
  if (title) ImGui::TextUnformatted(tr(title));
  ImGui::SetCursorScreenPos(ImVec2(at.x, at.y + line));
  // Rows are words: the heatmap labels them with the words instead of row numbers.
  HeatmapAxes axes{"dimension", "row", 0, 0};
  axes.row_labels = row_labels;
  const HeatmapHover h = tile.heatmap.draw(tile.probe, ImVec2(size.x, size.y - line), axes, Colormap::Diverging, -vmax, vmax);
  if (h.active) {
    const Matrix& m = *tile.values;
    begin_readout();
    if (&tile != &tiles_[3])
      ImGui::TextUnformatted(
          trf("row {0} (\"{1}\"), dimension {2}", {std::to_string(h.row), (*row_labels)[h.row], std::to_string(h.col)}).c_str());
    else ImGui::Text(tr("%s, dimension %d"), tr(h.row == 0 ? "mean of O" : "mean of O'"), h.col);
    ImGui::Text(tr("value = %.17g"), m(h.row, h.col));
    if (&m == &result_.row_difference) {
      ImGui::Text("O'[%d] = %.17g", h.row, result_.output_shuffled(h.row, h.col));
      ImGui::Text("O[perm[%d] = %d] = %.17g", h.row, result_.perm[h.row], result_.output(result_.perm[h.row], h.col));
    }
    end_readout();
  }
}

// plot.outputs: the rectangle holding both output maps (the part of them in view).
void probe_outputs() {
  ImVec2 lo(FLT_MAX, FLT_MAX), hi(-FLT_MAX, -FLT_MAX), a, b;
  for (const char* map : {"heatmap.perm.output", "heatmap.perm.shuffled"})
    if (find_probe(map, &a, &b))
      lo = ImVec2(std::min(lo.x, a.x), std::min(lo.y, a.y)), hi = ImVec2(std::max(hi.x, b.x), std::max(hi.y, b.y));
  if (lo.x < hi.x) probe_rect("plot.outputs", lo, hi);
}

void PermutationView::draw_outputs(ImVec2 size, const char* const titles[2]) {
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float w = size.x * 0.5f;
  const std::vector<std::string>* labels[2] = {&words_, &shuffled_words_};
  for (int t = 0; t < 2; ++t) {
    ImGui::SetCursorScreenPos(ImVec2(origin.x + t * w, origin.y));
    draw_tile(tiles_[t], ImVec2(w - 4, size.y), vmax_, labels[t], titles[t]);
  }
  probe_outputs();
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + size.y));
}

void PermutationView::draw_figure(ImVec2 size) {
  const float line = ImGui::GetTextLineHeightWithSpacing();
  static const char* const kFigures[4] = {"output", "shuffled", "difference", "pooled"};
  const ImVec2 start = ImGui::GetCursorScreenPos();
  const bool equivariant = encoding_ == PermutationEncoding::None;
  // Equal outputs in the theme's "holds" colour, a visible difference in its warning colour.
  const ImVec4 verdict = equivariant ? good_color() : warning_color();
  auto wrapped = [](const ImVec4* color, const std::string& text) {
    if (color) ImGui::PushStyleColor(ImGuiCol_Text, *color);
    ImGui::TextWrapped("%s", text.c_str());
    if (color) ImGui::PopStyleColor();
  };
  // One line saying how far O' is from O permuted: alone, the maps below carry no verdict of their own.
  auto verdict_line = [&] {
    ImGui::TextColored(verdict, tr("max |O'[r] - O[perm r]| = %s"), difference_text(result_.max_row_difference).c_str());
    probe_last_item("text.difference");
  };
  if (alone()) {
    if (shows("outputs")) {
      // A small embed's figure: the two outputs make the point in any state (the difference map of NoPE
      // is white by design).
      verdict_line();
      static const char* const kShortTitles[2] = {"O: original order", "O': shuffled"};
      draw_outputs(ImVec2(size.x, size.y - (ImGui::GetCursorScreenPos().y - start.y)), kShortTitles);
      return;
    }
    for (int t = 0; t < 4; ++t) {
      if (!shows(kFigures[t])) continue;
      ImVec2 tile_size = size;
      if (t == 2) {
        // Alone, the difference map is blank when nothing differs: say what it shows in one line.
        verdict_line();
        tile_size.y -= ImGui::GetCursorScreenPos().y - start.y;
      }
      const std::vector<std::string>* labels[4] = {&words_, &shuffled_words_, &shuffled_words_, &kPooledRows};
      draw_tile(tiles_[t], tile_size, vmax_, labels[t], nullptr);
      probe_plot(kFigures[t], tiles_[t].probe);
    }
    return;
  }
  wrapped(nullptr, trf("original: {0}", {join(words_)}));
  std::string perm_text;
  for (int p : result_.perm) perm_text += (perm_text.empty() ? "" : ",") + std::to_string(p);
  wrapped(nullptr, trf("shuffled: {0}    (perm = {1})", {join(shuffled_words_), perm_text}));
  wrapped(&verdict, trf("max |O'[r] - O[perm[r]]| = {0}   max |mean(O') - mean(O)| = {1}",
                        {difference_text(result_.max_row_difference), difference_text(result_.max_pooled_difference)}));
  const ImVec4 disabled = ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled);
  wrapped(&disabled, tr(equivariant ? "No PE: the shuffled outputs are the same rows, permuted (up to float rounding); "
                                      "pooling cannot tell the orders apart."
                                    : "With PE the token at a new position gets a different output: order is visible."));
  const float used = ImGui::GetCursorScreenPos().y - start.y;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const bool stack = stacked();
  const float w = stack ? size.x : size.x * 0.5f, h = (size.y - used) * (stack ? 0.25f : 0.5f);
  const std::vector<std::string>* labels[4] = {&words_, &shuffled_words_, &shuffled_words_, &kPooledRows};
  for (int t = 0; t < 4; ++t) {
    ImGui::SetCursorScreenPos(stack ? ImVec2(origin.x, origin.y + t * h)
                                    : ImVec2(origin.x + (t % 2) * w, origin.y + (t / 2) * h));
    // The pooled tile has two rows: keep its cells from turning into tall bars.
    const ImVec2 tile_size(w - 8, t == 3 ? std::min(h - 4, 6 * line + 60) : h - 4);
    draw_tile(tiles_[t], tile_size, vmax_, labels[t], tiles_[t].title);
    // The first two maps are one figure here (outputs); output and shuffled are names of them alone.
    if (t >= 2) probe_plot(kFigures[t], tiles_[t].probe);
  }
  probe_outputs();
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + (stack ? 4 : 2) * h));
  ImGui::Dummy(ImVec2(size.x, 0));
}

}  // namespace

std::unique_ptr<View> make_permutation_view(ViewText text) { return std::make_unique<PermutationView>(std::move(text)); }

}  // namespace posenc::app
