// The RoPE tensor check: correct tensors (double, and float32 computed the way transformers does) match;
// each catalogued cause is produced, as the top diagnosis with its fitted value, by a tensor broken the way
// a public bug report broke it. Broken tensors are built here from rope_frequencies / rope_apply, not from
// the diagnoser's own renderer.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <variant>

#include "core/analysis/rope_check.h"
#include "check_cases.h"
#include "rope_tables.h"
#include "test_util.h"

using namespace posenc;
using posenc::test::iota;
using posenc::test::random_matrix;

namespace {

using Kind = posenc::test::TableKind;
using posenc::test::cos_sin;
using posenc::test::cos_sin_table;
using posenc::test::fit_string;
using posenc::test::inv_freq_f32;
using posenc::test::plain;
using posenc::test::to_bf16;
using posenc::test::to_fp16;
using posenc::test::top;

RopeCheckResult check(const RopeCheckReference& ref, CheckKind kind, Matrix actual, std::vector<int64_t> pos = {}, Matrix x = {},
                      Matrix q = {}, Matrix k = {}) {
  RopeCheckInput in;
  in.kind = kind;
  in.actual = std::move(actual);
  in.positions = std::move(pos);
  in.x = std::move(x);
  in.q = std::move(q);
  in.k = std::move(k);
  return rope_check(ref, in);
}

double fit_number(const RopeCheckDiagnosis& d, const std::string& name) {
  for (const auto& [k, v] : d.fitted)
    if (k == name && std::holds_alternative<double>(v)) return std::get<double>(v);
  ADD_FAILURE() << "no numeric fit '" << name << "' for " << check_cause_name(d.cause);
  return NAN;
}

std::vector<int64_t> strided(int64_t n, int64_t stride, int64_t start = 0) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(start + i * stride);
  return v;
}

Matrix logits_of(const Matrix& qr, const Matrix& kr, double scale) { return scale * (qr * kr.transpose()); }

}  // namespace

// ---------------------------------------------------------------- correct tensors match

TEST(RopeCheck, ExactDoubleTensorsMatchEveryKind) {
  const RopeCheckReference ref = plain(64, 10000.0);
  const auto pos = iota(48);
  const RopeFrequencies f = rope_frequencies(64, 10000.0);
  Matrix inv(1, 32);
  for (int i = 0; i < 32; ++i) inv(0, i) = f.inv_freq[static_cast<size_t>(i)];
  EXPECT_TRUE(check(ref, CheckKind::InvFreq, inv).match);
  EXPECT_TRUE(check(ref, CheckKind::Cos, cos_sin(Kind::Cos, pos, f, RopeLayout::Half), pos).match);
  EXPECT_TRUE(check(ref, CheckKind::Sin, cos_sin(Kind::Sin, pos, f, RopeLayout::Half), pos).match);
  const Matrix x = random_matrix(48, 64, 1), q = random_matrix(48, 64, 2), k = random_matrix(48, 64, 3);
  const auto r = check(ref, CheckKind::Rotated, rope_apply(x, pos, f, RopeLayout::Half), pos, x);
  EXPECT_TRUE(r.match);
  EXPECT_TRUE(r.diagnosis.empty());
  const Matrix lg = logits_of(rope_apply(q, pos, f, RopeLayout::Half), rope_apply(k, pos, f, RopeLayout::Half), 0.125);
  const auto rl = check(ref, CheckKind::Logits, lg, pos, {}, q, k);
  EXPECT_TRUE(rl.match);
  ASSERT_TRUE(rl.equivalent_under_softmax.has_value());
  EXPECT_TRUE(*rl.equivalent_under_softmax);
}

