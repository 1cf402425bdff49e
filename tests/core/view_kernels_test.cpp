// The views' float32 pictures (src/app/views: scores, similarity, buckets) as the views compose them from
// the kernels of score_kernels.h, against the double core they replaced, on shape edges (n = 1, d = 2) and
// view-like sizes; and the scores view's exact hover row (one query row through the double core) against
// the whole double matrix that export writes. Runs natively and as wasm SIMD128 (ctest --preset web).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <tuple>

#include "core/encodings/absolute.h"
#include "core/attention/absolute_attention.h"
#include "core/encodings/alibi.h"
#include "core/attention/attention.h"
#include "core/encodings/deberta.h"
#include "core/encodings/relative_bias.h"
#include "core/rng.h"
#include "core/attention/score_kernels.h"
#include "core/encodings/shaw.h"
#include "core/analysis/similarity.h"
#include "core/encodings/sinusoidal.h"
#include "core/encodings/t5.h"
#include "kernel_test_util.h"
#include "test_util.h"

using namespace posenc;
using posenc::test::iota;

namespace {

using posenc::test::rel_err;

// The scores view's inputs (scores_view.cpp recompute): content x, W_Q, W_K and one spec per scheme.
uint64_t sub_seed(int seed, uint64_t which) { return uint64_t(seed) * 1000003ull + which; }

struct ViewCase {
  const char* name;
  AttentionSpec spec;
  bool scale_q = false;  // T5: q carries the 1/sqrt(d)
};

std::vector<ViewCase> view_schemes(int d, bool causal, int seed) {
  const double inv_sqrt_d = 1.0 / std::sqrt(double(d));
  std::vector<ViewCase> c;
  auto add = [&](const char* name, PositionScheme p, bool scale_q = false) {
    c.push_back({name, AttentionSpec{std::move(p), {}, causal}, scale_q});
  };
  add("none", NoPosition{});
  add("rope", RopePosition{10000.0, {}, RopeLayout::Half});
  T5Position t;
  t.bidirectional = !causal;
  t.num_buckets = 32;
  t.max_distance = 128;
  const Matrix b = seeded_normal_matrix(32, 1, sub_seed(seed, 3), 1.0);
  t.bias.assign(b.data(), b.data() + b.size());
  add("t5", t, true);
  add("alibi", AlibiPosition{alibi_slopes(8)[0]});
  ShawPosition s;
  s.max_relative_position = 4;
  s.key_table = shaw_random_table(4, d, sub_seed(seed, 4));
  add("shaw", s);
  DebertaPosition p;
  p.bucket_size = 256;
  p.max_position = 512;
  const int64_t span = deberta_span(p.bucket_size, p.max_position);
  p.pos_key = seeded_normal_matrix(2 * span, d, sub_seed(seed, 5), 1.0);
  p.pos_query = seeded_normal_matrix(2 * span, d, sub_seed(seed, 6), 1.0);
  add("deberta", p);
  XlPosition xl;
  xl.u = seeded_normal_matrix(d, 1, sub_seed(seed, 7), 1.0).col(0);
  xl.v = seeded_normal_matrix(d, 1, sub_seed(seed, 8), 1.0).col(0);
  xl.r_proj = seeded_normal_matrix(d, d, sub_seed(seed, 9), inv_sqrt_d);
  add("xl", xl);
  add("learned", LearnedBiasPosition{relative_bias_table(4, 1, sub_seed(seed, 10)), 0});
  return c;
}

}  // namespace

