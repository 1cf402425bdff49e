// The catalogue of the RoPE tensor check: each cause is the reference with one thing done wrong, fitted to
// the user's tensor by its own parameter and scored by the fraction of the squared error it removes; the
// naming rules order causes that fit equally well. docs/cli.md lists every cause with its signature.
#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>

#include "core/analysis/rope_check_detail.h"
#include "core/bounds.h"
#include "core/exact_pow.h"

namespace posenc::rope_check_detail {

namespace {
constexpr Eigen::Index kBlockValues = 1 << 16;  // a block of rows of a cause's tensor: about 512 KB
}  // namespace

void Diagnoser::each_block(const std::function<void(Eigen::Index, const std::vector<Eigen::Index>&)>& f) const {
  if (pb.kind == CheckKind::Logits || pb.kind == CheckKind::InvFreq) {
    f(0, all_rows(pb));
    return;
  }
  const Eigen::Index step = std::max<Eigen::Index>(1, kBlockValues / std::max<Eigen::Index>(1, pb.cols));
  std::vector<Eigen::Index> idx;
  for (Eigen::Index first = 0; first < pb.rows; first += step) {
    idx.resize(static_cast<size_t>(std::min(step, pb.rows - first)));
    std::iota(idx.begin(), idx.end(), first);
    f(first, idx);
  }
}

double Diagnoser::setting_sse(const Setting& s, double scale) const {
  // sse(actual, scale x full(s)) term by term in the same order, without the whole tensor.
  double total = 0;
  bool finite = true;
  each_block([&](Eigen::Index first, const std::vector<Eigen::Index>& idx) {
    if (!finite) return;
    const Matrix block = render(pb, s, idx);
    const double* a = actual.data() + first * actual.cols();
    for (Eigen::Index i = 0; i < block.size() && finite; ++i) {
      const double v = a[i] - block.data()[i] * scale;
      if (!std::isfinite(v)) finite = false;
      total += v * v;
    }
  });
  return finite ? total : std::numeric_limits<double>::infinity();
}

Matrix Diagnoser::full(const Prediction& p) const {
  if (!p.setting) return p.tensor;
  Matrix m = full(*p.setting);
  if (p.scale != 1.0) m *= p.scale;
  return m;
}

double Diagnoser::explains(const Prediction& p) const {
  const double e = p.setting ? setting_sse(*p.setting, p.scale) : sse(actual, p.tensor);
  if (!std::isfinite(e) || base_sse <= 0) return 0.0;
  return std::clamp(1.0 - e / base_sse, 0.0, 1.0);
}

void Diagnoser::add(CheckCause cause, Prediction p, Fitted fitted, std::string message, std::string fix) {
  Scored c;
  c.d.cause = cause;
  c.d.explains = explains(p);
  c.d.fitted = std::move(fitted);
  c.d.message = std::move(message);
  c.d.fix = std::move(fix);
  if (!keep_tensors) p.tensor = Matrix();
  c.p = std::move(p);
  out.push_back(std::move(c));
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.d.explains > b.d.explains; });
  if (out.size() > kMaxKept + 2) out.pop_back();
  // Keep memory bounded: only the top diagnosis's tensor is read (the pictures' residual), so at most two
  // computed tensors are held, the best and one tied with it for the naming rules; a setting is rendered
  // again when it wins.
  int held = 0;
  for (Scored& x : out) {
    if (x.p.tensor.size() == 0) continue;
    if (held < 2 && x.d.explains >= out.front().d.explains - kTie) ++held;
    else x.p.tensor = Matrix();
  }
}

double Diagnoser::level_sse(const Setting& s) const { return sse(render(pb, s, fl.levels.back()), fl.actual.back()); }

RopeCheckReference Diagnoser::with(const std::function<void(RopeCheckReference&)>& change) const {
  RopeCheckReference r = pb.ref;
  change(r);
  return r;
}

// ---------------------------------------------------------------- causes of the frequencies