TEST(RopeCheck, Float32TransformersTensorsMatch) {
  // inv_freq, angles (float32 products p * inv_freq, modeling_llama.py LlamaRotaryEmbedding.forward) and
  // cos/sin all in float32, positions up to 8191 where float32 angle rounding reaches ~5e-4 rad.
  const int dim = 128;
  const RopeCheckReference ref = plain(dim, 500000.0);
  const std::vector<float> w = inv_freq_f32(dim, 500000.0);
  const auto pos = strided(64, 128, 3);
  Matrix inv(1, dim / 2);
  for (int i = 0; i < dim / 2; ++i) inv(0, i) = w[static_cast<size_t>(i)];
  EXPECT_TRUE(check(ref, CheckKind::InvFreq, inv).match);
  auto angle32 = [&](int64_t p, int i) { return static_cast<double>(static_cast<float>(p) * w[static_cast<size_t>(i)]); };
  Matrix c = cos_sin_table(Kind::Cos, pos, dim / 2, 1.0, RopeLayout::Half, angle32);
  Matrix s = cos_sin_table(Kind::Sin, pos, dim / 2, 1.0, RopeLayout::Half, angle32);
  c = c.cast<float>().cast<double>();
  s = s.cast<float>().cast<double>();
  const auto rc = check(ref, CheckKind::Cos, c, pos);
  EXPECT_TRUE(rc.match) << rc.max_abs_error;
  EXPECT_GT(rc.max_abs_error, 1e-5);  // float32 really differs from the double reference here
  EXPECT_TRUE(check(ref, CheckKind::Sin, s, pos).match);
  // Rotated in float32: x * cos + rotate_half(x) * sin.
  const Matrix x = random_matrix(64, dim, 4).cast<float>().cast<double>();
  Matrix rot(64, dim);
  for (Eigen::Index r = 0; r < 64; ++r)
    for (int i = 0; i < dim / 2; ++i) {
      const float cc = static_cast<float>(c(r, i)), ss = static_cast<float>(s(r, i));
      const float x0 = static_cast<float>(x(r, i)), x1 = static_cast<float>(x(r, i + dim / 2));
      rot(r, i) = x0 * cc - x1 * ss;
      rot(r, i + dim / 2) = x1 * cc + x0 * ss;
    }
  EXPECT_TRUE(check(ref, CheckKind::Rotated, rot, pos, x).match);
  // Logits from the float32 rotated q and k, float32 matmul.
  const MatrixF rf = rot.cast<float>();
  const MatrixF lf = (rf * rf.transpose()) * (1.0f / std::sqrt(static_cast<float>(dim)));
  const auto rl = check(ref, CheckKind::Logits, lf.cast<double>(), pos, {}, x, x);
  EXPECT_TRUE(rl.match) << rl.max_abs_error;
}

// ---------------------------------------------------------------- one test per cause

TEST(RopeCheckCause, LayoutSwapped) {
  // transformers #25199: interleaved (GPT-J) weights run through rotate_half, or the other way round.
  const RopeCheckReference ref = plain(64, 10000.0);
  const auto pos = iota(32);
  const Matrix x = random_matrix(32, 64, 5);
  const RopeFrequencies f = rope_frequencies(64, 10000.0);
  const auto r = check(ref, CheckKind::Rotated, rope_apply(x, pos, f, RopeLayout::Interleaved), pos, x);
  EXPECT_FALSE(r.match);
  ASSERT_EQ(top(r), "layout");
  EXPECT_EQ(fit_string(r.diagnosis[0], "layout"), "interleaved");
  EXPECT_GT(r.diagnosis[0].explains, 0.999999);
  // cos as transformers' cat(freqs, freqs) vs repeat_interleave.
  const auto rc = check(ref, CheckKind::Cos, cos_sin(Kind::Cos, pos, f, RopeLayout::Interleaved), pos);
  ASSERT_EQ(top(rc), "layout");
}

TEST(RopeCheckCause, AnglesInBfloat16) {
  // transformers #29285: under autocast the angle product p * inv_freq is computed in bfloat16.
  const RopeCheckReference ref = plain(128, 10000.0);
  const auto pos = iota(256);
  const RopeFrequencies f = rope_frequencies(128, 10000.0);
  const Matrix c = cos_sin_table(Kind::Cos, pos, 64, 1.0, RopeLayout::Half, [&](int64_t p, int i) {
    return to_bf16(static_cast<double>(p) * f.inv_freq[static_cast<size_t>(i)]);
  });
  const auto r = check(ref, CheckKind::Cos, c, pos);
  EXPECT_FALSE(r.match);
  ASSERT_EQ(top(r), "angle_precision");
  EXPECT_EQ(fit_string(r.diagnosis[0], "dtype"), "bfloat16");
  EXPECT_EQ(fit_string(r.diagnosis[0], "rounded"), "angles");
  EXPECT_GT(r.diagnosis[0].explains, 0.999999);
}

TEST(RopeCheckCause, InvFreqInFloat16) {
  // gpt-neox #1016: inv_freq kept in the model's half precision.
  const RopeCheckReference ref = plain(64, 10000.0);
  Matrix inv(1, 32);
  const RopeFrequencies f = rope_frequencies(64, 10000.0);
  for (int i = 0; i < 32; ++i) {
    const double w = f.inv_freq[static_cast<size_t>(i)];
    int e = 0;
    std::frexp(w, &e);
    const double sp = w >= 0x1p-14 ? std::ldexp(1.0, e - 11) : 0x1p-24;
    inv(0, i) = std::nearbyint(w / sp) * sp;
  }
  const auto r = check(ref, CheckKind::InvFreq, inv);
  ASSERT_EQ(top(r), "angle_precision");
  EXPECT_EQ(fit_string(r.diagnosis[0], "dtype"), "float16");
  EXPECT_EQ(fit_string(r.diagnosis[0], "rounded"), "inv_freq");
}