TEST(ViewKernels, ScoresEverySchemeAsTheViewComputesIt) {
  for (auto [n, d] : {std::tuple{1, 2}, {2, 2}, {7, 2}, {33, 32}, {70, 16}}) {
    const int seed = 1;
    const double inv_sqrt_d = 1.0 / std::sqrt(double(d));
    const Matrix x = seeded_normal_matrix(n, d, sub_seed(seed, 0), 1.0);
    const Matrix wq = seeded_normal_matrix(d, d, sub_seed(seed, 1), inv_sqrt_d);
    const Matrix wk = seeded_normal_matrix(d, d, sub_seed(seed, 2), inv_sqrt_d);
    const auto pos = iota(n);
    for (bool causal : {false, true}) {
      for (const ViewCase& c : view_schemes(d, causal, seed)) {
        SCOPED_TRACE(testing::Message() << c.name << " n=" << n << " d=" << d << " causal=" << causal);
        Matrix q = x * wq;
        const Matrix k = x * wk;
        if (c.scale_q) q *= inv_sqrt_d;
        // The picture: float inputs through the kernels. The reference: the double core on the same
        // (float-rounded) inputs, as the view's export computes it on the double ones.
        const MatrixF qf = q.cast<float>(), kf = k.cast<float>();
        const kernels::AttentionF got = kernels::attention_f(qf, kf, pos, pos, c.spec);
        const AttentionResult ref = attention(qf.cast<double>(), kf.cast<double>(), nullptr, pos, pos, c.spec);
        ASSERT_EQ(got.terms.size(), ref.terms.size());
        for (std::size_t t = 0; t < ref.terms.size(); ++t) {
          EXPECT_EQ(got.terms[t].name, ref.terms[t].name);
          EXPECT_LT(rel_err(got.terms[t].values, ref.terms[t].values), 2e-6);
        }
        EXPECT_LT(rel_err(got.logits, ref.logits), 2e-6);
        EXPECT_LT(rel_err(got.weights, ref.weights), 1e-5);
        // Against the double inputs too (what export writes): float rounding of q, k on top.
        const AttentionResult exact = attention(q, k, nullptr, pos, pos, c.spec);
        EXPECT_LT(rel_err(got.logits, exact.logits), 1e-5);
        // The hover row: one query row through the double core equals the export's row.
        for (int i : {0, n / 2, n - 1}) {
          const std::array<int64_t, 1> qpos{i};
          const AttentionResult row = attention(q.row(i), k, nullptr, qpos, pos, c.spec);
          ASSERT_EQ(row.logits.rows(), 1);
          for (int j = 0; j < n; ++j) {
            ASSERT_EQ(row.masked(0, j), exact.masked(i, j));
            if (!exact.masked(i, j)) {
              EXPECT_NEAR(row.logits(0, j), exact.logits(i, j), 1e-12 * (1 + std::abs(exact.logits(i, j))));
            }
            EXPECT_NEAR(row.weights(0, j), exact.weights(i, j), 1e-12);
            for (std::size_t t = 0; t < exact.terms.size(); ++t)
              EXPECT_NEAR(row.terms[t].values(0, j), exact.terms[t].values(i, j),
                          1e-12 * (1 + std::abs(exact.terms[t].values(i, j))));
          }
        }
      }
    }
  }
}

TEST(ViewKernels, ScoresSinusoidalFourTermsAsTheViewComputesThem) {
  for (auto [n, d] : {std::tuple{1, 2}, {5, 2}, {33, 32}}) {
    const double inv_sqrt_d = 1.0 / std::sqrt(double(d));
    const Matrix x = seeded_normal_matrix(n, d, 1, 1.0), pe = sinusoidal_table(iota(n), d, 10000.0);
    const Matrix wq = seeded_normal_matrix(d, d, 2, inv_sqrt_d), wk = seeded_normal_matrix(d, d, 3, inv_sqrt_d);
    for (bool causal : {false, true}) {
      SCOPED_TRACE(testing::Message() << "n=" << n << " d=" << d << " causal=" << causal);
      const kernels::AttentionF got = kernels::absolute_attention_f(x.cast<float>(), pe.cast<float>(), wq.cast<float>(),
                                                                    wk.cast<float>(), inv_sqrt_d, causal);
      const AttentionResult ref = absolute_attention(x, pe, wq, wk, nullptr, inv_sqrt_d, causal);
      ASSERT_EQ(got.terms.size(), 4u);
      for (std::size_t t = 0; t < 4; ++t) EXPECT_LT(rel_err(got.terms[t].values, ref.terms[t].values), 1e-5);
      EXPECT_LT(rel_err(got.logits, ref.logits), 1e-5);
      EXPECT_LT(rel_err(got.weights, ref.weights), 1e-5);
    }
  }
}

