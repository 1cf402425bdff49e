// One broken tensor per cause of the RoPE tensor check, each built the way its public thread built it (from
// the core's rope_frequencies / rope_apply or by explicit loops, never through the check's own renderer),
// with the top cause and one fitted value it must produce. Shared by the unit tests (rope_check directly)
// and the integration tests (`posenc eval`, `posenc check` with .npy and .safetensors files).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "../common/rope_tables.h"
#include "core/analysis/rope_check.h"
#include "core/encodings/rope.h"
#include "core/rng.h"

namespace posenc::test {

// A plain RoPE reference: dim and base, every other field its default.
inline RopeCheckReference plain(int dim, double base) {
  RopeCheckReference r;
  r.dim = dim;
  r.base = base;
  return r;
}

// The top cause's name, or "(match)".
inline std::string top(const RopeCheckResult& r) {
  return r.diagnosis.empty() ? "(match)" : check_cause_name(r.diagnosis.front().cause);
}

// A diagnosis's fitted name `name` (a failure when it has none).
inline std::string fit_string(const RopeCheckDiagnosis& d, const std::string& name) {
  for (const auto& [k, v] : d.fitted)
    if (k == name && std::holds_alternative<std::string>(v)) return std::get<std::string>(v);
  ADD_FAILURE() << "no name fit '" << name << "' for " << check_cause_name(d.cause);
  return "";
}

struct CauseCase {
  std::string name;   // unique: cause, then what varies
  std::string cause;  // the top cause it must produce
  std::string thread;
  RopeCheckReference ref;
  CheckKind kind = CheckKind::Cos;
  Matrix actual, x, q, k;
  std::vector<int64_t> positions;
  int heads = 0;
  std::string fit_key;  // "" = none checked
  CheckFitValue fit_value;
};

inline Matrix case_randn(Eigen::Index r, Eigen::Index c, uint64_t seed) {
  NormalRng rng(seed);
  Matrix m(r, c);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = rng.normal();
  return m;
}

inline std::vector<int64_t> case_range(int64_t n, int64_t stride = 1, int64_t start = 0) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(start + i * stride);
  return v;
}

inline Matrix case_inv_row(const RopeFrequencies& f) {
  Matrix m(1, static_cast<Eigen::Index>(f.inv_freq.size()));
  for (Eigen::Index i = 0; i < m.cols(); ++i) m(0, i) = f.inv_freq[static_cast<size_t>(i)];
  return m;
}

// Rotates x's rows with pairs (i, i + span) for i < inv_freq.size() (rotate_half over 2 * span dims when
// span = inv_freq.size()), the other dims passed through.
inline Matrix rotate_span(const Matrix& x, const std::vector<int64_t>& pos, const std::vector<double>& inv_freq, int span,
                          double scale = 1.0) {
  Matrix out = x;
  for (Eigen::Index r = 0; r < x.rows(); ++r)
    for (size_t i = 0; i < inv_freq.size(); ++i) {
      const double t = static_cast<double>(pos[static_cast<size_t>(r)]) * inv_freq[i];
      const Eigen::Index a = static_cast<Eigen::Index>(i), b = a + span;
      out(r, a) = scale * (x(r, a) * std::cos(t) - x(r, b) * std::sin(t));
      out(r, b) = scale * (x(r, b) * std::cos(t) + x(r, a) * std::sin(t));
    }
  return out;
}

// Gemma 4's full-attention layers: head_dim 512, rope_theta 1e6, proportional RoPE with
// partial_rotary_factor 0.25 (64 rotating pairs, 192 of frequency 0, pairs (i, i + 256)), softmax scale 1.
inline RopeCheckReference gemma4_full_reference() {
  RopeCheckReference r;
  r.dim = 512;
  r.base = 1e6;
  r.scaling.type = RopeScalingType::Proportional;
  r.scaling.partial_rotary_factor = 0.25;
  r.softmax_scale = 1.0;
  return r;
}

