// The catalogue of the RoPE tensor check: each cause is the reference with one thing done wrong, fitted to
// the user's tensor by its own parameter and scored by the fraction of the squared error it removes; the
// naming rules order causes that fit equally well. docs/cli.md lists every cause with its signature.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "core/analysis/rope_check_detail.h"
#include "core/bounds.h"

namespace posenc::rope_check_detail {
namespace {

// ---------------------------------------------------------------- the catalogue

struct Diagnoser {
  const Problem& pb;
  const Setting& ref;
  const Matrix& expected;
  const Matrix& actual;
  const FitLevels& fl;
  double base_sse = 0;
  std::vector<RopeCheckDiagnosis> out;

  double explains(const Matrix& predicted) const {
    const double e = sse(actual, predicted);
    if (!std::isfinite(e) || base_sse <= 0) return 0.0;
    return std::clamp(1.0 - e / base_sse, 0.0, 1.0);
  }

  void add(CheckCause cause, Matrix predicted, std::vector<std::pair<std::string, CheckFitValue>> fitted, std::string message,
           std::string fix) {
    RopeCheckDiagnosis d;
    d.cause = cause;
    d.explains = explains(predicted);
    d.predicted = std::move(predicted);
    d.fitted = std::move(fitted);
    d.message = std::move(message);
    d.fix = std::move(fix);
    out.push_back(std::move(d));
    // Keep memory bounded: only the best few predicted tensors stay.
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.explains > b.explains; });
    if (out.size() > kMaxKept + 2) out.pop_back();
  }

  Matrix full(const Setting& s) const { return render(pb, s, all_rows(pb)); }

  RopeCheckReference with(const std::function<void(RopeCheckReference&)>& change) const {
    RopeCheckReference r = pb.ref;
    change(r);
    return r;
  }

  void layout() {
    const bool applies = (pb.kind == CheckKind::Cos || pb.kind == CheckKind::Sin)
                             ? !pb.half_width
                             : pb.kind == CheckKind::Rotated || pb.kind == CheckKind::Logits;
    if (!applies || pb.pairs < 2) return;
    Setting s = ref;
    s.layout = ref.layout == RopeLayout::Half ? RopeLayout::Interleaved : RopeLayout::Half;
    const std::string name = rope_layout_name(s.layout);
    add(CheckCause::Layout, full(s), {{"layout", name}},
        std::string("the tensor pairs dimensions the ") + name + " way (" +
            (s.layout == RopeLayout::Half ? "rotate_half: i with i + r/2" : "rotate_every_two: 2i with 2i + 1") +
            "), the reference the " + rope_layout_name(ref.layout) + " way",
        std::string("use the ") + rope_layout_name(ref.layout) + " layout (" +
            (ref.layout == RopeLayout::Half ? "rotate_half / cat(freqs, freqs)" : "rotate_every_two / repeat_interleave") +
            "), or permute the weights to match");
  }

  void angle_precision() {
    double best = std::numeric_limits<double>::infinity();
    Setting best_s;
    const bool angles = pb.kind != CheckKind::InvFreq;
    for (Round r : {Round::Bf16, Round::Fp16})
      for (bool on_angle : {false, true}) {
        if (on_angle && !angles) continue;
        Setting s = ref;
        (on_angle ? s.angle_round : s.inv_round) = r;
        const double e = sse(render(pb, s, fl.levels.back()), fl.actual.back());
        if (e < best) best = e, best_s = s;
      }
    if (!std::isfinite(best)) return;
    const bool on_angle = best_s.angle_round != Round::None;
    const Round r = on_angle ? best_s.angle_round : best_s.inv_round;
    add(CheckCause::AnglePrecision, full(best_s),
        {{"dtype", std::string(round_name(r))}, {"rounded", std::string(on_angle ? "angles" : "inv_freq")}},
        std::string(on_angle ? "the angles p * inv_freq were" : "inv_freq was") + " computed in " + round_name(r) +
            ": the error grows with position",
        "compute inv_freq and the angles in float32 (autocast off, .float() before the product), cast cos/sin "
        "afterwards");
  }

  void base() {
    const double lo = std::log(1.01), hi = std::log(1e12);
    auto make = [&](double t) { return try_setting(pb, with([&](RopeCheckReference& r) { r.base = std::exp(t); })); };
    const double b = std::exp(fit_scalar(pb, fl, lo, hi, make));
    const auto s = make(std::log(b));
    if (!s) return;
    add(CheckCause::Base, full(*s), {{"base", b}},
        "the tensor fits rope_theta = " + num(b) + ", the reference has " + num(pb.ref.base),
        "use rope_theta = " + num(pb.ref.base) + " (read rope_theta / rope_parameters from the config)");
  }

