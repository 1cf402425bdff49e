#include <gtest/gtest.h>

#include <cmath>

#include "core/encodings/alibi.h"

using namespace posenc;

TEST(Alibi, PowerOfTwoSlopes) {
  const auto s8 = alibi_slopes(8);  // 1/2, 1/4, ..., 1/256
  ASSERT_EQ(s8.size(), 8u);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(s8[i], std::ldexp(1.0, -(i + 1)));
  const auto s16 = alibi_slopes(16);  // 2^-0.5 ... 2^-8
  for (int i = 0; i < 16; ++i) EXPECT_NEAR(s16[i], std::pow(2.0, -0.5 * (i + 1)), 1e-14 * s16[i]);
  // Press computes start * ratio**i, so 2^-0.5 * 2^-0.5 is 0.5000000000000001 there, and here.
  EXPECT_EQ(s16[1], 0.5000000000000001);
  EXPECT_EQ(alibi_slopes(1), std::vector<double>{1.0 / 256});
}

TEST(Alibi, NonPowerOfTwoTakesEveryOtherSlopeOfTwiceTheCount) {
  const auto s12 = alibi_slopes(12);
  const auto s8 = alibi_slopes(8), s16 = alibi_slopes(16);
  ASSERT_EQ(s12.size(), 12u);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(s12[i], s8[i]);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(s12[8 + i], s16[2 * i]);
  // Not re-sorted: the extra slopes start above the last power-of-two slope.
  EXPECT_GT(s12[8], s12[7]);
  const auto s3 = alibi_slopes(3);  // [1/16, 1/256] + [1/4]
  EXPECT_EQ(s3, (std::vector<double>{1.0 / 16, 1.0 / 256, 0.25}));
}

TEST(Alibi, BiasIsMinusSlopeTimesDistance) {
  const std::vector<int64_t> q{0, 3}, k{0, 1, 5};
  const Matrix B = alibi_bias(q, k, 0.25);
  EXPECT_EQ(B(0, 0), 0.0);
  EXPECT_EQ(B(0, 2), -1.25);
  EXPECT_EQ(B(1, 0), -0.75);
  EXPECT_EQ(B(1, 2), -0.5);
}

TEST(Alibi, RejectsBadHeadCounts) {
  EXPECT_THROW(alibi_slopes(0), InvalidArgument);
  EXPECT_THROW(alibi_slopes(1025), InvalidArgument);
  EXPECT_EQ(alibi_slopes(1000).size(), 1000u);
}