TEST(RopeCheckCause, WrongBase) {
  // A Llama-3 port left at the default rope_theta 10000 instead of 500000.
  const RopeCheckReference ref = plain(128, 500000.0);
  const auto pos = strided(64, 7);
  const auto r = check(ref, CheckKind::Sin, cos_sin(Kind::Sin, pos, rope_frequencies(128, 10000.0), RopeLayout::Half), pos);
  ASSERT_EQ(top(r), "base");
  EXPECT_NEAR(fit_number(r.diagnosis[0], "base"), 10000.0, 1e-3);
  EXPECT_GT(r.diagnosis[0].explains, 0.999999);
}

TEST(RopeCheckCause, ScalingMissing) {
  // Scaling not applied at all: a linear (position interpolation) factor-4 config run as plain RoPE.
  RopeCheckReference ref = plain(64, 10000.0);
  ref.scaling.type = RopeScalingType::Linear;
  ref.scaling.factor = 4.0;
  const auto pos = iota(64);
  const auto r = check(ref, CheckKind::Cos, cos_sin(Kind::Cos, pos, rope_frequencies(64, 10000.0), RopeLayout::Half), pos);
  ASSERT_EQ(top(r), "scaling_missing");
  EXPECT_EQ(fit_number(r.diagnosis[0], "factor"), 1.0);
  // NTK: plain RoPE is also "another base", named in the reference's terms.
  ref.scaling.type = RopeScalingType::Ntk;
  const auto rn = check(ref, CheckKind::Cos, cos_sin(Kind::Cos, pos, rope_frequencies(64, 10000.0), RopeLayout::Half), pos);
  ASSERT_EQ(top(rn), "scaling_missing");
}

TEST(RopeCheckCause, ScalingFactorWrong) {
  // Llama 3.1 (factor 8) computed with factor 32 (a copied Llama 3.2 config).
  RopeCheckReference ref = plain(128, 500000.0);
  RopeScaling& s = ref.scaling;
  s.type = RopeScalingType::Llama3;
  s.factor = 8;
  s.low_freq_factor = 1;
  s.high_freq_factor = 4;
  s.original_max_position_embeddings = 8192;
  RopeScaling wrong = s;
  wrong.factor = 32;
  Matrix inv(1, 64);
  const RopeFrequencies f = rope_frequencies(128, 500000.0, wrong);
  for (int i = 0; i < 64; ++i) inv(0, i) = f.inv_freq[static_cast<size_t>(i)];
  const auto r = check(ref, CheckKind::InvFreq, inv);
  ASSERT_EQ(top(r), "scaling_factor");
  EXPECT_NEAR(fit_number(r.diagnosis[0], "factor"), 32.0, 1e-6);
}

TEST(RopeCheckCause, YarnTruncateIgnored) {
  // sglang #14270: gpt-oss sets rope_scaling.truncate = false; the port rounded the correction range anyway.
  RopeCheckReference ref = plain(64, 150000.0);
  RopeScaling& s = ref.scaling;
  s.type = RopeScalingType::Yarn;
  s.factor = 32;
  s.original_max_position_embeddings = 4096;
  s.beta_fast = 32;
  s.beta_slow = 1;
  s.truncate = false;
  RopeScaling wrong = s;
  wrong.truncate = true;
  Matrix inv(1, 32);
  const RopeFrequencies f = rope_frequencies(64, 150000.0, wrong);
  for (int i = 0; i < 32; ++i) inv(0, i) = f.inv_freq[static_cast<size_t>(i)];
  const auto r = check(ref, CheckKind::InvFreq, inv);
  ASSERT_EQ(top(r), "yarn_truncate");
  EXPECT_EQ(std::get<bool>(r.diagnosis[0].fitted.at(0).second), true);
}

namespace {
RopeCheckReference yarn_ref(double factor) {
  RopeCheckReference ref = plain(64, 10000.0);
  ref.scaling.type = RopeScalingType::Yarn;
  ref.scaling.factor = factor;
  ref.scaling.original_max_position_embeddings = 4096;
  return ref;
}
}  // namespace

