#include "core/attention/score_kernels.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "core/encodings/deberta.h"
#include "core/attention/attention_checks.h"
#include "core/bounds.h"
#include "core/encodings/relative_bias.h"
#include "core/encodings/rope.h"
#include "core/encodings/shaw.h"
#include "core/encodings/sinusoidal.h"
#include "core/encodings/t5.h"

// The orchestration here runs once per job (validation, per-delta tables, per-row calls into kernels.cpp,
// where the per-cell loops are): compiled for size in this -O3 file, as the page weight asks.
#if defined(__clang__)
#define POSENC_ONCE_PER_JOB __attribute__((minsize))
#else
#define POSENC_ONCE_PER_JOB
#endif

namespace posenc::kernels {
namespace {

using detail::attention_rope_frequencies;
using detail::check_positions;
using detail::check_work;
using detail::in_position;

// The relative positions delta = kpos[j] - qpos[i] as a dense range [min, min + count): at most 4 * 10^6 + 1
// values (positions lie in [-10^6, 10^6]); the views' contiguous positions give n + m - 1.
struct DeltaRange {
  int64_t min = 0, count = 0;
};
DeltaRange delta_range_of(std::span<const int64_t> qpos, std::span<const int64_t> kpos) {
  const auto [lo, hi] = delta_range(qpos, kpos);
  return {lo, hi - lo + 1};
}

MatrixF to_f(const Matrix& m) { return m.cast<float>(); }

struct Scorer {
  const MatrixF& q;
  const MatrixF& k;
  std::span<const int64_t> qpos, kpos;
  float scale;
  Path path;
  AttentionF& out;
  std::span<const int> extent;  // empty, or per query row the keys it sees (the rest are masked, not computed)
  int n = static_cast<int>(q.rows()), m = static_cast<int>(k.rows()), d = static_cast<int>(q.cols());
  const int* ext = extent.empty() ? nullptr : extent.data();
  DeltaRange dr = delta_range_of(qpos, kpos);
  std::vector<int64_t> deltas = occurring_deltas();

  // The relative positions to evaluate per-delta quantities at: the whole range when it is small
  // (contiguous positions: n + m - 1), else only those that occur (positions far apart would make the
  // range up to 4 * 10^6 while n m is small).
  POSENC_ONCE_PER_JOB std::vector<int64_t> occurring_deltas() const {
    std::vector<int64_t> found;
    if (dr.count <= 2 * (int64_t{n} + m)) {
      for (int64_t t = 0; t < dr.count; ++t) found.push_back(dr.min + t);
      return found;
    }
    std::vector<char> seen(static_cast<std::size_t>(dr.count), 0);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j) seen[static_cast<std::size_t>(kpos[j] - qpos[i] - dr.min)] = 1;
    for (int64_t t = 0; t < dr.count; ++t)
      if (seen[t]) found.push_back(dr.min + t);
    return found;
  }

  // by_delta / index_by_delta over the dense range, evaluated at the occurring deltas (others never read).
  template <class T, class F>
  std::vector<T> per_delta(F&& f) const {
    std::vector<T> v(static_cast<std::size_t>(dr.count), T{});
    for (int64_t delta : deltas) v[static_cast<std::size_t>(delta - dr.min)] = static_cast<T>(f(delta));
    return v;
  }

  POSENC_ONCE_PER_JOB void content(const char* name) { out.terms.push_back({name, logits(q, k, scale, path, extent)}); }

  // A term with one value per relative position: rows of the n x m matrix are filled from by_delta.
  POSENC_ONCE_PER_JOB void relative_term(const char* name, const std::vector<float>& by_delta) {
    MatrixF t(n, m);
    fill_relative(t.data(), n, m, qpos.data(), kpos.data(), by_delta.data(), dr.min, false, path, ext);
    out.terms.push_back({name, std::move(t)});
  }

  // C[i][j] = G[i or j][index_by_delta[delta]].
  POSENC_ONCE_PER_JOB MatrixF gathered(const MatrixF& G, bool rows_by_query, const std::vector<int32_t>& index_by_delta) const {
    MatrixF t(n, m);
    gather_relative(t.data(), n, m, G.data(), static_cast<int>(G.cols()), rows_by_query, qpos.data(), kpos.data(),
                    index_by_delta.data(), dr.min, ext);
    return t;
  }