void Diagnoser::layout() {
  const bool applies = (pb.kind == CheckKind::Cos || pb.kind == CheckKind::Sin)
                           ? !pb.half_width
                           : pb.kind == CheckKind::Rotated || pb.kind == CheckKind::Logits;
  if (!applies || pb.pairs < 2) return;
  Setting s = ref;
  s.layout = ref.layout == RopeLayout::Half ? RopeLayout::Interleaved : RopeLayout::Half;
  const std::string name = rope_layout_name(s.layout);
  add(CheckCause::Layout, s, {{"layout", name}},
      std::string("the tensor pairs dimensions the ") + name + " way (" +
          (s.layout == RopeLayout::Half ? "rotate_half: i with i + r/2" : "rotate_every_two: 2i with 2i + 1") +
          "), the reference the " + rope_layout_name(ref.layout) + " way",
      std::string("use the ") + rope_layout_name(ref.layout) + " layout (" +
          (ref.layout == RopeLayout::Half ? "rotate_half / cat(freqs, freqs)" : "rotate_every_two / repeat_interleave") +
          "), or permute the weights to match");
}

// Half precision where float32 belongs, at one or several steps of the angle path fitted together: the
// positions, inv_freq (or the timescale 1 / inv_freq a division-form port holds: JAX / flax p / base**(2i/d)),
// the product p * inv_freq, and cos / sin (openvino #33214 computes all four in float16). Of the step sets that
// fit equally well, the one with the fewest steps is named (a step that changes nothing is not claimed).
void Diagnoser::angle_precision() {
  enum Step : unsigned { Positions = 1, InvFreq = 2, Timescale = 4, Angle = 8, Trig = 16 };
  const bool angles = pb.kind != CheckKind::InvFreq;
  struct Candidate {
    Setting s;
    unsigned steps = 0;
    Round r = Round::Bf16;
    double err = std::numeric_limits<double>::infinity();
  };
  std::vector<Candidate> cands;
  for (Round r : {Round::Bf16, Round::Fp16})
    for (unsigned steps = 1; steps < 32; ++steps) {
      if ((steps & InvFreq) && (steps & Timescale)) continue;
      if (!angles && (steps & (Positions | Angle | Trig))) continue;
      Setting s = ref;
      if (steps & Positions) s.position_round = r;
      if (steps & InvFreq) s.inv_round = r;
      if (steps & Timescale) s.timescale_round = r;
      if (steps & Angle) s.angle_round = r;
      if (steps & Trig) s.trig_round = r;
      cands.push_back({s, steps, r, level_sse(s)});
    }
  double best = std::numeric_limits<double>::infinity();
  for (const Candidate& c : cands) best = std::min(best, c.err);
  if (!std::isfinite(best)) return;
  const Candidate* chosen = nullptr;
  for (const Candidate& c : cands)
    if (c.err <= best * (1 + 1e-9) && (!chosen || std::popcount(c.steps) < std::popcount(chosen->steps) ||
                                       (std::popcount(c.steps) == std::popcount(chosen->steps) && c.err < chosen->err)))
      chosen = &c;
  std::vector<std::string> names;
  if (chosen->steps & Positions) names.push_back("positions");
  if (chosen->steps & InvFreq) names.push_back("inv_freq");
  if (chosen->steps & Timescale) names.push_back("timescale");
  if (chosen->steps & Angle) names.push_back("angle");
  if (chosen->steps & Trig) {
    if (pb.kind != CheckKind::Sin) names.push_back("cos");
    if (pb.kind != CheckKind::Cos) names.push_back("sin");
  }
  std::string list;
  for (size_t i = 0; i < names.size(); ++i) list += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  // The earlier single-step summary, kept beside the steps: angles, inv_freq or timescale.
  const std::string rounded = (chosen->steps & Angle)       ? "angles"
                              : (chosen->steps & Timescale) ? "timescale"
                              : (chosen->steps & InvFreq)   ? "inv_freq"
                                                            : names.front();
  const char* dtype = round_name(chosen->r);
  add(CheckCause::AnglePrecision, chosen->s, {{"dtype", std::string(dtype)}, {"steps", names}, {"rounded", rounded}},
      list + (names.size() == 1 ? " was" : " were") + " computed in " + dtype + ": the error grows with position",
      "compute the positions, inv_freq, the angles and cos/sin in float32 (autocast off, .float() before the product), "
      "cast cos/sin to the model's dtype afterwards");
}