TEST(RopeCheckCause, AttentionFactorMissingFromCos) {
  // vLLM #48351: YaRN's cos/sin are not multiplied by attention_factor (0.1 ln f + 1).
  const RopeCheckReference ref = yarn_ref(4.0);
  const auto pos = iota(64);
  RopeFrequencies f = rope_frequencies(64, 10000.0, ref.scaling);
  const double a = f.attention_scaling;
  ASSERT_NEAR(a, 0.1 * std::log(4.0) + 1, 1e-15);
  f.attention_scaling = 1.0;
  const auto r = check(ref, CheckKind::Cos, cos_sin(Kind::Cos, pos, f, RopeLayout::Half), pos);
  ASSERT_EQ(top(r), "attention_factor");
  EXPECT_NEAR(fit_number(r.diagnosis[0], "attention_factor"), 1.0, 1e-9);
  EXPECT_NEAR(fit_number(r.diagnosis[0], "ratio"), 1 / a, 1e-9);
}

TEST(RopeCheckCause, AttentionFactorAppliedTwiceInLogits) {
  // vLLM #48623: attention_factor applied to cos/sin and again: q.k carries a^4 instead of a^2.
  const RopeCheckReference ref = yarn_ref(16.0);
  const auto pos = iota(40);
  RopeFrequencies f = rope_frequencies(64, 10000.0, with_seq_len_from_positions(ref.scaling, pos));
  const double a = f.attention_scaling;
  f.attention_scaling = a * a;
  const Matrix q = random_matrix(40, 64, 6), k = random_matrix(40, 64, 7);
  const Matrix lg = logits_of(rope_apply(q, pos, f, RopeLayout::Half), rope_apply(k, pos, f, RopeLayout::Half), 0.125);
  const auto r = check(ref, CheckKind::Logits, lg, pos, {}, q, k);
  ASSERT_EQ(top(r), "attention_factor");
  EXPECT_NEAR(fit_number(r.diagnosis[0], "ratio"), a * a, 1e-9);
  EXPECT_FALSE(*r.equivalent_under_softmax);
}

TEST(RopeCheckCause, SoftmaxScaleWithoutMscaleSquared) {
  // sglang #33558 / DeepSeek-V3: softmax_scale = q_head_dim^-0.5 * mscale^2 (mscale = 0.1 ln 40 + 1); the
  // port used q_head_dim^-0.5 alone. The rotary part's attention_factor is 1 (mscale == mscale_all_dim).
  RopeCheckReference ref = yarn_ref(40.0);
  ref.scaling.mscale = 1.0;
  ref.scaling.mscale_all_dim = 1.0;
  const double ms = 0.1 * std::log(40.0) + 1;
  ref.softmax_scale = ms * ms / std::sqrt(192.0);
  const auto pos = iota(32);
  const RopeFrequencies f = rope_frequencies(64, 10000.0, ref.scaling);
  ASSERT_EQ(f.attention_scaling, 1.0);
  const Matrix q = random_matrix(32, 64, 8), k = random_matrix(32, 64, 9);
  const Matrix lg =
      logits_of(rope_apply(q, pos, f, RopeLayout::Half), rope_apply(k, pos, f, RopeLayout::Half), 1 / std::sqrt(192.0));
  const auto r = check(ref, CheckKind::Logits, lg, pos, {}, q, k);
  ASSERT_EQ(top(r), "softmax_scale");
  EXPECT_NEAR(fit_number(r.diagnosis[0], "ratio"), 1 / (ms * ms), 1e-9);
  EXPECT_NEAR(fit_number(r.diagnosis[0], "softmax_scale"), 1 / std::sqrt(192.0), 1e-12);
}

TEST(RopeCheckCause, LongropeSwitchAtWrongLength) {
  // vLLM #27431: Phi-3 picks long_factor by max_position_embeddings, not the current length; here the
  // reverse: a 6000-position sequence (past original 4096) still computed with the short factors.
  RopeCheckReference ref = plain(16, 10000.0);
  RopeScaling& s = ref.scaling;
  s.type = RopeScalingType::Longrope;
  s.factor = 32;
  s.original_max_position_embeddings = 4096;
  s.short_factor = {1.0, 1.0, 1.05, 1.1, 1.2, 1.3, 1.6, 2.0};
  s.long_factor = {1.0, 1.2, 1.8, 3.0, 5.5, 9.0, 14.0, 20.0};
  const auto pos = strided(61, 100);  // 0 .. 6000
  RopeScaling wrong = s;
  wrong.seq_len = 4096;
  const RopeFrequencies f = rope_frequencies(16, 10000.0, wrong);
  const auto r = check(ref, CheckKind::Cos, cos_sin(Kind::Cos, pos, f, RopeLayout::Half), pos);
  ASSERT_EQ(top(r), "longrope_switch");
  EXPECT_EQ(fit_string(r.diagnosis[0], "factors"), "short");
}

