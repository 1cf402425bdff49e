#include <gtest/gtest.h>

#include "core/encodings/deberta.h"

using namespace posenc;

TEST(Deberta, PlainRelativePositionsAreQueryMinusKey) {
  const MatrixI R = deberta_relative_positions(3, 4, -1, -1);
  ASSERT_EQ(R.rows(), 3);
  ASSERT_EQ(R.cols(), 4);
  for (int q = 0; q < 3; ++q)
    for (int k = 0; k < 4; ++k) EXPECT_EQ(R(q, k), q - k);
  // bucket_size > 0 alone does not turn bucketing on (the reference needs both > 0).
  EXPECT_EQ(deberta_relative_positions(1, 40, 8, -1)(0, 39), -39);
}

TEST(Deberta, LogBucketReferenceValues) {
  // bucket_size 8 (mid 4), max_position 16: ceil(ln(a/4) / ln(15/4) * 3) + 4 for |rel| > 4.
  EXPECT_EQ(deberta_log_bucket(4, 8, 16), 4);
  EXPECT_EQ(deberta_log_bucket(-4, 8, 16), -4);
  EXPECT_EQ(deberta_log_bucket(5, 8, 16), 5);     // 0.506 -> 1
  EXPECT_EQ(deberta_log_bucket(6, 8, 16), 5);     // 0.920 -> 1
  EXPECT_EQ(deberta_log_bucket(7, 8, 16), 6);     // 1.270 -> 2
  EXPECT_EQ(deberta_log_bucket(15, 8, 16), 7);    // exactly 3 (same float32 log both sides)
  EXPECT_EQ(deberta_log_bucket(16, 8, 16), 8);    // 3.146 -> 4
  EXPECT_EQ(deberta_log_bucket(100, 8, 16), 12);  // not clamped: 7.30 -> 8 + 4
  EXPECT_EQ(deberta_log_bucket(-100, 8, 16), -12);
}

TEST(Deberta, LogBucketsOddAndMonotone) {
  for (int64_t bs : {4, 8, 64, 256}) {
    for (int64_t mp : {bs / 2 + 2, bs * 2, int64_t{512}}) {
      int64_t prev = 0;
      for (int64_t r = 0; r <= 4 * mp; ++r) {
        const int64_t b = deberta_log_bucket(r, bs, mp);
        EXPECT_EQ(deberta_log_bucket(-r, bs, mp), -b);
        EXPECT_GE(b, prev);
        if (r <= bs / 2) { EXPECT_EQ(b, r); }
        prev = b;
      }
    }
  }
}

TEST(Deberta, MatrixUsesBuckets) {
  const MatrixI R = deberta_relative_positions(20, 20, 8, 16);
  EXPECT_EQ(R(19, 0), deberta_log_bucket(19, 8, 16));
  EXPECT_EQ(R(0, 19), -deberta_log_bucket(19, 8, 16));
  EXPECT_EQ(R(5, 3), 2);
}

TEST(Deberta, RejectsDegenerateBuckets) {
  EXPECT_THROW(deberta_relative_positions(2, 2, 1, 16), InvalidArgument);  // mid = 0
  try {
    deberta_relative_positions(2, 2, 8, 5);  // max_position - 1 == mid: log of 1 divides
    FAIL();
  } catch (const InvalidArgument& e) { EXPECT_EQ(e.field(), "max_position"); }
  EXPECT_THROW(deberta_relative_positions(-1, 2, -1, -1), InvalidArgument);
}
