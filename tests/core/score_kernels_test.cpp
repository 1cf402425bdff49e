// Float32 score kernels (src/core/score_kernels.h) against the double-precision core, for every scheme,
// on every path of the build (Portable and Best everywhere; Simd128 in the wasm test run), on shape edges:
// n = 1, d = 2, n and m not multiples of the 4 x 8 GEMM tile, distinct / shifted / non-contiguous positions.
// The double reference is computed from the float-rounded inputs, so the bounds measure the kernels' own
// float arithmetic (k-sums of d products in float, float exp and sin/cos).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "core/attention/absolute_attention.h"
#include "core/attention/attention.h"
#include "core/attention/score_kernels.h"
#include "core/encodings/sinusoidal.h"
#include "kernel_test_util.h"
#include "test_util.h"

using namespace posenc;
using posenc::test::iota;
using posenc::test::random_matrix;

namespace {

using posenc::test::kernel_paths;

using posenc::test::rel_err;

struct Case {
  const char* name;
  AttentionSpec spec;
};

// One spec per scheme (two for RoPE layouts and a scaled RoPE), tables drawn at width d.
std::vector<Case> schemes(int d, bool causal) {
  std::vector<Case> c;
  auto add = [&](const char* name, PositionScheme p) { c.push_back({name, AttentionSpec{std::move(p), {}, causal}}); };
  add("none", NoPosition{});
  add("rope-half", RopePosition{10000.0, {}, RopeLayout::Half});
  add("rope-interleaved", RopePosition{500.0, {}, RopeLayout::Interleaved});
  RopeScaling yarn;
  yarn.type = RopeScalingType::Yarn;
  yarn.factor = 4.0;
  yarn.original_max_position_embeddings = 16;
  add("rope-yarn", RopePosition{10000.0, yarn, RopeLayout::Half});
  // Partial rotary (GPT-NeoX, GPT-J, DeepSeek's MLA): the first rotary_dim dims rotate, the rest pass through;
  // and LongRoPE, whose factors switch with the current length (one past the largest position).
  const int rd = d >= 4 ? std::max(2, (d / 2) & ~1) : d;
  add("rope-partial-half", RopePosition{10000.0, yarn, RopeLayout::Half, rd});
  add("rope-partial-interleaved", RopePosition{10000.0, {}, RopeLayout::Interleaved, rd});
  RopeScaling longrope;
  longrope.type = RopeScalingType::Longrope;
  longrope.factor = 8.0;
  longrope.original_max_position_embeddings = 16;
  for (int i = 0; i < rd / 2; ++i) {
    longrope.short_factor.push_back(1.0 + 0.1 * i);
    longrope.long_factor.push_back(2.0 + 3.0 * i);
  }
  add("rope-partial-longrope", RopePosition{10000.0, longrope, RopeLayout::Half, rd});
  T5Position t5;
  t5.bidirectional = !causal;
  t5.num_buckets = 8;
  t5.max_distance = 20;
  const Matrix b = random_matrix(8, 1, 31);
  t5.bias.assign(b.data(), b.data() + b.size());
  add("t5", t5);
  add("alibi", AlibiPosition{0.25});
  ShawPosition shaw;
  shaw.max_relative_position = 3;
  shaw.key_table = random_matrix(7, d, 32);
  add("shaw", shaw);
  DebertaPosition deb;
  deb.bucket_size = 8;
  deb.max_position = 32;
  deb.pos_key = random_matrix(16, d, 33);
  deb.pos_query = random_matrix(16, d, 34);
  add("deberta", deb);
  XlPosition xl;
  xl.u = random_matrix(d, 1, 35).col(0);
  xl.v = random_matrix(d, 1, 36).col(0);
  xl.r_proj = random_matrix(d, d, 37) / std::sqrt(double(d));
  add("xl", xl);
  add("learned", LearnedBiasPosition{random_matrix(9, 2, 38), 1});
  return c;
}

void expect_matches_core(const Matrix& q, const Matrix& k, const std::vector<int64_t>& qp, const std::vector<int64_t>& kp, int d,
                         bool causal) {
  const MatrixF qf = q.cast<float>(), kf = k.cast<float>();
  const Matrix qd = qf.cast<double>(), kd = kf.cast<double>();
  for (const Case& c : schemes(d, causal)) {
    const AttentionResult ref = attention(qd, kd, nullptr, qp, kp, c.spec);
    for (kernels::Path path : kernel_paths()) {
      SCOPED_TRACE(testing::Message() << c.name << " n=" << q.rows() << " m=" << k.rows() << " d=" << d << " causal=" << causal
                                      << " path=" << int(path));
      const kernels::AttentionF got = kernels::attention_f(qf, kf, qp, kp, c.spec, path);
      EXPECT_DOUBLE_EQ(got.scale, ref.scale);
      ASSERT_EQ(got.terms.size(), ref.terms.size());
      for (std::size_t t = 0; t < ref.terms.size(); ++t) {
        EXPECT_EQ(got.terms[t].name, ref.terms[t].name);
        EXPECT_LT(rel_err(got.terms[t].values, ref.terms[t].values), 2e-6) << ref.terms[t].name;
      }
      EXPECT_LT(rel_err(got.logits, ref.logits), 2e-6);
      // Weights move by w * (logit error): T5's unscaled logits (~|q| |k|) make that ~1e-5 relative at d = 64.
      EXPECT_LT(rel_err(got.weights, ref.weights), 1e-5);
      EXPECT_TRUE((got.weights.array() >= 0).all());
    }
  }
}

}  // namespace

