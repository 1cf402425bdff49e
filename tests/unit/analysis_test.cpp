#include <gtest/gtest.h>

#include <cmath>

#include "core/encodings/absolute.h"
#include "core/analysis.h"
#include "core/encodings/sinusoidal.h"
#include "test_util.h"

using namespace posenc;

TEST(Analysis, SinusoidalOffsetCurveIsFlatSineOnlyIsNot) {
  const auto pos = posenc::test::iota(64);
  const Matrix P = sinusoidal_table(pos, 16);
  const auto a = offset_dot_curve(P, 3, 10), b = offset_dot_curve(P, 40, 10);
  ASSERT_EQ(a.size(), 11u);
  for (size_t d = 0; d < a.size(); ++d) EXPECT_NEAR(a[d], b[d], 1e-12);  // depends only on delta
  EXPECT_NEAR(a[0], 8.0, 1e-12);                                          // |P_p|^2 = d/2
  const Matrix S = sine_only_encoding(pos, 16);
  EXPECT_GT(std::abs(offset_dot_curve(S, 3, 5)[2] - offset_dot_curve(S, 40, 5)[2]), 1e-3);
  EXPECT_NEAR(similarity_matrix(P)(5, 9), P.row(5).dot(P.row(9)), 1e-13);
}

TEST(Analysis, NeighbourDistancesContinuousVsBinaryJumps) {
  const auto pos = posenc::test::iota(16);
  const auto s = neighbour_distances(sinusoidal_table(pos, 16));
  for (double x : s) EXPECT_NEAR(x, s[0], 1e-12);  // constant step for sin/cos
  const auto b = neighbour_distances(binary_encoding(16, 4));
  EXPECT_EQ(b[0], 1.0);           // 0 -> 1: one bit
  EXPECT_EQ(b[7], 2.0);           // 7 -> 8: four bits, distance sqrt(4)
}

TEST(Analysis, RopeDecayBoundStartsAtMeanAndDecays) {
  const auto w = rope_default_inv_freq(128, 10000.0);
  const auto bound = rope_decay_bound(w, 256);
  // r = 0: S_j = j, so (1/64) sum_{j=1}^{64} j = 32.5.
  EXPECT_NEAR(bound[0], 32.5, 1e-12);
  EXPECT_LT(bound[256], 0.5 * bound[0]);
  EXPECT_LT(bound[200], bound[10]);
}

TEST(Analysis, PairRotationsShowInterpolation) {
  RopeScaling lin;
  lin.type = RopeScalingType::Linear;
  lin.factor = 4;
  const auto r = rope_pair_rotations(64, 10000.0, lin, 2048, 8192);
  ASSERT_EQ(r.size(), 32u);
  for (const auto& p : r) {
    EXPECT_NEAR(p.target_angle, p.trained_angle, 1e-9 * p.trained_angle);  // PI: 4x length, 1/4 frequency
    EXPECT_FALSE(p.beyond_training);
  }
  const auto none = rope_pair_rotations(64, 10000.0, {}, 2048, 8192);
  EXPECT_TRUE(none.back().beyond_training);  // the slowest pair sees angles it never saw
  EXPECT_FALSE(none.front().beyond_training);
}

TEST(Analysis, PermutationTest) {
  const Matrix x = posenc::test::random_matrix(4, 6, 3);
  const std::vector<int> perm{2, 0, 3, 1};
  const auto nope = permutation_test(x, perm, AttentionSpec{});
  EXPECT_LT(nope.row_difference, 1e-14);
  EXPECT_LT(nope.pooled_difference, 1e-14);
  const auto rope = permutation_test(x, perm, AttentionSpec{RopePosition{}, std::nullopt, false});
  EXPECT_GT(rope.row_difference, 1e-4);
}
