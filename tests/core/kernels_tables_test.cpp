// Table kernels (sin/cos tables, PE table, Gram matrix, relative fills, matmul) against the double core.
#include <gtest/gtest.h>

#include <cmath>

#include "core/encodings/absolute.h"
#include "core/kernels/kernels.h"
#include "core/encodings/rope.h"
#include "core/attention/score_kernels.h"
#include "core/analysis/similarity.h"
#include "core/encodings/sinusoidal.h"
#include "kernel_test_util.h"
#include "test_util.h"

using namespace posenc;
using posenc::test::iota;
using posenc::test::random_matrix;

namespace {

using posenc::test::kernel_paths;

// Positions that stress the angle reduction: 0, small, near +-10^6, and XL's relative positions to 2 * 10^6.
const std::vector<int64_t> kFarPositions{0, 1, 2, 3, 7, 100, 4095, 123457, 999999, -1000000, 1000000, -1999999, 2000000};

}  // namespace

TEST(KernelTables, SinCosTableMatchesDouble) {
  // Frequencies up to 1 rad / position (RoPE / sinusoidal: w_0 = 1), h = 1, 3 (tails), 4, 64.
  for (int d : {2, 6, 8, 128}) {
    const std::vector<double> w = rope_default_inv_freq(d, 10000.0);
    const int h = d / 2, n = static_cast<int>(kFarPositions.size());
    for (double mult : {1.0, 1.25}) {
      for (kernels::Path path : kernel_paths()) {
        MatrixF s(n, h), c(n, h);
        kernels::sin_cos_table(kFarPositions.data(), n, w.data(), h, mult, s.data(), c.data(), path);
        double err = 0.0;
        for (int r = 0; r < n; ++r)
          for (int p = 0; p < h; ++p) {
            const double a = double(kFarPositions[r]) * w[p];
            err = std::max({err, std::abs(s(r, p) - mult * std::sin(a)), std::abs(c(r, p) - mult * std::cos(a))});
          }
        // Float output (half an ulp of 1.25 is 6e-8); the SIMD polynomials add ~1e-7.
        EXPECT_LT(err, 2.5e-7 * mult) << "d=" << d << " path=" << int(path);
      }
    }
  }
}

TEST(KernelTables, PeTableMatchesSinusoidalTable) {
  for (int d : {2, 6, 64}) {
    const std::vector<double> w = sinusoidal_frequencies(d, 10000.0);
    for (const std::vector<int64_t>& pos :
         {iota(1), iota(37), std::vector<int64_t>(kFarPositions.begin(), kFarPositions.begin() + 11)}) {
      const Matrix ref = sinusoidal_table(pos, d);
      for (kernels::Path path : kernel_paths()) {
        const MatrixF P = kernels::pe_table(pos, w, path);
        ASSERT_EQ(P.rows(), ref.rows());
        ASSERT_EQ(P.cols(), ref.cols());
        EXPECT_LT((P.cast<double>() - ref).cwiseAbs().maxCoeff(), 2.5e-7) << "d=" << d << " path=" << int(path);
      }
    }
  }
}

TEST(KernelTables, GramMatchesPositionSimilarity) {
  // Sinusoidal P P^T = sum_k cos((a - b) w_k) (similarity.h), entries up to d/2.
  for (auto [n, d] : {std::tuple{1, 2}, {13, 6}, {70, 64}}) {
    const Matrix ref = position_similarity(AbsoluteScheme::Sinusoidal, n, d);
    for (kernels::Path path : kernel_paths()) {
      const MatrixF G = kernels::gram(kernels::pe_table(iota(n), sinusoidal_frequencies(d, 10000.0), path), path);
      EXPECT_LT((G.cast<double>() - ref).cwiseAbs().maxCoeff(), 2e-6 * d) << n << " " << d;
    }
  }
}

TEST(KernelTables, RelativeMatrixEqualsCore) {
  for (int n : {1, 2, 5, 13, 64}) {
    std::vector<double> by_offset(2 * n - 1);
    for (int o = 0; o < 2 * n - 1; ++o) by_offset[o] = std::sin(0.3 * o) * 7.0 + o;
    const MatrixF ref = relative_matrix_f(by_offset, n);
    for (kernels::Path path : kernel_paths()) EXPECT_EQ(kernels::relative_matrix(by_offset, n, path), ref) << n;
  }
}

TEST(KernelTables, FillRelativeAndGatherOnAnyPositions) {
  // by_delta[delta - delta_min]; contiguous keys (the SIMD row-slice path) and scattered keys (fallback).
  const std::vector<int64_t> qp{3, 0, 7, 2, 2};
  for (const std::vector<int64_t>& kp : {iota(11, -2), std::vector<int64_t>{9, -2, 4, 4, 0}}) {
    const auto [lo, hi] = kernels::delta_range(qp, kp);
    std::vector<float> by_delta(static_cast<size_t>(hi - lo + 1));
    std::vector<int32_t> index(by_delta.size());
    for (size_t t = 0; t < by_delta.size(); ++t) by_delta[t] = 0.5f * float(t) - 3.0f, index[t] = int32_t(t % 3);
    const int n = int(qp.size()), m = int(kp.size());
    const MatrixF G = random_matrix(std::max(n, m), 3, 9).cast<float>();
    for (kernels::Path path : kernel_paths()) {
      MatrixF fill(n, m), acc = MatrixF::Ones(n, m), gq(n, m), gk(n, m);
      kernels::fill_relative(fill.data(), n, m, qp.data(), kp.data(), by_delta.data(), lo, false, path);
      kernels::fill_relative(acc.data(), n, m, qp.data(), kp.data(), by_delta.data(), lo, true, path);
      kernels::gather_relative(gq.data(), n, m, G.data(), 3, true, qp.data(), kp.data(), index.data(), lo);
      kernels::gather_relative(gk.data(), n, m, G.data(), 3, false, qp.data(), kp.data(), index.data(), lo);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < m; ++j) {
          const int64_t t = kp[j] - qp[i] - lo;
          EXPECT_EQ(fill(i, j), by_delta[t]);
          EXPECT_EQ(acc(i, j), 1.0f + by_delta[t]);
          EXPECT_EQ(gq(i, j), G(i, index[t]));
          EXPECT_EQ(gk(i, j), G(j, index[t]));
        }
    }
  }
}

TEST(KernelTables, MatmulAndLogitsMatchDouble) {
  // Shapes off the 4 x 8 tile, d = 1 and 2, and a column count past one GEMM column chunk (4096 / d panels).
  for (auto [n, m, d] : {std::tuple{1, 1, 1}, {1, 9, 2}, {5, 3, 7}, {13, 17, 16}, {9, 300, 128}, {6, 1100, 32}}) {
    const MatrixF A = random_matrix(n, d, 10).cast<float>(), Bt = random_matrix(m, d, 11).cast<float>();
    const MatrixF B = Bt.transpose();
    const Matrix ref = 0.5 * A.cast<double>() * Bt.cast<double>().transpose();
    for (kernels::Path path : kernel_paths()) {
      const double tol = 1e-6 * std::sqrt(double(d)) * std::max(1.0, ref.cwiseAbs().maxCoeff());
      EXPECT_LT((kernels::logits(A, Bt, 0.5f, path).cast<double>() - ref).cwiseAbs().maxCoeff(), tol)
          << n << " " << m << " " << d;
      EXPECT_LT((kernels::matmul(A, B, 0.5f, path).cast<double>() - ref).cwiseAbs().maxCoeff(), tol) << n << " " << m << " " << d;
    }
  }
}
