#include <gtest/gtest.h>

#include "core/encodings/t5.h"

using namespace posenc;

TEST(T5Bucket, ReferenceTableBidirectional) {
  // num_buckets 32, max_distance 128, bidirectional: 16 per side, exact below 8, then
  // 8 + floor(2 log2(n/8)) capped at 15; keys after the query in 16..31.
  const std::vector<std::pair<int64_t, int>> cases = {{0, 0},    {-1, 1},   {-7, 7},    {-8, 8},    {-11, 8},    {-12, 9},
                                                      {-15, 9},  {-16, 10}, {-22, 10},  {-23, 11},  {-32, 12},   {-64, 14},
                                                      {-90, 14}, {-91, 15}, {-127, 15}, {-128, 15}, {-1000, 15}, {1, 17},
                                                      {7, 23},   {8, 24},   {16, 26},   {64, 30},   {128, 31},   {100000, 31}};
  for (auto [r, b] : cases) EXPECT_EQ(t5_bucket(r, true, 32, 128), b) << "r = " << r;
}

TEST(T5Bucket, ReferenceTableCausal) {
  // Causal: 32 buckets on one side, exact below 16, r > 0 -> 0.
  const std::vector<std::pair<int64_t, int>> cases = {{5, 0},    {0, 0},    {-1, 1},    {-15, 15},  {-16, 16},  {-20, 17},
                                                      {-32, 21}, {-64, 26}, {-127, 31}, {-128, 31}, {-5000, 31}};
  for (auto [r, b] : cases) EXPECT_EQ(t5_bucket(r, false, 32, 128), b) << "r = " << r;
}

TEST(T5Bucket, MonotoneAndSymmetric) {
  for (int nb : {4, 8, 32, 33, 64}) {
    for (int64_t md : {int64_t{nb}, int64_t{128}, int64_t{1000}}) {
      const int half = nb / 2;
      if (half / 2 < 1 || md <= half / 2) continue;
      int prev_b = -1, prev_c = -1;
      for (int64_t n = 0; n <= 3 * md; ++n) {
        const int neg = t5_bucket(-n, true, nb, md);
        EXPECT_GE(neg, prev_b);  // non-decreasing in distance
        EXPECT_LT(neg, half);
        if (n > 0) { EXPECT_EQ(t5_bucket(n, true, nb, md), neg + half) << nb << " " << md << " " << n; }
        prev_b = neg;
        const int causal = t5_bucket(-n, false, nb, md);
        EXPECT_GE(causal, prev_c);
        EXPECT_LT(causal, nb);
        EXPECT_EQ(t5_bucket(n, false, nb, md), 0);
        prev_c = causal;
      }
      EXPECT_EQ(t5_bucket(-md, true, nb, md), half - 1);  // max_distance reaches the last bucket
    }
  }
}

TEST(T5Bucket, RejectsDegenerateConfigs) {
  EXPECT_THROW(t5_bucket(0, true, 0, 128), InvalidArgument);
  EXPECT_THROW(t5_bucket(0, true, 3, 128), InvalidArgument);   // max_exact = 0
  EXPECT_THROW(t5_bucket(0, false, 1, 128), InvalidArgument);  // max_exact = 0
  EXPECT_NO_THROW(t5_bucket(0, false, 2, 2));
  try {
    t5_bucket(0, true, 32, 8);  // max_distance <= max_exact
    FAIL();
  } catch (const InvalidArgument& e) { EXPECT_EQ(e.field(), "max_distance"); }
}

TEST(T5Bias, MatrixLooksUpBuckets) {
  std::vector<double> bias(32);
  for (int b = 0; b < 32; ++b) bias[b] = 0.5 * b;
  const std::vector<int64_t> q{0, 1}, k{0, 1, 2};
  const Matrix B = t5_bias_matrix(q, k, true, 32, 128, bias);
  EXPECT_EQ(B(0, 0), 0.0);
  EXPECT_EQ(B(0, 2), 0.5 * 18);  // r = +2 -> bucket 16 + 2
  EXPECT_EQ(B(1, 0), 0.5 * 1);   // r = -1
}