TEST(ScoreKernels, EverySchemeMatchesCoreOnShapeEdges) {
  // (n, m, d): a single token at the smallest width, sizes off the 4 x 8 tile, a view-like size.
  for (auto [n, m, d] : {std::tuple{1, 1, 2}, {1, 5, 2}, {5, 1, 4}, {13, 13, 6}, {9, 17, 2}, {37, 37, 64}}) {
    const Matrix q = random_matrix(n, d, 1), k = random_matrix(m, d, 2);
    for (bool causal : {false, true}) {
      expect_matches_core(q, k, iota(n), iota(m), d, causal);           // contiguous, as the views
      expect_matches_core(q, k, iota(n, 100), iota(m, 95), d, causal);  // shifted, distinct
    }
  }
}

TEST(ScoreKernels, NonContiguousAndFarPositions) {
  // Keys not contiguous (SIMD fill falls back to the gather), reversed queries, positions near 10^6
  // (XL's R at |i - j| ~ 2 * 10^6: the sparse-delta path; angles reduced in double).
  const int d = 8;
  const Matrix q = random_matrix(6, d, 3), k = random_matrix(7, d, 4);
  expect_matches_core(q, k, {5, 4, 3, 2, 1, 0}, {0, 3, 6, 9, 12, 15, 18}, d, false);
  expect_matches_core(q, k, {5, 4, 3, 2, 1, 0}, {0, 3, 6, 9, 12, 15, 18}, d, true);
  expect_matches_core(q, k, {-1000000, 0, 7, 999999, 1000000, 12}, {1000000, -999998, 3, 4, 5, 500000, -1}, d, false);
}

TEST(ScoreKernels, AbsoluteFourTermsMatchCore) {
  for (auto [n, d] : {std::tuple{1, 2}, {13, 6}, {33, 32}}) {
    const MatrixF x = random_matrix(n, d, 5).cast<float>(), pe = sinusoidal_table(iota(n), d).cast<float>();
    const MatrixF wq = (random_matrix(d, d, 6) / std::sqrt(double(d))).cast<float>();
    const MatrixF wk = (random_matrix(d, d, 7) / std::sqrt(double(d))).cast<float>();
    for (bool causal : {false, true}) {
      const AttentionResult ref = absolute_attention(x.cast<double>(), pe.cast<double>(), wq.cast<double>(), wk.cast<double>(),
                                                     nullptr, 1.0 / std::sqrt(double(d)), causal);
      for (kernels::Path path : kernel_paths()) {
        SCOPED_TRACE(testing::Message() << "n=" << n << " d=" << d << " causal=" << causal << " path=" << int(path));
        const kernels::AttentionF got = kernels::absolute_attention_f(x, pe, wq, wk, 1.0 / std::sqrt(double(d)), causal, path);
        ASSERT_EQ(got.terms.size(), 4u);
        for (std::size_t t = 0; t < 4; ++t) {
          EXPECT_EQ(got.terms[t].name, ref.terms[t].name);
          EXPECT_LT(rel_err(got.terms[t].values, ref.terms[t].values), 2e-6);
        }
        EXPECT_LT(rel_err(got.logits, ref.logits), 2e-6);
        EXPECT_LT(rel_err(got.weights, ref.weights), 2e-6);
      }
    }
  }
}

