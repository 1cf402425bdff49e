// The tensor check's float32 rule: every correct float32 implementation of RoPE matches (four libraries
// ported in tests/common/rope_ports.h, at the bases, head dims and positions long-context models use), their
// bfloat16 / float16 variants do not (angle_precision), and no tolerance is ever NaN or infinite: a pair of
// frequency 0 (proportional RoPE's padding) passes through, so any error there is an error.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <variant>
#include <vector>

#include "../common/check_cases.h"
#include "../common/rope_ports.h"
#include "core/analysis/rope_check.h"
#include "../common/test_util.h"

using namespace posenc;
using posenc::test::fit_string;
using posenc::test::kRopePorts;
using posenc::test::plain;
using posenc::test::port_name;
using posenc::test::port_tables;
using posenc::test::PortHalf;
using posenc::test::random_matrix;
using posenc::test::top;

namespace {

// 0 .. 127, then about 3% apart up to 131072 (the last two 131071 and 131072).
std::vector<int64_t> long_positions() {
  std::vector<int64_t> p;
  for (int64_t i = 0; i < 128; ++i) p.push_back(i);
  for (double v = 128; v < 131071; v *= 1.03) p.push_back(static_cast<int64_t>(v));
  p.push_back(131071);
  p.push_back(131072);
  return p;
}

RopeCheckResult run(const RopeCheckReference& ref, CheckKind kind, Matrix actual, const std::vector<int64_t>& pos,
                    Matrix x = {}) {
  RopeCheckInput in;
  in.kind = kind;
  in.actual = std::move(actual);
  if (kind != CheckKind::InvFreq) in.positions = pos;
  in.x = std::move(x);
  return rope_check(ref, in);
}

}  // namespace

TEST(RopeCheckFloat32, FourLibrariesMatchAtEveryBaseDimAndLength) {
  const std::vector<int64_t> pos = long_positions();
  double nearest = 0;  // the largest error / tolerance over every run (printed: how much room the rule leaves)
  std::string where;
  for (auto port : kRopePorts)
    for (double base : {1e4, 5e5, 1e6, 1e7})
      for (int dim : {64, 128, 256}) {
        const RopeCheckReference ref = plain(dim, base);
        const Matrix x = random_matrix(static_cast<Eigen::Index>(pos.size()), dim, 7).cast<float>().cast<double>();
        const auto t = port_tables(port, dim, base, pos, x);
        const std::string what = std::string(port_name(port)) + " base " + std::to_string(base) + " dim " + std::to_string(dim);
        for (auto [kind, m] : {std::pair{CheckKind::InvFreq, &t.inv_freq},
                               {CheckKind::Cos, &t.cos},
                               {CheckKind::Sin, &t.sin},
                               {CheckKind::Rotated, &t.rotated}}) {
          const RopeCheckResult r = run(ref, kind, *m, pos, kind == CheckKind::Rotated ? x : Matrix());
          EXPECT_TRUE(r.match) << what << " " << check_kind_name(kind) << ": worst at " << r.worst_ratio
                               << " of its tolerance, top cause " << top(r);
          EXPECT_TRUE(r.tolerance.allFinite());
          if (r.worst_ratio > nearest) nearest = r.worst_ratio, where = what + " " + check_kind_name(kind);
        }
      }
  std::printf("nearest to its tolerance: %.3g (%s)\n", nearest, where.c_str());
}

TEST(RopeCheckFloat32, LlamaCppIteratedProductIsNoLongerBlamed) {
  // The case that answered MISMATCH with top cause base = 9999.98: ggml's powf once, then 63 float32
  // products (base 1e4, dim 128), at positions to 8191.
  const std::vector<int64_t> pos = posenc::test::iota(8192);
  const auto t = port_tables(posenc::test::RopePort::LlamaCpp, 128, 1e4, pos);
  for (const Matrix* m : {&t.cos, &t.sin}) {
    const RopeCheckResult r = run(plain(128, 1e4), m == &t.cos ? CheckKind::Cos : CheckKind::Sin, *m, pos);
    EXPECT_TRUE(r.match) << r.worst_ratio << " " << top(r);
    EXPECT_LT(r.worst_ratio, 1.0);
    EXPECT_GT(r.max_abs_error, 1e-5);  // the float32 tables really differ from the double reference
  }
}