  POSENC_ONCE_PER_JOB void operator()(const NoPosition&) { content("content"); }

  POSENC_ONCE_PER_JOB void operator()(const RopePosition& p) {
    // M-RoPE rotates 1-D positions exactly when the t, h and w rows all equal them (text tokens); other
    // rows (image / video tokens) are the double core's (attention()).
    if (!p.mrope_axes.empty()) {
      auto text_rows = [](const MropePositions& rows, std::span<const int64_t> pos) {
        for (const auto& r : rows)
          if (!std::equal(r.begin(), r.end(), pos.begin(), pos.end())) return false;
        return true;
      };
      require(text_rows(p.query_mrope, qpos) && text_rows(p.key_mrope, kpos), "position.mrope_section",
              "the float scores rotate M-RoPE only with t = h = w positions (text tokens)");
    }
    const RopeFrequencies f = attention_rope_frequencies(p, d, qpos, kpos);
    out.terms.push_back({"content (rotated)", rope_logits(q, k, qpos, kpos, f, p.layout, scale, path, extent)});
  }

  POSENC_ONCE_PER_JOB void operator()(const T5Position& p) {
    in_position([&] {
      validate_t5_buckets(p.bidirectional, p.num_buckets, p.max_distance);
      require(static_cast<int64_t>(p.bias.size()) == p.num_buckets, "bias", "bias must have num_buckets entries");
      return 0;
    });
    content("content");
    relative_term("bias", per_delta<float>([&](int64_t delta) {
                    return p.bias[t5_bucket(delta, p.bidirectional, p.num_buckets, p.max_distance)];
                  }));
  }

  POSENC_ONCE_PER_JOB void operator()(const AlibiPosition& p) {
    require(std::isfinite(p.slope), "position.slope", "position.slope must be finite");
    content("content");
    relative_term("bias", per_delta<float>([&](int64_t delta) { return -p.slope * static_cast<double>(std::abs(delta)); }));
  }

  POSENC_ONCE_PER_JOB void operator()(const LearnedBiasPosition& p) {
    require(p.table.rows() % 2 == 1, "position.table", "position.table must have 2 * max + 1 rows");
    require(p.head >= 0 && p.head < p.table.cols(), "position.head", "position.head out of range");
    content("content");
    const int64_t max = (p.table.rows() - 1) / 2;
    relative_term("bias", per_delta<float>([&](int64_t delta) { return p.table(relative_bias_index(0, delta, max), p.head); }));
  }

  POSENC_ONCE_PER_JOB void operator()(const ShawPosition& p) {
    const int64_t K = p.max_relative_position;
    detail::check_shaw(p, n, d);
    content("content");
    const MatrixF qa = logits(q, to_f(p.key_table), scale, path);  // n x (2K+1), scale folded in
    const auto index = per_delta<int32_t>([&](int64_t delta) { return shaw_index(0, delta, K); });
    out.terms.push_back({"content-position (a^K)", gathered(qa, true, index)});
  }

  POSENC_ONCE_PER_JOB void operator()(const DebertaPosition& p) {
    const int64_t s = detail::check_deberta(p, n, m, d);
    content("content-content");
    const MatrixF c2p_all = logits(q, to_f(p.pos_key), scale, path);    // n x 2s
    const MatrixF p2c_all = logits(k, to_f(p.pos_query), scale, path);  // m x 2s
    // delta = key - query; DeBERTa's relative position is query - key, log-bucketed, then a table row.
    const auto index = per_delta<int32_t>([&](int64_t delta) {
      return std::clamp<int64_t>(deberta_relative_position(0, delta, p.bucket_size, p.max_position) + s, 0, 2 * s - 1);
    });
    out.terms.push_back({"content-position (c2p)", gathered(c2p_all, true, index)});
    out.terms.push_back({"position-content (p2c)", gathered(p2c_all, false, index)});
  }