// masked_fill (the scores view's pictures): the causally masked cells are not computed and hold the fill in
// every term, the logits and the weights; every other cell is the full job's (the products and sums bit for
// bit, the weights to float rounding: their row sums run over the visible keys only).
void expect_masked_fill_matches_full(const kernels::AttentionF& full, const kernels::AttentionF& filled,
                                     const std::vector<int64_t>& qp, const std::vector<int64_t>& kp, float fill) {
  ASSERT_EQ(full.terms.size(), filled.terms.size());
  int masked = 0;
  for (int i = 0; i < int(qp.size()); ++i)
    for (int j = 0; j < int(kp.size()); ++j) {
      SCOPED_TRACE(testing::Message() << "cell " << i << "," << j);
      if (kp[size_t(j)] > qp[size_t(i)]) {
        ++masked;
        for (const kernels::TermF& t : filled.terms) EXPECT_EQ(t.values(i, j), fill) << t.name;
        EXPECT_EQ(filled.logits(i, j), fill);
        EXPECT_EQ(filled.weights(i, j), fill);
        continue;
      }
      for (std::size_t t = 0; t < full.terms.size(); ++t) EXPECT_EQ(filled.terms[t].values(i, j), full.terms[t].values(i, j));
      EXPECT_EQ(filled.logits(i, j), full.logits(i, j));
      EXPECT_NEAR(filled.weights(i, j), full.weights(i, j), 1e-6 * std::abs(full.weights(i, j)) + 1e-30);
    }
  EXPECT_GT(masked, 0);  // the case has masked cells at all
}

TEST(ScoreKernels, MaskedFillComputesOnlyTheVisibleKeys) {
  const float fill = 3.0e38f;
  const int d = 8;
  // Contiguous (the view), a preview's coarser grid (every 3rd and the last), shifted keys, reversed
  // queries; n, m off the 4 x 8 tile.
  const std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>> grids = {
      {iota(37), iota(37)},
      {{0, 3, 6, 9, 12, 15, 18, 20}, {0, 3, 6, 9, 12, 15, 18, 20}},
      {iota(13, 10), iota(21, 0)},
      {{5, 4, 3, 2, 1, 0}, {0, 1, 2, 6, 9, 15, 20}},
  };
  for (const auto& [qp, kp] : grids) {
    const MatrixF q = random_matrix(int(qp.size()), d, 11).cast<float>(), k = random_matrix(int(kp.size()), d, 12).cast<float>();
    for (const Case& c : schemes(d, true))
      for (kernels::Path path : kernel_paths()) {
        SCOPED_TRACE(testing::Message() << c.name << " n=" << qp.size() << " m=" << kp.size() << " path=" << int(path));
        const kernels::AttentionF full = kernels::attention_f(q, k, qp, kp, c.spec, path);
        const kernels::AttentionF filled = kernels::attention_f(q, k, qp, kp, c.spec, path, {}, fill);
        expect_masked_fill_matches_full(full, filled, qp, kp, fill);
      }
  }
  for (int n : {1, 13, 40}) {
    const MatrixF x = random_matrix(n, d, 5).cast<float>(), pe = sinusoidal_table(iota(n), d).cast<float>();
    const MatrixF wq = (random_matrix(d, d, 6) / std::sqrt(double(d))).cast<float>();
    const MatrixF wk = (random_matrix(d, d, 7) / std::sqrt(double(d))).cast<float>();
    for (kernels::Path path : kernel_paths()) {
      SCOPED_TRACE(testing::Message() << "absolute n=" << n << " path=" << int(path));
      const kernels::AttentionF full = kernels::absolute_attention_f(x, pe, wq, wk, 0.25, true, path);
      const kernels::AttentionF filled = kernels::absolute_attention_f(x, pe, wq, wk, 0.25, true, path, fill);
      if (n == 1) {  // nothing is masked: the same job
        EXPECT_EQ(filled.logits, full.logits);
        continue;
      }
      expect_masked_fill_matches_full(full, filled, iota(n), iota(n), fill);
    }
  }
  // Without the causal mask the fill changes nothing; with a layer mask it is refused.
  const MatrixF q = random_matrix(9, d, 1).cast<float>(), k = random_matrix(9, d, 2).cast<float>();
  const AttentionSpec open{NoPosition{}, {}, false};
  EXPECT_EQ(kernels::attention_f(q, k, iota(9), iota(9), open, kernels::Path::Portable, {}, fill).weights,
            kernels::attention_f(q, k, iota(9), iota(9), open, kernels::Path::Portable).weights);
  LayerMask sliding;
  sliding.kind = MaskKind::Sliding;
  sliding.window = 4;
  const AttentionSpec causal{NoPosition{}, {}, true};
  EXPECT_THROW(kernels::attention_f(q, k, iota(9), iota(9), causal, kernels::Path::Portable, sliding, fill), InvalidArgument);
  // Keys out of order have no prefix of visible keys per query: refused, naming them.
  const std::vector<int64_t> shuffled{0, 6, 3, 8, 1, 5, 2, 7, 4};
  try {
    kernels::attention_f(q, k, iota(9), shuffled, causal, kernels::Path::Portable, {}, fill);
    ADD_FAILURE() << "no error";
  } catch (const InvalidArgument& e) { EXPECT_EQ(e.field(), "key_positions"); }
}

