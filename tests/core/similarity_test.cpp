// Similarity analysis of absolute encodings: the structured formulas agree with the naive P P^T, and the
// facts the similarity view teaches hold.
#include "core/analysis/similarity.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "core/encodings/absolute.h"
#include "core/encodings/sinusoidal.h"

namespace posenc {
namespace {

const AbsoluteScheme kAllSchemes[] = {AbsoluteScheme::Integer,  AbsoluteScheme::Normalised, AbsoluteScheme::Binary,
                                      AbsoluteScheme::SineOnly, AbsoluteScheme::Sinusoidal, AbsoluteScheme::Learned};

TEST(PositionSimilarity, MatchesNaiveGramMatrixForEveryScheme) {
  AbsoluteParams params;
  params.learned_max_len = 20;  // below n: rows 20..29 are undefined
  params.seed = 7;
  const int n = 30, dim = 16;
  for (AbsoluteScheme s : kAllSchemes) {
    SCOPED_TRACE(absolute_scheme_name(s));
    const Matrix P = absolute_encoding(s, n, dim, params);
    const Matrix naive = P * P.transpose();
    const Matrix G = position_similarity(s, n, dim, params);
    const MatrixF Gf = position_similarity_f(s, n, dim, params);
    const int defined = s == AbsoluteScheme::Learned ? 20 : n;
    for (int a = 0; a < n; ++a) {
      for (int b = 0; b < n; ++b) {
        if (a >= defined || b >= defined) {
          EXPECT_TRUE(std::isnan(G(a, b))) << a << "," << b;
          continue;
        }
        EXPECT_NEAR(G(a, b), naive(a, b), 1e-9 * (1 + std::abs(naive(a, b)))) << a << "," << b;
        EXPECT_NEAR(Gf(a, b), naive(a, b), 1e-5 * (1 + std::abs(naive(a, b)))) << a << "," << b;
      }
    }
  }
}

TEST(PositionSimilarity, SinusoidalDotDependsOnlyOnOffset) {
  const PositionDots dots(AbsoluteScheme::Sinusoidal, 256, 64, {}, 2048);
  for (int delta : {0, 1, 5, 37, 200}) {
    const double at0 = dots.dot(0, delta);
    for (int p : {1, 17, 100, 1000, 1800}) EXPECT_NEAR(dots.dot(p, p + delta), at0, 1e-12) << p << "+" << delta;
  }
  // Diagonal = number of pairs (sin^2 + cos^2 = 1 per pair) and it is the row maximum.
  EXPECT_NEAR(dots.dot(9, 9), 32.0, 1e-12);
  for (int b = 0; b < 256; ++b) {
    if (b != 9) { EXPECT_LT(dots.dot(9, b), 32.0); }
  }
}

TEST(PositionSimilarity, SineOnlyDotDependsOnAbsolutePosition) {
  const PositionDots dots(AbsoluteScheme::SineOnly, 256, 64, {}, 1024);
  // sin(0) = 0: P_0 is the zero vector, so P_0 . P_delta = 0 for every delta, unlike P_50 . P_{50+delta}.
  EXPECT_EQ(dots.dot(0, 3), 0.0);
  EXPECT_GT(std::abs(dots.dot(50, 53) - dots.dot(0, 3)), 1.0);
  const std::vector<double> c10 = shifted_dot_curve(dots, 10, 100), c200 = shifted_dot_curve(dots, 200, 100);
  double max_diff = 0;
  for (size_t i = 0; i < c10.size(); ++i) max_diff = std::max(max_diff, std::abs(c10[i] - c200[i]));
  EXPECT_GT(max_diff, 1.0);
}

TEST(PositionSimilarity, SinusoidalCurveIsTheSameAtEveryStartSineOnlyIsNot) {
  const int n = 64, dim = 16;
  const PositionDots sinus(AbsoluteScheme::Sinusoidal, n, dim);
  const std::vector<double> a = shifted_dot_curve(sinus, 3, 11), b = shifted_dot_curve(sinus, 40, 11);
  ASSERT_EQ(a.size(), 11u);
  for (size_t d = 0; d < a.size(); ++d) EXPECT_NEAR(a[d], b[d], 1e-12);  // depends only on delta
  EXPECT_NEAR(a[0], 8.0, 1e-12);                                         // |P_p|^2 = d/2
  const PositionDots sine(AbsoluteScheme::SineOnly, n, dim);
  EXPECT_GT(std::abs(shifted_dot_curve(sine, 3, 6)[2] - shifted_dot_curve(sine, 40, 6)[2]), 1e-3);
  std::vector<int64_t> pos(n);
  std::iota(pos.begin(), pos.end(), 0);
  const Matrix P = sinusoidal_table(pos, dim);
  EXPECT_NEAR(position_similarity(AbsoluteScheme::Sinusoidal, n, dim)(5, 9), P.row(5).dot(P.row(9)), 1e-13);
}

TEST(PositionSimilarity, ShiftedCurveMatchesTableRows) {
  const int dim = 32;
  const PositionDots dots(AbsoluteScheme::SineOnly, 64, dim, {}, 200);
  std::vector<int64_t> pos(200);
  std::iota(pos.begin(), pos.end(), 0);
  const Matrix P = sine_only_encoding(pos, dim);
  const std::vector<double> curve = shifted_dot_curve(dots, 30, 150);
  for (int delta = 0; delta < 150; ++delta) EXPECT_NEAR(curve[delta], P.row(30).dot(P.row(30 + delta)), 1e-10);
  // Past the limit the curve is undefined, not garbage.
  const std::vector<double> longer = shifted_dot_curve(dots, 100, 150);
  EXPECT_FALSE(std::isnan(longer[99]));
  EXPECT_TRUE(std::isnan(longer[100]));
}

TEST(NeighbourDistance, MatchesTableDifferencesForEveryScheme) {
  AbsoluteParams params;
  params.learned_max_len = 40;
  const int n = 50, dim = 12;
  for (AbsoluteScheme s : kAllSchemes) {
    SCOPED_TRACE(absolute_scheme_name(s));
    const Matrix P = absolute_encoding(s, n, dim, params);
    const PositionDots dots(s, n, dim, params);
    const std::vector<double> dist = neighbour_distances(dots, n - 1);
    for (int p = 0; p + 1 < n; ++p) {
      if (s == AbsoluteScheme::Learned && p + 1 >= 40) {
        EXPECT_TRUE(std::isnan(dist[p])) << p;
        continue;
      }
      EXPECT_NEAR(dist[p], (P.row(p + 1) - P.row(p)).norm(), 1e-12) << p;
    }
  }
}

TEST(NeighbourDistance, SinusoidalIsConstantBinaryJumps) {
  const PositionDots sinus(AbsoluteScheme::Sinusoidal, 64, 16);
  for (int p = 1; p < 63; ++p) EXPECT_NEAR(sinus.neighbour_distance(p), sinus.neighbour_distance(0), 1e-12);
  const PositionDots binary(AbsoluteScheme::Binary, 64, 16);
  EXPECT_DOUBLE_EQ(binary.neighbour_distance(6), 1.0);              // 6 -> 7: one bit
  EXPECT_DOUBLE_EQ(binary.neighbour_distance(7), 2.0);              // 7 -> 8 flips four bits: sqrt(4)
  EXPECT_DOUBLE_EQ(binary.neighbour_distance(31), std::sqrt(6.0));  // 31 -> 32: six bits
  const PositionDots binary16(AbsoluteScheme::Binary, 16, 4);
  EXPECT_EQ(binary16.neighbour_distance(0), 1.0);  // 0 -> 1: one bit
  EXPECT_EQ(binary16.neighbour_distance(7), 2.0);  // 7 -> 8: four bits, distance sqrt(4)
}

TEST(NeighbourDistance, NormalisedStepShrinksWithN) {
  const PositionDots n10(AbsoluteScheme::Normalised, 10, 4), n100(AbsoluteScheme::Normalised, 100, 4);
  EXPECT_NEAR(n10.neighbour_distance(3), 2.0 / 9, 1e-15);
  EXPECT_NEAR(n100.neighbour_distance(3), 2.0 / 99, 1e-15);
}

TEST(PositionDots, RejectsBadConfigurations) {
  EXPECT_THROW(PositionDots(AbsoluteScheme::Binary, 300, 8), InvalidArgument);           // 2^8 < 300
  EXPECT_THROW(PositionDots(AbsoluteScheme::Sinusoidal, 10, 7), InvalidArgument);        // odd width
  EXPECT_THROW(position_similarity(AbsoluteScheme::Integer, 5000, 2), InvalidArgument);  // n^2 > 2^24
}

TEST(RelativeMatrix, FillsByOffset) {
  const std::vector<double> by_offset = {-2, -1, 0, 1, 2};  // j - i = -2..2
  const MatrixF M = relative_matrix_f(by_offset, 3);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(M(i, j), float(j - i));
  EXPECT_THROW(relative_matrix_f(by_offset, 4), InvalidArgument);
}

TEST(SeededBias, IsDeterministicAndSeedDependent) {
  EXPECT_EQ(seeded_bias(32, 1), seeded_bias(32, 1));
  EXPECT_NE(seeded_bias(32, 1), seeded_bias(32, 2));
}

}  // namespace
}  // namespace posenc
