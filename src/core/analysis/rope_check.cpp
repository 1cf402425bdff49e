#include "core/analysis/rope_check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>

#include "core/bounds.h"

namespace posenc {
namespace {

constexpr double kUnitRoundoff = 0x1p-24;  // float32: half an ulp of 1
constexpr int kFitRows = 256;              // positions the fits run on
constexpr int kMaxKept = 6;                // diagnoses reported
constexpr double kTie = 1e-4;              // explains within this are the same fit (preference rules decide)

// ---------------------------------------------------------------- rounding to half-precision formats

double round_bf16(double v) {
  float f = static_cast<float>(v);
  if (!std::isfinite(f)) return f;
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  bits += 0x7FFFu + ((bits >> 16) & 1u);  // round to nearest even on the top 16 bits
  bits &= 0xFFFF0000u;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

double round_fp16(double v) {
  if (!std::isfinite(v)) return v;
  const double a = std::fabs(v);
  if (a >= 65520.0) return std::copysign(std::numeric_limits<double>::infinity(), v);
  int e = 0;
  std::frexp(a, &e);  // a = m 2^e, m in [0.5, 1): 11 significant bits, subnormal spacing 2^-24
  const double spacing = a >= 0x1p-14 ? std::ldexp(1.0, e - 11) : 0x1p-24;
  return std::copysign(std::nearbyint(a / spacing) * spacing, v);
}

enum class Round { None, Bf16, Fp16 };

double apply_round(Round r, double v) {
  switch (r) {
    case Round::None: return v;
    case Round::Bf16: return round_bf16(v);
    case Round::Fp16: return round_fp16(v);
  }
  return v;
}

const char* round_name(Round r) { return r == Round::Bf16 ? "bfloat16" : r == Round::Fp16 ? "float16" : "float64"; }

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// ---------------------------------------------------------------- one way of computing the tensor

// Everything a hypothesis may change: the reference is one Setting, every cause another.
struct Setting {
  std::vector<double> inv_freq;  // rotary pairs
  double magnitude = 1.0;        // cos/sin multiplier (attention_scaling)
  RopeLayout layout = RopeLayout::Half;
  bool pair_by_head_half = false;  // half layout pairing (i, i + dim/2) instead of (i, i + rotary_dim/2)
  int64_t offset = 0;
  double sin_sign = 1.0;
  Round inv_round = Round::None, angle_round = Round::None;
  double logit_scale = 1.0;
};

struct Problem {
  RopeCheckReference ref;  // normalised: rotary_dim and softmax_scale set
  CheckKind kind = CheckKind::Cos;
  int dim = 0, rotary_dim = 0, pairs = 0;
  bool half_width = false;  // cos/sin given as n x rotary_dim/2
  std::vector<int64_t> positions;
  const Matrix* x = nullptr;
  const Matrix* q = nullptr;
  const Matrix* k = nullptr;
  Eigen::Index rows = 0, cols = 0;  // shape of the tensor
};

double angle(const Setting& s, int64_t p, int i) {
  const double w = apply_round(s.inv_round, s.inv_freq[static_cast<size_t>(i)]);
  return apply_round(s.angle_round, static_cast<double>(p + s.offset) * w);
}

// Pair i of a dim-wide row: its two columns.
std::pair<Eigen::Index, Eigen::Index> pair_columns(const Problem& pb, const Setting& s, int i) {
  if (s.layout == RopeLayout::Interleaved) return {2 * i, 2 * i + 1};
  return {i, i + (s.pair_by_head_half ? pb.dim / 2 : pb.pairs)};
}

// Rotates the rows `idx` of m (n x dim) by the setting.
Matrix rotate_rows(const Problem& pb, const Setting& s, const Matrix& m, const std::vector<Eigen::Index>& idx) {
  Matrix out(static_cast<Eigen::Index>(idx.size()), m.cols());
  for (size_t j = 0; j < idx.size(); ++j) {
    const Eigen::Index r = idx[j];
    out.row(static_cast<Eigen::Index>(j)) = m.row(r);
    for (int i = 0; i < pb.pairs; ++i) {
      const double a = angle(s, pb.positions[static_cast<size_t>(r)], i);
      const double c = std::cos(a) * s.magnitude, sn = std::sin(a) * s.magnitude * s.sin_sign;
      const auto [i0, i1] = pair_columns(pb, s, i);
      const double x0 = m(r, i0), x1 = m(r, i1);
      out(static_cast<Eigen::Index>(j), i0) = x0 * c - x1 * sn;
      out(static_cast<Eigen::Index>(j), i1) = x1 * c + x0 * sn;
    }
  }
  return out;
}

// The pair whose angle a cos/sin column holds.
int cos_column_pair(const Problem& pb, RopeLayout layout, Eigen::Index c) {
  if (pb.half_width) return static_cast<int>(c);
  return layout == RopeLayout::Half ? static_cast<int>(c % pb.pairs) : static_cast<int>(c / 2);
}

// The tensor of the setting, restricted to the rows `idx` (and, for logits, the same columns).
Matrix render(const Problem& pb, const Setting& s, const std::vector<Eigen::Index>& idx) {
  switch (pb.kind) {
    case CheckKind::InvFreq: {
      Matrix out(1, pb.pairs);
      for (int i = 0; i < pb.pairs; ++i) out(0, i) = apply_round(s.inv_round, s.inv_freq[static_cast<size_t>(i)]);
      return out;
    }
    case CheckKind::Cos:
    case CheckKind::Sin: {
      Matrix out(static_cast<Eigen::Index>(idx.size()), pb.cols);
      const bool is_cos = pb.kind == CheckKind::Cos;
      std::vector<double> v(static_cast<size_t>(pb.pairs));
      for (size_t j = 0; j < idx.size(); ++j) {
        const int64_t p = pb.positions[static_cast<size_t>(idx[j])];
        for (int i = 0; i < pb.pairs; ++i) {
          const double a = angle(s, p, i);
          v[static_cast<size_t>(i)] = is_cos ? std::cos(a) * s.magnitude : std::sin(a) * s.magnitude * s.sin_sign;
        }
        for (Eigen::Index c = 0; c < pb.cols; ++c)
          out(static_cast<Eigen::Index>(j), c) = v[static_cast<size_t>(cos_column_pair(pb, s.layout, c))];
      }
      return out;
    }
    case CheckKind::Rotated: return rotate_rows(pb, s, *pb.x, idx);
    case CheckKind::Logits: {
      const Matrix qr = rotate_rows(pb, s, *pb.q, idx);
      const Matrix kr = rotate_rows(pb, s, *pb.k, idx);
      return s.logit_scale * (qr * kr.transpose());
    }
  }
  return {};
}

Matrix restrict_rows(const Problem& pb, const Matrix& m, const std::vector<Eigen::Index>& idx) {
  if (pb.kind == CheckKind::InvFreq) return m;
  const bool square = pb.kind == CheckKind::Logits;
  Matrix out(static_cast<Eigen::Index>(idx.size()), square ? static_cast<Eigen::Index>(idx.size()) : m.cols());
  for (size_t j = 0; j < idx.size(); ++j) {
    if (square) {
      for (size_t c = 0; c < idx.size(); ++c) out(static_cast<Eigen::Index>(j), static_cast<Eigen::Index>(c)) = m(idx[j], idx[c]);
    } else {
      out.row(static_cast<Eigen::Index>(j)) = m.row(idx[j]);
    }
  }
  return out;
}

double sse(const Matrix& a, const Matrix& b) {
  const Matrix d = a - b;
  double s = 0;
  for (Eigen::Index i = 0; i < d.size(); ++i) {
    const double v = d.data()[i];
    if (!std::isfinite(v)) return std::numeric_limits<double>::infinity();
    s += v * v;
  }
  return s;
}

// ---------------------------------------------------------------- reference and hypotheses

// The setting of a RoPE configuration (the reference's, or the reference with a field changed).
Setting setting_of(const Problem& pb, const RopeCheckReference& r) {
  const RopeScaling scaling = with_seq_len_from_positions(r.scaling, pb.positions);
  const RopeFrequencies f = rope_frequencies(pb.rotary_dim, r.base, scaling);
  Setting s;
  s.inv_freq = f.inv_freq;
  s.magnitude = f.attention_scaling;
  s.layout = r.layout;
  s.logit_scale = *r.softmax_scale;
  return s;
}

std::optional<Setting> try_setting(const Problem& pb, const RopeCheckReference& r) {
  try {
    return setting_of(pb, r);
  } catch (const InvalidArgument&) { return std::nullopt; }
}

// Row subsets for the fits: positions sorted by |p| in levels of growing reach (|p| <= 4, 16, 64, ...), each
// at most kFitRows rows evenly taken; the last holds every row (subsampled). A fit starts on the short
// reach, where the squared error is a smooth function of the parameter, and narrows its grid as the reach
// grows (the angle p * w changes 4x faster with the parameter at each level).
struct FitLevels {
  std::vector<std::vector<Eigen::Index>> levels;
  std::vector<Matrix> actual;  // the actual tensor restricted to each level
  double first_reach = 4;
};

std::vector<Eigen::Index> subsample(std::vector<Eigen::Index> idx, size_t limit) {
  if (idx.size() <= limit) return idx;
  std::vector<Eigen::Index> out;
  out.reserve(limit);
  for (size_t j = 0; j < limit; ++j) out.push_back(idx[j * (idx.size() - 1) / (limit - 1)]);
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

FitLevels make_levels(const Problem& pb, const Matrix& actual) {
  FitLevels fl;
  if (pb.kind == CheckKind::InvFreq) {
    fl.levels.push_back({0});
    fl.actual.push_back(actual);
    return fl;
  }
  std::vector<Eigen::Index> order(pb.positions.size());
  std::iota(order.begin(), order.end(), 0);
  auto mag = [&](Eigen::Index r) { return std::llabs(pb.positions[static_cast<size_t>(r)]); };
  std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) { return mag(a) < mag(b); });
  const double max_reach = static_cast<double>(mag(order.back()));
  // The first reach holds at least two nonzero positions.
  double reach = 4;
  int nonzero = 0;
  for (Eigen::Index r : order)
    if (mag(r) > 0 && ++nonzero == 2) {
      reach = std::max(reach, static_cast<double>(mag(r)));
      break;
    }
  fl.first_reach = reach;
  for (;; reach *= 4) {
    std::vector<Eigen::Index> idx;
    for (Eigen::Index r : order)
      if (static_cast<double>(mag(r)) <= reach) idx.push_back(r);
    idx = subsample(std::move(idx), kFitRows);
    std::sort(idx.begin(), idx.end());
    fl.levels.push_back(idx);
    fl.actual.push_back(restrict_rows(pb, actual, idx));
    if (reach >= max_reach) break;
  }
  return fl;
}

// Minimises the squared error over a continuous parameter t in [lo, hi] (a log scale where the caller
// wants one): a grid on the first level, three best candidates carried to each next level on a grid 4x
// finer around them, then golden-section search. make(t) returns nullopt where the setting is invalid.
double fit_scalar(const Problem& pb, const FitLevels& fl, double lo, double hi,
                  const std::function<std::optional<Setting>(double)>& make) {
  auto cost = [&](size_t level, double t) {
    const auto s = make(t);
    if (!s) return std::numeric_limits<double>::infinity();
    return sse(render(pb, *s, fl.levels[level]), fl.actual[level]);
  };
  const int n0 = static_cast<int>(std::clamp(161.0 * fl.first_reach / 4.0, 161.0, 2001.0));
  double step = (hi - lo) / (n0 - 1);
  std::vector<std::pair<double, double>> scored;  // (cost, t)
  for (int j = 0; j < n0; ++j) scored.push_back({cost(0, lo + j * step), lo + j * step});
  auto best3 = [&](std::vector<std::pair<double, double>> v, double sep) {
    std::sort(v.begin(), v.end());
    std::vector<double> out;
    for (const auto& [c, t] : v) {
      if (!std::isfinite(c)) break;
      bool far = true;
      for (double o : out) far = far && std::fabs(o - t) > sep;
      if (far) out.push_back(t);
      if (out.size() == 3) break;
    }
    return out;
  };
  std::vector<double> cands = best3(scored, 1.5 * step);
  if (cands.empty()) return lo;
  // Each level: 4x the reach, a 4x finer grid over +-2 of the previous steps. The last level is repeated
  // twice more so a single-level problem (inv_freq) is refined too.
  const size_t last = fl.levels.size() - 1;
  for (size_t level = 1; level <= last + 2; ++level) {
    const size_t lv = std::min(level, last);
    step /= 4;
    scored.clear();
    for (double c : cands)
      for (int j = -8; j <= 8; ++j) {
        const double t = std::clamp(c + j * step, lo, hi);
        scored.push_back({cost(lv, t), t});
      }
    cands = best3(scored, 1.5 * step);
    if (cands.empty()) return lo;
  }
  // Golden section on the best candidate's bracket.
  double a = std::max(lo, cands[0] - step), b = std::min(hi, cands[0] + step);
  const double g = (std::sqrt(5.0) - 1) / 2;
  double c1 = b - g * (b - a), c2 = a + g * (b - a);
  double f1 = cost(last, c1), f2 = cost(last, c2);
  for (int it = 0; it < 40; ++it) {
    if (f1 < f2) {
      b = c2, c2 = c1, f2 = f1, c1 = b - g * (b - a), f1 = cost(last, c1);
    } else {
      a = c1, c1 = c2, f1 = f2, c2 = a + g * (b - a), f2 = cost(last, c2);
    }
  }
  const double t = (a + b) / 2;
  return cost(last, t) <= cost(last, cands[0]) ? t : cands[0];
}

struct Candidate {
  RopeCheckDiagnosis d;
};

// ---------------------------------------------------------------- tolerance

// Per-pair relative angle error of a float32 computation (docs/cli.md): the exponent 2i/r rounded
// (ln(1/w) u), pow, division, scaling and the product p * w (a few u), doubled for safety.
std::vector<double> angle_rel_error(const std::vector<double>& inv_freq) {
  std::vector<double> rho(inv_freq.size());
  for (size_t i = 0; i < inv_freq.size(); ++i) rho[i] = 2 * (std::max(0.0, std::log(1 / inv_freq[i])) + 7) * kUnitRoundoff;
  return rho;
}

Matrix default_tolerance(const Problem& pb, const Setting& ref, const Matrix& expected) {
  const std::vector<double> rho = angle_rel_error(ref.inv_freq);
  const double u = kUnitRoundoff, a = std::fabs(ref.magnitude);
  auto dtheta = [&](int64_t p, int i) {
    return rho[static_cast<size_t>(i)] * std::fabs(static_cast<double>(p) * ref.inv_freq[static_cast<size_t>(i)]) + 4 * u;
  };
  Matrix tol(expected.rows(), expected.cols());
  switch (pb.kind) {
    case CheckKind::InvFreq:
      for (int i = 0; i < pb.pairs; ++i) tol(0, i) = rho[static_cast<size_t>(i)] * ref.inv_freq[static_cast<size_t>(i)];
      break;
    case CheckKind::Cos:
    case CheckKind::Sin:
      for (Eigen::Index r = 0; r < tol.rows(); ++r)
        for (Eigen::Index c = 0; c < tol.cols(); ++c)
          tol(r, c) = a * dtheta(pb.positions[static_cast<size_t>(r)], cos_column_pair(pb, ref.layout, c));
      break;
    case CheckKind::Rotated:
      for (Eigen::Index r = 0; r < tol.rows(); ++r) {
        for (Eigen::Index c = 0; c < tol.cols(); ++c) tol(r, c) = 2 * u * std::fabs((*pb.x)(r, c));
        for (int i = 0; i < pb.pairs; ++i) {
          const auto [i0, i1] = pair_columns(pb, ref, i);
          const double m = std::fabs((*pb.x)(r, i0)) + std::fabs((*pb.x)(r, i1));
          const double t = a * m * dtheta(pb.positions[static_cast<size_t>(r)], i);
          tol(r, i0) = t + 2 * u * std::fabs(expected(r, i0));
          tol(r, i1) = t + 2 * u * std::fabs(expected(r, i1));
        }
      }
      break;
    case CheckKind::Logits: {
      const Eigen::Index n = static_cast<Eigen::Index>(pb.positions.size());
      Matrix qn(n, pb.pairs), qd(n, pb.pairs), kn(n, pb.pairs), kd(n, pb.pairs);
      for (Eigen::Index r = 0; r < n; ++r)
        for (int i = 0; i < pb.pairs; ++i) {
          const auto [i0, i1] = pair_columns(pb, ref, i);
          const double d = dtheta(pb.positions[static_cast<size_t>(r)], i);
          qn(r, i) = std::hypot((*pb.q)(r, i0), (*pb.q)(r, i1));
          kn(r, i) = std::hypot((*pb.k)(r, i0), (*pb.k)(r, i1));
          qd(r, i) = qn(r, i) * d;
          kd(r, i) = kn(r, i) * d;
        }
      const Matrix qa = pb.q->cwiseAbs(), ka = pb.k->cwiseAbs();
      const double s = std::fabs(ref.logit_scale);
      tol = s *
            (a * a * (qd * kn.transpose() + qn * kd.transpose()) + 2 * pb.dim * u * std::max(1.0, a * a) * (qa * ka.transpose()));
      break;
    }
  }
  return tol;
}

// ---------------------------------------------------------------- validation

void validate(const RopeCheckReference& r0, const RopeCheckInput& in, Problem& pb) {
  RopeCheckReference r = r0;
  require(r.dim >= 2 && r.dim <= kMaxDim && r.dim % 2 == 0, "reference.dim",
          "reference.dim must be even and in [2, " + std::to_string(kMaxDim) + "]");
  if (r.rotary_dim == 0) r.rotary_dim = r.dim;
  require(r.rotary_dim >= 2 && r.rotary_dim <= r.dim && r.rotary_dim % 2 == 0, "reference.rotary_dim",
          "reference.rotary_dim must be even and in [2, reference.dim]");
  rethrow_renamed(
      [&] {
        validate_rope_scaling(r.scaling, r.rotary_dim, r.base);
        return 0;
      },
      [&](const InvalidArgument& e) {
        std::string f = e.field();
        if (f == "dim") f = r.rotary_dim == r.dim ? "dim" : "rotary_dim";
        return InvalidArgument("reference." + f, std::string(e.what()) + " (reference." + f + ")");
      });
  if (!r.softmax_scale) r.softmax_scale = 1.0 / std::sqrt(static_cast<double>(r.dim));
  require(std::isfinite(*r.softmax_scale) && *r.softmax_scale > 0, "reference.softmax_scale",
          "reference.softmax_scale must be a finite number > 0");
  pb.ref = r;
  pb.kind = in.kind;
  pb.dim = r.dim;
  pb.rotary_dim = r.rotary_dim;
  pb.pairs = r.rotary_dim / 2;
  pb.positions = in.positions;
  require(static_cast<int64_t>(pb.positions.size()) <= kMaxCells, "positions", "positions has more than 2^24 entries");
  for (int64_t p : pb.positions)
    require(p >= -kMaxPosition && p <= kMaxPosition, "positions", "positions must lie in [-10^6, 10^6]");
  if (in.tolerance) {
    require(std::isfinite(in.tolerance->abs) && in.tolerance->abs >= 0, "tolerance.abs",
            "tolerance.abs must be a finite number >= 0");
    require(std::isfinite(in.tolerance->rel) && in.tolerance->rel >= 0, "tolerance.rel",
            "tolerance.rel must be a finite number >= 0");
  }
  const Matrix& a = in.actual;
  const Eigen::Index n = static_cast<Eigen::Index>(pb.positions.size());
  auto shape = [](Eigen::Index rr, Eigen::Index cc) { return std::to_string(rr) + " x " + std::to_string(cc); };
  const std::string given = " (given " + shape(a.rows(), a.cols()) + ")";
  if (in.kind != CheckKind::InvFreq) require(n >= 1, "positions", "positions must have at least one entry");
  switch (in.kind) {
    case CheckKind::InvFreq:
      require((a.rows() == 1 || a.cols() == 1) && a.size() == pb.pairs, "actual",
              "actual must hold rotary_dim/2 = " + std::to_string(pb.pairs) + " numbers for kind inv_freq" + given);
      pb.rows = 1, pb.cols = pb.pairs;
      break;
    case CheckKind::Cos:
    case CheckKind::Sin:
      require(a.rows() == n && (a.cols() == pb.rotary_dim || a.cols() == pb.pairs), "actual",
              "actual must be n x rotary_dim = " + shape(n, pb.rotary_dim) + " or n x rotary_dim/2 = " + shape(n, pb.pairs) +
                  " (n = len(positions))" + given);
      pb.half_width = a.cols() == pb.pairs && pb.pairs != pb.rotary_dim;
      pb.rows = n, pb.cols = a.cols();
      break;
    case CheckKind::Rotated:
      require(in.x.rows() == n && in.x.cols() == pb.dim, "x",
              "x must be n x dim = " + shape(n, pb.dim) + " (n = len(positions); given " + shape(in.x.rows(), in.x.cols()) + ")");
      require(a.rows() == n && a.cols() == pb.dim, "actual",
              "actual must be n x dim = " + shape(n, pb.dim) + " for kind rotated" + given);
      pb.x = &in.x;
      pb.rows = n, pb.cols = pb.dim;
      break;
    case CheckKind::Logits:
      require(n <= 2048, "positions", "kind logits takes at most 2048 positions (n x n logits, each fit a copy)");
      require(static_cast<double>(n) * static_cast<double>(n) * pb.dim <= static_cast<double>(kMaxWork), "positions",
              "len(positions)^2 * dim must be <= 2^31");
      require(in.q.rows() == n && in.q.cols() == pb.dim, "q",
              "q must be n x dim = " + shape(n, pb.dim) + " (given " + shape(in.q.rows(), in.q.cols()) + ")");
      require(in.k.rows() == n && in.k.cols() == pb.dim, "k",
              "k must be n x dim = " + shape(n, pb.dim) + " (given " + shape(in.k.rows(), in.k.cols()) + ")");
      require(a.rows() == n && a.cols() == n, "actual",
              "actual must be n x n = " + shape(n, n) + " for kind logits (query = key positions)" + given);
      pb.q = &in.q, pb.k = &in.k;
      pb.rows = n, pb.cols = n;
      break;
  }
  require(static_cast<int64_t>(pb.rows) * pb.cols <= kMaxCells, "actual", "actual has more than 2^24 elements");
  for (Eigen::Index i = 0; i < a.size(); ++i)
    require(std::isfinite(a.data()[i]), "actual", "actual holds a non-finite number (NaN or infinity)");
  for (const Matrix* m : {pb.x, pb.q, pb.k})
    if (m)
      for (Eigen::Index i = 0; i < m->size(); ++i)
        require(std::isfinite(m->data()[i]), m == pb.x ? "x" : m == pb.q ? "q" : "k", "inputs must be finite");
}

std::vector<Eigen::Index> all_rows(const Problem& pb) {
  std::vector<Eigen::Index> idx(static_cast<size_t>(pb.kind == CheckKind::InvFreq ? 1 : pb.rows));
  std::iota(idx.begin(), idx.end(), 0);
  return idx;
}

Matrix as_shape(const Problem& pb, const Matrix& a) {
  if (pb.kind != CheckKind::InvFreq) return a;
  Matrix out(1, pb.pairs);
  for (int i = 0; i < pb.pairs; ++i) out(0, i) = a.data()[i];
  return out;
}

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

RopeCheckReference rope_check_reference(const ModelPosition& model, const std::string& layer_type) {
  require(model.position == PositionKind::Rope && model.rope.has_value(), "reference.config",
          std::string("the model's position encoding is ") + position_kind_name(model.position) + ", not RoPE");
  const ModelRope* rope = &*model.rope;
  if (!layer_type.empty()) {
    rope = nullptr;
    std::string names;
    for (const auto& [name, r] : model.layers) {
      if (name == layer_type) rope = &r;
      names += (names.empty() ? "" : ", ") + name;
    }
    require(rope != nullptr, "reference.layer_type",
            "reference.layer_type must be one of the model's layer types" +
                (names.empty() ? std::string(" (it has none)") : " (" + names + ")"));
  }
  RopeCheckReference r;
  r.dim = std::max(model.head_dim, rope->rotary_dim);
  r.rotary_dim = rope->rotary_dim;
  r.base = rope->base;
  r.scaling = rope->scaling;
  r.layout = rope->layout;
  if (rope->softmax_scale > 0) r.softmax_scale = rope->softmax_scale;
  return r;
}

Matrix rope_check_expected(const RopeCheckReference& reference, const RopeCheckInput& input) {
  Problem pb;
  validate(reference, input, pb);
  return render(pb, setting_of(pb, pb.ref), all_rows(pb));
}

RopeCheckResult rope_check(const RopeCheckReference& reference, const RopeCheckInput& input) {
  Problem pb;
  validate(reference, input, pb);
  const Setting ref = setting_of(pb, pb.ref);
  RopeCheckResult res;
  res.actual = as_shape(pb, input.actual);
  res.expected = render(pb, ref, all_rows(pb));
  const Matrix& A = res.actual;
  const Matrix& E = res.expected;

  // Tolerance and the comparison.
  if (input.tolerance) {
    res.default_tolerance = false;
    res.given_tolerance = *input.tolerance;
    res.tolerance = (input.tolerance->rel * E.cwiseAbs()).array() + input.tolerance->abs;
  } else {
    res.tolerance = default_tolerance(pb, ref, E);
    const std::vector<double> rho = angle_rel_error(ref.inv_freq);
    res.angle_rel = rho.empty() ? 0.0 : *std::max_element(rho.begin(), rho.end());
  }
  const double floor_e = kUnitRoundoff * (E.size() ? E.cwiseAbs().maxCoeff() : 0.0);
  res.match = true;
  Eigen::Index worst = 0;
  for (Eigen::Index i = 0; i < E.size(); ++i) {
    const double e = E.data()[i], a = A.data()[i], err = std::fabs(a - e);
    if (err > res.tolerance.data()[i]) res.match = false;
    if (err > res.max_abs_error) {
      worst = i;
      res.max_abs_error = err;
    }
    if (std::fabs(e) >= floor_e && e != 0) res.max_rel_error = std::max(res.max_rel_error, err / std::fabs(e));
  }
  const Eigen::Index wr = worst / E.cols(), wc = worst % E.cols();
  if (pb.kind == CheckKind::InvFreq) res.worst_index = {static_cast<int64_t>(wc)};
  else res.worst_index = {static_cast<int64_t>(wr), static_cast<int64_t>(wc)};
  res.worst_expected = E(wr, wc);
  res.worst_actual = A(wr, wc);

  // Pictures: the pair of each column.
  res.column_pair.assign(static_cast<size_t>(E.cols()), -1);
  if (pb.kind == CheckKind::InvFreq || ((pb.kind == CheckKind::Cos || pb.kind == CheckKind::Sin)))
    for (Eigen::Index c = 0; c < E.cols(); ++c)
      res.column_pair[static_cast<size_t>(c)] =
          pb.kind == CheckKind::InvFreq ? static_cast<int>(c) : cos_column_pair(pb, ref.layout, c);
  else if (pb.kind == CheckKind::Rotated)
    for (int i = 0; i < pb.pairs; ++i) {
      const auto [i0, i1] = pair_columns(pb, ref, i);
      res.column_pair[static_cast<size_t>(i0)] = res.column_pair[static_cast<size_t>(i1)] = i;
    }

  if (pb.kind == CheckKind::Logits) {
    // Softmax ignores a constant per row: equivalent when the error minus its row means is in tolerance.
    Matrix resid = A - E;
    const Vector c = resid.rowwise().mean();
    resid.colwise() -= c;
    res.equivalent_under_softmax = (resid.cwiseAbs().array() <= res.tolerance.array()).all();
  }
  if (res.match) return res;

  const FitLevels fl = make_levels(pb, A);
  Diagnoser dg{pb, ref, E, A, fl, sse(A, E), {}};
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
  res.diagnosis = std::move(kept);
  return res;
}

}  // namespace posenc