// Every angle times a constant factor: RoPE applied twice (a rotated key or query rotated again) gives 2, and
// so do positions doubled (TensorRT-LLM #16378, mlx-lm #1553). For rotated and logits tensors a magnitude is
// fitted beside it: applying RoPE twice with YaRN's attention_factor also squares the norm's factor.
void Diagnoser::angle_scale() {
  if (pb.kind == CheckKind::InvFreq) return;
  auto make = [&](double t) -> std::optional<Setting> {
    Setting s = ref;
    s.angle_scale = std::exp(t);
    return s;
  };
  const double f = std::exp(fit_scalar(pb, fl, std::log(1.0 / 16), std::log(16.0), make));
  Setting s = ref;
  s.angle_scale = f;
  Prediction predicted{s, 1.0, {}};
  Fitted fitted{{"factor", f}};
  std::string norm;
  const double a = ref.magnitude;
  if (pb.kind == CheckKind::Rotated || pb.kind == CheckKind::Logits) {
    // The tensor is linear in the magnitude (rotated) or in the logits' scale: a least-squares ratio, its sums
    // taken in storage order a block at a time.
    double den = 0, dot = 0;
    each_block([&](Eigen::Index first, const std::vector<Eigen::Index>& idx) {
      const Matrix block = render(pb, s, idx);
      const double* act = actual.data() + first * actual.cols();
      for (Eigen::Index i = 0; i < block.size(); ++i) {
        const double v = block.data()[i];
        den += v * v;
        dot += act[i] * v;
      }
    });
    const double ratio = den > 0 ? dot / den : 1.0;
    if (ratio > 0 && std::fabs(ratio - 1) > 1e-6) {
      predicted.scale = ratio;
      fitted.push_back({"ratio", ratio});
      const double want = pb.kind == CheckKind::Rotated ? a : a * a;  // a twice: a^2 on rotated rows, a^4 on logits
      norm = "; the " + std::string(pb.kind == CheckKind::Rotated ? "rows' norm" : "logits' scale") + " is " + num(ratio) +
             " x the reference's" +
             (a != 1.0 && std::fabs(ratio - want) < 1e-2 * want
                  ? std::string(" = attention_factor") + (pb.kind == CheckKind::Rotated ? "" : "^2") + " (" + num(a) +
                        "): attention_factor applied with each rotation, attention_factor^2 where it belongs once"
                  : "");
    }
  }
  const bool twice = std::fabs(f - 2) < 1e-3;
  add(CheckCause::AngleScale, std::move(predicted), std::move(fitted),
      "every angle is " + num(f) + " x the reference's" +
          (twice ? " (RoPE applied twice, or positions doubled)" : " (positions or angles scaled by a constant)") + norm,
      "apply RoPE once (a query or key rotated again, e.g. a cache stored rotated and rotated on read) and pass the "
      "positions unscaled (position_ids as 0, 1, 2, ...; no stride or doubling)");
}

void Diagnoser::base() {
  const double lo = std::log(1.01), hi = std::log(1e12);
  auto make = [&](double t) { return try_setting(pb, with([&](RopeCheckReference& r) { r.base = std::exp(t); })); };
  const double b = std::exp(fit_scalar(pb, fl, lo, hi, make));
  const auto s = make(std::log(b));
  if (!s) return;
  add(CheckCause::Base, *s, {{"base", b}}, "the tensor fits rope_theta = " + num(b) + ", the reference has " + num(pb.ref.base),
      "use rope_theta = " + num(pb.ref.base) + " (read rope_theta / rope_parameters from the config)");
}

void Diagnoser::scaling_missing() {
  if (pb.ref.scaling.type == RopeScalingType::None) return;
  const auto s = try_setting(pb, with([](RopeCheckReference& r) { r.scaling = RopeScaling{}; }));
  if (!s) return;
  add(CheckCause::ScalingMissing, *s, {{"factor", 1.0}},
      std::string("the tensor is plain RoPE: the ") + rope_scaling_type_name(pb.ref.scaling.type) + " scaling was not applied",
      std::string("apply the ") + rope_type_name(pb.ref.scaling.type) + " rope_scaling of the config (rope_type and factor)");
}