  POSENC_ONCE_PER_JOB void operator()(const XlPosition& p) {
    check_work(int64_t{n} * d * d, "position.r_proj");
    require(d % 2 == 0, "q", "Transformer-XL needs an even width d (sinusoidal R)");
    require(p.u.size() == d, "position.u", "position.u must have d entries");
    require(p.v.size() == d, "position.v", "position.v must have d entries");
    require(p.r_proj.rows() == d && p.r_proj.cols() == d, "position.r_proj", "position.r_proj must be d x d");
    const std::vector<double> w = in_position([&] { return sinusoidal_frequencies(d, p.base); });
    // One R row per occurring relative position (XL's i - j is -delta).
    std::vector<int32_t> index(static_cast<std::size_t>(dr.count), 0);
    std::vector<int64_t> xl_pos;
    for (int64_t delta : deltas) {
      index[static_cast<std::size_t>(delta - dr.min)] = static_cast<int32_t>(xl_pos.size());
      xl_pos.push_back(-delta);
    }
    const MatrixF R = pe_table(xl_pos, w, path);  // rows x d, interleaved sin / cos as transformer_xl_terms
    const MatrixF rp = to_f(p.r_proj);
    out.terms.push_back({"(a) content-content q.k", logits(q, k, scale, path, extent)});
    // (b) q_i . W_R R_(i-j) = (q_i W_R) . R_(i-j), R_t = (sin t w_p, cos t w_p)_p. By the angle-difference
    // identities sin((a-b)w) = sin aw cos bw - cos aw sin bw, cos((a-b)w) = cos aw cos bw + sin aw sin bw,
    // it is one n x m GEMM of the projected queries turned by their own angles (A) against the keys'
    // (cos, sin) (B): no GEMM against all n + m - 1 rows of R and no gather by relative position.
    const MatrixF G = matmul(q, rp, 1.0f, path);  // n x d
    const int h = static_cast<int>(w.size());
    MatrixF sq(n, h), cq(n, h), sk(m, h), ck(m, h);
    sin_cos_table(qpos.data(), n, w.data(), h, 1.0, sq.data(), cq.data(), path);
    sin_cos_table(kpos.data(), m, w.data(), h, 1.0, sk.data(), ck.data(), path);
    MatrixF A(n, 2 * h), B(m, 2 * h);
    for (int i = 0; i < n; ++i)
      for (int t = 0; t < h; ++t) {
        const float g_sin = G(i, 2 * t), g_cos = G(i, 2 * t + 1);
        A(i, 2 * t) = g_sin * sq(i, t) + g_cos * cq(i, t);
        A(i, 2 * t + 1) = g_cos * sq(i, t) - g_sin * cq(i, t);
      }
    for (int j = 0; j < m; ++j)
      for (int t = 0; t < h; ++t) B(j, 2 * t) = ck(j, t), B(j, 2 * t + 1) = sk(j, t);
    out.terms.push_back({"(b) content-position q.W_R R", logits(A, B, scale, path, extent)});
    // (c) u . k_j: the same row for every query.
    const MatrixF uk = matmul(k, to_f(p.u), scale, path);  // m x 1
    MatrixF c(n, m);
    for (int i = 0; i < n; ++i) {
      const int e = ext ? std::min(m, ext[i]) : m;
      std::copy(uk.data(), uk.data() + e, c.data() + static_cast<std::size_t>(i) * m);
    }
    out.terms.push_back({"(c) global content bias u.k", std::move(c)});
    // (d) v . W_R R_(i-j): one value per relative position.
    const MatrixF vw = to_f(p.r_proj.transpose() * p.v);  // d x 1
    const MatrixF rv = matmul(R, vw, scale, path);        // rows x 1
    relative_term("(d) global position bias v.W_R R",
                  per_delta<float>([&](int64_t delta) { return rv(index[static_cast<std::size_t>(delta - dr.min)], 0); }));
  }
};

// Sum of the terms, causal mask, softmax: the common tail of both score jobs. The sum and the overflow
// check are one pass over the terms, the softmax reads the logits into the weights (no copies). With row
// extents (the causal mask's visible keys per query) only those cells are summed and soft-maxed, and every
// cell past them, in the terms, the logits and the weights, is set to masked_fill.
void finish(AttentionF& out, std::span<const int64_t> qpos, std::span<const int64_t> kpos, bool causal, Path path,
            const char* overflow_field, std::span<const int> extent = {}, float masked_fill = 0) {
  const MatrixF& first = out.terms.front().values;
  const int rows = static_cast<int>(first.rows()), cols = static_cast<int>(first.cols());
  std::vector<const float*> src;
  for (const TermF& t : out.terms) src.push_back(t.values.data());
  out.logits.resize(rows, cols);
  // Whole matrix in one pass, or row by row over each row's extent.
  const int rows_per_pass = extent.empty() ? rows : 1;
  bool finite = true;
  std::vector<const float*> row_src(src.size());
  for (int i = 0; i < rows; i += rows_per_pass) {
    const std::size_t at = static_cast<std::size_t>(i) * cols;
    const std::size_t count =
        extent.empty() ? static_cast<std::size_t>(first.size()) : static_cast<std::size_t>(std::clamp(extent[i], 0, cols));
    for (std::size_t t = 0; t < src.size(); ++t) row_src[t] = src[t] + at;
    finite = sum_finite(out.logits.data() + at, row_src.data(), static_cast<int>(row_src.size()), count, path) && finite;
  }
  require(finite, overflow_field, "the logits overflow float precision: inputs too large");
  if (causal && extent.empty()) mask_causal(out.logits.data(), rows, cols, qpos.data(), kpos.data());
  out.weights = softmax(out.logits, path, extent);
  if (extent.empty()) return;
  std::vector<MatrixF*> filled{&out.logits, &out.weights};
  for (TermF& t : out.terms) filled.push_back(&t.values);
  for (MatrixF* x : filled)
    for (int i = 0; i < rows; ++i) {
      float* row = x->data() + static_cast<std::size_t>(i) * cols;
      std::fill(row + std::clamp(extent[i], 0, cols), row + cols, masked_fill);
    }
}

// Per query, the keys the causal mask lets it see (key positions in increasing order: a prefix).
POSENC_ONCE_PER_JOB std::vector<int> causal_extent(std::span<const int64_t> qpos, std::span<const int64_t> kpos) {
  require(std::is_sorted(kpos.begin(), kpos.end()), "key_positions", "masked_fill needs key positions in increasing order");
  std::vector<int> e(qpos.size());
  for (std::size_t i = 0; i < qpos.size(); ++i)
    e[i] = static_cast<int>(std::upper_bound(kpos.begin(), kpos.end(), qpos[i]) - kpos.begin());
  return e;
}

}  // namespace

