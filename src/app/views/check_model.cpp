#include "app/views/check_model.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/encodings/rope.h"
#include "core/half_float.h"
#include "core/position_list.h"
#include "core/rng.h"
#include "model_io/check_json.h"
#include "model_io/check_request.h"

namespace posenc::app {
namespace {

Matrix normal_matrix(int rows, int cols, uint64_t seed) {
  NormalRng rng(seed);
  Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = rng.normal();
  return m;
}

// The built-in example: this reference's own tensor with one thing done wrong, the way a public bug report
// did it (inv_freq in bfloat16, transformers #29285; otherwise the pair layout swapped, transformers #25199).
RopeCheckInput example_input(const RopeCheckReference& ref, CheckKind kind, std::vector<int64_t> positions, std::string& words) {
  RopeCheckInput in;
  in.kind = kind;
  const int dim = ref.dim, rotary = ref.rotary_dim ? ref.rotary_dim : ref.dim;
  if (positions.empty() && kind != CheckKind::InvFreq)
    for (int p = 0; p < kCheckExampleRows; ++p) positions.push_back(p);
  const int n = static_cast<int>(positions.size());
  in.positions = std::move(positions);
  if (kind == CheckKind::Rotated) in.x = normal_matrix(n, dim, 1);
  if (kind == CheckKind::Logits) in.q = normal_matrix(n, dim, 2), in.k = normal_matrix(n, dim, 3);
  switch (kind) {
    case CheckKind::InvFreq: in.actual = Matrix::Zero(1, rotary / 2); break;
    case CheckKind::Cos:
    case CheckKind::Sin: in.actual = Matrix::Zero(n, rotary); break;
    case CheckKind::Rotated: in.actual = Matrix::Zero(n, dim); break;
    case CheckKind::Logits: in.actual = Matrix::Zero(n, n); break;
  }
  if (kind == CheckKind::InvFreq) {
    in.actual = rope_check_expected(ref, in).unaryExpr([](double v) { return round_bf16(v); });
    words =
        "Example (built in): this reference's inv_freq rounded to bfloat16, as a model cast to bf16 "
        "computes it (transformers #29285).";
    return in;
  }
  RopeCheckReference swapped = ref;
  swapped.layout = ref.layout == RopeLayout::Half ? RopeLayout::Interleaved : RopeLayout::Half;
  in.actual = rope_check_expected(swapped, in);
  words = std::string("Example (built in): this reference's ") + check_kind_name(kind) + " at " + std::to_string(n) +
          " positions computed with the " + rope_layout_name(swapped.layout) + " pair layout instead of " +
          rope_layout_name(ref.layout) + " (transformers #25199)" +
          (kind == CheckKind::Rotated || kind == CheckKind::Logits ? ", inputs from a fixed seed" : "") +
          ". Paste your tensor in Tensor, or drop a .npy / text file on the page.";
  return in;
}

// The user's request, read by posenc eval's reader: texts as the request's strings, a dropped file as its
// "actual". A blank tensor field is named before the reader sees it.
model_io::CheckRequest user_request(const RopeCheckReference& ref, CheckKind kind, CheckSource source, const CheckTexts& t,
                                    const CheckFile& file) {
  auto blank = [](const std::string& s) { return s.find_first_not_of(" \t\r\n;") == std::string::npos; };
  nlohmann::json req = {{"op", "check"}, {"reference", model_io::check_reference_json(ref)}, {"kind", check_kind_name(kind)}};
  model_io::CheckTensor dropped;
  if (source == CheckSource::File) {
    if (!file.error.empty()) throw InvalidArgument("actual", "the dropped file: " + file.error);
    if (file.m.size() == 0)
      throw InvalidArgument("source", "no file: drop a .npy or text file on the page (a link does not carry it)");
    dropped = {file.m, file.heads};
  } else {
    if (blank(t.tensor)) throw InvalidArgument("actual", "paste the tensor: rows of numbers, one row per position");
    req["actual"] = t.tensor;
  }
  const auto rows_given = source == CheckSource::File ? dropped.m.rows() / std::max(1, dropped.heads) : 0;
  if (kind == CheckKind::Rotated) {
    if (blank(t.x)) throw InvalidArgument("x", "paste x, the n x dim rows that were rotated");
    req["x"] = t.x;
  }
  if (kind == CheckKind::Logits) {
    if (blank(t.q)) throw InvalidArgument("q", "paste q, n x dim");
    if (blank(t.k)) throw InvalidArgument("k", "paste k, n x dim");
    req["q"] = t.q;
    req["k"] = t.k;
  }
  if (!blank(t.positions)) req["positions"] = t.positions;
  if (t.tol_abs > 0 || t.tol_rel > 0) req["tolerance"] = {{"abs", t.tol_abs}, {"rel", t.tol_rel}};
  if (blank(t.positions) && kind != CheckKind::InvFreq) {
    // No positions: 0 .. n-1 for the tensor's n rows (transformers' arange), as posenc check does.
    Eigen::Index n = rows_given;
    if (source != CheckSource::File) {
      const model_io::CheckTensor a = model_io::read_check_tensor(req["actual"], "actual");
      n = a.m.rows() / std::max(1, a.heads);
    }
    req["positions"] = "0:" + std::to_string(n);
  }
  return model_io::read_check_request(req, source == CheckSource::File ? &dropped : nullptr);
}

void make_pictures(CheckComputation& c, CheckKind kind, int64_t trained_length) {
  CheckPictures& p = c.pictures;
  const RopeCheckResult& r = c.result;
  const bool logits = kind == CheckKind::Logits;
  const Matrix err = (r.actual - r.expected).cwiseAbs();
  p.error_pp = check_per_pair(r, c.ref, logits, err, &p.error_col);
  for (int col : r.column_pair) p.has_pass = p.has_pass || (col < 0 && !logits);
  p.has_residual = !r.diagnosis.empty() && r.diagnosis.front().predicted.size() == r.expected.size();
  p.residual_pp =
      p.has_residual ? check_per_pair(r, c.ref, logits, (r.actual - r.diagnosis.front().predicted).cwiseAbs()) : Matrix();
  p.vmax = std::max(static_cast<float>(p.error_pp.size() ? p.error_pp.maxCoeff() : 0.0), 1e-30f);  // a match: a non-empty range
  // Per pair (logits: per query row): the largest error, residual and tolerance.
  const int groups = static_cast<int>(logits ? p.error_pp.rows() : p.error_pp.cols());
  p.pair_error.assign(static_cast<size_t>(groups), 0.0);
  p.pair_residual.assign(p.has_residual ? static_cast<size_t>(groups) : 0, 0.0);
  p.pair_tolerance.assign(static_cast<size_t>(groups), 0.0);
  for (int g = 0; g < groups; ++g) {
    p.pair_error[size_t(g)] = logits ? p.error_pp.row(g).maxCoeff() : p.error_pp.col(g).maxCoeff();
    if (p.has_residual) p.pair_residual[size_t(g)] = logits ? p.residual_pp.row(g).maxCoeff() : p.residual_pp.col(g).maxCoeff();
  }
  for (Eigen::Index row = 0; row < r.tolerance.rows(); ++row)
    for (Eigen::Index col = 0; col < r.tolerance.cols(); ++col) {
      int g = logits ? static_cast<int>(row) : r.column_pair[size_t(col)];
      if (!logits && g < 0) g = groups - 1;  // the pass-through column
      if (g >= 0 && g < groups) p.pair_tolerance[size_t(g)] = std::max(p.pair_tolerance[size_t(g)], r.tolerance(row, col));
    }
  // Pair classes: the core's rule (the Model and RoPE views', posenc inspect's) on this reference, at the
  // longest position checked.
  p.classes.clear();
  if (logits) return;
  const int rotary = c.ref.rotary_dim ? c.ref.rotary_dim : c.ref.dim;
  const RopeFrequencies scaled =
      rope_frequencies(rotary, c.ref.base, with_seq_len_from_positions(c.ref.scaling, c.input.positions));
  const std::vector<double> plain = rope_unscaled_inv_freq(rotary, c.ref.base, c.ref.scaling);
  int64_t at = 1;
  for (int64_t pos : c.input.positions) at = std::max(at, pos + 1);
  for (size_t k = 0; k < plain.size() && k < scaled.inv_freq.size(); ++k)
    p.classes.push_back(pair_behaviour(plain[k], scaled.inv_freq[k], std::max<int64_t>(1, trained_length), at));
}

}  // namespace

Matrix check_per_pair(const RopeCheckResult& r, const RopeCheckReference& ref, bool logits, const Matrix& err,
                      std::vector<int>* argmax) {
  if (logits) return err;
  const int pairs = (ref.rotary_dim ? ref.rotary_dim : ref.dim) / 2;
  bool pass = false;
  for (int p : r.column_pair) pass = pass || p < 0;
  Matrix out = Matrix::Zero(err.rows(), pairs + (pass ? 1 : 0));
  std::vector<int> col(size_t(out.size()), 0);
  for (Eigen::Index row = 0; row < err.rows(); ++row)
    for (Eigen::Index c = 0; c < err.cols(); ++c) {
      const int p = r.column_pair[size_t(c)];
      const Eigen::Index g = p < 0 ? pairs : p;
      if (err(row, c) > out(row, g) || c == 0) {
        out(row, g) = std::max(out(row, g), err(row, c));
        col[size_t(row * out.cols() + g)] = int(c);
      }
    }
  if (argmax) *argmax = std::move(col);
  return out;
}

CheckComputation compute_check(const RopeCheckReference& reference, CheckKind kind, CheckSource source, const CheckTexts& texts,
                               const CheckFile& file, int64_t trained_length) {
  CheckComputation c;
  if (source == CheckSource::Example) {
    // The reference through the request reader (its checks and field names), the example built from it.
    c.ref = model_io::read_check_reference(model_io::check_reference_json(reference));
    c.input = example_input(c.ref, kind, parse_position_list(texts.positions, "positions"), c.example_words);
    if (texts.tol_abs > 0 || texts.tol_rel > 0) c.input.tolerance = RopeCheckTolerance{texts.tol_abs, texts.tol_rel};
  } else {
    model_io::CheckRequest req = user_request(reference, kind, source, texts, file);
    c.ref = std::move(req.reference);
    c.input = std::move(req.input);
  }
  c.result = rope_check(c.ref, c.input);
  make_pictures(c, kind, trained_length);
  return c;
}

}  // namespace posenc::app