void Diagnoser::scaling_factor() {
  const RopeScalingType t = pb.ref.scaling.type;
  if (t == RopeScalingType::None || t == RopeScalingType::Longrope) return;
  auto make = [&](double u) { return try_setting(pb, with([&](RopeCheckReference& r) { r.scaling.factor = std::exp(u); })); };
  const double f = std::exp(fit_scalar(pb, fl, 0.0, std::log(1e4), make));
  const auto s = make(std::log(f));
  if (!s) return;
  add(CheckCause::ScalingFactor, *s, {{"factor", f}},
      std::string("the tensor fits the ") + rope_scaling_type_name(t) + " scaling with factor " + num(f) +
          ", the reference has " + num(pb.ref.scaling.factor),
      "use rope_scaling.factor = " + num(pb.ref.scaling.factor));
}

void Diagnoser::yarn_truncate() {
  if (pb.ref.scaling.type != RopeScalingType::Yarn) return;
  const bool flipped = !pb.ref.scaling.truncate;
  const auto s = try_setting(pb, with([&](RopeCheckReference& r) { r.scaling.truncate = flipped; }));
  if (!s) return;
  add(CheckCause::YarnTruncate, *s, {{"truncate", flipped}},
      std::string("the tensor fits YaRN with truncate = ") + (flipped ? "true" : "false") + " (the correction range " +
          (flipped ? "floored/ceiled" : "not rounded") + "), the reference has " + (flipped ? "false" : "true"),
      std::string(pb.ref.scaling.truncate ? "round the correction range (floor low, ceil high)"
                                          : "do not round the correction range (rope_scaling.truncate = false)"));
}

void Diagnoser::longrope_switch() {
  if (pb.ref.scaling.type != RopeScalingType::Longrope) return;
  const RopeScaling sc = with_seq_len_from_positions(pb.ref.scaling, pb.positions);
  const bool uses_long = sc.seq_len && *sc.seq_len > sc.original_max_position_embeddings;
  const auto s = try_setting(pb, with([&](RopeCheckReference& r) {
                               r.scaling.seq_len =
                                   uses_long ? sc.original_max_position_embeddings : sc.original_max_position_embeddings + 1;
                             }));
  if (!s) return;
  const std::string other = uses_long ? "short" : "long";
  add(CheckCause::LongropeSwitch, *s, {{"factors", other}},
      "the tensor uses LongRoPE's " + other + "_factor; at seq_len " + num(static_cast<double>(sc.seq_len.value_or(0))) +
          " (original " + num(static_cast<double>(sc.original_max_position_embeddings)) + ") the reference uses " +
          (uses_long ? "long" : "short") + "_factor",
      "switch to long_factor exactly when the current sequence length exceeds "
      "original_max_position_embeddings = " +
          num(static_cast<double>(sc.original_max_position_embeddings)));
}

void Diagnoser::dynamic_seq_len() {
  if (pb.ref.scaling.type != RopeScalingType::Dynamic) return;
  const RopeScaling& sc = pb.ref.scaling;
  const double L = static_cast<double>(sc.original_max_position_embeddings), f = sc.factor;
  const double d = pb.rotary_dim;
  // The dynamic formula at a continuous length S > L (HF's arrangement), then the integer nearest.
  auto make = [&](double t) -> std::optional<Setting> {
    const double S = std::exp(t);
    const double b = pb.ref.base * correctly_rounded_pow(f * S / L - (f - 1), d / (d - 2));
    if (!std::isfinite(b)) return std::nullopt;
    Setting s = ref;
    s.inv_freq = rope_default_inv_freq(pb.rotary_dim, b);
    return s;
  };
  const double hi = std::log(static_cast<double>(kMaxLength));
  const double S = std::round(std::exp(fit_scalar(pb, fl, std::log(L), hi, make)));
  const auto s = try_setting(pb, with([&](RopeCheckReference& r) { r.scaling.seq_len = static_cast<int64_t>(S); }));
  if (!s) return;
  const RopeScaling ref_sc = with_seq_len_from_positions(sc, pb.positions);
  std::string msg = "the tensor fits dynamic NTK at seq_len " + num(S) + ", the reference's is " +
                    num(static_cast<double>(ref_sc.seq_len.value_or(sc.original_max_position_embeddings)));
  if (std::fabs(S - L * f) < 0.5) msg += " (= original_max_position_embeddings * factor: a constant length)";
  add(CheckCause::DynamicSeqLen, *s, {{"seq_len", S}}, msg,
      "recompute the dynamic base from the current sequence length max(position) + 1 (not a constant)");
}

