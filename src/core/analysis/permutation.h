// The permutation test of self-attention: without positional information attention is permutation-
// equivariant (shuffling the input tokens shuffles the output rows the same way, and a mean-pooled output
// does not change at all); with a positional encoding the outputs depend on the order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/names.h"
#include "core/types.h"

namespace posenc {

// A seeded permutation of 0..n-1 (Fisher-Yates on std::mt19937_64, whose output is fixed by the standard).
// seed 0 is the identity; any other seed gives a permutation other than the identity when n >= 2.
std::vector<int> seeded_permutation(int n, uint64_t seed);

// Rows x[perm[r]] for r = 0..n-1: the token at new position r is old token perm[r].
Matrix permute_rows(const Matrix& x, const std::vector<int>& perm);

// One seeded embedding row per word (N(0, 1) from NormalRng(seed ^ hash(word))): equal words get equal rows.
Matrix word_embeddings(const std::vector<std::string>& words, int dim, uint64_t seed);

enum class PermutationEncoding { None, Sinusoidal, Rope };
template <>
struct EnumNames<PermutationEncoding> {
  static constexpr std::array<const char*, 3> names{"none", "sinusoidal", "rope"};
};

struct PermutationResult {
  std::vector<int> perm;
  Matrix output;                     // n x d: attention output of the tokens in their original order
  Matrix output_shuffled;            // n x d: attention output of the shuffled tokens (positions 0..n-1 again)
  Matrix row_difference;             // n x d: output_shuffled[r] - output[perm[r]]
  Vector pooled, pooled_shuffled;    // mean over rows of output / output_shuffled
  double max_row_difference = 0;     // max |row_difference|
  double max_pooled_difference = 0;  // max |pooled_shuffled - pooled|
};

// Single-head self-attention over x (n x d) with projections W_Q, W_K, W_V (d x d, N(0, 1/d) from
// `weight_seed`), scale 1/sqrt(d): once in the original order and once after permuting the rows by `perm`.
// Sinusoidal adds P_p to the token embedding at its position; RoPE rotates q and k by their positions.
PermutationResult permutation_test(const Matrix& x, const std::vector<int>& perm, PermutationEncoding encoding,
                                   uint64_t weight_seed, double base = 10000.0);

inline const char* permutation_encoding_name(PermutationEncoding e) { return name_of(e); }

}  // namespace posenc