inline std::vector<CauseCase> frequency_cause_cases() {
  using Kind = TableKind;
  std::vector<CauseCase> out;
  RopeCheckReference plain64;
  plain64.dim = 64;
  plain64.base = 10000.0;
  const auto pos = case_range(32);
  const RopeFrequencies f64 = rope_frequencies(64, 10000.0);
  {
    const Matrix x = case_randn(32, 64, 1);
    out.push_back({"layout",
                   "layout",
                   "transformers #25199",
                   plain64,
                   CheckKind::Rotated,
                   rope_apply(x, pos, f64, RopeLayout::Interleaved),
                   x,
                   {},
                   {},
                   pos,
                   0,
                   "layout",
                   std::string("interleaved")});
  }
  {
    const auto p = case_range(128);
    const Matrix c = cos_sin_table(Kind::Cos, p, 32, 1.0, RopeLayout::Half, [&](int64_t q, int i) {
      return to_bf16(static_cast<double>(q) * f64.inv_freq[static_cast<size_t>(i)]);
    });
    out.push_back({"angle_precision",
                   "angle_precision",
                   "transformers #29285",
                   plain64,
                   CheckKind::Cos,
                   c,
                   {},
                   {},
                   {},
                   p,
                   0,
                   "dtype",
                   std::string("bfloat16")});
  }
  {
    // openvino #33214: positions, inv_freq, their product and sin all in float16 (positions past 2048 round).
    const auto p = case_range(256, 13);
    const std::vector<float> w = inv_freq_f32(64, 10000.0);
    const Matrix s = cos_sin_table(Kind::Sin, p, 32, 1.0, RopeLayout::Half, [&](int64_t q, int i) {
                       return to_fp16(to_fp16(static_cast<double>(q)) * to_fp16(w[static_cast<size_t>(i)]));
                     }).unaryExpr([](double v) { return to_fp16(v); });
    out.push_back({"angle_precision float16 whole path",
                   "angle_precision",
                   "openvino #33214",
                   plain64,
                   CheckKind::Sin,
                   s,
                   {},
                   {},
                   {},
                   p,
                   0,
                   "steps",
                   std::vector<std::string>{"positions", "inv_freq", "angle", "sin"}});
  }
  {
    // The same path in bfloat16 (a model cast to bf16 whole, position_ids included): positions past 256 round.
    const auto p = case_range(256, 5);
    const std::vector<float> w = inv_freq_f32(64, 10000.0);
    const Matrix c = cos_sin_table(Kind::Cos, p, 32, 1.0, RopeLayout::Half, [&](int64_t q, int i) {
                       return to_bf16(to_bf16(static_cast<double>(q)) * to_bf16(w[static_cast<size_t>(i)]));
                     }).unaryExpr([](double v) { return to_bf16(v); });
    out.push_back({"angle_precision bfloat16 whole path",
                   "angle_precision",
                   "openvino #33214 (bfloat16)",
                   plain64,
                   CheckKind::Cos,
                   c,
                   {},
                   {},
                   {},
                   p,
                   0,
                   "steps",
                   std::vector<std::string>{"positions", "inv_freq", "angle", "cos"}});
  }
  {
    // RoPE applied twice: a key rotated again where it was already rotated (TensorRT-LLM #16378).
    const Matrix x = case_randn(32, 64, 7);
    out.push_back({"angle_scale rope twice",
                   "angle_scale",
                   "TensorRT-LLM #16378",
                   plain64,
                   CheckKind::Rotated,
                   rope_apply(rope_apply(x, pos, f64, RopeLayout::Half), pos, f64, RopeLayout::Half),
                   x,
                   {},
                   {},
                   pos,
                   0,
                   "factor",
                   2.0});
  }
  {
    // Positions doubled before the table is built (mlx-lm #1553).
    std::vector<int64_t> doubled;
    for (int64_t q : pos) doubled.push_back(2 * q);
    out.push_back({"angle_scale positions doubled",
                   "angle_scale",
                   "mlx-lm #1553",
                   plain64,
                   CheckKind::Cos,
                   cos_sin(Kind::Cos, doubled, f64),
                   {},
                   {},
                   {},
                   pos,
                   0,
                   "factor",
                   2.0});
  }
  {
    // DeepSeek-V3's MLA head: 128 nope dims then 64 rope dims (modeling_deepseek_v3.py @c0ce2e40523611eb0eb5d2c03ba304371523a1fc,
    // q_nope, q_pe = torch.split(q, [qk_nope_head_dim, qk_rope_head_dim])); a port that rotates the first 64.
    RopeCheckReference mla;
    mla.dim = 192;
    mla.rotary_dim = 64;
    mla.rotary_offset = 128;
    mla.layout = RopeLayout::Interleaved;
    const Matrix x = case_randn(32, 192, 8);
    Matrix front = x;
    front.leftCols(64) = rope_apply(Matrix(x.leftCols(64)), pos, f64, RopeLayout::Interleaved);
    out.push_back({"rotary_offset mla front slice",
                   "rotary_offset",
                   "MLA rope slice rotated first",
                   mla,
                   CheckKind::Rotated,
                   front,
                   x,
                   {},
                   {},
                   pos,
                   0,
                   "offset",
                   0.0});
  }
  {
    RopeCheckReference ref = plain64;
    ref.base = 500000.0;
    out.push_back({"base",
                   "base",
                   "rope_theta left at 10000",
                   ref,
                   CheckKind::Sin,
                   cos_sin(Kind::Sin, pos, f64),
                   {},
                   {},
                   {},
                   pos,
                   0,
                   "base",
                   10000.0});
  }
  RopeCheckReference linear = plain64;
  linear.scaling.type = RopeScalingType::Linear;
  linear.scaling.factor = 4.0;
  out.push_back({"scaling_missing",
                 "scaling_missing",
                 "linear scaling not applied",
                 linear,
                 CheckKind::Cos,
                 cos_sin(Kind::Cos, pos, f64),
                 {},
                 {},
                 {},
                 pos,
                 0,
                 "factor",
                 1.0});
  {
    RopeScaling s;
    s.type = RopeScalingType::Linear;
    s.factor = 2;
    out.push_back({"scaling_factor",
                   "scaling_factor",
                   "factor 2 for 4",
                   linear,
                   CheckKind::InvFreq,
                   case_inv_row(rope_frequencies(64, 10000.0, s)),
                   {},
                   {},
                   {},
                   {},
                   0,
                   "factor",
                   2.0});
  }
  RopeScaling yarn;
  yarn.type = RopeScalingType::Yarn;
  yarn.factor = 32;
  yarn.original_max_position_embeddings = 4096;
  {
    RopeCheckReference ref = plain64;
    ref.base = 150000.0;
    ref.scaling = yarn;
    ref.scaling.truncate = false;
    out.push_back({"yarn_truncate",
                   "yarn_truncate",
                   "sglang #14270",
                   ref,
                   CheckKind::InvFreq,
                   case_inv_row(rope_frequencies(64, 150000.0, yarn)),
                   {},
                   {},
                   {},
                   {},
                   0,
                   "truncate",
                   true});
  }
  RopeCheckReference yarn_ref = plain64;
  yarn_ref.scaling = yarn;
  {
    RopeFrequencies f = rope_frequencies(64, 10000.0, yarn);
    f.attention_scaling = 1.0;
    out.push_back({"attention_factor",
                   "attention_factor",
                   "vLLM #48351",
                   yarn_ref,
                   CheckKind::Cos,
                   cos_sin(Kind::Cos, pos, f),
                   {},
                   {},
                   {},
                   pos,
                   0,
                   "attention_factor",
                   1.0});
  }
  {
    RopeCheckReference ref = yarn_ref;
    ref.scaling.mscale = 1.0;
    ref.scaling.mscale_all_dim = 1.0;
    const double ms = 0.1 * std::log(32.0) + 1;
    ref.softmax_scale = ms * ms / std::sqrt(192.0);
    const RopeFrequencies f = rope_frequencies(64, 10000.0, ref.scaling);
    const Matrix q = case_randn(32, 64, 2), k = case_randn(32, 64, 3);
    const Matrix lg =
        (1 / std::sqrt(192.0)) * (rope_apply(q, pos, f, RopeLayout::Half) * rope_apply(k, pos, f, RopeLayout::Half).transpose());
    out.push_back({"softmax_scale",
                   "softmax_scale",
                   "sglang #33558",
                   ref,
                   CheckKind::Logits,
                   lg,
                   {},
                   q,
                   k,
                   pos,
                   0,
                   "softmax_scale",
                   1 / std::sqrt(192.0)});
  }
  {
    RopeCheckReference ref;
    ref.dim = 16;
    ref.base = 10000.0;
    RopeScaling& s = ref.scaling;
    s.type = RopeScalingType::Longrope;
    s.factor = 32;
    s.original_max_position_embeddings = 4096;
    s.short_factor = {1.0, 1.0, 1.05, 1.1, 1.2, 1.3, 1.6, 2.0};
    s.long_factor = {1.0, 1.2, 1.8, 3.0, 5.5, 9.0, 14.0, 20.0};
    RopeScaling wrong = s;
    wrong.seq_len = 100;
    const auto p = case_range(61, 100);
    out.push_back({"longrope_switch",
                   "longrope_switch",
                   "vLLM #27431",
                   ref,
                   CheckKind::Cos,
                   cos_sin(Kind::Cos, p, rope_frequencies(16, 10000.0, wrong)),
                   {},
                   {},
                   {},
                   p,
                   0,
                   "factors",
                   std::string("short")});
  }
  {
    RopeCheckReference ref = plain64;
    ref.scaling.type = RopeScalingType::Dynamic;
    ref.scaling.factor = 2;
    ref.scaling.original_max_position_embeddings = 2048;
    RopeScaling wrong = ref.scaling;
    wrong.seq_len = 4096;
    const auto p = case_range(100, 30);
    out.push_back({"dynamic_seq_len",
                   "dynamic_seq_len",
                   "vLLM #41236",
                   ref,
                   CheckKind::Sin,
                   cos_sin(Kind::Sin, p, rope_frequencies(64, 10000.0, wrong)),
                   {},
                   {},
                   {},
                   p,
                   0,
                   "seq_len",
                   4096.0});
  }
  {
    RopeCheckReference ref;
    ref.dim = 128;
    ref.base = 10000.0;
    ref.rotary_dim = 32;
    RopeFrequencies f = rope_frequencies(128, 10000.0);
    f.inv_freq.resize(16);
    out.push_back({"partial_rotary",
                   "partial_rotary",
                   "transformers #48652",
                   ref,
                   CheckKind::Cos,
                   cos_sin(Kind::Cos, pos, f),
                   {},
                   {},
                   {},
                   pos,
                   0,
                   "exponent_dim",
                   128.0});
  }
  {
    // A partial reference (rotary 16 of 64) whose port rotates the whole head with head-wide frequencies.
    RopeCheckReference ref = plain64;
    ref.rotary_dim = 16;
    const Matrix x = case_randn(32, 64, 11);
    out.push_back({"partial_rotary whole head",
                   "partial_rotary",
                   "nexusquant #12",
                   ref,
                   CheckKind::Rotated,
                   rope_apply(x, pos, f64, RopeLayout::Half),
                   x,
                   {},
                   {},
                   pos,
                   0,
                   "rotated_dims",
                   64.0});
  }
  {
    // Gemma 4 full layers rotated over the whole head, proportional not applied: plain RoPE over 512 dims.
    const RopeCheckReference ref = gemma4_full_reference();
    const auto p = case_range(24);
    const Matrix x = case_randn(24, 512, 12);
    out.push_back({"scaling_missing gemma4 whole head",
                   "scaling_missing",
                   "nexusquant #12",
                   ref,
                   CheckKind::Rotated,
                   rope_apply(x, p, rope_frequencies(512, 1e6), RopeLayout::Half),
                   x,
                   {},
                   {},
                   p,
                   0,
                   "factor",
                   1.0});
  }
  {
    // Proportional RoPE's 64 frequencies (bit-identical) applied with rotate_half over the first 128 dims.
    const RopeCheckReference ref = gemma4_full_reference();
    const auto p = case_range(24);
    const Matrix x = case_randn(24, 512, 13);
    std::vector<double> w = rope_frequencies(512, 1e6, ref.scaling).inv_freq;
    w.resize(64);
    out.push_back({"pairing_span rotated",
                   "pairing_span",
                   "NVIDIA-NeMo/Megatron-Bridge #4195",
                   ref,
                   CheckKind::Rotated,
                   rotate_span(x, p, w, 64),
                   x,
                   {},
                   {},
                   p,
                   0,
                   "pair_offset",
                   64.0});
    // The same through the logits (apple/coreai-models #66); the ordinary partial frequencies base^(-2i/128).
    const Matrix q = case_randn(24, 512, 14), k = case_randn(24, 512, 15);
    out.push_back({"pairing_span logits",
                   "pairing_span",
                   "apple/coreai-models #66",
                   ref,
                   CheckKind::Logits,
                   rotate_span(q, p, w, 64) * rotate_span(k, p, w, 64).transpose(),
                   {},
                   q,
                   k,
                   p,
                   0,
                   "rotated_dims",
                   128.0});
    std::vector<double> partial(64);
    for (int i = 0; i < 64; ++i) partial[size_t(i)] = std::pow(1e6, -2.0 * i / 128);
    out.push_back({"pairing_span partial frequencies",
                   "pairing_span",
                   "pegainfer #820",
                   ref,
                   CheckKind::Rotated,
                   rotate_span(x, p, partial, 64),
                   x,
                   {},
                   {},
                   p,
                   0,
                   "exponent_dim",
                   128.0});
    // Gemma 4's softmax scale is 1; a kernel that scales by 1/sqrt(512) (gemma-triton-flash-attn #6).
    const RopeFrequencies f = rope_frequencies(512, 1e6, ref.scaling);
    const Matrix lg =
        (1 / std::sqrt(512.0)) * (rope_apply(q, p, f, RopeLayout::Half) * rope_apply(k, p, f, RopeLayout::Half).transpose());
    out.push_back({"softmax_scale gemma4",
                   "softmax_scale",
                   "gemma-triton-flash-attn #6",
                   ref,
                   CheckKind::Logits,
                   lg,
                   {},
                   q,
                   k,
                   p,
                   0,
                   "softmax_scale",
                   1 / std::sqrt(512.0)});
  }
  return out;
}

