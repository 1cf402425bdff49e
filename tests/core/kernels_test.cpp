#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/kernels/kernels.h"
#include "core/encodings/rope.h"
#include "test_util.h"

using namespace posenc;
using posenc::test::iota;
using posenc::test::random_matrix;

namespace {

MatrixF to_f(const Matrix& m) { return m.cast<float>(); }

double max_rel_err(const MatrixF& got, const Matrix& ref) {
  const double denom = std::max(1.0, ref.cwiseAbs().maxCoeff());
  return (got.cast<double>() - ref).cwiseAbs().maxCoeff() / denom;
}

}  // namespace

TEST(Kernels, PortableRopeLogitsMatchDoubleCore) {
  for (RopeLayout layout : {RopeLayout::Half, RopeLayout::Interleaved}) {
    const Matrix q = random_matrix(13, 16, 1), k = random_matrix(11, 16, 2);
    const auto qp = iota(13, 100), kp = iota(11, 3);
    const RopeFrequencies f = rope_frequencies(16, 10000.0);
    const Matrix ref = rope_apply(q, qp, f, layout) * rope_apply(k, kp, f, layout).transpose() / 4.0;
    const MatrixF got = kernels::rope_logits_portable(to_f(q), to_f(k), qp, kp, f, layout, 0.25f);
    EXPECT_LT(max_rel_err(got, ref), 1e-5);
    // The dispatched path (SIMD128 in wasm, Eigen's GEMM natively), with distinct and shared positions.
    EXPECT_LT(max_rel_err(kernels::rope_logits(to_f(q), to_f(k), qp, kp, f, layout, 0.25f), ref), 1e-5);
    const Matrix ref_self = rope_apply(q, qp, f, layout) * rope_apply(q, qp, f, layout).transpose() / 4.0;
    EXPECT_LT(max_rel_err(kernels::rope_logits(to_f(q), to_f(q), qp, qp, f, layout, 0.25f), ref_self), 1e-5);
  }
}

TEST(Kernels, BiasLogitsAndSoftmax) {
  const Matrix q = random_matrix(5, 8, 3), k = random_matrix(7, 8, 4), b = random_matrix(5, 7, 5);
  const MatrixF got = kernels::bias_logits(to_f(q), to_f(k), to_f(b), 0.5f);
  EXPECT_LT(max_rel_err(got, 0.5 * q * k.transpose() + b), 1e-5);

  MatrixF l(3, 5);
  const float ninf = -std::numeric_limits<float>::infinity();
  l << 0, std::log(3.0f), ninf, ninf, ninf,  //
      ninf, ninf, ninf, ninf, ninf,          //
      1, 2, 3, 4, 5;
  const MatrixF w = kernels::softmax(l);
  EXPECT_NEAR(w(0, 0), 0.25f, 1e-6f);
  EXPECT_NEAR(w(0, 1), 0.75f, 1e-6f);
  EXPECT_EQ(w(0, 2), 0.0f);
  EXPECT_EQ(w.row(1).sum(), 0.0f);
  EXPECT_NEAR(w.row(2).sum(), 1.0f, 1e-6f);
  EXPECT_TRUE(w.allFinite());
}

// The score jobs' tail: the softmax into a new matrix equals the in-place one bit for bit, and the fused
// sum equals repeated add() bit for bit and reports overflow (+-inf, NaN) in the same pass.
TEST(Kernels, SoftmaxIntoAndSumFiniteEqualTheSeparatePasses) {
  const kernels::Path paths[] = {kernels::Path::Portable, kernels::Path::Best};
  for (kernels::Path path : paths)
    for (int m : {1, 3, 4, 7, 64, 257}) {
      MatrixF l = to_f(random_matrix(5, m, 21)) * 8.0f;
      l(1, 0) = -std::numeric_limits<float>::infinity();
      l.row(2).setConstant(-std::numeric_limits<float>::infinity());
      MatrixF in_place = l;
      kernels::softmax_in_place(in_place, path);
      EXPECT_EQ(kernels::softmax(l, path), in_place) << m;

      const MatrixF t0 = to_f(random_matrix(5, m, 22)), t1 = to_f(random_matrix(5, m, 23)) * 1e3f,
                    t2 = to_f(random_matrix(5, m, 24)) * 1e-3f;
      MatrixF added = t0;
      kernels::add(added, t1, path);
      kernels::add(added, t2, path);
      const float* src[] = {t0.data(), t1.data(), t2.data()};
      MatrixF sum(5, m);
      EXPECT_TRUE(kernels::sum_finite(sum.data(), src, 3, std::size_t(sum.size()), path));
      EXPECT_EQ(sum, added) << m;
      EXPECT_TRUE(kernels::sum_finite(sum.data(), src, 1, std::size_t(sum.size()), path));
      EXPECT_EQ(sum, t0) << m;
      for (float bad : {std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()}) {
        MatrixF t3 = t2;
        t3(4, m - 1) = bad;  // the last cell: the scalar tail or the last vector
        const float* with_bad[] = {t0.data(), t3.data()};
        EXPECT_FALSE(kernels::sum_finite(sum.data(), with_bad, 2, std::size_t(sum.size()), path)) << m;
      }
      // Finite terms whose float sum overflows.
      MatrixF big = MatrixF::Constant(5, m, 3e38f);
      const float* overflow[] = {big.data(), big.data()};
      EXPECT_FALSE(kernels::sum_finite(sum.data(), overflow, 2, std::size_t(sum.size()), path)) << m;
    }
}