TEST(RopeCheckCause, DynamicNtkAtConstantLength) {
  // vLLM #41236: dynamic NTK computed once for max_position_embeddings * factor instead of the current length.
  RopeCheckReference ref = plain(64, 10000.0);
  ref.scaling.type = RopeScalingType::Dynamic;
  ref.scaling.factor = 2;
  ref.scaling.original_max_position_embeddings = 2048;
  const auto pos = strided(100, 30);  // current length 2971
  RopeScaling wrong = ref.scaling;
  wrong.seq_len = 4096;
  const auto r = check(ref, CheckKind::Sin, cos_sin(Kind::Sin, pos, rope_frequencies(64, 10000.0, wrong), RopeLayout::Half), pos);
  ASSERT_EQ(top(r), "dynamic_seq_len");
  EXPECT_EQ(fit_number(r.diagnosis[0], "seq_len"), 4096.0);
}

TEST(RopeCheckCause, PartialRotaryExponentOverHeadDim) {
  // transformers #48652: inv_freq = base^(-2i/head_dim) for the rotary_dim/2 pairs (head_dim 128,
  // partial_rotary_factor 0.25), i.e. base^(rotary_dim/head_dim) over rotary_dim.
  RopeCheckReference ref = plain(128, 10000.0);
  ref.rotary_dim = 32;
  const auto pos = iota(50);
  RopeFrequencies f = rope_frequencies(128, 10000.0);
  f.inv_freq.resize(16);
  const auto r = check(ref, CheckKind::Cos, cos_sin(Kind::Cos, pos, f, RopeLayout::Half), pos);
  ASSERT_EQ(top(r), "partial_rotary");
  EXPECT_EQ(fit_number(r.diagnosis[0], "exponent_dim"), 128.0);
  EXPECT_NEAR(fit_number(r.diagnosis[0], "base"), std::pow(10000.0, 0.25), 1e-9);
}

TEST(RopeCheckCause, PartialRotaryPairsOffsetByHalfHeadDim) {
  // vLLM #30384: rotate_half applied over the whole head: pair i is (i, i + head_dim/2).
  RopeCheckReference ref = plain(64, 10000.0);
  ref.rotary_dim = 16;
  const auto pos = iota(24);
  const Matrix x = random_matrix(24, 64, 10);
  const RopeFrequencies f = rope_frequencies(16, 10000.0);
  Matrix wrong = x;
  for (Eigen::Index r = 0; r < 24; ++r)
    for (int i = 0; i < 8; ++i) {
      const double t = static_cast<double>(pos[static_cast<size_t>(r)]) * f.inv_freq[static_cast<size_t>(i)];
      const double x0 = x(r, i), x1 = x(r, i + 32);
      wrong(r, i) = x0 * std::cos(t) - x1 * std::sin(t);
      wrong(r, i + 32) = x1 * std::cos(t) + x0 * std::sin(t);
    }
  const auto r = check(ref, CheckKind::Rotated, wrong, pos, x);
  ASSERT_EQ(top(r), "partial_rotary");
  EXPECT_EQ(fit_number(r.diagnosis[0], "pair_offset"), 32.0);
}

TEST(RopeCheckCause, PositionsOffByOne) {
  const RopeCheckReference ref = plain(64, 10000.0);
  const auto pos = iota(40);
  const auto shifted = iota(40, 1);  // position_ids started at 1
  const auto r = check(ref, CheckKind::Cos, cos_sin(Kind::Cos, shifted, rope_frequencies(64, 10000.0), RopeLayout::Half), pos);
  ASSERT_EQ(top(r), "position_offset");
  EXPECT_EQ(fit_number(r.diagnosis[0], "offset"), 1.0);
}

TEST(RopeCheckCause, SinSignFlipped) {
  // rotate_half written as cat(x2, -x1): every pair rotates by -angle (= the rotation at -p).
  const RopeCheckReference ref = plain(64, 10000.0);
  const auto pos = iota(32);
  std::vector<int64_t> neg(pos.size());
  for (size_t i = 0; i < pos.size(); ++i) neg[i] = -pos[i];
  const Matrix x = random_matrix(32, 64, 11);
  const auto r = check(ref, CheckKind::Rotated, rope_apply(x, neg, rope_frequencies(64, 10000.0), RopeLayout::Half), pos, x);
  ASSERT_EQ(top(r), "rotation_direction");
  EXPECT_EQ(fit_number(r.diagnosis[0], "sin_sign"), -1.0);
}

