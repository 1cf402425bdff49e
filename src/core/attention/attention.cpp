#include "core/attention/attention.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/encodings/alibi.h"
#include "core/encodings/deberta.h"
#include "core/attention/attention_checks.h"
#include "core/bounds.h"
#include "core/encodings/relative_bias.h"
#include "core/encodings/shaw.h"
#include "core/encodings/t5.h"
#include "core/encodings/transformer_xl.h"

namespace posenc {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

using detail::attention_rope_frequencies;
using detail::check_positions;
using detail::check_work;
using detail::in_position;

struct Visitor {
  const Matrix& q;
  const Matrix& k;
  std::span<const int64_t> qpos, kpos;
  double scale;
  AttentionResult& out;
  Eigen::Index n = q.rows(), m = k.rows(), d = q.cols();

  void content(const char* name) { out.terms.push_back({name, scale * (q * k.transpose())}); }

  void operator()(const NoPosition&) { content("content"); }

  void operator()(const RopePosition& p) {
    const RopeFrequencies f = attention_rope_frequencies(p, d, qpos, kpos);
    const bool mrope = !p.mrope_axes.empty();
    if (mrope)
      require(static_cast<int>(p.mrope_axes.size()) * 2 == static_cast<int>(f.inv_freq.size()) * 2, "position.mrope_section",
              "position.mrope_section must cover the rotary pairs");
    const Matrix qr = mrope ? rope_apply_mrope(q, p.query_mrope, f, p.layout, p.mrope_axes) : rope_apply(q, qpos, f, p.layout);
    const Matrix kr = mrope ? rope_apply_mrope(k, p.key_mrope, f, p.layout, p.mrope_axes) : rope_apply(k, kpos, f, p.layout);
    out.terms.push_back({"content (rotated)", scale * (qr * kr.transpose())});
  }

  void operator()(const T5Position& p) {
    content("content");
    out.terms.push_back({"bias", in_position([&] {
                           return t5_bias_matrix(qpos, kpos, p.bidirectional, p.num_buckets, p.max_distance, p.bias);
                         })});
  }

  void operator()(const AlibiPosition& p) {
    require(std::isfinite(p.slope), "position.slope", "position.slope must be finite");
    content("content");
    out.terms.push_back({"bias", alibi_bias(qpos, kpos, p.slope)});
  }

  void operator()(const ShawPosition& p) {
    const int64_t K = p.max_relative_position;
    detail::check_shaw(p, n, d);
    content("content");
    const Matrix qa = q * p.key_table.transpose();  // n x (2K+1)
    Matrix t(n, m);
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = 0; j < m; ++j) t(i, j) = scale * qa(i, shaw_index(qpos[i], kpos[j], K));
    out.terms.push_back({"content-position (a^K)", std::move(t)});
  }

  void operator()(const DebertaPosition& p) {
    const int64_t s = detail::check_deberta(p, n, m, d);
    content("content-content");
    const Matrix c2p_all = q * p.pos_key.transpose();  // n x 2s
    // p2c needs one entry of k pos_query^T per (query, key): for fewer query rows than relative positions
    // (a readout's single row) those n m dot products cost less than the m x 2s product.
    const bool per_entry = n < 2 * s;
    const Matrix p2c_all = per_entry ? Matrix() : Matrix(k * p.pos_query.transpose());  // m x 2s
    Matrix c2p(n, m), p2c(n, m);
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = 0; j < m; ++j) {
        const int64_t delta = deberta_relative_position(qpos[i], kpos[j], p.bucket_size, p.max_position);
        const int64_t c = std::clamp<int64_t>(delta + s, 0, 2 * s - 1);
        c2p(i, j) = scale * c2p_all(i, c);
        p2c(i, j) = scale * (per_entry ? k.row(j).dot(p.pos_query.row(c)) : p2c_all(j, c));
      }
    out.terms.push_back({"content-position (c2p)", std::move(c2p)});
    out.terms.push_back({"position-content (p2c)", std::move(p2c)});
  }

  void operator()(const XlPosition& p) {
    check_work(n * d * d, "position.r_proj");
    XlTerms t = in_position([&] { return transformer_xl_terms(q, k, qpos, kpos, p.u, p.v, p.r_proj, p.base); });
    out.terms.push_back({"(a) content-content q.k", scale * t.content_content});
    out.terms.push_back({"(b) content-position q.W_R R", scale * t.content_position});
    out.terms.push_back({"(c) global content bias u.k", scale * t.global_content});
    out.terms.push_back({"(d) global position bias v.W_R R", scale * t.global_position});
  }

  void operator()(const LearnedBiasPosition& p) {
    content("content");
    out.terms.push_back({"bias", in_position([&] { return relative_bias_matrix(p.table, p.head, qpos, kpos); })});
  }
};