namespace {

// The rotating pairs of the reference: all of rotary_dim/2, but proportional RoPE's frequency-0 padding.
int rotating_pairs(const Setting& ref) {
  int c = 0;
  for (double w : ref.inv_freq) c += w > 0 ? 1 : 0;
  return c;
}

// The exponent denominator of the reference's frequencies: head_dim for proportional RoPE, else rotary_dim.
int exponent_dim_of(const Problem& pb) { return pb.ref.scaling.type == RopeScalingType::Proportional ? pb.dim : pb.rotary_dim; }

// base^(-2i/e) for the first `count` pairs, zeros up to `size`.
std::vector<double> powers(double base, int e, int count, int size) {
  std::vector<double> w(static_cast<size_t>(size), 0.0);
  const CorrectlyRoundedPowers power(base);
  for (int i = 0; i < count && i < size; ++i) w[static_cast<size_t>(i)] = power(-2.0 * i / e);
  return w;
}

}  // namespace

// Partial rotary done as if the head rotated whole: (a) the exponent over the other dimension (head_dim for
// a partial reference, transformers #48652; the rotated dims for proportional RoPE), (b) rotate_half over the
// whole head, pairing i with i + head_dim/2 (vLLM #30384), (c) every pair of the head rotating with
// head-wide frequencies (nexusquant #12).
void Diagnoser::partial_rotary() {
  const bool proportional = pb.ref.scaling.type == RopeScalingType::Proportional;
  const int c0 = rotating_pairs(ref);
  if (pb.rotary_dim >= pb.dim && !(proportional && c0 < pb.pairs)) return;
  const bool pairs_visible = pb.kind == CheckKind::Rotated || pb.kind == CheckKind::Logits;
  struct Variant {
    Setting s;
    double err = std::numeric_limits<double>::infinity();
    char kind = 0;
  };
  std::vector<Variant> vs;
  // (a) the other exponent: a partial reference's 2i/head_dim, proportional RoPE's 2i/rotated_dims.
  const int e0 = exponent_dim_of(pb), e1 = proportional ? 2 * c0 : pb.dim;
  const double b_equiv = correctly_rounded_pow(pb.ref.base, static_cast<double>(e0) / e1);
  if (e1 > 0 && e1 != e0) {
    if (proportional) {
      Setting s = ref;
      s.inv_freq = powers(pb.ref.base, e1, c0, pb.pairs);
      for (double& w : s.inv_freq) w /= pb.ref.scaling.factor;
      vs.push_back({s, 0, 'a'});
    } else if (const auto s = try_setting(pb, with([&](RopeCheckReference& r) { r.base = b_equiv; }))) {
      vs.push_back({*s, 0, 'a'});
    }
  }
  // (b) rotate_half over the whole head with the reference's frequencies.
  if (pairs_visible && ref.layout == RopeLayout::Half && pb.pairs != pb.dim / 2) {
    Setting s = ref;
    s.span = pb.dim / 2;
    s.column_offset = 0;  // rotate_half over the whole head
    vs.push_back({s, 0, 'b'});
  }
  // (c) the whole head rotates: dim/2 pairs, frequencies over head_dim (the scaling kept, proportional dropped).
  if (pairs_visible) {
    RopeScaling sc = proportional ? RopeScaling{} : with_seq_len_from_positions(pb.ref.scaling, pb.positions);
    try {
      Setting s = ref;
      s.inv_freq = rope_frequencies(pb.dim, pb.ref.base, sc).inv_freq;
      s.span = pb.dim / 2;
      s.column_offset = 0;
      vs.push_back({s, 0, 'c'});
    } catch (const InvalidArgument&) {}
  }
  if (vs.empty()) return;
  for (Variant& v : vs) v.err = level_sse(v.s);
  const Variant& best = *std::min_element(vs.begin(), vs.end(), [](const Variant& x, const Variant& y) { return x.err < y.err; });
  const std::string rd = std::to_string(proportional ? 2 * c0 : pb.rotary_dim), hd = std::to_string(pb.dim);
  if (best.kind == 'a')
    add(CheckCause::PartialRotary, best.s, {{"exponent_dim", static_cast<double>(e1)}, {"base", b_equiv}},
        "the frequencies use the exponent 2i/" + std::to_string(e1) + " instead of 2i/" + std::to_string(e0) + ": base^(" +
            std::to_string(e0) + "/" + std::to_string(e1) + ") = " + num(b_equiv) + " in the reference's terms",
        proportional ? "proportional RoPE keeps the exponent over head_dim = " + hd + ": base^(-2i/" + hd + ")"
                     : "compute inv_freq over rotary_dim = " + rd + ": base^(-2i/rotary_dim)");
  else if (best.kind == 'b')
    add(CheckCause::PartialRotary, best.s, {{"pair_offset", static_cast<double>(pb.dim / 2)}},
        "the rotation pairs dimension i with i + head_dim/2 = i + " + std::to_string(pb.dim / 2) +
            " instead of i + rotary_dim/2 = i + " + std::to_string(pb.pairs),
        "rotate_half over the first rotary_dim = " + std::to_string(pb.rotary_dim) +
            " dims only, then concatenate the pass-through dims");
  else
    add(CheckCause::PartialRotary, best.s,
        {{"rotated_dims", static_cast<double>(pb.dim)}, {"exponent_dim", static_cast<double>(pb.dim)}},
        "the whole head rotates (" + hd + " dims, frequencies base^(-2i/" + hd + ")) where the reference rotates " + rd +
            " dims and passes the rest through",
        "rotate only rotary_dim = " + rd + " dims (partial_rotary_factor), pass the other " +
            std::to_string(pb.dim - std::stoi(rd)) + " through unchanged");
}