TEST(RopeCheckCause, AlibiCausalFormIsARowConstant) {
  // ALiBi's causal (BLOOM) form adds slope * j where the relative form adds slope * (j - i): the two differ by
  // slope * i per query row, which softmax ignores.
  const RopeCheckReference ref = plain(32, 10000.0);
  const auto pos = iota(24);
  const Matrix q = random_matrix(24, 32, 12), k = random_matrix(24, 32, 13);
  const RopeFrequencies f = rope_frequencies(32, 10000.0);
  Matrix lg = logits_of(rope_apply(q, pos, f, RopeLayout::Half), rope_apply(k, pos, f, RopeLayout::Half), 1 / std::sqrt(32.0));
  const double slope = 0.0625;
  for (Eigen::Index i = 0; i < 24; ++i) lg.row(i).array() += slope * static_cast<double>(i);
  const auto r = check(ref, CheckKind::Logits, lg, pos, {}, q, k);
  ASSERT_EQ(top(r), "row_constant");
  EXPECT_NEAR(fit_number(r.diagnosis[0], "slope"), slope, 1e-12);
  EXPECT_TRUE(*r.equivalent_under_softmax);
}

TEST(RopeCheckCause, UnknownWhenNothingExplainsHalf) {
  const RopeCheckReference ref = plain(32, 10000.0);
  const auto pos = iota(16);
  Matrix c = cos_sin(Kind::Cos, pos, rope_frequencies(32, 10000.0), RopeLayout::Half);
  c += 0.1 * random_matrix(16, 32, 14);
  const auto r = check(ref, CheckKind::Cos, c, pos);
  ASSERT_EQ(top(r), "unknown");
  EXPECT_EQ(r.diagnosis[0].explains, 0.0);
}

// ---------------------------------------------------------------- shapes and fields

// DeepSeek-V3's MLA head (transformers modeling_deepseek_v3.py @c0ce2e40523611eb0eb5d2c03ba304371523a1fc:
// q_nope, q_pe = torch.split(q, [qk_nope_head_dim, qk_rope_head_dim]); k_pe from kv_a_proj_with_mqa; RoPE on
// q_pe / k_pe with rotate_every_two, then cat(nope, pe)): 128 unrotated dims, then 64 rotated.
RopeCheckReference mla_reference() {
  RopeCheckReference r = plain(192, 10000.0);
  r.rotary_dim = 64;
  r.rotary_offset = 128;
  r.layout = RopeLayout::Interleaved;
  r.softmax_scale = 1 / std::sqrt(192.0);
  return r;
}

// x with the 64 dims at `offset` rotated as the MLA port does (cat(nope, rope(pe))).
Matrix mla_rotate(const Matrix& x, const std::vector<int64_t>& pos, int offset) {
  const RopeFrequencies f = rope_frequencies(64, 10000.0);
  Matrix out = x;
  out.middleCols(offset, 64) = rope_apply(Matrix(x.middleCols(offset, 64)), pos, f, RopeLayout::Interleaved);
  return out;
}

TEST(RopeCheckMla, RopeSliceLastMatchesFullWidthAndAlone) {
  const RopeCheckReference ref = mla_reference();
  const auto pos = iota(48);
  const Matrix x = random_matrix(48, 192, 11);
  const auto full = check(ref, CheckKind::Rotated, mla_rotate(x, pos, 128), pos, x);
  EXPECT_TRUE(full.match) << top(full);
  // The rope slice alone (n x qk_rope_head_dim), as a port's q_pe / k_pe after RoPE.
  const Matrix pe = x.rightCols(64);
  const auto alone = check(ref, CheckKind::Rotated, Matrix(mla_rotate(x, pos, 128).rightCols(64)), pos, pe);
  EXPECT_TRUE(alone.match) << top(alone);
  // Logits of the full q and k (n x 192 each).
  const Matrix q = random_matrix(48, 192, 12), k = random_matrix(48, 192, 13);
  const Matrix lg = (1 / std::sqrt(192.0)) * (mla_rotate(q, pos, 128) * mla_rotate(k, pos, 128).transpose());
  EXPECT_TRUE(check(ref, CheckKind::Logits, lg, pos, {}, q, k).match);
}