  void scaling_missing() {
    if (pb.ref.scaling.type == RopeScalingType::None) return;
    const auto s = try_setting(pb, with([](RopeCheckReference& r) { r.scaling = RopeScaling{}; }));
    if (!s) return;
    add(CheckCause::ScalingMissing, full(*s), {{"factor", 1.0}},
        std::string("the tensor is plain RoPE: the ") + rope_scaling_type_name(pb.ref.scaling.type) + " scaling was not applied",
        std::string("apply the ") + rope_type_name(pb.ref.scaling.type) + " rope_scaling of the config (rope_type and factor)");
  }

  void scaling_factor() {
    const RopeScalingType t = pb.ref.scaling.type;
    if (t == RopeScalingType::None || t == RopeScalingType::Longrope) return;
    auto make = [&](double u) { return try_setting(pb, with([&](RopeCheckReference& r) { r.scaling.factor = std::exp(u); })); };
    const double f = std::exp(fit_scalar(pb, fl, 0.0, std::log(1e4), make));
    const auto s = make(std::log(f));
    if (!s) return;
    add(CheckCause::ScalingFactor, full(*s), {{"factor", f}},
        std::string("the tensor fits the ") + rope_scaling_type_name(t) + " scaling with factor " + num(f) +
            ", the reference has " + num(pb.ref.scaling.factor),
        "use rope_scaling.factor = " + num(pb.ref.scaling.factor));
  }

  void yarn_truncate() {
    if (pb.ref.scaling.type != RopeScalingType::Yarn) return;
    const bool flipped = !pb.ref.scaling.truncate;
    const auto s = try_setting(pb, with([&](RopeCheckReference& r) { r.scaling.truncate = flipped; }));
    if (!s) return;
    add(CheckCause::YarnTruncate, full(*s), {{"truncate", flipped}},
        std::string("the tensor fits YaRN with truncate = ") + (flipped ? "true" : "false") + " (the correction range " +
            (flipped ? "floored/ceiled" : "not rounded") + "), the reference has " + (flipped ? "false" : "true"),
        std::string(pb.ref.scaling.truncate ? "round the correction range (floor low, ceil high)"
                                            : "do not round the correction range (rope_scaling.truncate = false)"));
  }

  // cos/sin/rotated: the magnitude as a least-squares fit (the tensor is affine in it).
  void magnitude() {
    if (pb.kind == CheckKind::InvFreq || pb.kind == CheckKind::Logits) return;
    Setting one = ref, zero = ref;
    one.magnitude = 1.0;
    zero.magnitude = 0.0;
    const Matrix t1 = full(one), t0 = full(zero);
    const Matrix dir = t1 - t0;
    const double den = dir.squaredNorm();
    if (den <= 0) return;
    const double m = (actual - t0).cwiseProduct(dir).sum() / den;
    if (m <= 0) return;  // a negative magnitude is a sign flip: rotation_direction says it in its own terms
    Setting s = ref;
    s.magnitude = m;
    const double a = ref.magnitude;
    std::string what = "cos/sin carry magnitude " + num(m) + ", the reference " + num(a);
    if (a != 1.0 && std::fabs(m - 1.0) < 1e-3) what += " (attention_factor missing)";
    else if (a != 1.0 && std::fabs(m - a * a) < 1e-3 * a * a) what += " (attention_factor applied twice)";
    add(CheckCause::AttentionFactor, full(s), {{"attention_factor", m}, {"ratio", a != 0 ? m / a : 0.0}}, what,
        "multiply cos and sin by attention_factor = " + num(a) + " exactly once");
  }

  // logits: one constant ratio; named attention_factor when it is the reference's attention_factor^2 or
  // its inverse, softmax_scale otherwise.
  void logit_ratio() {
    if (pb.kind != CheckKind::Logits) return;
    const double den = expected.squaredNorm();
    if (den <= 0) return;
    const double r = actual.cwiseProduct(expected).sum() / den;
    const double a2 = ref.magnitude * ref.magnitude;
    const bool is_af = a2 != 1.0 && (std::fabs(r - a2) < 1e-2 * a2 || std::fabs(r * a2 - 1) < 1e-2);
    Matrix predicted = r * expected;
    if (is_af) {
      add(CheckCause::AttentionFactor, std::move(predicted),
          {{"ratio", r}, {"attention_factor", ref.magnitude * std::sqrt(std::max(r, 0.0))}},
          "the logits are " + num(r) + " x the reference's: " +
              (r > 1 ? "attention_factor applied twice (to q and k on top of cos/sin)" : "attention_factor missing from cos/sin"),
          "multiply cos and sin by attention_factor = " + num(ref.magnitude) + " exactly once");
    } else {
      add(CheckCause::SoftmaxScale, std::move(predicted), {{"ratio", r}, {"softmax_scale", ref.logit_scale * r}},
          "the logits are " + num(r) + " x the reference's: softmax scale " + num(ref.logit_scale * r) + " instead of " +
              num(ref.logit_scale),
          "scale q.k by softmax_scale = " + num(ref.logit_scale) + " (1/sqrt(head_dim), times mscale^2 for DeepSeek YaRN)");
    }
  }