inline std::vector<CauseCase> row_cause_cases() {
  using Kind = TableKind;
  std::vector<CauseCase> out;
  RopeCheckReference plain64;
  plain64.dim = 64;
  plain64.base = 10000.0;
  const auto pos = case_range(32);
  const RopeFrequencies f64 = rope_frequencies(64, 10000.0);
  out.push_back({"position_offset",
                 "position_offset",
                 "position_ids from 1",
                 plain64,
                 CheckKind::Cos,
                 cos_sin(Kind::Cos, case_range(32, 1, 1), f64),
                 {},
                 {},
                 {},
                 pos,
                 0,
                 "offset",
                 1.0});
  {
    const Matrix x = case_randn(32, 64, 4);
    std::vector<int64_t> neg;
    for (int64_t p : pos) neg.push_back(-p);
    out.push_back({"rotation_direction",
                   "rotation_direction",
                   "rotate_half sign",
                   plain64,
                   CheckKind::Rotated,
                   rope_apply(x, neg, f64, RopeLayout::Half),
                   x,
                   {},
                   {},
                   pos,
                   0,
                   "sin_sign",
                   -1.0});
  }
  {
    const Matrix q = case_randn(32, 64, 5), k = case_randn(32, 64, 6);
    Matrix lg = 0.125 * (rope_apply(q, pos, f64, RopeLayout::Half) * rope_apply(k, pos, f64, RopeLayout::Half).transpose());
    for (Eigen::Index i = 0; i < 32; ++i) lg.row(i).array() += 0.25 * static_cast<double>(i);
    out.push_back(
        {"row_constant", "row_constant", "ALiBi causal form", plain64, CheckKind::Logits, lg, {}, q, k, pos, 0, "slope", 0.25});
  }
  {
    // A cos/sin cache of 48 rows indexed by min(p, 47) (vLLM #55910).
    const auto p = case_range(80);
    std::vector<int64_t> clamped;
    for (int64_t v : p) clamped.push_back(std::min<int64_t>(v, 47));
    out.push_back({"cache_length clamp",
                   "cache_length",
                   "vLLM #55910",
                   plain64,
                   CheckKind::Cos,
                   cos_sin(Kind::Cos, clamped, f64),
                   {},
                   {},
                   {},
                   p,
                   0,
                   "length",
                   48.0});
    // A cache of 40 rows indexed by p mod 40 (llm-awq #332), seen in the rotated rows.
    std::vector<int64_t> wrapped;
    for (int64_t v : p) wrapped.push_back(v % 40);
    const Matrix x = case_randn(80, 64, 16);
    out.push_back({"cache_length wrap",
                   "cache_length",
                   "mit-han-lab/llm-awq #332",
                   plain64,
                   CheckKind::Rotated,
                   rope_apply(x, wrapped, f64, RopeLayout::Half),
                   x,
                   {},
                   {},
                   p,
                   0,
                   "mode",
                   std::string("wrap")});
  }
  {
    // The current key written to the cache unrotated, the earlier ones rotated (sglang #66).
    const Matrix x = case_randn(32, 64, 17);
    Matrix k = rope_apply(x, pos, f64, RopeLayout::Half);
    k.row(31) = x.row(31);
    out.push_back({"unrotated_rows current key",
                   "unrotated_rows",
                   "kvcache-ai/sglang #66",
                   plain64,
                   CheckKind::Rotated,
                   k,
                   x,
                   {},
                   {},
                   pos,
                   0,
                   "rows",
                   std::vector<int64_t>{31}});
    // RoPE never applied (sqliteai/warp #27): the rows as they were; the logits q . k unrotated.
    out.push_back({"unrotated_rows all",
                   "unrotated_rows",
                   "sqliteai/warp #27",
                   plain64,
                   CheckKind::Rotated,
                   x,
                   x,
                   {},
                   {},
                   pos,
                   0,
                   "rows",
                   std::string("all")});
    const Matrix q = case_randn(32, 64, 18), kk = case_randn(32, 64, 19);
    out.push_back({"unrotated_rows logits",
                   "unrotated_rows",
                   "sqliteai/warp #27",
                   plain64,
                   CheckKind::Logits,
                   0.125 * (q * kk.transpose()),
                   {},
                   q,
                   kk,
                   pos,
                   0,
                   "rows",
                   std::string("all")});
  }
  {
    // An in-place kernel: out_b computed from the out_a just written over x_a (vllm-ascend #12723).
    const Matrix x = case_randn(32, 64, 20);
    Matrix o = x;
    for (Eigen::Index r = 0; r < 32; ++r)
      for (int i = 0; i < 32; ++i) {
        const double t = static_cast<double>(pos[size_t(r)]) * f64.inv_freq[size_t(i)];
        o(r, i) = o(r, i) * std::cos(t) - o(r, i + 32) * std::sin(t);
        o(r, i + 32) = o(r, i + 32) * std::cos(t) + o(r, i) * std::sin(t);  // reads the new o(r, i)
      }
    out.push_back(
        {"norm_violation", "norm_violation", "vllm-ascend #12723", plain64, CheckKind::Rotated, o, x, {}, {}, pos, 0, "", {}});
  }
  {
    // (H, n, d) queries where head h is rotated at p + h (elixir-nx/emlx #121).
    const int heads = 4;
    const Matrix x = case_randn(heads * 16, 64, 21);
    Matrix o(heads * 16, 64);
    const auto p = case_range(16);
    for (int h = 0; h < heads; ++h) {
      std::vector<int64_t> ph;
      for (int64_t v : p) ph.push_back(v + h);
      o.middleRows(h * 16, 16) = rope_apply(Matrix(x.middleRows(h * 16, 16)), ph, f64, RopeLayout::Half);
    }
    out.push_back({"head_offset",
                   "head_offset",
                   "elixir-nx/emlx #121",
                   plain64,
                   CheckKind::Rotated,
                   o,
                   x,
                   {},
                   {},
                   p,
                   heads,
                   "per_head_offset",
                   1.0});
    // Decode (one position, 37): only head 0 rotated, heads 1..7 left as they were (oxiglade/mlx-rs #357).
    const Matrix xd = case_randn(8, 64, 22);
    Matrix od = xd;
    od.row(0) = rope_apply(Matrix(xd.row(0)), std::vector<int64_t>{37}, f64, RopeLayout::Half);
    out.push_back({"unrotated_heads",
                   "unrotated_heads",
                   "oxiglade/mlx-rs #357",
                   plain64,
                   CheckKind::Rotated,
                   od,
                   xd,
                   {},
                   {},
                   {37},
                   8,
                   "heads",
                   std::vector<int64_t>{1, 2, 3, 4, 5, 6, 7}});
  }
  {
    CauseCase u{"unknown",
                "unknown",
                "noise",
                plain64,
                CheckKind::Cos,
                cos_sin(Kind::Cos, pos, f64) + 0.2 * case_randn(32, 64, 7),
                {},
                {},
                {},
                pos,
                0,
                "",
                {}};
    out.push_back(u);
  }
  return out;
}

inline std::vector<CauseCase> all_cause_cases() {
  std::vector<CauseCase> out = frequency_cause_cases();
  for (CauseCase& c : row_cause_cases()) out.push_back(std::move(c));
  return out;
}

}  // namespace posenc::test
