#include "app/views/view_texts.h"

#include "app/i18n.h"

namespace posenc::app::view_texts {

const ViewText kWaves{.id = "waves", .title = "PE waves", .figures = {"pe", "curves"}};

const ViewText kFrequencies{
    .id = "frequencies",
    .title = "Frequencies",
    .caption = "ωₖ = base^(−2k/d) (geometric) vs linear vs increasing; wavelength λₖ = 2π / ωₖ",
    .words =
        "Pair k of a width-d sinusoidal encoding turns at frequency w_k = base to the power -2k/d "
        "(geometric), or on a linear or increasing schedule; its wavelength 2 pi / w_k is how many positions "
        "one full turn takes, compared with the sequence length n.",
    .figures = {"wavelength", "frequency"}};

const ViewText kSimilarity{
    .id = "similarity",
    .title = "Similarity",
    .caption = "G[a][b] = Pₐ · P_b;  sinusoidal: Pₚ · Pₚ₊δ = ∑ₖ cos(δ ωₖ) for every p;  neighbour distance ‖Pₚ₊₁ − Pₚ‖",
    .words =
        "The heatmap is the dot product of the encodings of positions a and b. For sinusoidal encodings it "
        "depends only on the offset b - a (the curves for different starting positions coincide); for "
        "sine-only encodings it does not. The last plot is the distance between neighbouring positions.",
    .figures = {"similarity", "curves_sinusoidal", "curves_sine_only", "neighbour"}};

const ViewText kBuckets{.id = "buckets", .title = "Bias buckets", .figures = {"buckets", "index", "value"}};

const ViewText kScores{.id = "scores", .title = "Scores"};

const ViewText kRope{.id = "rope",
                     .title = "RoPE",
                     .caption =
                         "pair k of q rotated by p·ωₖ: qₘ · kₙ = Re[∑ₖ qₖ conj(kₖ) e^{i(m−n)ωₖ}];  ω′ₖ = scaled frequency, bound "
                         "(1/(d/2)) ∑ⱼ |Sⱼ|",
                     .words =
                         "RoPE rotates pair k of the query and key by the position times a frequency w_k = "
                         "base to the power -2k/d, so their dot product depends only on the distance between "
                         "them. A context extension method scales the frequencies w'_k so that a model "
                         "trained on L positions reaches the target length T.",
                     .figures = {"angles", "ratio", "decay", "rotation"}};

const ViewText kPermutation{
    .id = "permutation",
    .title = "Permutation",
    .caption = "O = softmax(Q K^T / √d) V;  without PE: Attn(P X) = P Attn(X) and mean(Attn(P X)) = mean(Attn(X))",
    .words =
        "One self-attention layer runs on the sentence and on a shuffled copy. Without a position encoding "
        "the shuffled outputs are the original outputs in the shuffled order, so their difference is zero "
        "and pooling over rows cannot tell the orders apart; with a position encoding the difference is "
        "visible.",
    .figures = {"difference", "output", "shuffled", "pooled"}};

const ViewText kToy{
    .id = "toy",
    .title = "Toy sentence",
    .caption = "score(i, j) = xᵢ · xⱼ  |  (xᵢ + pᵢ) · (xⱼ + pⱼ)  |  xᵢ · xⱼ + b(|j − i|)  |  (R(i θ) xᵢ) · (R(j θ) xⱼ)",
    .words =
        "Three tokens, I like apples, with two-dimensional vectors. Each panel scores every query i against "
        "every key j: with no position encoding, with absolute position vectors added, with a relative bias "
        "that depends on |j - i|, and with RoPE rotating each vector by its position.",
    .figures = {"rope", "none", "absolute", "relative"}};

const ViewText kModel{.id = "model",
                      .title = "Model",
                      .caption =
                          "a model's config → its RoPE: ω′ₖ / ωₖ per pair, wavelength 2π / ω′ₖ against the trained and target "
                          "lengths (or its ALiBi / T5 / DeBERTa / learned scheme)"};

const ViewText kCheck{.id = "check",
                      .title = "Check",
                      .caption =
                          "your RoPE tensor vs the reference: |actual - expected| per position and pair, "
                          "the causes fitted to it (explains = 1 - |actual - fitted|^2 / |actual - "
                          "expected|^2)",
                      .figures = {"error", "residual", "pairs"}};

const ViewText kUsage{.id = "usage",
                      .title = "Frequency usage",
                      .caption =
                          "qk_share[j] = ‖W_q pair j‖ ‖W_k pair j‖ / ∑ⱼ (the same), per layer and head; semantic_share = "
                          "∑ qk_share over the pairs with turns < 1",
                      .words =
                          "For each layer and head, the share of each rotary pair in the head's q.k weight norm: the norm "
                          "of the pair's two rows of the query projection times that of the key projection, over their "
                          "sum. Pairs are ordered by frequency; those past the boundary turn less than once within the "
                          "trained length, and their total is the head's semantic share. These are weights, not "
                          "activations: what a head can attend to, not what it does on a given text.",
                      .figures = {"share", "semantic"}};

std::string pair_behaviour_counts_shown(const PairBehaviourCounts& counts, int64_t length, int64_t trained_length) {
  std::string list;
  for (size_t b = 0; b < counts.size(); ++b) {
    const auto kind = static_cast<PairBehaviour>(b);
    if (counts[b] == 0 && !(kind == PairBehaviour::Extrapolated && length > trained_length)) continue;
    list += (list.empty() ? "" : tr(", ")) + tr_message(std::to_string(counts[b]) + " " + pair_behaviour_phrase(kind));
  }
  return list;
}

}  // namespace posenc::app::view_texts