  void longrope_switch() {
    if (pb.ref.scaling.type != RopeScalingType::Longrope) return;
    const RopeScaling sc = with_seq_len_from_positions(pb.ref.scaling, pb.positions);
    const bool uses_long = sc.seq_len && *sc.seq_len > sc.original_max_position_embeddings;
    const auto s = try_setting(pb, with([&](RopeCheckReference& r) {
                                 r.scaling.seq_len =
                                     uses_long ? sc.original_max_position_embeddings : sc.original_max_position_embeddings + 1;
                               }));
    if (!s) return;
    const std::string other = uses_long ? "short" : "long";
    add(CheckCause::LongropeSwitch, full(*s), {{"factors", other}},
        "the tensor uses LongRoPE's " + other + "_factor; at seq_len " + num(static_cast<double>(sc.seq_len.value_or(0))) +
            " (original " + num(static_cast<double>(sc.original_max_position_embeddings)) + ") the reference uses " +
            (uses_long ? "long" : "short") + "_factor",
        "switch to long_factor exactly when the current sequence length exceeds "
        "original_max_position_embeddings = " +
            num(static_cast<double>(sc.original_max_position_embeddings)));
  }

  void dynamic_seq_len() {
    if (pb.ref.scaling.type != RopeScalingType::Dynamic) return;
    const RopeScaling& sc = pb.ref.scaling;
    const double L = static_cast<double>(sc.original_max_position_embeddings), f = sc.factor;
    const double d = pb.rotary_dim;
    // The dynamic formula at a continuous length S > L (HF's arrangement), then the integer nearest.
    auto make = [&](double t) -> std::optional<Setting> {
      const double S = std::exp(t);
      const double b = pb.ref.base * std::pow(f * S / L - (f - 1), d / (d - 2));
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
    add(CheckCause::DynamicSeqLen, full(*s), {{"seq_len", S}}, msg,
        "recompute the dynamic base from the current sequence length max(position) + 1 (not a constant)");
  }

  void partial_rotary() {
    if (pb.rotary_dim >= pb.dim) return;
    double best = std::numeric_limits<double>::infinity();
    std::optional<Setting> best_s;
    bool exponent = true;
    const double b = std::pow(pb.ref.base, static_cast<double>(pb.rotary_dim) / pb.dim);
    if (const auto s = try_setting(pb, with([&](RopeCheckReference& r) { r.base = b; }))) {
      best = sse(full(*s), actual);
      best_s = s;
    }
    if ((pb.kind == CheckKind::Rotated || pb.kind == CheckKind::Logits) && ref.layout == RopeLayout::Half) {
      Setting s = ref;
      s.pair_by_head_half = true;
      const double e = sse(full(s), actual);
      if (e < best) best = e, best_s = s, exponent = false;
    }
    if (!best_s) return;
    if (exponent)
      add(CheckCause::PartialRotary, full(*best_s), {{"exponent_dim", static_cast<double>(pb.dim)}, {"base", b}},
          "the frequencies use the exponent 2i/head_dim (head_dim " + std::to_string(pb.dim) + ") instead of 2i/rotary_dim (" +
              std::to_string(pb.rotary_dim) + "): base^(rotary_dim/head_dim) = " + num(b),
          "compute inv_freq over rotary_dim = " + std::to_string(pb.rotary_dim) + ": base^(-2i/rotary_dim)");
    else
      add(CheckCause::PartialRotary, full(*best_s), {{"pair_offset", static_cast<double>(pb.dim / 2)}},
          "the rotation pairs dimension i with i + head_dim/2 = i + " + std::to_string(pb.dim / 2) +
              " instead of i + rotary_dim/2 = i + " + std::to_string(pb.pairs),
          "rotate_half over the first rotary_dim = " + std::to_string(pb.rotary_dim) +
              " dims only, then concatenate the pass-through dims");
  }

  void position_offset() {
    if (pb.kind == CheckKind::InvFreq) return;
    double best = std::numeric_limits<double>::infinity();
    int64_t best_d = 0;
    for (int64_t dlt = -16; dlt <= 16; ++dlt) {
      if (dlt == 0) continue;
      Setting s = ref;
      s.offset = dlt;
      const double e = sse(render(pb, s, fl.levels.back()), fl.actual.back());
      if (e < best) best = e, best_d = dlt;
    }
    Setting s = ref;
    s.offset = best_d;
    add(CheckCause::PositionOffset, full(s), {{"offset", static_cast<double>(best_d)}},
        "the tensor is the reference at positions shifted by " + std::to_string(best_d),
        best_d == 1 || best_d == -1 ? "use the positions as given (an off-by-one: position_ids start at 0 unless a "
                                      "cache offset says otherwise)"
                                    : "use the positions as given (check the cache / past_key_values offset)");
  }

  void rotation_direction() {
    if (pb.kind == CheckKind::InvFreq || pb.kind == CheckKind::Cos) return;
    Setting s = ref;
    s.sin_sign = -1.0;
    add(CheckCause::RotationDirection, full(s), {{"sin_sign", -1.0}}, "the tensor rotates by -angle: the sign of sin is flipped",
        "rotate as x * cos + rotate_half(x) * sin with rotate_half(x) = cat(-x2, x1) (not cat(x2, -x1))");
  }

  void row_constant() {
    if (pb.kind != CheckKind::Logits) return;
    const Matrix resid = actual - expected;
    const Vector c = resid.rowwise().mean();
    Matrix predicted = expected;
    predicted.colwise() += c;
    // The constants as a line over position (ALiBi's causal form adds slope * query position).
    const Eigen::Index n = c.size();
    double sp = 0, sc = 0, spp = 0, spc = 0;
    for (Eigen::Index r = 0; r < n; ++r) {
      const double p = static_cast<double>(pb.positions[static_cast<size_t>(r)]);
      sp += p, sc += c(r), spp += p * p, spc += p * c(r);
    }
    const double den = n * spp - sp * sp;
    const double slope = den != 0 ? (n * spc - sp * sc) / den : 0.0;
    add(CheckCause::RowConstant, std::move(predicted), {{"min", c.minCoeff()}, {"max", c.maxCoeff()}, {"slope", slope}},
        "the logits differ from the reference by a constant per query row (" + num(c.minCoeff()) + " .. " + num(c.maxCoeff()) +
            ", slope " + num(slope) + " per position): softmax gives the same weights",
        "nothing to fix for attention weights; subtract the per-row constant (e.g. ALiBi's causal vs relative "
        "form) before comparing logits");
  }
};

// Ranking rules of the catalogue: when two causes fit equally well, the reference's own terms win.
void apply_preferences(std::vector<RopeCheckDiagnosis>& d) {
  const std::pair<CheckCause, CheckCause> prefer[] = {
      {CheckCause::DynamicSeqLen, CheckCause::Base},           {CheckCause::DynamicSeqLen, CheckCause::ScalingFactor},
      {CheckCause::PartialRotary, CheckCause::Base},           {CheckCause::ScalingMissing, CheckCause::ScalingFactor},
      {CheckCause::ScalingMissing, CheckCause::Base},          {CheckCause::ScalingFactor, CheckCause::Base},
      {CheckCause::ScalingMissing, CheckCause::DynamicSeqLen}, {CheckCause::LongropeSwitch, CheckCause::AttentionFactor},
  };
  for (int pass = 0; pass < 4; ++pass) {
    bool moved = false;
    for (const auto& pair : prefer) {
      const CheckCause win = pair.first, lose = pair.second;  // clang 14 cannot capture structured bindings
      auto w = std::find_if(d.begin(), d.end(), [&](const auto& x) { return x.cause == win; });
      auto l = std::find_if(d.begin(), d.end(), [&](const auto& x) { return x.cause == lose; });
      if (w == d.end() || l == d.end() || w < l || w->explains < l->explains - kTie) continue;
      RopeCheckDiagnosis moving = std::move(*w);
      const auto li = l - d.begin();
      d.erase(w);
      d.insert(d.begin() + li, std::move(moving));
      moved = true;
    }
    if (!moved) break;
  }
}
}  // namespace

std::vector<RopeCheckDiagnosis> diagnose(const Problem& pb, const Setting& ref, const Matrix& expected, const Matrix& actual) {
  const FitLevels fl = make_levels(pb, actual);
  Diagnoser dg{pb, ref, expected, actual, fl, sse(actual, expected), {}};
  dg.layout();
  dg.angle_precision();
  dg.base();
  dg.scaling_missing();
  dg.scaling_factor();
  dg.yarn_truncate();
  dg.magnitude();
  dg.logit_ratio();
  dg.longrope_switch();
  dg.dynamic_seq_len();
  dg.partial_rotary();
  dg.position_offset();
  dg.rotation_direction();
  dg.row_constant();

  std::vector<RopeCheckDiagnosis> d = std::move(dg.out);
  std::stable_sort(d.begin(), d.end(), [](const auto& a, const auto& b) { return a.explains > b.explains; });
  apply_preferences(d);
  std::vector<RopeCheckDiagnosis> kept;
  for (auto& x : d)
    if (x.explains >= 0.01 && kept.size() < kMaxKept) kept.push_back(std::move(x));
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