// Shaw's value term: output_i += sum_j w_ij value_table[c_ij].
void add_shaw_values(const ShawPosition& p, std::span<const int64_t> qpos, std::span<const int64_t> kpos, const Matrix& weights,
                     Matrix& output) {
  const int64_t K = p.max_relative_position;
  Matrix wc = Matrix::Zero(weights.rows(), 2 * K + 1);
  for (Eigen::Index i = 0; i < weights.rows(); ++i)
    for (Eigen::Index j = 0; j < weights.cols(); ++j) wc(i, shaw_index(qpos[i], kpos[j], K)) += weights(i, j);
  output += wc * *p.value_table;
}

}  // namespace

double default_attention_scale(const PositionScheme& scheme, Eigen::Index d) {
  if (std::holds_alternative<T5Position>(scheme)) return 1.0;
  if (std::holds_alternative<DebertaPosition>(scheme)) return 1.0 / std::sqrt(3.0 * static_cast<double>(d));
  return 1.0 / std::sqrt(static_cast<double>(d));
}

void apply_causal_mask(Matrix& logits, std::span<const int64_t> qpos, std::span<const int64_t> kpos) {
  for (Eigen::Index i = 0; i < logits.rows(); ++i)
    for (Eigen::Index j = 0; j < logits.cols(); ++j)
      if (kpos[j] > qpos[i]) logits(i, j) = kNegInf;
}

Matrix softmax_rows(const Matrix& logits) {
  Matrix w = Matrix::Zero(logits.rows(), logits.cols());
  for (Eigen::Index i = 0; i < logits.rows(); ++i) {
    double mx = kNegInf;
    for (Eigen::Index j = 0; j < logits.cols(); ++j)
      if (std::isfinite(logits(i, j))) mx = std::max(mx, logits(i, j));
    if (mx == kNegInf) continue;  // fully masked row: no key to attend to, all weights 0
    double sum = 0.0;
    for (Eigen::Index j = 0; j < logits.cols(); ++j)
      if (std::isfinite(logits(i, j))) sum += w(i, j) = std::exp(logits(i, j) - mx);
    w.row(i) /= sum;  // sum >= 1: the max entry contributes exp(0)
  }
  return w;
}

AttentionResult attention(const Matrix& q, const Matrix& k, const Matrix* v, std::span<const int64_t> qpos,
                          std::span<const int64_t> kpos, const AttentionSpec& spec, const LayerMask& mask) {
  const Eigen::Index n = q.rows(), m = k.rows(), d = q.cols();
  require(n >= 1, "q", "q must have at least one row");
  require(d >= 1 && d <= kMaxDim, "q", "q rows must have between 1 and 4096 columns");
  require(n * d <= kMaxCells, "q", "q exceeds 2^24 entries");
  require(m >= 1, "k", "k must have at least one row");
  require(k.cols() == d, "k", "k must have as many columns as q");
  require(m * d <= kMaxCells, "k", "k exceeds 2^24 entries");
  require(n * m <= kMaxCells, "k", "n * m exceeds 2^24 logits");
  check_work(n * m * d, "k");
  if (v) {
    require(v->rows() == m, "v", "v must have one row per key");
    require(v->cols() >= 1 && v->cols() <= kMaxDim, "v", "v rows must have between 1 and 4096 columns");
    require(m * v->cols() <= kMaxCells, "v", "v exceeds 2^24 entries");
    check_work(n * m * v->cols(), "v");
  }
  check_positions(qpos, n, "query_positions", "q");
  check_positions(kpos, m, "key_positions", "k");
  if (spec.scale) require(std::isfinite(*spec.scale), "position.scale", "position.scale must be finite");
  check_layer_mask(mask, "mask.window", "mask.sink");

  if (const auto* shaw = std::get_if<ShawPosition>(&spec.position); shaw && v) {
    require(shaw->value_table.has_value(), "position.value_table", "position.value_table is required when v is given");
    require(shaw->value_table->rows() == 2 * shaw->max_relative_position + 1 && shaw->value_table->cols() == v->cols(),
            "position.value_table", "position.value_table must be (2K+1) x dv");
  }

  AttentionResult out;
  out.scale = spec.scale.value_or(default_attention_scale(spec.position, d));
  std::visit(Visitor{q, k, qpos, kpos, out.scale, out}, spec.position);

  out.logits = out.terms.front().values;
  for (size_t t = 1; t < out.terms.size(); ++t) out.logits += out.terms[t].values;
  require(out.logits.allFinite(), "q", "the logits overflow double precision: inputs too large");
  if (spec.causal) apply_causal_mask(out.logits, qpos, kpos);
  apply_layer_mask(out.logits, qpos, kpos, mask, spec.causal);
  if (mask.sink) {
    Vector sink_weight;
    out.weights = softmax_rows_with_sink(out.logits, mask.sink, &sink_weight);
    out.sink_weight = std::move(sink_weight);
  } else {
    out.weights = softmax_rows(out.logits);
  }
  if (v) {
    out.output = out.weights * *v;
    if (const auto* shaw = std::get_if<ShawPosition>(&spec.position))
      add_shaw_values(*shaw, qpos, kpos, out.weights, *out.output);
    require(out.output->allFinite(), "v", "the output overflows double precision: inputs too large");
  }
  return out;
}

}  // namespace posenc