TEST(RopeCheckFloat32, HalfPrecisionVariantsMismatchWithAnglePrecision) {
  // Each library with its angles (or its inv_freq) rounded to bfloat16 / float16 before cos and sin, as
  // under autocast (transformers #29285): a mismatch whose top cause is angle_precision with the dtype.
  // Positions to 4096 keep float16 angles finite (65504 is its largest number).
  std::vector<int64_t> pos = posenc::test::iota(64);
  for (int64_t p = 64; p <= 4096; p += 64) pos.push_back(p);
  for (auto port : kRopePorts)
    for (auto [half, dtype, rounded] : {std::tuple{PortHalf::AnglesBf16, "bfloat16", "angles"},
                                        {PortHalf::AnglesFp16, "float16", "angles"},
                                        {PortHalf::InvFreqBf16, "bfloat16", "inv_freq"},
                                        {PortHalf::InvFreqFp16, "float16", "inv_freq"}}) {
      const double base = port == posenc::test::RopePort::Mlx ? 1e6 : 1e4;
      const auto t = port_tables(port, 128, base, pos, {}, half);
      const RopeCheckResult r = run(plain(128, base), CheckKind::Cos, t.cos, pos);
      const std::string what = std::string(port_name(port)) + " " + dtype + " " + rounded;
      EXPECT_FALSE(r.match) << what;
      EXPECT_GT(r.worst_ratio, 10.0) << what;  // by a wide margin, not at the edge of the rule
      ASSERT_EQ(top(r), "angle_precision") << what;
      EXPECT_EQ(fit_string(r.diagnosis[0], "dtype"), dtype) << what;
    }
}

// ---------------------------------------------------------------- frequency 0 and a finite tolerance

namespace {
RopeCheckReference gemma4_full(int dim) {
  RopeCheckReference r = plain(dim, 1e6);
  r.scaling.type = RopeScalingType::Proportional;
  r.scaling.partial_rotary_factor = 0.25;
  return r;
}
}  // namespace

TEST(RopeCheckFloat32, LogitsOfOnesAgainstProportionalAreAMismatch) {
  // Was "match": true with max_abs_error 1.81 and a NaN tolerance.
  const RopeCheckReference ref = gemma4_full(16);
  const auto pos = posenc::test::iota(8);
  RopeCheckInput in;
  in.kind = CheckKind::Logits;
  in.positions = pos;
  in.q = random_matrix(8, 16, 1);
  in.k = random_matrix(8, 16, 2);
  in.actual = Matrix::Ones(8, 8);
  const RopeCheckResult r = rope_check(ref, in);
  EXPECT_FALSE(r.match);
  EXPECT_TRUE(r.tolerance.allFinite());
  EXPECT_GT(r.max_abs_error, 0.5);
}

TEST(RopeCheckFloat32, AnErrorConfinedToFrequencyZeroPairsIsAnError) {
  const RopeCheckReference ref = gemma4_full(512);
  const auto pos = posenc::test::iota(16);
  RopeCheckInput in;
  in.kind = CheckKind::Cos;
  in.positions = pos;
  in.actual = Matrix::Zero(16, 512);
  const Matrix exact = rope_check_expected(ref, in);
  // Pairs 64..255 have frequency 0: cos is exactly 1 there.
  EXPECT_EQ(exact(5, 200), 1.0);
  in.actual = exact;
  EXPECT_TRUE(rope_check(ref, in).match);
  in.actual(5, 200) = 0.999;  // one element of a pass-through pair
  const RopeCheckResult r = rope_check(ref, in);
  EXPECT_FALSE(r.match);
  EXPECT_EQ(r.worst_index, (std::vector<int64_t>{5, 200}));
  // Rotated rows: a frequency-0 pair passes x through; a changed x there is an error.
  in.kind = CheckKind::Rotated;
  in.x = random_matrix(16, 512, 3);
  in.actual = Matrix::Zero(16, 512);
  in.actual = rope_check_expected(ref, in);
  EXPECT_EQ(in.actual(3, 100), in.x(3, 100));
  EXPECT_TRUE(rope_check(ref, in).match);
  in.actual(3, 100) += 1e-3;
  EXPECT_FALSE(rope_check(ref, in).match);
}