// Pairs at another span than the reference's: rotate_half over the first 2C dims pairs (i, i + C) where the
// reference pairs (i, i + head_dim/2) (proportional RoPE's zero-padded frequencies: Megatron-Bridge #4195,
// apple/coreai-models #66, pie #603, pegainfer #820), or the other way round. Frequencies: the reference's own,
// ordinary partial ones over the rotated dims, or proportional-form ones over head_dim.
void Diagnoser::pairing_span() {
  if (!(pb.kind == CheckKind::Rotated || pb.kind == CheckKind::Logits) || ref.layout != RopeLayout::Half) return;
  const int s0 = pb.pairs, c0 = rotating_pairs(ref);
  if (c0 == 0) return;
  std::vector<int> spans;
  for (int sp : {c0, pb.dim / 2, pb.rotary_dim / 2})
    if (sp > 0 && sp != s0 && std::find(spans.begin(), spans.end(), sp) == spans.end()) spans.push_back(sp);
  struct Fit {
    Setting s;
    int span = 0, count = 0, exponent = 0;
    double err = std::numeric_limits<double>::infinity();
  };
  Fit best;
  for (int sp : spans) {
    const int count = std::min(c0, sp);
    if (ref.column_offset + sp + count > pb.dim) continue;
    std::vector<std::pair<std::vector<double>, int>> conventions;
    conventions.push_back({std::vector<double>(ref.inv_freq.begin(), ref.inv_freq.begin() + count), exponent_dim_of(pb)});
    conventions.push_back({powers(pb.ref.base, 2 * count, count, count), 2 * count});
    conventions.push_back({powers(pb.ref.base, pb.dim, count, count), pb.dim});
    for (auto& [w, e] : conventions) {
      Setting s = ref;
      s.inv_freq = std::move(w);
      s.span = sp;
      const double err = level_sse(s);
      if (err < best.err) best = Fit{s, sp, count, e, err};
    }
  }
  if (!std::isfinite(best.err)) return;
  add(CheckCause::PairingSpan, best.s,
      {{"pair_offset", static_cast<double>(best.span)},
       {"rotated_dims", static_cast<double>(2 * best.count)},
       {"exponent_dim", static_cast<double>(best.exponent)}},
      "the rotation pairs dimension i with i + " + std::to_string(best.span) + " (rotate_half over " +
          (best.span == best.count ? "the first " + std::to_string(2 * best.count) + " dims"
                                   : "a span of " + std::to_string(2 * best.span)) +
          ", frequencies base^(-2i/" + std::to_string(best.exponent) + ")) where the reference pairs i with i + " +
          std::to_string(s0),
      "pair dimension i with i + " + std::to_string(s0) + ": rotate_half over all " + std::to_string(2 * s0) + " rotary dims" +
          (c0 < s0 ? " with inv_freq padded by zeros to " + std::to_string(s0) + " pairs (proportional RoPE)" : ""));
}