#if defined(__wasm_simd128__)
// The SIMD128 paths against the portable ones, on shapes that exercise every block and tail.
TEST(KernelsSimd128, LogitsMatchPortable) {
  // Tile edges (4 x 8), d = 1 and 2, and more columns than one GEMM column chunk (4096 / d panels of 8).
  for (auto [n, m, d] : {std::tuple{1, 1, 1},
                         {1, 9, 2},
                         {4, 8, 4},
                         {5, 9, 3},
                         {13, 17, 16},
                         {64, 64, 64},
                         {7, 3, 130},
                         {13, 300, 128},
                         {3, 1100, 32}}) {
    const MatrixF A = to_f(random_matrix(n, d, 7)), B = to_f(random_matrix(m, d, 8));
    MatrixF cp(n, m), cs(n, m);
    kernels::logits_portable(A.data(), B.data(), n, m, d, 0.3f, cp.data());
    kernels::logits_simd128(A.data(), B.data(), n, m, d, 0.3f, cs.data());
    // Same summation order per cell and no FMA in SIMD128; the SIMD path folds the scale into A before the
    // sum (scale * a_k * b_k summed vs scale * sum a_k b_k): the results agree to a few roundings.
    EXPECT_LT((cp - cs).cwiseAbs().maxCoeff(), 1e-5f * std::max(1.0f, cp.cwiseAbs().maxCoeff())) << n << " " << m << " " << d;
  }
}

TEST(KernelsSimd128, RopeRotateAndLogitsMatchPortable) {
  for (RopeLayout layout : {RopeLayout::Half, RopeLayout::Interleaved}) {
    for (int d : {2, 4, 6, 8, 18, 64}) {
      const MatrixF q = to_f(random_matrix(9, d, 9)), k = to_f(random_matrix(10, d, 10));
      const auto qp = iota(9, 1000), kp = iota(10, 995);
      const RopeFrequencies f = rope_frequencies(d, 10000.0);
      const MatrixF a = kernels::rope_logits_portable(q, k, qp, kp, f, layout, 0.125f);
      const MatrixF b = kernels::rope_logits_simd128(q, k, qp, kp, f, layout, 0.125f);
      EXPECT_LT((a - b).cwiseAbs().maxCoeff(), 1e-5f * std::max(1.0f, a.cwiseAbs().maxCoeff())) << d;
    }
  }
}

TEST(KernelsSimd128, SoftmaxAndAddMatchPortable) {
  for (int m : {1, 3, 4, 7, 64, 257}) {
    MatrixF l = to_f(random_matrix(6, m, 11)) * 10.0f;
    l(1, 0) = -std::numeric_limits<float>::infinity();
    l.row(2).setConstant(-std::numeric_limits<float>::infinity());  // fully masked row
    l(3, m - 1) = -100.0f;                                          // exp underflow region
    const MatrixF a = kernels::softmax(l, kernels::Path::Portable);
    const MatrixF b = kernels::softmax(l, kernels::Path::Simd128);
    EXPECT_TRUE(b.allFinite());
    EXPECT_LT((a - b).cwiseAbs().maxCoeff(), 2e-6f) << m;
    EXPECT_EQ(b(1, 0), 0.0f);
    EXPECT_EQ(b.row(2).cwiseAbs().sum(), 0.0f);
    MatrixF x = l.row(0), y = x;
    kernels::add_portable(x.data(), a.data(), static_cast<std::size_t>(x.size()));
    kernels::add_simd128(y.data(), a.data(), static_cast<std::size_t>(y.size()));
    EXPECT_EQ(x, y);
  }
}
#else
TEST(KernelsSimd128, NotInThisBuild) {
  EXPECT_FALSE(kernels::kHaveSimd128);
  EXPECT_THROW(kernels::softmax(MatrixF::Zero(1, 1), kernels::Path::Simd128), InvalidArgument);
}
#endif
