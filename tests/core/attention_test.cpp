#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "core/attention/attention.h"
#include "core/encodings/deberta.h"
#include "core/rng.h"
#include "test_util.h"

using namespace posenc;
using posenc::test::iota;
using posenc::test::random_matrix;

namespace {

std::string field_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InvalidArgument& e) { return e.field(); }
  return "<no error>";
}

Matrix permute_rows(const Matrix& m, const std::vector<int>& perm) {
  Matrix out(m.rows(), m.cols());
  for (size_t i = 0; i < perm.size(); ++i) out.row(i) = m.row(perm[i]);
  return out;
}

}  // namespace

TEST(Softmax, StableAndMasked) {
  Matrix l(3, 3);
  const double inf = std::numeric_limits<double>::infinity();
  l << 1000, 1000 + std::log(3.0), -inf,  //
      -inf, -inf, -inf,                   //
      0, 0, 0;
  const Matrix w = softmax_rows(l);
  EXPECT_NEAR(w(0, 0), 0.25, 1e-12);  // 1000 + ln 3 carries ~1e-13 rounding
  EXPECT_NEAR(w(0, 1), 0.75, 1e-12);
  EXPECT_EQ(w(0, 2), 0.0);
  EXPECT_EQ(w.row(1).sum(), 0.0);  // fully masked: zeros, not NaN
  EXPECT_NEAR(w(2, 1), 1.0 / 3, 1e-16);
}