// The rope slice at another place in the head: multi-head latent attention puts it last (q = [q_nope, q_pe]:
// transformers modeling_deepseek_v3.py torch.split(q, [qk_nope_head_dim, qk_rope_head_dim])), and a port that
// rotates the head's first rotary_dim dims (or the reverse) moves it. Every offset is tried (at most 257,
// evenly spread, the two ends always).
void Diagnoser::rotary_offset() {
  if (!(pb.kind == CheckKind::Rotated || pb.kind == CheckKind::Logits) || pb.rotary_dim >= pb.dim) return;
  const int span = pb.dim - pb.rotary_dim;
  std::vector<int> offsets;
  for (int j = 0; j <= std::min(span, 256); ++j) {
    const int o = span <= 256 ? j : static_cast<int>(static_cast<int64_t>(j) * span / 256);
    if (o != ref.column_offset && (offsets.empty() || offsets.back() != o)) offsets.push_back(o);
  }
  double best = std::numeric_limits<double>::infinity();
  Setting best_s;
  for (int o : offsets) {
    Setting s = ref;
    s.column_offset = o;
    const double e = level_sse(s);
    if (e < best) best = e, best_s = s;
  }
  if (!std::isfinite(best)) return;
  const int o = best_s.column_offset, r = pb.rotary_dim, o0 = ref.column_offset;
  auto where = [&](int off) {
    return off == 0 ? std::string("first") : off == span ? std::string("last") : "at dims " + std::to_string(off) + "..";
  };
  const std::string ref_dims = std::to_string(o0) + ".." + std::to_string(o0 + r - 1);
  add(CheckCause::RotaryOffset, best_s, {{"offset", static_cast<double>(o)}},
      "the tensor rotates dims " + std::to_string(o) + ".." + std::to_string(o + r - 1) + " of the head (the rope slice " +
          where(o) + "), the reference dims " + ref_dims + " (" + where(o0) + ")",
      o0 == span ? "rotate the last rotary_dim = " + std::to_string(r) +
                       " dims: q_nope, q_pe = split(q, [qk_nope_head_dim, qk_rope_head_dim]), RoPE on q_pe and on k_pe "
                       "(kv_a_proj_with_mqa's last qk_rope_head_dim outputs), then cat(nope, pe)"
                 : "rotate dims " + ref_dims + " of the head (rotary_offset " + std::to_string(o0) + ")");
}

