// What to set to run a RoPE model at a longer context, per context-extension method, and how many rotation
// pairs would then see angles beyond their training (the Model view's context-extension panel).
//
// The settings follow transformers' modeling_rope_utils.py (_compute_linear_scaling_rope_parameters,
// _compute_dynamic_ntk_parameters, _compute_yarn_parameters, _compute_llama3_parameters,
// _compute_longrope_parameters; docs/models.md "T-v5"): for a trained length L and a target T > L the
// factor is f = T / L; linear, YaRN, llama3 and LongRoPE take max_position_embeddings = T, while dynamic NTK
// reads its L from max_position_embeddings itself (so it stays L and the base grows with the running length).
#pragma once

#include <cstdint>
#include <vector>

#include "core/encodings/rope.h"

namespace posenc {

struct ExtensionRecipe {
  RopeScaling scaling;  // the rope_scaling to set (type, factor, original length, the method's defaults)
  // The config's top-level max_position_embeddings to set.
  int64_t max_position_embeddings = 0;
  // Whether rope_scaling needs original_max_position_embeddings (yarn, llama3, longrope: transformers reads
  // it there; linear ignores it, dynamic reads L from max_position_embeddings).
  bool sets_original = false;
  // Pair counts at the target length (classify_pair of the frequencies in force there against the unscaled
  // ones at L). counted = false: the method's frequencies are not known (LongRoPE without factors: they
  // come from a per-model search).
  bool counted = true;
  int full_turn = 0, interpolated = 0, extrapolated = 0;
  // How the method changes each pair's frequency: kept (w'_k = w_k), divided by the whole factor
  // (w'_k = w_k / f), or anything between or beyond (blended), each up to a relative 1e-12.
  int kept = 0, divided = 0, blended = 0;
  double attention_scaling = 1.0;  // the cos/sin magnitude the method applies (YaRN, LongRoPE)
};

// One recipe per method, in the order none (unscaled RoPE run at T: the baseline), linear, dynamic, yarn,
// llama3, longrope, for `rotary_dim` dims at
// `base`, trained length `trained_length` (L) and target `target_length` (T). f = max(1, T / L). llama3 uses
// Llama 3.1's published band factors (low 1, high 4), YaRN its defaults (beta_fast 32, beta_slow 1).
// LongRoPE is counted with `longrope_long_factor` (rotary_dim/2 factors, e.g. the model's own) when given;
// else counted is false. Throws InvalidArgument ("target_length", "trained_length") unless both are in
// [1, kMaxLength].
std::vector<ExtensionRecipe> context_extension_recipes(int rotary_dim, double base, int64_t trained_length, int64_t target_length,
                                                       const std::vector<double>& longrope_long_factor = {});

// Pairs that complete no full turn within L (L w_k < 2 pi): the ones a method must slow to keep within the
// trained angles at T > L. A LongRoPE long factor of at least f on each of them keeps every pair interpolated.
int pairs_below_full_turn(int rotary_dim, double base, int64_t trained_length);

}  // namespace posenc
