#include "core/analysis/rope_check.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/analysis/rope_check_detail.h"
#include "core/bounds.h"

namespace posenc {
namespace {

using namespace rope_check_detail;

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

Matrix as_shape(const Problem& pb, const Matrix& a) {
  if (pb.kind != CheckKind::InvFreq) return a;
  Matrix out(1, pb.pairs);
  for (int i = 0; i < pb.pairs; ++i) out(0, i) = a.data()[i];
  return out;
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

  res.diagnosis = diagnose(pb, ref, E, A);
  return res;
}

}  // namespace posenc