TEST(RopeCheckFloat32, ToleranceIsFiniteForEveryScalingAndKind) {
  // Property: for every scaling type (proportional's zero pairs included) and every kind, the reference's
  // own tensor matches, the tolerance is finite and positive where the tensor is not exactly pinned, and
  // the tensor with one element moved by 1e-2 does not match.
  std::vector<RopeCheckReference> refs;
  for (auto type : {RopeScalingType::None, RopeScalingType::Linear, RopeScalingType::Ntk, RopeScalingType::Dynamic,
                    RopeScalingType::Yarn, RopeScalingType::Llama3, RopeScalingType::Longrope, RopeScalingType::Proportional}) {
    RopeCheckReference r = plain(32, 1e4);
    r.scaling.type = type;
    r.scaling.factor = type == RopeScalingType::Proportional ? 1.0 : 4.0;
    r.scaling.original_max_position_embeddings = 64;
    r.scaling.low_freq_factor = 1;
    r.scaling.high_freq_factor = 4;
    r.scaling.partial_rotary_factor = 0.5;
    if (type == RopeScalingType::Longrope) {
      r.scaling.short_factor.assign(16, 1.5);
      r.scaling.long_factor.assign(16, 3.0);
    }
    refs.push_back(r);
  }
  RopeCheckReference partial = plain(32, 1e4);
  partial.rotary_dim = 16;
  refs.push_back(partial);
  const auto pos = posenc::test::iota(40);
  for (const RopeCheckReference& ref : refs)
    for (auto kind : {CheckKind::InvFreq, CheckKind::Cos, CheckKind::Sin, CheckKind::Rotated, CheckKind::Logits}) {
      RopeCheckInput in;
      in.kind = kind;
      if (kind != CheckKind::InvFreq) in.positions = pos;
      const int r = ref.rotary_dim ? ref.rotary_dim : ref.dim;
      in.actual = kind == CheckKind::InvFreq   ? Matrix::Zero(1, r / 2)
                  : kind == CheckKind::Logits  ? Matrix::Zero(40, 40)
                  : kind == CheckKind::Rotated ? Matrix::Zero(40, ref.dim)
                                               : Matrix::Zero(40, r);
      if (kind == CheckKind::Rotated) in.x = random_matrix(40, ref.dim, 4);
      if (kind == CheckKind::Logits) in.q = random_matrix(40, ref.dim, 5), in.k = random_matrix(40, ref.dim, 6);
      in.actual = rope_check_expected(ref, in);
      const std::string what =
          std::string(rope_scaling_type_name(ref.scaling.type)) + " rotary " + std::to_string(r) + " " + check_kind_name(kind);
      const RopeCheckResult ok = rope_check(ref, in);
      EXPECT_TRUE(ok.match) << what;
      ASSERT_TRUE(ok.tolerance.allFinite()) << what;
      EXPECT_TRUE(std::isfinite(ok.angle_rel)) << what;
      in.actual(in.actual.rows() - 1, in.actual.cols() - 1) += 1e-2;
      const RopeCheckResult bad = rope_check(ref, in);
      EXPECT_FALSE(bad.match) << what;
      EXPECT_TRUE(bad.tolerance.allFinite()) << what;
    }
}
