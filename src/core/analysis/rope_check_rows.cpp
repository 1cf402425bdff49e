// The catalogue of the RoPE tensor check, second part: causes of positions, rows, heads and magnitudes (the
// frequencies' causes, the naming rules and diagnose() are in rope_check_causes.cpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/analysis/rope_check_detail.h"

namespace posenc::rope_check_detail {

// ---------------------------------------------------------------- magnitudes, offsets, signs

// cos/sin/rotated: the magnitude as a least-squares fit (the tensor is affine in it).
void Diagnoser::magnitude() {
  if (pb.kind == CheckKind::InvFreq || pb.kind == CheckKind::Logits) return;
  Setting one = ref, zero = ref;
  one.magnitude = 1.0;
  zero.magnitude = 0.0;
  // m = <actual - t0, t1 - t0> / |t1 - t0|^2, the sums in storage order a block of rows at a time.
  double dot = 0, den = 0;
  each_block([&](Eigen::Index first, const std::vector<Eigen::Index>& idx) {
    const Matrix t1 = render(pb, one, idx), t0 = render(pb, zero, idx);
    const double* a = actual.data() + first * actual.cols();
    for (Eigen::Index i = 0; i < t1.size(); ++i) {
      const double dir = t1.data()[i] - t0.data()[i];
      dot += (a[i] - t0.data()[i]) * dir;
      den += dir * dir;
    }
  });
  if (den <= 0) return;
  const double m = dot / den;
  if (m <= 0) return;  // a negative magnitude is a sign flip: rotation_direction says it in its own terms
  Setting s = ref;
  s.magnitude = m;
  const double a = ref.magnitude;
  std::string what = "cos/sin carry magnitude " + num(m) + ", the reference " + num(a);
  if (a != 1.0 && std::fabs(m - 1.0) < 1e-3) what += " (attention_factor missing)";
  else if (a != 1.0 && std::fabs(m - a * a) < 1e-3 * a * a) what += " (attention_factor applied twice)";
  add(CheckCause::AttentionFactor, s, {{"attention_factor", m}, {"ratio", a != 0 ? m / a : 0.0}}, what,
      "multiply cos and sin by attention_factor = " + num(a) + " exactly once");
}

// logits: one constant ratio; named attention_factor when it is the reference's attention_factor^2 or
// its inverse, softmax_scale otherwise.
void Diagnoser::logit_ratio() {
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

void Diagnoser::position_offset() {
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
  add(CheckCause::PositionOffset, s, {{"offset", static_cast<double>(best_d)}},
      "the tensor is the reference at positions shifted by " + std::to_string(best_d),
      best_d == 1 || best_d == -1 ? "use the positions as given (an off-by-one: position_ids start at 0 unless a "
                                    "cache offset says otherwise)"
                                  : "use the positions as given (check the cache / past_key_values offset)");
}

void Diagnoser::rotation_direction() {
  if (pb.kind == CheckKind::InvFreq || pb.kind == CheckKind::Cos) return;
  Setting s = ref;
  s.sin_sign = -1.0;
  add(CheckCause::RotationDirection, s, {{"sin_sign", -1.0}}, "the tensor rotates by -angle: the sign of sin is flipped",
      "rotate as x * cos + rotate_half(x) * sin with rotate_half(x) = cat(-x2, x1) (not cat(x2, -x1))");
}

void Diagnoser::row_constant() {
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

// ---------------------------------------------------------------- rows, caches, heads, norms

namespace {

// Rows in increasing position order.
std::vector<Eigen::Index> by_position(const Problem& pb) {
  std::vector<Eigen::Index> order(static_cast<size_t>(pb.rows));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) {
    return pb.positions[static_cast<size_t>(a)] < pb.positions[static_cast<size_t>(b)];
  });
  return order;
}

bool beyond(const Matrix& actual, const Matrix& expected, const ToleranceField& tolerance, Eigen::Index r, Eigen::Index c) {
  return std::fabs(actual(r, c) - expected(r, c)) > tolerance.at(r, c);
}

// What row r would hold left unrotated: x's row (rotated), cos 1, sin 0.
double unrotated_value(const Problem& pb, Eigen::Index r, Eigen::Index c) {
  if (pb.kind == CheckKind::Rotated) return (*pb.x)(r, c);
  return pb.kind == CheckKind::Cos ? 1.0 : 0.0;
}

std::vector<int64_t> indices_of(const std::vector<char>& mask) {
  std::vector<int64_t> out;
  for (size_t i = 0; i < mask.size(); ++i)
    if (mask[i]) out.push_back(static_cast<int64_t>(i));
  return out;
}

std::string list_text(const std::vector<int64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size() && i < 12; ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  if (v.size() > 12) s += ", ... (" + std::to_string(v.size()) + " in all)";
  return s;
}

}  // namespace

// A cos/sin cache of L rows read at positions past its end: row L-1 (clamped: vLLM #55910, gLLM #269) or row
// p mod L (wrapped: llm-awq #332, nanochat #520). L is sought between the last position that matches and the
// first that does not (by position order; logits: the first query / key block that does not).
void Diagnoser::cache_length() {
  if (pb.kind == CheckKind::InvFreq) return;
  const std::vector<Eigen::Index> order = by_position(pb);
  int64_t first_bad = 0, last_good = -1;
  bool found = false;
  for (size_t t = 0; t < order.size() && !found; ++t) {
    const Eigen::Index r = order[t];
    bool bad = false;
    if (pb.kind == CheckKind::Logits) {
      for (size_t u = 0; u <= t && !bad; ++u)
        bad = beyond(actual, expected, tolerance, r, order[u]) || beyond(actual, expected, tolerance, order[u], r);
    } else {
      for (Eigen::Index c = 0; c < pb.cols && !bad; ++c) bad = beyond(actual, expected, tolerance, r, c);
    }
    if (bad) first_bad = pb.positions[static_cast<size_t>(r)], found = true;
    else last_good = pb.positions[static_cast<size_t>(r)];
  }
  if (!found || first_bad <= 0) return;
  const int64_t lo = std::max<int64_t>(1, last_good + 1), hi = first_bad;
  if (lo > hi) return;
  std::vector<int64_t> lengths;
  const int64_t span = hi - lo + 1, step = std::max<int64_t>(1, span / 64);
  for (int64_t L = hi; L >= lo; L -= step) lengths.push_back(L);
  Setting best = ref;
  double best_err = std::numeric_limits<double>::infinity();
  for (int64_t L : lengths)
    for (bool wrap : {false, true}) {
      Setting s = ref;
      s.cache_length = L;
      s.cache_wrap = wrap;
      const double e = level_sse(s);
      if (e < best_err) best_err = e, best = s;
    }
  const int64_t L = best.cache_length;
  const std::string ls = std::to_string(L);
  add(CheckCause::CacheLength, best,
      {{"length", static_cast<double>(L)}, {"mode", std::string(best.cache_wrap ? "wrap" : "clamp")}},
      "positions >= " + ls + " read the cos/sin cache's row " +
          (best.cache_wrap ? "p mod " + ls + " (a cache of " + ls + " rows, wrapped)"
                           : ls + " - 1 = " + std::to_string(L - 1) + " (a cache of " + ls + " rows, clamped)"),
      "build the cos/sin cache for the longest position (max_position_embeddings, or grow it with the sequence) and index it "
      "by the true position");
}

// Rows left as x: the current key written to the cache unrotated (sglang #66), or RoPE never applied
// (sqliteai/warp #27). cos/sin rows: cos 1, sin 0. logits: keys or queries unrotated, or both everywhere.
void Diagnoser::unrotated_rows() {
  if (pb.kind == CheckKind::InvFreq) return;
  if (pb.kind == CheckKind::Logits) {
    const Eigen::Index n = pb.rows;
    Setting all = ref;
    all.unrotated_q.assign(static_cast<size_t>(n), 1);
    all.unrotated_k.assign(static_cast<size_t>(n), 1);
    // One side at a time: a key (column) or a query (row) that fits better unrotated.
    Setting keys = ref, queries = ref;
    keys.unrotated_k.assign(static_cast<size_t>(n), 0);
    queries.unrotated_q.assign(static_cast<size_t>(n), 0);
    Setting one_k = ref, one_q = ref;
    one_k.unrotated_k.assign(static_cast<size_t>(n), 1);
    one_q.unrotated_q.assign(static_cast<size_t>(n), 1);
    const Matrix pk = full(one_k), pq = full(one_q);
    for (Eigen::Index j = 0; j < n; ++j) {
      if ((actual.col(j) - pk.col(j)).squaredNorm() < 0.25 * (actual.col(j) - expected.col(j)).squaredNorm())
        keys.unrotated_k[static_cast<size_t>(j)] = 1;
      if ((actual.row(j) - pq.row(j)).squaredNorm() < 0.25 * (actual.row(j) - expected.row(j)).squaredNorm())
        queries.unrotated_q[static_cast<size_t>(j)] = 1;
    }
    struct H {
      const Setting* s;
      const char* side;
      std::vector<int64_t> idx;
    };
    const std::vector<H> hs = {{&all, "queries and keys", {}},
                               {&keys, "keys", indices_of(keys.unrotated_k)},
                               {&queries, "queries", indices_of(queries.unrotated_q)}};
    const H* best = nullptr;
    double best_err = std::numeric_limits<double>::infinity();
    for (const H& h : hs) {
      if (h.s != &all && h.idx.empty()) continue;
      const double e = sse(full(*h.s), actual);
      if (e < best_err) best_err = e, best = &h;
    }
    if (!best) return;
    const bool everything = best->s == &all || static_cast<Eigen::Index>(best->idx.size()) == n;
    add(CheckCause::UnrotatedRows, *best->s,
        {{"rows", everything ? CheckFitValue(std::string("all")) : CheckFitValue(best->idx)}},
        everything
            ? std::string("the logits are q . k with ") + best->side + " never rotated (no RoPE applied)"
            : std::string("the ") + best->side + " at rows " + list_text(best->idx) + " are left unrotated (the others rotate)",
        "rotate every query and key before q . k (and before writing a key to the cache)");
    return;
  }
  Setting s = ref;
  s.unrotated.assign(static_cast<size_t>(pb.rows), 0);
  Eigen::Index distinct = 0, left = 0;
  for (Eigen::Index r = 0; r < pb.rows; ++r) {
    double du = 0, de = 0, ue = 0;
    for (Eigen::Index c = 0; c < pb.cols; ++c) {
      const double u = unrotated_value(pb, r, c);
      du += (actual(r, c) - u) * (actual(r, c) - u);
      de += (actual(r, c) - expected(r, c)) * (actual(r, c) - expected(r, c));
      ue += (u - expected(r, c)) * (u - expected(r, c));
    }
    if (ue <= 0) continue;  // position 0: unrotated and rotated agree
    ++distinct;
    if (du < 0.25 * de) s.unrotated[static_cast<size_t>(r)] = 1, ++left;
  }
  if (left == 0) return;
  const std::vector<int64_t> idx = indices_of(s.unrotated);
  const bool everything = left == distinct;
  add(CheckCause::UnrotatedRows, s, {{"rows", everything ? CheckFitValue(std::string("all")) : CheckFitValue(idx)}},
      everything ? std::string("no row is rotated: the tensor is the input as it was (RoPE never applied)")
                 : "rows " + list_text(idx) + " are left unrotated (the input as it was); the other rows are right",
      "apply RoPE to every row (for a KV cache: rotate the current key before it is written)");
}

// A kernel that does not keep each pair's norm: out_b computed from the out_a just written over x_a (an
// in-place kernel aliasing its input and output, vllm-ascend #12723), or the other way round.
void Diagnoser::norm_violation() {
  if (pb.kind != CheckKind::Rotated) return;
  const double a = std::fabs(ref.magnitude);
  double worst = a, worst_dev = 0;
  bool violated = false;
  for (Eigen::Index r = 0; r < pb.rows; ++r)
    for (int i = 0; i < pb.pairs; ++i) {
      const auto [i0, i1] = pair_columns(pb, ref, i);
      const double nx = std::hypot((*pb.x)(r, i0), (*pb.x)(r, i1));
      if (nx <= 0) continue;
      const double no = std::hypot(actual(r, i0), actual(r, i1));
      if (std::fabs(no - a * nx) > tolerance.at(r, i0) + tolerance.at(r, i1)) violated = true;
      const double ratio = no / nx;
      if (std::fabs(ratio - a) > worst_dev) worst_dev = std::fabs(ratio - a), worst = ratio;
    }
  if (!violated) return;
  Setting s1 = ref, s2 = ref;
  s1.alias = 1;
  s2.alias = 2;
  const Setting& s = level_sse(s1) <= level_sse(s2) ? s1 : s2;
  add(CheckCause::NormViolation, s, {{"max_norm_ratio", worst}},
      "pairs do not keep their norm: |out_pair| / |x_pair| reaches " + num(worst) + " (a rotation keeps " + num(a) +
          "); the tensor fits out_" + (s.alias == 1 ? "b computed from the out_a" : "a computed from the out_b") +
          " already written over the input (an in-place kernel reading its own output)",
      "compute both outputs of a pair from the inputs before writing either (do not alias out and x in place)");
}

// The head index added to the position (elixir-nx/emlx #121): head h rotates at p + h * k.
void Diagnoser::head_offset() {
  if (pb.heads < 2) return;
  Setting best = ref;
  double best_err = std::numeric_limits<double>::infinity();
  for (int64_t k = -64; k <= 64; ++k) {
    if (k == 0) continue;
    Setting s = ref;
    s.head_offset = k;
    const double e = level_sse(s);
    if (e < best_err) best_err = e, best = s;
  }
  add(CheckCause::HeadOffset, best, {{"per_head_offset", static_cast<double>(best.head_offset)}},
      "head h rotates at position p + h x " + std::to_string(best.head_offset) + ": the head index enters the position",
      "rotate every head at the same positions (position ids must not depend on the head index)");
}

// Heads left as x: e.g. only head 0 rotated at decode (oxiglade/mlx-rs #357).
void Diagnoser::unrotated_heads() {
  if (pb.heads < 2 || pb.kind == CheckKind::Logits || pb.kind == CheckKind::InvFreq) return;
  Setting s = ref;
  s.unrotated.assign(static_cast<size_t>(pb.rows), 0);
  std::vector<int64_t> heads;
  for (int h = 0; h < pb.heads; ++h) {
    double du = 0, de = 0;
    for (Eigen::Index r = h * pb.n; r < (h + 1) * pb.n; ++r)
      for (Eigen::Index c = 0; c < pb.cols; ++c) {
        const double u = unrotated_value(pb, r, c);
        du += (actual(r, c) - u) * (actual(r, c) - u);
        de += (actual(r, c) - expected(r, c)) * (actual(r, c) - expected(r, c));
      }
    if (de > 0 && du < 0.25 * de) {
      heads.push_back(h);
      for (Eigen::Index r = h * pb.n; r < (h + 1) * pb.n; ++r) s.unrotated[static_cast<size_t>(r)] = 1;
    }
  }
  if (heads.empty() || static_cast<int>(heads.size()) == pb.heads) return;  // all heads: unrotated_rows says "all"
  add(CheckCause::UnrotatedHeads, s, {{"heads", heads}},
      "heads " + list_text(heads) + " are left unrotated (the input as it was); the other heads rotate",
      "apply RoPE to every head (broadcast cos / sin over the head axis, not just head 0)");
}

}  // namespace posenc::rope_check_detail
