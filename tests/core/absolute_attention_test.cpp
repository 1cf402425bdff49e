#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "core/attention/absolute_attention.h"
#include "core/encodings/sinusoidal.h"

using namespace posenc;

TEST(AbsoluteAttention, FourTermsSumToTheLogitsOfTheSummedInput) {
  const int n = 7, d = 8;
  Matrix x = Matrix::Random(n, d), wq = Matrix::Random(d, d), wk = Matrix::Random(d, d), wv = Matrix::Random(d, 3);
  std::vector<int64_t> pos(n);
  std::iota(pos.begin(), pos.end(), 0);
  const Matrix pe = sinusoidal_table(pos, d);
  const double scale = 1 / std::sqrt(double(d));
  const AttentionResult r = absolute_attention(x, pe, wq, wk, &wv, scale, false);
  ASSERT_EQ(r.terms.size(), 4u);
  const Matrix q = (x + pe) * wq, k = (x + pe) * wk;
  const Matrix expect = scale * q * k.transpose();
  EXPECT_LE((r.logits - expect).cwiseAbs().maxCoeff(), 1e-12);
  // Position-position term alone is p_i W_Q . p_j W_K.
  EXPECT_LE((r.terms[3].values - scale * (pe * wq) * (pe * wk).transpose()).cwiseAbs().maxCoeff(), 1e-12);
  const AttentionResult plain = attention(q, k, nullptr, pos, pos, AttentionSpec{NoPosition{}, scale, false});
  EXPECT_LE((r.weights - plain.weights).cwiseAbs().maxCoeff(), 1e-14);
  ASSERT_TRUE(r.output.has_value());
  EXPECT_LE((*r.output - r.weights * ((x + pe) * wv)).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(AbsoluteAttention, CausalMasksUpperTriangle) {
  const int n = 5, d = 4;
  Matrix x = Matrix::Random(n, d), w = Matrix::Identity(d, d);
  std::vector<int64_t> pos(n);
  std::iota(pos.begin(), pos.end(), 0);
  const AttentionResult r = absolute_attention(x, sinusoidal_table(pos, d), w, w, nullptr, 0.5, true);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      EXPECT_EQ(r.masked(i, j), j > i);
      if (j > i) { EXPECT_EQ(r.weights(i, j), 0.0); }
    }
  EXPECT_NEAR(r.weights.row(2).sum(), 1.0, 1e-15);
}