namespace {

// Ranking rules of the catalogue: when two causes fit equally well, the reference's own terms win.
void apply_preferences(std::vector<Diagnoser::Scored>& d) {
  const std::pair<CheckCause, CheckCause> prefer[] = {
      {CheckCause::DynamicSeqLen, CheckCause::Base},           {CheckCause::DynamicSeqLen, CheckCause::ScalingFactor},
      {CheckCause::PartialRotary, CheckCause::Base},           {CheckCause::ScalingMissing, CheckCause::ScalingFactor},
      {CheckCause::ScalingMissing, CheckCause::Base},          {CheckCause::ScalingFactor, CheckCause::Base},
      {CheckCause::ScalingMissing, CheckCause::DynamicSeqLen}, {CheckCause::LongropeSwitch, CheckCause::AttentionFactor},
      {CheckCause::ScalingMissing, CheckCause::PartialRotary}, {CheckCause::PartialRotary, CheckCause::PairingSpan},
      {CheckCause::UnrotatedHeads, CheckCause::UnrotatedRows}, {CheckCause::UnrotatedRows, CheckCause::CacheLength},
      {CheckCause::UnrotatedRows, CheckCause::Base},           {CheckCause::UnrotatedRows, CheckCause::ScalingFactor},
      {CheckCause::CacheLength, CheckCause::PositionOffset},   {CheckCause::HeadOffset, CheckCause::PositionOffset},
      {CheckCause::ScalingFactor, CheckCause::AngleScale},     {CheckCause::ScalingMissing, CheckCause::AngleScale},
      {CheckCause::AnglePrecision, CheckCause::AngleScale},    {CheckCause::PartialRotary, CheckCause::RotaryOffset},
      {CheckCause::SoftmaxScale, CheckCause::AngleScale},      {CheckCause::AttentionFactor, CheckCause::AngleScale},
  };
  for (int pass = 0; pass < 4; ++pass) {
    bool moved = false;
    for (const auto& pair : prefer) {
      const CheckCause win = pair.first, lose = pair.second;  // clang 14 cannot capture structured bindings
      auto w = std::find_if(d.begin(), d.end(), [&](const auto& x) { return x.d.cause == win; });
      auto l = std::find_if(d.begin(), d.end(), [&](const auto& x) { return x.d.cause == lose; });
      if (w == d.end() || l == d.end() || w < l || w->d.explains < l->d.explains - kTie) continue;
      Diagnoser::Scored moving = std::move(*w);
      const auto li = l - d.begin();
      d.erase(w);
      d.insert(d.begin() + li, std::move(moving));
      moved = true;
    }
    if (!moved) break;
  }
}

}  // namespace

std::vector<RopeCheckDiagnosis> diagnose(const Problem& pb, const Setting& ref, const Matrix& expected, const Matrix& actual,
                                         const ToleranceField& tolerance, bool keep_tensors) {
  const FitLevels fl = make_levels(pb, actual);
  Diagnoser dg{pb, ref, expected, actual, tolerance, fl, keep_tensors, sse(actual, expected), {}};
  dg.layout();
  dg.angle_precision();
  dg.angle_scale();
  dg.base();
  dg.scaling_missing();
  dg.scaling_factor();
  dg.yarn_truncate();
  dg.magnitude();
  dg.logit_ratio();
  dg.longrope_switch();
  dg.dynamic_seq_len();
  dg.partial_rotary();
  dg.pairing_span();
  dg.rotary_offset();
  dg.position_offset();
  dg.rotation_direction();
  dg.row_constant();
  dg.cache_length();
  dg.unrotated_rows();
  dg.norm_violation();
  dg.head_offset();
  dg.unrotated_heads();

  std::vector<Diagnoser::Scored> d = std::move(dg.out);
  std::stable_sort(d.begin(), d.end(), [](const auto& a, const auto& b) { return a.d.explains > b.d.explains; });
  apply_preferences(d);
  std::vector<RopeCheckDiagnosis> kept;
  for (auto& x : d)
    if (x.d.explains >= 0.01 && kept.size() < kMaxKept) {
      // The first diagnosis's tensor, for the pictures' residual (read only when it explains half).
      if (kept.empty() && keep_tensors && x.d.explains >= 0.5) x.d.predicted = dg.full(x.p);
      kept.push_back(std::move(x.d));
    }
  if (kept.empty() || kept.front().explains < 0.5) {
    RopeCheckDiagnosis u;
    u.cause = CheckCause::Unknown;
    u.explains = 0.0;
    const std::string closest = kept.empty() ? std::string("none explains more than 1%")
                                             : std::string("the closest, ") + check_cause_name(kept.front().cause) +
                                                   ", explains " + num(100 * kept.front().explains) + "%";
    u.message = "no catalogued cause explains half of the squared error (" + closest + ")";
    u.fix = "compare the worst element and the error pictures; check the reference settings themselves";
    kept.insert(kept.begin(), std::move(u));
  }
  return kept;
}

}  // namespace posenc::rope_check_detail