TEST(Attention, NoPositionHandValues) {
  Matrix q(2, 2), k(2, 2), v(2, 2);
  q << 1, 0, 0, 1;
  k << 1, 0, 0, 1;
  v << 1, 2, 3, 4;
  const auto pos = iota(2);
  AttentionSpec spec;
  spec.causal = true;
  const AttentionResult r = attention(q, k, &v, pos, pos, spec);
  EXPECT_DOUBLE_EQ(r.scale, 1 / std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(r.logits(0, 0), 1 / std::sqrt(2.0));
  EXPECT_TRUE(r.masked(0, 1));
  EXPECT_EQ(r.weights(0, 1), 0.0);
  const double e = std::exp(1 / std::sqrt(2.0));
  EXPECT_NEAR(r.weights(1, 1), e / (1 + e), 1e-15);
  EXPECT_NEAR((*r.output)(1, 0), (1 + 3 * e) / (1 + e), 1e-14);
}

TEST(Attention, FullyMaskedRowGivesZeroWeightsAndOutput) {
  const Matrix q = random_matrix(2, 4, 1), k = random_matrix(3, 4, 2), v = random_matrix(3, 2, 3);
  const std::vector<int64_t> qp{0, 10}, kp{5, 6, 7};
  AttentionSpec spec;
  spec.causal = true;
  const AttentionResult r = attention(q, k, &v, qp, kp, spec);
  for (int j = 0; j < 3; ++j) EXPECT_TRUE(r.masked(0, j));
  EXPECT_EQ(r.weights.row(0).sum(), 0.0);
  EXPECT_EQ(r.output->row(0).cwiseAbs().sum(), 0.0);
  EXPECT_NEAR(r.weights.row(1).sum(), 1.0, 1e-15);
}

TEST(Attention, NoPeIsPermutationEquivariantRopeIsNot) {
  const int n = 5, d = 8;
  const Matrix x = random_matrix(n, d, 7);  // tokens; q = k = v = x for simplicity
  const auto pos = iota(n);                 // slots keep their positions; tokens move
  const std::vector<int> perm{3, 0, 4, 1, 2};
  const Matrix xp = permute_rows(x, perm);
  for (bool use_rope : {false, true}) {
    AttentionSpec spec;
    if (use_rope) spec.position = RopePosition{};
    const Matrix out = *attention(x, x, &x, pos, pos, spec).output;
    const Matrix outp = *attention(xp, xp, &xp, pos, pos, spec).output;
    const double row_diff = (permute_rows(out, perm) - outp).cwiseAbs().maxCoeff();
    const double pooled_diff = (out.colwise().mean() - outp.colwise().mean()).cwiseAbs().maxCoeff();
    if (use_rope) {
      EXPECT_GT(row_diff, 1e-3);
      EXPECT_GT(pooled_diff, 1e-6);
    } else {
      EXPECT_LT(row_diff, 1e-14);
      EXPECT_LT(pooled_diff, 1e-14);
    }
  }
}

TEST(Attention, RopeLogitsAreScaledRotatedDotProducts) {
  const Matrix q = random_matrix(3, 6, 11), k = random_matrix(4, 6, 12);
  const auto qp = iota(3, 4), kp = iota(4);
  AttentionSpec spec;
  spec.position = RopePosition{500.0, {}, RopeLayout::Interleaved};
  const AttentionResult r = attention(q, k, nullptr, qp, kp, spec);
  const auto f = rope_frequencies(6, 500.0);
  const Matrix ref = (rope_apply(q, qp, f, RopeLayout::Interleaved) * rope_apply(k, kp, f, RopeLayout::Interleaved).transpose()) /
                     std::sqrt(6.0);
  EXPECT_LT((r.logits - ref).cwiseAbs().maxCoeff(), 1e-14);
  EXPECT_FALSE(r.output.has_value());
}

TEST(Attention, T5AddsBucketBiasWithoutScaling) {
  const Matrix q = random_matrix(2, 3, 1), k = random_matrix(3, 3, 2);
  const std::vector<int64_t> qp{0, 1}, kp{0, 1, 2};
  T5Position t5;
  t5.bias.resize(32);
  std::iota(t5.bias.begin(), t5.bias.end(), 0.0);  // bias = bucket index
  AttentionSpec spec{t5, std::nullopt, false};
  const AttentionResult r = attention(q, k, nullptr, qp, kp, spec);
  EXPECT_EQ(r.scale, 1.0);
  EXPECT_DOUBLE_EQ(r.logits(0, 2), q.row(0).dot(k.row(2)) + 18);  // r = +2 -> bucket 18
  EXPECT_DOUBLE_EQ(r.logits(1, 0), q.row(1).dot(k.row(0)) + 1);   // r = -1 -> bucket 1
  spec.scale = 0.5;
  EXPECT_DOUBLE_EQ(attention(q, k, nullptr, qp, kp, spec).logits(1, 1), 0.5 * q.row(1).dot(k.row(1)) + 0);
}

TEST(Attention, AlibiSubtractsSlopeDistance) {
  const Matrix q = random_matrix(2, 4, 1), k = random_matrix(2, 4, 2);
  const std::vector<int64_t> qp{0, 3}, kp{0, 1};
  AttentionSpec spec{AlibiPosition{0.5}, std::nullopt, false};
  const AttentionResult r = attention(q, k, nullptr, qp, kp, spec);
  EXPECT_DOUBLE_EQ(r.logits(1, 0), q.row(1).dot(k.row(0)) / 2 - 1.5);
  ASSERT_EQ(r.terms.size(), 2u);
  EXPECT_EQ(r.terms[1].values(1, 1), -1.0);
}

TEST(Attention, ShawClipsIntoKeyAndValueTables) {
  // d = dv = 1, K = 1: tables rows for clipped distances -1, 0, +1.
  Matrix q(1, 1), k(3, 1), v(3, 1), kt(3, 1), vt(3, 1);
  q << 2;
  k << 1, 1, 1;
  v << 0, 0, 0;
  kt << 10, 20, 30;
  vt << 100, 200, 300;
  const std::vector<int64_t> qp{1}, kp{0, 1, 5};
  ShawPosition shaw{1, kt, vt};
  AttentionSpec spec{shaw, 1.0, false};
  const AttentionResult r = attention(q, k, &v, qp, kp, spec);
  EXPECT_EQ(r.logits(0, 0), 2 * (1 + 10));  // distance -1
  EXPECT_EQ(r.logits(0, 1), 2 * (1 + 20));  // distance 0
  EXPECT_EQ(r.logits(0, 2), 2 * (1 + 30));  // distance +4 clipped to +1
  const double expected = r.weights(0, 0) * 100 + r.weights(0, 1) * 200 + r.weights(0, 2) * 300;
  EXPECT_NEAR((*r.output)(0, 0), expected, 1e-12);
  EXPECT_EQ(field_of([&] {
              ShawPosition bad = shaw;
              bad.value_table.reset();
              attention(q, k, &v, qp, kp, AttentionSpec{bad, 1.0, false});
            }),
            "position.value_table");
}

TEST(Attention, DebertaDisentangledTerms) {
  // d = 1, no bucketing, s = max_position = 2: tables of 4 rows indexed clamp(q - k + 2, 0, 3).
  Matrix q(1, 1), k(2, 1), pk(4, 1), pq(4, 1);
  q << 2;
  k << 3, 5;
  pk << 1, 2, 3, 4;
  pq << 10, 20, 30, 40;
  const std::vector<int64_t> qp{3}, kp{3, 0};
  DebertaPosition deb{-1, 2, pk, pq};
  const AttentionResult r = attention(q, k, nullptr, qp, kp, AttentionSpec{deb, std::nullopt, false});
  EXPECT_DOUBLE_EQ(r.scale, 1 / std::sqrt(3.0));
  // (3, 3): delta 0 -> c = 2. (3, 0): delta 3 -> c = clamp(5) = 3.
  EXPECT_NEAR(r.logits(0, 0), (2 * 3 + 2 * 3 + 3 * 30) / std::sqrt(3.0), 1e-13);
  EXPECT_NEAR(r.logits(0, 1), (2 * 5 + 2 * 4 + 5 * 40) / std::sqrt(3.0), 1e-13);
  ASSERT_EQ(r.terms.size(), 3u);
  EXPECT_EQ(field_of([&] {
              DebertaPosition bad = deb;
              bad.pos_key = Matrix::Zero(3, 1);
              attention(q, k, nullptr, qp, kp, AttentionSpec{bad, std::nullopt, false});
            }),
            "position.pos_key");
}

// p2c for fewer query rows than relative positions (a readout's one row) takes one dot product per entry
// instead of the whole k pos_query^T: each single row equals that row of the full product (the m x 2s path).
TEST(Attention, DebertaSingleRowsEqualTheFullMatrix) {
  const int n = 40, d = 8;
  const Matrix q = seeded_normal_matrix(n, d, 1, 1.0), k = seeded_normal_matrix(n, d, 2, 1.0);
  const Matrix pk = seeded_normal_matrix(16, d, 3, 1.0), pq = seeded_normal_matrix(16, d, 4, 1.0);
  std::vector<int64_t> pos(n);
  std::iota(pos.begin(), pos.end(), int64_t{0});
  const DebertaPosition deb{8, 16, pk, pq};  // s = 8: 16 relative positions < 40 rows: the full product
  const AttentionResult full = attention(q, k, nullptr, pos, pos, AttentionSpec{deb, std::nullopt, true});
  for (int row : {0, 1, 17, n - 1}) {
    SCOPED_TRACE(row);
    const std::vector<int64_t> qp{row};
    const AttentionResult one = attention(q.row(row), k, nullptr, qp, pos, AttentionSpec{deb, std::nullopt, true});
    ASSERT_EQ(one.terms.size(), full.terms.size());
    for (size_t t = 0; t < full.terms.size(); ++t)
      for (int j = 0; j < n; ++j) EXPECT_NEAR(one.terms[t].values(0, j), full.terms[t].values(row, j), 1e-14) << t << " " << j;
    for (int j = 0; j <= row; ++j) EXPECT_NEAR(one.weights(0, j), full.weights(row, j), 1e-14) << j;
  }
}

TEST(Attention, TransformerXlFourTerms) {
  Matrix q(1, 2), k(2, 2), W = Matrix::Identity(2, 2);
  q << 1, 2;
  k << 3, 4, 5, 6;
  Vector u(2), v(2);
  u << 0.5, 0;
  v << 0, 0.25;
  const std::vector<int64_t> qp{2}, kp{2, 0};
  XlPosition xl{u, v, W, 10000.0};
  const AttentionResult r = attention(q, k, nullptr, qp, kp, AttentionSpec{xl, 1.0, false});
  // R_delta = [sin delta, cos delta] for d = 2; delta = 0 and 2.
  auto expect = [&](int j, double delta) {
    const double Rs = std::sin(delta), Rc = std::cos(delta);
    return (1 + 0.5) * k(j, 0) + 2 * k(j, 1) + (1 * Rs + (2 + 0.25) * Rc);
  };
  EXPECT_NEAR(r.logits(0, 0), expect(0, 0), 1e-14);
  EXPECT_NEAR(r.logits(0, 1), expect(1, 2), 1e-14);
  ASSERT_EQ(r.terms.size(), 4u);
  EXPECT_NEAR(r.terms[2].values(0, 1), 0.5 * 5, 1e-15);  // (c) u . k
}

TEST(Attention, TermsSumToLogits) {
  const Matrix q = random_matrix(3, 4, 1), k = random_matrix(3, 4, 2);
  const auto pos = iota(3);
  XlPosition xl{random_matrix(4, 1, 3).col(0), random_matrix(4, 1, 4).col(0), random_matrix(4, 4, 5), 10000.0};
  const AttentionResult r = attention(q, k, nullptr, pos, pos, AttentionSpec{xl, std::nullopt, false});
  Matrix sum = Matrix::Zero(3, 3);
  for (const auto& t : r.terms) sum += t.values;
  EXPECT_LT((sum - r.logits).cwiseAbs().maxCoeff(), 1e-14);
}

TEST(Attention, RejectsBadShapesWithFields) {
  const Matrix q = random_matrix(2, 4, 1), k = random_matrix(3, 4, 2), v = random_matrix(2, 2, 3);
  const auto qp = iota(2), kp = iota(3);
  AttentionSpec none;
  EXPECT_EQ(field_of([&] { attention(q, random_matrix(3, 5, 1), nullptr, qp, kp, none); }), "k");
  EXPECT_EQ(field_of([&] { attention(q, k, &v, qp, kp, none); }), "v");
  EXPECT_EQ(field_of([&] { attention(q, k, nullptr, kp, kp, none); }), "query_positions");
  EXPECT_EQ(field_of([&] { attention(q, k, nullptr, qp, qp, none); }), "key_positions");
  const std::vector<int64_t> far{0, 2'000'000};
  EXPECT_EQ(field_of([&] { attention(q, k, nullptr, far, kp, none); }), "query_positions");
  EXPECT_EQ(field_of([&] {
              attention(random_matrix(2, 3, 1), random_matrix(3, 3, 1), nullptr, qp, kp,
                        AttentionSpec{RopePosition{}, std::nullopt, false});
            }),
            "q");
  RopePosition bad_base{1.0, {}, RopeLayout::Half};
  EXPECT_EQ(field_of([&] { attention(q, k, nullptr, qp, kp, AttentionSpec{bad_base, std::nullopt, false}); }), "position.base");
  T5Position t5;
  t5.bias = {1, 2};
  EXPECT_EQ(field_of([&] { attention(q, k, nullptr, qp, kp, AttentionSpec{t5, std::nullopt, false}); }), "position.bias");
  Matrix huge = q;
  huge(0, 0) = 1e300;
  Matrix hugek = k;
  hugek(0, 0) = 1e300;
  EXPECT_NE(field_of([&] { attention(huge, hugek, nullptr, qp, kp, none); }), "<no error>");
}