TEST(ViewKernels, SimilaritySinusoidalToeplitzFillMatchesCore) {
  // similarity_view: P_a . P_b = cos_sums[|a - b|], filled by offset with relative_matrix.
  for (auto [n, d] : {std::tuple{1, 2}, {2, 2}, {9, 2}, {100, 64}}) {
    SCOPED_TRACE(testing::Message() << "n=" << n << " d=" << d);
    const PositionDots dots(AbsoluteScheme::Sinusoidal, n, d, {}, n);
    std::vector<double> by_offset(size_t(2 * n - 1));
    for (int o = 0; o < 2 * n - 1; ++o) by_offset[size_t(o)] = dots.dot(0, std::abs(o - (n - 1)));
    const MatrixF got = kernels::relative_matrix(by_offset, n);
    const Matrix ref = position_similarity(AbsoluteScheme::Sinusoidal, n, d);
    EXPECT_LT(rel_err(got, ref), 1e-6);
  }
}

TEST(ViewKernels, SimilarityLearnedGramMatchesCore) {
  // similarity_view: P P^T of the learned table's defined rows with the float GEMM; undefined rows NaN.
  for (auto [n, d, max_len] : {std::tuple{1, 2, 2}, {5, 2, 3}, {40, 16, 32}, {20, 64, 64}}) {
    SCOPED_TRACE(testing::Message() << "n=" << n << " d=" << d << " max_len=" << max_len);
    AbsoluteParams params;
    params.learned_max_len = max_len;
    params.seed = 7;
    const int rows = learned_defined_rows(n, params);
    const MatrixF P = learned_position_table(max_len, d, params.seed).topRows(rows).cast<float>();
    MatrixF got = MatrixF::Constant(n, n, std::numeric_limits<float>::quiet_NaN());
    got.topLeftCorner(rows, rows) = kernels::gram(P);
    const Matrix ref = position_similarity(AbsoluteScheme::Learned, n, d, params);
    EXPECT_LT(rel_err(got, ref), 1e-6);
  }
}

TEST(ViewKernels, BucketMatrixMatchesCoreFill) {
  // buckets_view: the bucket / bias matrix from its by-offset vector.
  for (int n : {1, 2, 3, 17, 64}) {
    std::vector<double> by_offset(size_t(2 * n - 1));
    for (int o = 0; o < 2 * n - 1; ++o) by_offset[size_t(o)] = double(t5_bucket(o - (n - 1), true, 32, 128)) + 0.25 * o;
    const MatrixF got = kernels::relative_matrix(by_offset, n);
    const MatrixF ref = relative_matrix_f(by_offset, n);
    ASSERT_EQ(got.rows(), n);
    EXPECT_TRUE(got == ref) << "n=" << n;
  }
}

// The waves view's sinusoidal heatmap (waves_view.cpp recompute: kernels::pe_table over positions 0..n-1
// with sinusoidal_frequencies) against the double table export writes, for each frequency schedule and the
// shape edges; its curves and hover (sinusoidal_column, one-row sinusoidal_table) equal the table exactly.
TEST(ViewKernels, WavesSinusoidalPictureMatchesCore) {
  for (const FrequencySchedule schedule :
       {FrequencySchedule::Geometric, FrequencySchedule::Linear, FrequencySchedule::Increasing})
    for (const auto& [n, d, base] :
         {std::tuple{1, 2, 10000.0}, std::tuple{7, 6, 10.0}, std::tuple{4096, 130, 10000.0}, std::tuple{333, 1024, 1e6}}) {
      SCOPED_TRACE(::testing::Message() << "n " << n << " d " << d << " base " << base << " schedule " << name_of(schedule));
      const std::vector<int64_t> positions = iota(n);
      const Matrix exact = sinusoidal_table(positions, d, base, schedule);
      for (kernels::Path path : posenc::test::kernel_paths()) {
        const MatrixF picture = kernels::pe_table(positions, sinusoidal_frequencies(d, base, schedule), path);
        ASSERT_EQ(picture.rows(), n);
        ASSERT_EQ(picture.cols(), d);
        EXPECT_LT((picture.cast<double>() - exact).cwiseAbs().maxCoeff(), 5e-7);
      }
      for (int i : {0, 1, d / 2, d - 1}) {
        const std::vector<double> column = sinusoidal_column(n, d, i, base, schedule);
        ASSERT_EQ(static_cast<int>(column.size()), n);
        for (int p = 0; p < n; ++p) ASSERT_EQ(column[p], exact(p, i)) << "p " << p << " i " << i;
      }
      const int last = n - 1;
      const Matrix row = sinusoidal_table(std::vector<int64_t>{last}, d, base, schedule);
      for (int i = 0; i < d; ++i) ASSERT_EQ(row(0, i), exact(last, i));
    }
}