TEST(RopeCheckMla, RopeSliceFirstIsRotaryOffset) {
  const RopeCheckReference ref = mla_reference();
  const auto pos = iota(48);
  const Matrix x = random_matrix(48, 192, 14);
  const auto r = check(ref, CheckKind::Rotated, mla_rotate(x, pos, 0), pos, x);
  EXPECT_FALSE(r.match);
  ASSERT_EQ(top(r), "rotary_offset");
  EXPECT_EQ(fit_number(r.diagnosis[0], "offset"), 0.0);
  EXPECT_GT(r.diagnosis[0].explains, 0.999999);
  EXPECT_NE(r.diagnosis[0].fix.find("q_nope, q_pe"), std::string::npos) << r.diagnosis[0].fix;
  // The same port seen through the logits.
  const Matrix q = random_matrix(48, 192, 15), k = random_matrix(48, 192, 16);
  const Matrix lg = (1 / std::sqrt(192.0)) * (mla_rotate(q, pos, 0) * mla_rotate(k, pos, 0).transpose());
  const auto rl = check(ref, CheckKind::Logits, lg, pos, {}, q, k);
  ASSERT_EQ(top(rl), "rotary_offset");
  EXPECT_EQ(fit_number(rl.diagnosis[0], "offset"), 0.0);
  // And the reverse: a reference rotating the first dims, a port rotating the last.
  RopeCheckReference first = ref;
  first.rotary_offset = 0;
  const auto rf = check(first, CheckKind::Rotated, mla_rotate(x, pos, 128), pos, x);
  ASSERT_EQ(top(rf), "rotary_offset");
  EXPECT_EQ(fit_number(rf.diagnosis[0], "offset"), 128.0);
}

TEST(RopeCheckMla, LogitsNeedTheFullHead) {
  const RopeCheckReference ref = mla_reference();
  const auto pos = iota(8);
  const Matrix q = random_matrix(8, 64, 17), k = random_matrix(8, 64, 18);
  try {
    check(ref, CheckKind::Logits, Matrix::Zero(8, 8), pos, {}, q, k);
    FAIL() << "a 64-wide q for a 192-wide head was read";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.field(), "q");
    EXPECT_NE(std::string(e.what()).find("rope slice alone"), std::string::npos) << e.what();
  }
  // An offset past the head is named.
  RopeCheckReference bad = ref;
  bad.rotary_offset = 130;
  try {
    check(bad, CheckKind::Cos, Matrix::Zero(8, 64), pos);
    FAIL();
  } catch (const InvalidArgument& e) { EXPECT_EQ(e.field(), "reference.rotary_offset"); }
}

TEST(RopeCheckCause, WholeAnglePathInFloat16) {
  // openvino #33214: positions, inv_freq, their product and cos in float16, fitted together.
  const RopeCheckReference ref = plain(128, 10000.0);
  std::vector<int64_t> pos;
  for (int64_t p = 0; p < 4096; p += 7) pos.push_back(p);
  const std::vector<float> w = inv_freq_f32(128, 10000.0);
  const Matrix c = cos_sin_table(Kind::Cos, pos, 64, 1.0, RopeLayout::Half, [&](int64_t p, int i) {
                     return to_fp16(to_fp16(static_cast<double>(p)) * to_fp16(w[static_cast<size_t>(i)]));
                   }).unaryExpr([](double v) { return to_fp16(v); });
  const auto r = check(ref, CheckKind::Cos, c, pos);
  ASSERT_EQ(top(r), "angle_precision");
  EXPECT_EQ(fit_string(r.diagnosis[0], "dtype"), "float16");
  const auto* steps = std::get_if<std::vector<std::string>>(&r.diagnosis[0].fitted[1].second);
  ASSERT_NE(steps, nullptr);
  EXPECT_EQ(r.diagnosis[0].fitted[1].first, "steps");
  EXPECT_EQ(*steps, (std::vector<std::string>{"positions", "inv_freq", "angle", "cos"}));
  EXPECT_GT(r.diagnosis[0].explains, 0.999);
  // One rounding alone (the angles) is named with that one step.
  const Matrix a = cos_sin_table(Kind::Cos, pos, 64, 1.0, RopeLayout::Half,
                                 [&](int64_t p, int i) { return to_fp16(static_cast<double>(p) * w[static_cast<size_t>(i)]); });
  const auto ra = check(ref, CheckKind::Cos, a, pos);
  ASSERT_EQ(top(ra), "angle_precision");
  EXPECT_EQ(std::get<std::vector<std::string>>(ra.diagnosis[0].fitted[1].second), std::vector<std::string>{"angle"});
}