POSENC_ONCE_PER_JOB AttentionF attention_f(const MatrixF& q, const MatrixF& k, std::span<const int64_t> qpos,
                                           std::span<const int64_t> kpos, const AttentionSpec& spec, Path path,
                                           const LayerMask& mask, std::optional<float> masked_fill) {
  const Eigen::Index n = q.rows(), m = k.rows(), d = q.cols();
  require(n >= 1, "q", "q must have at least one row");
  require(d >= 1 && d <= kMaxDim, "q", "q rows must have between 1 and 4096 columns");
  require(int64_t{n} * d <= kMaxCells, "q", "q exceeds 2^24 entries");
  require(m >= 1, "k", "k must have at least one row");
  require(k.cols() == d, "k", "k must have as many columns as q");
  require(int64_t{m} * d <= kMaxCells, "k", "k exceeds 2^24 entries");
  require(int64_t{n} * m <= kMaxCells, "k", "n * m exceeds 2^24 logits");
  check_work(int64_t{n} * m * d, "k");
  check_positions(qpos, n, "query_positions", "q");
  check_positions(kpos, m, "key_positions", "k");
  require(q.allFinite(), "q", "q must be finite");
  require(k.allFinite(), "k", "k must be finite");
  if (spec.scale) require(std::isfinite(*spec.scale), "position.scale", "position.scale must be finite");
  check_layer_mask(mask, "mask.window", "mask.sink");
  require(!masked_fill || !mask.active(), "mask", "masked_fill applies to the causal mask alone, not to a layer mask");

  AttentionF out;
  out.scale = spec.scale.value_or(default_attention_scale(spec.position, d));
  const std::vector<int> extent = masked_fill && spec.causal ? causal_extent(qpos, kpos) : std::vector<int>{};
  std::visit(Scorer{q, k, qpos, kpos, static_cast<float>(out.scale), path, out, extent}, spec.position);
  finish(out, qpos, kpos, spec.causal, path, "q", extent, masked_fill.value_or(0.0f));
  if (mask.active()) {  // sliding / chunked / sink: a step over the finished scores (layer_mask.h)
    apply_layer_mask(out.logits, qpos, kpos, mask, spec.causal);
    out.weights = softmax_rows_with_sink(out.logits, mask.sink);
  }
  return out;
}