TEST(ScoreKernels, BadInputNamesTheField) {
  const MatrixF q = MatrixF::Ones(3, 4), k = MatrixF::Ones(3, 4);
  const auto p = iota(3);
  auto field = [](auto&& f) {
    try {
      f();
    } catch (const InvalidArgument& e) { return e.field(); }
    return std::string("(no error)");
  };
  AttentionSpec none{NoPosition{}, {}, false};
  EXPECT_EQ(field([&] { kernels::attention_f(q, MatrixF::Ones(3, 5), p, p, none); }), "k");
  EXPECT_EQ(field([&] { kernels::attention_f(q, k, iota(2), p, none); }), "query_positions");
  EXPECT_EQ(field([&] { kernels::attention_f(q, k, p, std::vector<int64_t>{0, 1, 2000000}, none); }), "key_positions");
  MatrixF bad = q;
  bad(1, 1) = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(field([&] { kernels::attention_f(bad, k, p, p, none); }), "q");
  // Finite inputs whose float logits overflow: an error, not Inf in the output.
  EXPECT_EQ(field([&] { kernels::attention_f(q * 1e20f, k * 1e20f, p, p, none); }), "q");
  T5Position t5;
  t5.bias = {1.0, 2.0};  // num_buckets is 32
  EXPECT_EQ(field([&] { kernels::attention_f(q, k, p, p, AttentionSpec{t5, {}, false}); }), "position.bias");
  ShawPosition shaw;
  shaw.max_relative_position = 2;
  shaw.key_table = Matrix::Ones(4, 4);
  EXPECT_EQ(field([&] { kernels::attention_f(q, k, p, p, AttentionSpec{shaw, {}, false}); }), "position.key_table");
  EXPECT_EQ(field([&] {
              kernels::attention_f(q, k, p, p, AttentionSpec{RopePosition{1.0, {}, RopeLayout::Half}, {}, false});
            }),
            "position.base");
  EXPECT_EQ(field([&] {
              kernels::attention_f(q, k, p, p, AttentionSpec{AlibiPosition{INFINITY}, {}, false});
            }),
            "position.slope");
  EXPECT_EQ(field([&] { kernels::relative_matrix(std::vector<double>(4, 0.0), 3); }), "by_offset");
  // DeBERTa position tables of 2s x d rows: a span s = max_position of 2^62 (2 s d overflows int64) and one
  // just past 2^24 entries are refused before any table is read, by both paths alike.
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const InvalidArgument& e) { return e.field() + ": " + e.what(); }
    return std::string("(no error)");
  };
  for (int64_t span : {int64_t{1} << 62, (int64_t{1} << 24) / 8 + 1}) {
    DebertaPosition deb{-1, span, Matrix::Zero(2, 4), Matrix::Zero(2, 4)};
    const AttentionSpec spec{deb, {}, false};
    const std::string expected = "position.pos_key: position tables exceed 2^24 entries";
    EXPECT_EQ(message([&] { kernels::attention_f(q, k, p, p, spec); }), expected) << span;
    EXPECT_EQ(message([&] { attention(q.cast<double>(), k.cast<double>(), nullptr, p, p, spec); }), expected) << span;
  }
}