TEST(RopeCheckCause, RopeTwiceWithAttentionFactorIsAngleScale) {
  // YaRN factor 4: attention_factor 0.1 ln 4 + 1; RoPE applied twice squares it on the rows.
  RopeCheckReference ref = plain(64, 10000.0);
  ref.scaling.type = RopeScalingType::Yarn;
  ref.scaling.factor = 4.0;
  ref.scaling.original_max_position_embeddings = 4096;
  const RopeFrequencies f = rope_frequencies(64, 10000.0, ref.scaling);
  const auto pos = iota(40);
  const Matrix x = random_matrix(40, 64, 19);
  const auto r =
      check(ref, CheckKind::Rotated, rope_apply(rope_apply(x, pos, f, RopeLayout::Half), pos, f, RopeLayout::Half), pos, x);
  ASSERT_EQ(top(r), "angle_scale");
  EXPECT_NEAR(fit_number(r.diagnosis[0], "factor"), 2.0, 1e-6);
  EXPECT_NEAR(fit_number(r.diagnosis[0], "ratio"), f.attention_scaling, 1e-6);
  EXPECT_NE(r.diagnosis[0].message.find("attention_factor"), std::string::npos) << r.diagnosis[0].message;
  EXPECT_GT(r.diagnosis[0].explains, 0.999999);
}

TEST(RopeCheck, WrongShapesNameTheField) {
  const RopeCheckReference ref = plain(16, 10000.0);
  auto field = [&](CheckKind kind, Matrix actual, std::vector<int64_t> pos, Matrix x = {}, Matrix q = {}, Matrix k = {}) {
    try {
      check(ref, kind, std::move(actual), std::move(pos), std::move(x), std::move(q), std::move(k));
    } catch (const InvalidArgument& e) { return e.field(); }
    return std::string("(no error)");
  };
  EXPECT_EQ(field(CheckKind::InvFreq, Matrix::Zero(1, 7), {}), "actual");
  EXPECT_EQ(field(CheckKind::Cos, Matrix::Zero(3, 16), iota(4)), "actual");
  EXPECT_EQ(field(CheckKind::Cos, Matrix::Zero(4, 12), iota(4)), "actual");
  EXPECT_EQ(field(CheckKind::Cos, Matrix::Zero(0, 16), {}), "positions");
  EXPECT_EQ(field(CheckKind::Rotated, Matrix::Zero(4, 16), iota(4), Matrix::Zero(4, 15)), "x");
  EXPECT_EQ(field(CheckKind::Logits, Matrix::Zero(4, 4), iota(4), {}, Matrix::Zero(4, 16), Matrix::Zero(3, 16)), "k");
  EXPECT_EQ(field(CheckKind::Logits, Matrix::Zero(4, 5), iota(4), {}, Matrix::Zero(4, 16), Matrix::Zero(4, 16)), "actual");
  Matrix nan = Matrix::Zero(1, 8);
  nan(0, 3) = NAN;
  EXPECT_EQ(field(CheckKind::InvFreq, nan, {}), "actual");
  RopeCheckReference bad = ref;
  bad.scaling.type = RopeScalingType::Linear;
  bad.scaling.factor = 0.5;
  try {
    check(bad, CheckKind::InvFreq, Matrix::Zero(1, 8));
    ADD_FAILURE();
  } catch (const InvalidArgument& e) { EXPECT_EQ(e.field(), "reference.scaling.factor"); }
}

TEST(RopeCheck, HalfWidthCosAndUserTolerance) {
  const RopeCheckReference ref = plain(16, 10000.0);
  const auto pos = iota(8);
  const RopeFrequencies f = rope_frequencies(16, 10000.0);
  Matrix half(8, 8);
  for (int r = 0; r < 8; ++r)
    for (int i = 0; i < 8; ++i) half(r, i) = std::cos(r * f.inv_freq[static_cast<size_t>(i)]) + 1e-4;
  RopeCheckInput in;
  in.kind = CheckKind::Cos;
  in.actual = half;
  in.positions = pos;
  EXPECT_FALSE(rope_check(ref, in).match);
  in.tolerance = RopeCheckTolerance{2e-4, 0};
  const auto r = rope_check(ref, in);
  EXPECT_TRUE(r.match);
  EXPECT_NEAR(r.max_abs_error, 1e-4, 1e-12);
  ASSERT_EQ(r.column_pair.size(), 8u);
  EXPECT_EQ(r.column_pair[7], 7);
}
