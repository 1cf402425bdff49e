#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "core/analysis/permutation.h"
#include "core/unicode_text.h"

using namespace posenc;

namespace {
const std::vector<std::string> kWords = split_tokens("the cat sat on the mat");
}

TEST(Permutation, SeededPermutationIsAPermutationAndNotIdentity) {
  for (uint64_t seed = 1; seed < 50; ++seed) {
    auto p = seeded_permutation(6, seed);
    EXPECT_FALSE(std::is_sorted(p.begin(), p.end()));
    std::sort(p.begin(), p.end());
    for (int i = 0; i < 6; ++i) EXPECT_EQ(p[i], i);
  }
  const auto id = seeded_permutation(6, 0);
  EXPECT_TRUE(std::is_sorted(id.begin(), id.end()));
  EXPECT_EQ(seeded_permutation(6, 7), seeded_permutation(6, 7));
}

TEST(Permutation, TheSeedsShufflesHaveTheirSeeds) {
  // The permutation view's example sentences (app/views/permutation_view.cpp) pick these shuffle seeds:
  // 我不爱你 -> 不我爱你 (seed text 002), 猫坐在垫子上 -> 垫子坐在猫上 (004), I like apples -> apples like I (000).
  EXPECT_EQ(seeded_permutation(4, 4), (std::vector<int>{1, 0, 2, 3}));
  EXPECT_EQ(seeded_permutation(6, 259), (std::vector<int>{3, 4, 1, 2, 0, 5}));
  EXPECT_EQ(seeded_permutation(3, 2), (std::vector<int>{2, 1, 0}));
}

TEST(Permutation, WoBuAiNiAndBuWoAiNiAreTheSameWithoutPositions) {
  // Seed 002: "without position encoding, 我不爱你 and 不我爱你 have the same effect": the pooled outputs are
  // equal (up to summation order) without PE, and differ with it.
  const std::vector<std::string> tokens = split_tokens("我不爱你");
  ASSERT_EQ(tokens.size(), 4u);
  const Matrix x = word_embeddings(tokens, 16, 1);
  const auto perm = seeded_permutation(4, 4);
  EXPECT_LE(permutation_test(x, perm, PermutationEncoding::None, 11).max_pooled_difference, 1e-14);
  for (auto enc : {PermutationEncoding::Sinusoidal, PermutationEncoding::Rope})
    EXPECT_GT(permutation_test(x, perm, enc, 11).max_pooled_difference, 1e-4) << permutation_encoding_name(enc);
}

TEST(Permutation, SplitWordsAndEqualWordsShareEmbeddings) {
  ASSERT_EQ(kWords.size(), 6u);
  const Matrix x = word_embeddings(kWords, 8, 1);
  EXPECT_EQ(x.row(0), x.row(4));  // "the" twice
  EXPECT_NE(x.row(0), x.row(1));
}

TEST(Permutation, WithoutEncodingOutputRowsArePermutedAndPoolingIsInvariant) {
  const Matrix x = word_embeddings(kWords, 16, 3);
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    const auto perm = seeded_permutation(6, seed);
    const PermutationResult r = permutation_test(x, perm, PermutationEncoding::None, 11);
    // Exact up to summation order: the softmax sums run over the same keys in another order.
    EXPECT_LE(r.max_row_difference, 1e-14);
    EXPECT_LE(r.max_pooled_difference, 1e-14);
    EXPECT_GT(r.output.cwiseAbs().maxCoeff(), 0.1);  // not trivially zero
  }
}

TEST(Permutation, WithSinusoidalOrRopeTheOutputsDiffer) {
  const Matrix x = word_embeddings(kWords, 16, 3);
  const auto perm = seeded_permutation(6, 1);
  for (auto enc : {PermutationEncoding::Sinusoidal, PermutationEncoding::Rope}) {
    const PermutationResult r = permutation_test(x, perm, enc, 11);
    EXPECT_GT(r.max_row_difference, 1e-3) << permutation_encoding_name(enc);
    EXPECT_GT(r.max_pooled_difference, 1e-4) << permutation_encoding_name(enc);
  }
}

TEST(Permutation, IdentityPermutationGivesZeroDifferenceEvenWithEncoding) {
  const Matrix x = word_embeddings(kWords, 16, 3);
  const PermutationResult r = permutation_test(x, seeded_permutation(6, 0), PermutationEncoding::Rope, 11);
  EXPECT_EQ(r.max_row_difference, 0.0);
}

TEST(Permutation, RejectsNonPermutation) {
  const Matrix x = word_embeddings(kWords, 4, 3);
  EXPECT_THROW(permutation_test(x, {0, 1, 2, 3, 4, 4}, PermutationEncoding::None, 1), InvalidArgument);
}
