// The one list of views, in menu order. A row is one view: its fixed texts (the id URLs and tests use, the
// menu title, the caption, the formula in words, the figures with the main one first: the words a reader
// sees, kept in one voice and read in one place) and its factory, defined in the view's own file. A view
// whose caption or words follow its state (waves, buckets, scores) overrides caption() / formula_words()
// and keeps only its id, title and figures here. Adding a view: its file and its row (docs/architecture.md).
#include <utility>

#include "app/views/views.h"

namespace posenc::app {

std::unique_ptr<View> make_waves_view(ViewText text);
std::unique_ptr<View> make_frequencies_view(ViewText text);
std::unique_ptr<View> make_similarity_view(ViewText text);
std::unique_ptr<View> make_buckets_view(ViewText text);
std::unique_ptr<View> make_scores_view(ViewText text);
std::unique_ptr<View> make_rope_view(ViewText text);
std::unique_ptr<View> make_permutation_view(ViewText text);
std::unique_ptr<View> make_toy_view(ViewText text);
std::unique_ptr<View> make_model_view(ViewText text);
std::unique_ptr<View> make_check_view(ViewText text);
std::unique_ptr<View> make_usage_view(ViewText text);

namespace {

struct ViewRow {
  ViewText text;
  std::unique_ptr<View> (*make)(ViewText text);
};

const std::vector<ViewRow>& view_rows() {
  static const std::vector<ViewRow> rows = {
      {{.id = "waves", .title = "PE waves", .figures = {"pe", "curves"}}, make_waves_view},
      {{.id = "frequencies",
        .title = "Frequencies",
        .caption = "ωₖ = base^(−2k/d) (geometric) vs linear vs increasing; wavelength λₖ = 2π / ωₖ",
        .words = "Pair k of a width-d sinusoidal encoding turns at frequency w_k = base to the power -2k/d "
                 "(geometric), or on a linear or increasing schedule; its wavelength 2 pi / w_k is how many positions "
                 "one full turn takes, compared with the sequence length n.",
        .figures = {"wavelength", "frequency"}},
       make_frequencies_view},
      {{.id = "similarity",
        .title = "Similarity",
        .caption = "G[a][b] = Pₐ · P_b;  sinusoidal: Pₚ · Pₚ₊δ = ∑ₖ cos(δ ωₖ) for every p;  neighbour distance ‖Pₚ₊₁ − Pₚ‖",
        .words = "The heatmap is the dot product of the encodings of positions a and b. For sinusoidal encodings it "
                 "depends only on the offset b - a (the curves for different starting positions coincide); for "
                 "sine-only encodings it does not. The last plot is the distance between neighbouring positions.",
        .figures = {"similarity", "curves_sinusoidal", "curves_sine_only", "neighbour"}},
       make_similarity_view},
      {{.id = "buckets", .title = "Bias buckets", .figures = {"buckets", "index", "value"}}, make_buckets_view},
      {{.id = "scores", .title = "Scores"}, make_scores_view},
      {{.id = "rope",
        .title = "RoPE",
        .caption = "pair k of q rotated by p·ωₖ: qₘ · kₙ = Re[∑ₖ qₖ conj(kₖ) e^{i(m−n)ωₖ}];  ω′ₖ = scaled frequency, bound "
                   "(1/(d/2)) ∑ⱼ |Sⱼ|",
        .words = "RoPE rotates pair k of the query and key by the position times a frequency w_k = "
                 "base to the power -2k/d, so their dot product depends only on the distance between "
                 "them. A context extension method scales the frequencies w'_k so that a model "
                 "trained on L positions reaches the target length T.",
        .figures = {"angles", "ratio", "decay", "rotation"}},
       make_rope_view},
      {{.id = "permutation",
        .title = "Permutation",
        .caption = "O = softmax(Q K^T / √d) V;  without PE: Attn(P X) = P Attn(X) and mean(Attn(P X)) = mean(Attn(X))",
        .words = "One self-attention layer runs on the sentence and on a shuffled copy. Without a position encoding "
                 "the shuffled outputs are the original outputs in the shuffled order, so their difference is zero "
                 "and pooling over rows cannot tell the orders apart; with a position encoding the difference is "
                 "visible.",
        .figures = {"outputs", "difference", "output", "shuffled", "pooled"}},
       make_permutation_view},
      {{.id = "toy",
        .title = "Toy sentence",
        .caption = "score(i, j) = xᵢ · xⱼ  |  (xᵢ + pᵢ) · (xⱼ + pⱼ)  |  xᵢ · xⱼ + b(|j − i|)  |  (R(i θ) xᵢ) · (R(j θ) xⱼ)",
        .words = "Three tokens, I like apples, with two-dimensional vectors. Each panel scores every query i against "
                 "every key j: with no position encoding, with absolute position vectors added, with a relative bias "
                 "that depends on |j - i|, and with RoPE rotating each vector by its position.",
        .figures = {"rope", "none", "absolute", "relative"}},
       make_toy_view},
      {{.id = "model",
        .title = "Model",
        .caption = "a model's config → its RoPE: ω′ₖ / ωₖ per pair, wavelength 2π / ω′ₖ against the trained and target "
                   "lengths (or its ALiBi / T5 / DeBERTa / learned scheme)"},
       make_model_view},
      {{.id = "check",
        .title = "Check",
        .caption = "your RoPE tensor vs the reference: |actual - expected| per position and pair, "
                   "the causes fitted to it (explains = 1 - |actual - fitted|^2 / |actual - "
                   "expected|^2)",
        .figures = {"error", "residual", "pairs"}},
       make_check_view},
      {{.id = "usage",
        .title = "Frequency usage",
        .caption = "qk_share[j] = ‖W_q pair j‖ ‖W_k pair j‖ / ∑ⱼ (the same), per layer and head; semantic_share = "
                   "∑ qk_share over the pairs with turns < 1",
        .words = "For each layer and head, the share of each rotary pair in the head's q.k weight norm: the norm "
                 "of the pair's two rows of the query projection times that of the key projection, over their "
                 "sum. Pairs are ordered by frequency; those past the boundary turn less than once within the "
                 "trained length, and their total is the head's semantic share. These are weights, not "
                 "activations: what a head can attend to, not what it does on a given text.",
        .figures = {"share", "semantic"}},
       make_usage_view},
  };
  return rows;
}

}  // namespace

std::vector<std::unique_ptr<View>> make_views() {
  std::vector<std::unique_ptr<View>> views;
  for (const ViewRow& row : view_rows()) views.push_back(row.make(row.text));
  return views;
}

std::unique_ptr<View> make_view(const std::string& id) {
  for (const ViewRow& row : view_rows())
    if (id == row.text.id) return row.make(row.text);
  return nullptr;
}

}  // namespace posenc::app