POSENC_ONCE_PER_JOB AttentionF absolute_attention_f(const MatrixF& x, const MatrixF& pe, const MatrixF& wq, const MatrixF& wk,
                                                    double scale, bool causal, Path path, std::optional<float> masked_fill) {
  const Eigen::Index n = x.rows(), d = x.cols();
  require(n >= 1 && d >= 1 && d <= kMaxDim, "x", "x must be n x d with n >= 1 and d in [1, 4096]");
  require(int64_t{n} * n <= kMaxCells, "x", "n * n exceeds 2^24 logits");
  require(pe.rows() == n && pe.cols() == d, "pe", "pe must have the shape of x");
  require(wq.rows() == d && wq.cols() >= 1, "wq", "wq must have d rows");
  require(wk.rows() == d && wk.cols() == wq.cols(), "wk", "wk must have the shape of wq");
  require(int64_t{n} * n * wq.cols() <= kMaxWork, "x", "the request exceeds the work limit (2^31 multiply-adds)");
  require(std::isfinite(scale), "scale", "scale must be finite");
  require(x.allFinite(), "x", "x must be finite");
  require(pe.allFinite(), "pe", "pe must be finite");

  const MatrixF qx = matmul(x, wq, 1.0f, path), kx = matmul(x, wk, 1.0f, path);
  const MatrixF qp = matmul(pe, wq, 1.0f, path), kp = matmul(pe, wk, 1.0f, path);
  const float s = static_cast<float>(scale);
  std::vector<int64_t> pos(static_cast<std::size_t>(n));
  std::iota(pos.begin(), pos.end(), int64_t{0});
  const std::vector<int> extent = masked_fill && causal ? causal_extent(pos, pos) : std::vector<int>{};
  AttentionF out;
  out.scale = scale;
  out.terms.push_back({"content-content x_i W_Q . x_j W_K", logits(qx, kx, s, path, extent)});
  out.terms.push_back({"content-position x_i W_Q . p_j W_K", logits(qx, kp, s, path, extent)});
  out.terms.push_back({"position-content p_i W_Q . x_j W_K", logits(qp, kx, s, path, extent)});
  out.terms.push_back({"position-position p_i W_Q . p_j W_K", logits(qp, kp, s, path, extent)});
  finish(out, pos, pos, causal, path, "x", extent, masked_fill.value_or(0.0f));
  return out;
}

MatrixF pe_table(std::span<const int64_t> positions, std::span<const double> w, Path path) {
  const int n = static_cast<int>(positions.size()), h = static_cast<int>(w.size());
  MatrixF s(n, h), c(n, h);
  sin_cos_table(positions.data(), n, w.data(), h, 1.0, s.data(), c.data(), path);
  MatrixF P(n, 2 * h);
  for (int r = 0; r < n; ++r)
    for (int p = 0; p < h; ++p) P(r, 2 * p) = s(r, p), P(r, 2 * p + 1) = c(r, p);
  return P;
}

MatrixF gram(const MatrixF& P, Path path) { return logits(P, P, 1.0f, path); }

MatrixF relative_matrix(std::span<const double> by_offset, int n, Path path) {
  require(n >= 1 && int64_t{n} * n <= kMaxCells, "n", "n must be in [1, 4096]");
  require(static_cast<int64_t>(by_offset.size()) == 2 * int64_t{n} - 1, "by_offset", "by_offset must have 2n - 1 entries");
  std::vector<float> f(by_offset.begin(), by_offset.end());
  std::vector<int64_t> pos(static_cast<std::size_t>(n));
  std::iota(pos.begin(), pos.end(), int64_t{0});
  MatrixF M(n, n);
  fill_relative(M.data(), n, n, pos.data(), pos.data(), f.data(), -(int64_t{n} - 1), false, path);
  return M;
}

}  // namespace posenc::kernels
