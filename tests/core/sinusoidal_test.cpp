#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "core/encodings/sinusoidal.h"

using namespace posenc;

TEST(Sinusoidal, ReferenceValues) {
  // Hand-checked: dim 4, base 10000 -> w = [1, 10000^-0.5 = 0.01].
  const std::vector<int64_t> pos{0, 1, 2};
  const Matrix P = sinusoidal_table(pos, 4);
  ASSERT_EQ(P.rows(), 3);
  ASSERT_EQ(P.cols(), 4);
  EXPECT_DOUBLE_EQ(P(0, 0), 0.0);
  EXPECT_DOUBLE_EQ(P(0, 1), 1.0);
  EXPECT_DOUBLE_EQ(P(1, 0), std::sin(1.0));
  EXPECT_DOUBLE_EQ(P(1, 1), std::cos(1.0));
  EXPECT_NEAR(P(1, 2), std::sin(0.01), 1e-15);
  EXPECT_NEAR(P(2, 3), std::cos(0.02), 1e-15);
  EXPECT_NEAR(P(2, 0), 0.9092974268256817, 1e-15);
}

TEST(Sinusoidal, FrequenciesGeometric) {
  const auto w = sinusoidal_frequencies(8, 10000.0);
  ASSERT_EQ(w.size(), 4u);
  EXPECT_DOUBLE_EQ(w[0], 1.0);
  EXPECT_NEAR(w[1], 0.1, 1e-15);
  EXPECT_NEAR(w[2], 0.01, 1e-16);
  EXPECT_NEAR(w[3], 0.001, 1e-17);
}

TEST(Sinusoidal, ScheduleEndpointsAndOrder) {
  const auto geo = sinusoidal_frequencies(16, 10000.0, FrequencySchedule::Geometric);
  const auto lin = sinusoidal_frequencies(16, 10000.0, FrequencySchedule::Linear);
  const auto inc = sinusoidal_frequencies(16, 10000.0, FrequencySchedule::Increasing);
  EXPECT_DOUBLE_EQ(lin.front(), geo.front());
  EXPECT_NEAR(lin.back(), geo.back(), 1e-15);
  for (size_t k = 1; k < geo.size(); ++k) {
    EXPECT_LT(geo[k], geo[k - 1]);
    EXPECT_LT(lin[k], lin[k - 1]);
    EXPECT_GT(inc[k], inc[k - 1]);
    EXPECT_DOUBLE_EQ(inc[k], geo[geo.size() - 1 - k]);
  }
}

TEST(Sinusoidal, DotProductDependsOnlyOnOffset) {
  // P_m . P_n = sum_k cos((m - n) w_k): same for every pair with the same offset.
  std::vector<int64_t> pos(200);
  std::iota(pos.begin(), pos.end(), 0);
  const Matrix P = sinusoidal_table(pos, 64);
  const auto w = sinusoidal_frequencies(64);
  for (int delta : {0, 1, 5, 37}) {
    double expected = 0;
    for (double wk : w) expected += std::cos(delta * wk);
    for (int m : {0, 17, 90, 150}) {
      EXPECT_NEAR(P.row(m).dot(P.row(m + delta)), expected, 1e-9) << "m=" << m << " delta=" << delta;
    }
  }
}

TEST(Sinusoidal, LargePositionsStayExact) {
  // Angles in double: p = 10^6 at w = 1 gives sin(10^6) to ~1e-10.
  const std::vector<int64_t> pos{1000000};
  const Matrix P = sinusoidal_table(pos, 2);
  EXPECT_NEAR(P(0, 0), std::sin(1e6), 1e-12);
}

TEST(Sinusoidal, FloatTableMatchesDouble) {
  std::vector<int64_t> pos(50);
  std::iota(pos.begin(), pos.end(), 0);
  const Matrix P = sinusoidal_table(pos, 32);
  const MatrixF Pf = sinusoidal_table_f(50, 32);
  EXPECT_LT((P.cast<float>() - Pf).cwiseAbs().maxCoeff(), 1e-6f);
}

TEST(Sinusoidal, BadArgumentsNameTheirField) {
  const std::vector<int64_t> pos{0};
  auto field_of = [&](auto fn) {
    try {
      fn();
    } catch (const InvalidArgument& e) { return e.field(); }
    return std::string("<no throw>");
  };
  EXPECT_EQ(field_of([&] { sinusoidal_table(pos, 3); }), "dim");
  EXPECT_EQ(field_of([&] { sinusoidal_table(pos, 0); }), "dim");
  EXPECT_EQ(field_of([&] { sinusoidal_table(pos, kMaxDim + 2); }), "dim");
  EXPECT_EQ(field_of([&] { sinusoidal_table(pos, 4, 1.0); }), "base");
  EXPECT_EQ(field_of([&] { sinusoidal_table(pos, 4, NAN); }), "base");
  const std::vector<int64_t> far{2000000};
  EXPECT_EQ(field_of([&] { sinusoidal_table(far, 4); }), "positions");
  EXPECT_EQ(field_of([&] { sinusoidal_table_f(0, 4); }), "n");
}
