#include "core/analysis/rope_check.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "core/analysis/rope_check_detail.h"
#include "core/bounds.h"

namespace posenc {

namespace rope_check_detail {

// ---------------------------------------------------------------- tolerance

ToleranceField::ToleranceField(const Problem& pb, const Setting& ref, const Matrix& expected,
                               const std::optional<RopeCheckTolerance>& given)
    : pb_(pb), ref_(ref), expected_(expected), given_(given) {
  if (given_) return;
  rho_ = angle_rel_error(ref.inv_freq);
  a_ = std::fabs(ref.magnitude);
  if (pb.kind == CheckKind::Rotated) {
    pair_of_column_.assign(static_cast<size_t>(pb.cols), -1);
    for (int i = 0; i < pb.pairs; ++i) {
      const auto [i0, i1] = pair_columns(pb, ref, i);
      pair_of_column_[static_cast<size_t>(i0)] = pair_of_column_[static_cast<size_t>(i1)] = i;
    }
  }
  if (pb.kind == CheckKind::Logits) {
    const double u = kUnitRoundoff, a = a_;
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
    logits_ =
        s * (a * a * (qd * kn.transpose() + qn * kd.transpose()) + 2 * pb.dim * u * std::max(1.0, a * a) * (qa * ka.transpose()));
  }
}

// A pair of frequency 0 passes through: its angle is exactly 0 (rho 0), only the rounding of cos / sin and of
// the products remains.
double ToleranceField::dtheta(int64_t p, int i) const {
  const double w = ref_.inv_freq[static_cast<size_t>(i)];
  return (w > 0 ? rho_[static_cast<size_t>(i)] * std::fabs(static_cast<double>(p) * w) : 0.0) + 4 * kUnitRoundoff;
}

double ToleranceField::at(Eigen::Index r, Eigen::Index c) const {
  if (given_) return given_->rel * std::fabs(expected_(r, c)) + given_->abs;
  const double u = kUnitRoundoff;
  switch (pb_.kind) {
    case CheckKind::InvFreq: return rho_[static_cast<size_t>(c)] * ref_.inv_freq[static_cast<size_t>(c)];
    case CheckKind::Cos:
    case CheckKind::Sin: return a_ * dtheta(pb_.positions[static_cast<size_t>(r)], cos_column_pair(pb_, ref_.layout, c));
    case CheckKind::Rotated: {
      const int i = pair_of_column_[static_cast<size_t>(c)];
      if (i < 0) return 2 * u * std::fabs((*pb_.x)(r, c));
      const auto [i0, i1] = pair_columns(pb_, ref_, i);
      const double m = std::fabs((*pb_.x)(r, i0)) + std::fabs((*pb_.x)(r, i1));
      const double t = a_ * m * dtheta(pb_.positions[static_cast<size_t>(r)], i);
      return t + 2 * u * std::fabs(expected_(r, c));
    }
    case CheckKind::Logits: return logits_(r, c);
  }
  return 0.0;
}

Matrix ToleranceField::whole() const {
  if (pb_.kind == CheckKind::Logits && !given_) return logits_;
  Matrix tol(expected_.rows(), expected_.cols());
  for (Eigen::Index r = 0; r < tol.rows(); ++r)
    for (Eigen::Index c = 0; c < tol.cols(); ++c) tol(r, c) = at(r, c);
  return tol;
}

}  // namespace rope_check_detail

namespace {

using namespace rope_check_detail;

// ---------------------------------------------------------------- validation

// The reference normalised (rotary_dim, softmax_scale set) and checked; errors name "reference.<field>".
RopeCheckReference checked_reference(const RopeCheckReference& r0) {
  RopeCheckReference r = r0;
  require(r.dim >= 2 && r.dim <= kMaxDim && r.dim % 2 == 0, "reference.dim",
          "reference.dim must be even and in [2, " + std::to_string(kMaxDim) + "]");
  if (r.rotary_dim == 0) r.rotary_dim = r.dim;
  require(r.rotary_dim >= 2 && r.rotary_dim <= r.dim && r.rotary_dim % 2 == 0, "reference.rotary_dim",
          "reference.rotary_dim must be even and in [2, reference.dim]");
  require(r.rotary_offset >= 0 && r.rotary_offset <= r.dim - r.rotary_dim, "reference.rotary_offset",
          "reference.rotary_offset must be in [0, reference.dim - reference.rotary_dim] = [0, " +
              std::to_string(r.dim - r.rotary_dim) + "]");
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
  return r;
}

std::string shape_text(Eigen::Index rows, Eigen::Index cols) { return std::to_string(rows) + " x " + std::to_string(cols); }

// The shapes of the tensors (rows x cols each; x, q, k 0 x 0 when not given).
struct Shapes {
  Eigen::Index a_rows = 0, a_cols = 0, x_rows = 0, x_cols = 0, q_rows = 0, q_cols = 0, k_rows = 0, k_cols = 0;
  Eigen::Index a_size() const { return a_rows * a_cols; }
};

Shapes shapes_of(const RopeCheckInput& in) {
  return {in.actual.rows(), in.actual.cols(), in.x.rows(), in.x.cols(), in.q.rows(), in.q.cols(), in.k.rows(), in.k.cols()};
}

// Kind rotated against a reference whose rope slice does not start the head (MLA: q_pe after q_nope): x and
// actual may hold the slice alone (n x rotary_dim), which rotates as a head of rotary_dim dims at offset 0.
bool rope_slice_alone(const RopeCheckReference& r, CheckKind kind, Eigen::Index x_cols, Eigen::Index a_cols) {
  return kind == CheckKind::Rotated && r.rotary_offset > 0 && r.rotary_dim < r.dim && x_cols == r.rotary_dim &&
         a_cols == r.rotary_dim;
}

void narrow_to_slice(RopeCheckReference& r, Problem& pb) {
  r.dim = r.rotary_dim;
  r.rotary_offset = 0;
  pb.dim = r.dim;
}

// The tensor's shape against the kind, len(positions) = n and the heads axis; sets pb.rows / pb.cols.
void check_shapes(CheckKind kind, const Shapes& sh, Problem& pb) {
  const Eigen::Index n = pb.n, h = std::max(1, pb.heads), hn = h * n;
  // With a heads axis the shapes read H x n x width (stacked (H n) x width).
  const std::string lead = pb.heads > 0 ? std::to_string(pb.heads) + " x " : "";
  const std::string given = " (given " + lead + shape_text(pb.heads > 0 ? sh.a_rows / h : sh.a_rows, sh.a_cols) + ")";
  if (kind != CheckKind::InvFreq) require(n >= 1, "positions", "positions must have at least one entry");
  require(pb.heads == 0 || kind == CheckKind::Cos || kind == CheckKind::Sin || kind == CheckKind::Rotated, "actual",
          "a heads axis (H x n x width) is read for kinds cos, sin and rotated, not " + std::string(check_kind_name(kind)));
  switch (kind) {
    case CheckKind::InvFreq:
      require((sh.a_rows == 1 || sh.a_cols == 1) && sh.a_size() == pb.pairs, "actual",
              "actual must hold rotary_dim/2 = " + std::to_string(pb.pairs) + " numbers for kind inv_freq" + given);
      pb.rows = 1, pb.cols = pb.pairs;
      break;
    case CheckKind::Cos:
    case CheckKind::Sin:
      require(sh.a_rows == hn && (sh.a_cols == pb.rotary_dim || sh.a_cols == pb.pairs), "actual",
              "actual must be " + lead + "n x rotary_dim = " + lead + shape_text(n, pb.rotary_dim) + " or " + lead +
                  "n x rotary_dim/2 = " + lead + shape_text(n, pb.pairs) + " (n = len(positions))" + given);
      pb.half_width = sh.a_cols == pb.pairs && pb.pairs != pb.rotary_dim;
      pb.rows = hn, pb.cols = sh.a_cols;
      break;
    case CheckKind::Rotated: {
      // With the rope slice elsewhere than first, the slice alone is read too (rope_slice_alone).
      const std::string slice = pb.ref.rotary_offset > 0 ? " or the rope slice alone, " + lead + "n x rotary_dim = " + lead +
                                                               shape_text(n, pb.rotary_dim)
                                                         : "";
      require(sh.x_rows == hn && sh.x_cols == pb.dim, "x",
              "x must be " + lead + "n x dim = " + lead + shape_text(n, pb.dim) + slice + " (n = len(positions); given " + lead +
                  shape_text(pb.heads > 0 ? sh.x_rows / h : sh.x_rows, sh.x_cols) + ")");
      require(sh.a_rows == hn && sh.a_cols == pb.dim, "actual",
              "actual must be " + lead + "n x dim = " + lead + shape_text(n, pb.dim) + slice + " for kind rotated" + given);
      pb.rows = hn, pb.cols = pb.dim;
      break;
    }
    case CheckKind::Logits:
      require(n <= 2048, "positions", "kind logits takes at most 2048 positions (n x n logits, each fit a copy)");
      require(static_cast<double>(n) * static_cast<double>(n) * pb.dim <= static_cast<double>(kMaxWork), "positions",
              "len(positions)^2 * dim must be <= 2^31");
      {
        // q.k spans the whole head: the rope slice alone is not the logits.
        const std::string whole =
            pb.rotary_dim < pb.dim && pb.ref.rotary_offset > 0
                ? ", the full head: the rope slice alone (n x rotary_dim = " + shape_text(n, pb.rotary_dim) +
                      ") is not the logits"
                : "";
        require(sh.q_rows == n && sh.q_cols == pb.dim, "q",
                "q must be n x dim = " + shape_text(n, pb.dim) + whole + " (given " + shape_text(sh.q_rows, sh.q_cols) + ")");
        require(sh.k_rows == n && sh.k_cols == pb.dim, "k",
                "k must be n x dim = " + shape_text(n, pb.dim) + whole + " (given " + shape_text(sh.k_rows, sh.k_cols) + ")");
      }
      require(sh.a_rows == n && sh.a_cols == n, "actual",
              "actual must be n x n = " + shape_text(n, n) + " for kind logits (query = key positions)" + given);
      pb.rows = n, pb.cols = n;
      break;
  }
}

void validate(const RopeCheckReference& r0, const RopeCheckInput& in, Problem& pb) {
  RopeCheckReference r = checked_reference(r0);
  pb.kind = in.kind;
  pb.dim = r.dim;
  if (rope_slice_alone(r, in.kind, in.x.cols(), in.actual.cols())) narrow_to_slice(r, pb);
  pb.ref = r;
  pb.rotary_dim = r.rotary_dim;
  pb.pairs = r.rotary_dim / 2;
  require(static_cast<int64_t>(in.positions.size()) <= kMaxCells, "positions", "positions has more than 2^24 entries");
  for (int64_t p : in.positions)
    require(p >= -kMaxPosition && p <= kMaxPosition, "positions", "positions must lie in [-10^6, 10^6]");
  require(in.heads >= 0 && in.heads <= kMaxHeads, "actual", "the heads axis must hold 1 to 1024 heads");
  pb.heads = in.heads;
  pb.n = static_cast<Eigen::Index>(in.positions.size());
  require(static_cast<int64_t>(std::max(1, pb.heads)) * pb.n <= kMaxCells, "actual", "heads x positions exceeds 2^24 rows");
  pb.positions.reserve(static_cast<size_t>(std::max(1, pb.heads) * pb.n));
  for (int h = 0; h < std::max(1, pb.heads); ++h)
    pb.positions.insert(pb.positions.end(), in.positions.begin(), in.positions.end());
  if (in.tolerance) {
    require(std::isfinite(in.tolerance->abs) && in.tolerance->abs >= 0, "tolerance.abs",
            "tolerance.abs must be a finite number >= 0");
    require(std::isfinite(in.tolerance->rel) && in.tolerance->rel >= 0, "tolerance.rel",
            "tolerance.rel must be a finite number >= 0");
  }
  check_shapes(in.kind, shapes_of(in), pb);
  if (in.kind == CheckKind::Rotated) pb.x = &in.x;
  if (in.kind == CheckKind::Logits) pb.q = &in.q, pb.k = &in.k;
  const Matrix& a = in.actual;
  require(static_cast<int64_t>(pb.rows) * pb.cols <= kMaxCells, "actual", "actual has more than 2^24 elements");
  for (Eigen::Index i = 0; i < a.size(); ++i)
    require(std::isfinite(a.data()[i]), "actual", "actual holds a non-finite number (NaN or infinity)");
  for (const Matrix* m : {pb.x, pb.q, pb.k})
    if (m)
      for (Eigen::Index i = 0; i < m->size(); ++i)
        require(std::isfinite(m->data()[i]),
                m == pb.x   ? "x"
                : m == pb.q ? "q"
                            : "k",
                std::string(m == pb.x   ? "x"
                            : m == pb.q ? "q"
                                        : "k") +
                    " holds a non-finite number (NaN or infinity)");
}

// The index of element `flat` of the (rows x cols) tensor as the response gives it.
std::vector<int64_t> element_index(const Problem& pb, Eigen::Index flat, Eigen::Index cols) {
  const Eigen::Index r = flat / cols, c = flat % cols;
  if (pb.kind == CheckKind::InvFreq) return {static_cast<int64_t>(c)};
  if (pb.heads > 0) return {static_cast<int64_t>(r / pb.n), static_cast<int64_t>(r % pb.n), static_cast<int64_t>(c)};
  return {static_cast<int64_t>(r), static_cast<int64_t>(c)};
}

// match, the largest errors and where they are; the element nearest its tolerance; the largest tolerance.
void compare(const Problem& pb, const ToleranceField& tolerance, RopeCheckResult& res) {
  const Matrix& A = res.actual;
  const Matrix& E = res.expected;
  const double floor_e = kUnitRoundoff * (E.size() ? E.cwiseAbs().maxCoeff() : 0.0);
  res.match = true;
  Eigen::Index worst = 0, nearest = 0;
  for (Eigen::Index i = 0; i < E.size(); ++i) {
    const double e = E.data()[i], a = A.data()[i], err = std::fabs(a - e), tol = tolerance.at(i / E.cols(), i % E.cols());
    // A non-finite tolerance would make every comparison false: a wrong tensor would match. Never.
    assert(std::isfinite(tol));
    if (!std::isfinite(tol))
      throw std::logic_error("rope_check: a non-finite tolerance (a bug of the float32 rule; please report the request)");
    res.max_tolerance = std::max(res.max_tolerance, tol);
    if (err > tol) res.match = false;
    if (err > res.max_abs_error) {
      worst = i;
      res.max_abs_error = err;
    }
    const double ratio = err == 0 ? 0.0 : tol > 0 ? err / tol : std::numeric_limits<double>::infinity();
    if (ratio > res.worst_ratio) {
      nearest = i;
      res.worst_ratio = ratio;
    }
    if (std::fabs(e) >= floor_e && e != 0) res.max_rel_error = std::max(res.max_rel_error, err / std::fabs(e));
  }
  res.worst_index = element_index(pb, worst, E.cols());
  res.worst_ratio_index = element_index(pb, nearest, E.cols());
  res.worst_expected = E.data()[worst];
  res.worst_actual = A.data()[worst];
}

Matrix as_shape(const Problem& pb, const Matrix& a) {
  if (pb.kind != CheckKind::InvFreq) return a;
  Matrix out(1, pb.pairs);
  for (int i = 0; i < pb.pairs; ++i) out(0, i) = a.data()[i];
  return out;
}
}  // namespace

void rope_check_shape(const RopeCheckReference& reference, CheckKind kind, int64_t rows, int64_t cols, int heads, int64_t n) {
  Problem pb;
  RopeCheckReference r = checked_reference(reference);
  pb.dim = r.dim;
  if (rope_slice_alone(r, kind, cols, cols)) narrow_to_slice(r, pb);
  pb.ref = r;
  pb.rotary_dim = r.rotary_dim;
  pb.pairs = r.rotary_dim / 2;
  pb.heads = std::max(0, heads);
  pb.n = static_cast<Eigen::Index>(n >= 0 ? n : rows);
  const Eigen::Index hn = std::max(1, pb.heads) * pb.n;
  // x, q and k as the kind needs them: only actual is judged here.
  const Shapes sh{static_cast<Eigen::Index>(std::max(1, pb.heads) * rows),
                  static_cast<Eigen::Index>(cols),
                  hn,
                  pb.dim,
                  pb.n,
                  pb.dim,
                  pb.n,
                  pb.dim};
  check_shapes(kind, sh, pb);
}

std::string check_fit_text(const CheckFitValue& v) {
  if (const double* d = std::get_if<double>(&v)) return num(*d);
  if (const bool* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  if (const std::string* s = std::get_if<std::string>(&v)) return *s;
  if (const auto* names = std::get_if<std::vector<std::string>>(&v)) {
    std::string out;
    for (const std::string& n : *names) out += (out.empty() ? "" : ",") + n;
    return "[" + out + "]";
  }
  const auto& idx = std::get<std::vector<int64_t>>(v);
  std::string out = "[";
  for (size_t i = 0; i < idx.size() && i < 16; ++i) out += (i ? ", " : "") + std::to_string(idx[i]);
  if (idx.size() > 16) out += ", ... (" + std::to_string(idx.size()) + " in all)";
  return out + "]";
}

RopeCheckReference rope_check_reference(const ModelPosition& model, const std::string& layer_type) {
  require(model.position == PositionKind::Rope && model.rope.has_value(), "reference.config",
          std::string("the model's position encoding is ") + position_kind_name(model.position) + ", not RoPE");
  const ModelRope* rope = &*model.rope;
  if (!layer_type.empty()) {
    rope = nullptr;
    // DeepSeek-V4's own layer type names (configuration_deepseek_v4.py @015c078164151a049126942989817713e83a8f3e:
    // compress_ratios 0 / 4 / 128) name the RoPE they rotate with: sliding layers the main one, compressed the
    // compress one (modeling_deepseek_v4.py @361455895daf94ca66f78cf6792b09af397b4b30).
    static constexpr std::pair<const char*, const char*> kLayerTypeRope[] = {
        {"sliding_attention", "main"},
        {"compressed_sparse_attention", "compress"},
        {"heavily_compressed_attention", "compress"},
    };
    auto has_layer = [&](const std::string& n) {
      return std::any_of(model.layers.begin(), model.layers.end(), [&](const auto& e) { return e.first == n; });
    };
    std::string wanted = layer_type;
    if (!has_layer(wanted))
      for (const auto& [type, key] : kLayerTypeRope)
        if (wanted == type && has_layer(key) && has_layer("compress")) {
          wanted = key;
          break;
        }
    std::string names;
    for (const auto& [name, r] : model.layers) {
      if (name == wanted) rope = &r;
      names += (names.empty() ? "" : ", ") + name;
    }
    if (has_layer("main") && has_layer("compress"))
      for (const auto& [type, key] : kLayerTypeRope) names += std::string(", ") + type;
    require(rope != nullptr, "reference.layer_type",
            "reference.layer_type must be one of the model's layer types" +
                (names.empty() ? std::string(" (it has none)") : " (" + names + ")"));
  }
  RopeCheckReference r;
  r.dim = std::max(rope_head_dim(model, *rope), rope->rotary_dim);
  r.rotary_dim = rope->rotary_dim;
  r.rotary_offset = rope->rotary_offset;
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

namespace {

// rope_check; `movable` (input's own actual, or nullptr) is moved into the result instead of copied.
RopeCheckResult rope_check_moved(const RopeCheckReference& reference, const RopeCheckInput& input, Matrix* movable) {
  Problem pb;
  validate(reference, input, pb);
  const Setting ref = setting_of(pb, pb.ref);
  RopeCheckResult res;
  res.actual = movable && pb.kind != CheckKind::InvFreq ? std::move(*movable) : as_shape(pb, input.actual);
  res.expected = render(pb, ref, all_rows(pb));
  const Matrix& A = res.actual;
  const Matrix& E = res.expected;

  // Tolerance and the comparison.
  const ToleranceField tolerance(pb, ref, E, input.tolerance);
  if (input.tolerance) {
    res.default_tolerance = false;
    res.given_tolerance = *input.tolerance;
  } else {
    const std::vector<double> rho = angle_rel_error(ref.inv_freq);
    res.angle_rel = rho.empty() ? 0.0 : *std::max_element(rho.begin(), rho.end());
  }
  compare(pb, tolerance, res);
  if (input.keep_tensors) res.tolerance = tolerance.whole();
  res.heads = pb.heads;

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
    res.equivalent_under_softmax = (resid.cwiseAbs().array() <= tolerance.whole().array()).all();
  }
  if (res.match) return res;

  res.diagnosis = diagnose(pb, ref, E, A, tolerance, input.keep_tensors);
  return res;
}

}  // namespace

RopeCheckResult rope_check(const RopeCheckReference& reference, const RopeCheckInput& input) {
  return rope_check_moved(reference, input, nullptr);
}

RopeCheckResult rope_check(const RopeCheckReference& reference, RopeCheckInput&& input) {
  return rope_check_moved(reference, input, &input.actual);
}

}  // namespace posenc