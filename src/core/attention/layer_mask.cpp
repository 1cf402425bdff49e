#include "core/attention/layer_mask.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace posenc {
namespace {

constexpr double kMaskedScore = -std::numeric_limits<double>::infinity();
constexpr int64_t kMaxWindow = int64_t{1} << 31;

// floor(a / b) for b > 0 (Python's //, which the reference uses; positions may be negative).
int64_t floor_div(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

template <class M>
void mask_cells(M& logits, std::span<const int64_t> qpos, std::span<const int64_t> kpos, const LayerMask& mask, bool causal) {
  if (mask.kind == MaskKind::Full) return;
  using T = typename M::Scalar;
  const T neg = -std::numeric_limits<T>::infinity();
  for (Eigen::Index i = 0; i < logits.rows(); ++i)
    for (Eigen::Index j = 0; j < logits.cols(); ++j)
      if (!layer_mask_allows(mask, causal, qpos[i], kpos[j])) logits(i, j) = neg;
}

// One row: the weights into w (double), the sink's weight returned.
template <class Row>
double softmax_row(const Row& e, std::optional<double> sink, double* w) {
  const Eigen::Index m = e.size();
  double mx = sink.value_or(kMaskedScore);
  for (Eigen::Index j = 0; j < m; ++j)
    if (std::isfinite(double(e[j]))) mx = std::max(mx, double(e[j]));
  if (mx == kMaskedScore) {  // nothing to attend to and no sink: all 0 (softmax_rows' rule)
    std::fill(w, w + m, 0.0);
    return 0.0;
  }
  double z = 0;
  for (Eigen::Index j = 0; j < m; ++j) {
    w[j] = std::isfinite(double(e[j])) ? std::exp(double(e[j]) - mx) : 0.0;
    z += w[j];
  }
  const double s = sink ? std::exp(*sink - mx) : 0.0;
  z += s;
  for (Eigen::Index j = 0; j < m; ++j) w[j] /= z;
  return s / z;
}

}  // namespace

void check_layer_mask(const LayerMask& mask, const char* window_field, const char* sink_field) {
  if (mask.kind != MaskKind::Full)
    require(mask.window >= 1 && mask.window <= kMaxWindow, window_field,
            std::string(window_field) + " must be an integer in [1, 2^31] (a " +
                (mask.kind == MaskKind::Sliding ? "sliding window" : "chunk size") + ")");
  if (mask.sink) require(std::isfinite(*mask.sink), sink_field, std::string(sink_field) + " must be a finite number");
}

bool layer_mask_allows(const LayerMask& mask, bool causal, int64_t qp, int64_t kp) {
  if (causal && kp > qp) return false;
  switch (mask.kind) {
    case MaskKind::Full: return true;
    case MaskKind::Sliding: return causal ? qp - kp < mask.window : std::abs(qp - kp) <= mask.window;
    case MaskKind::Chunked: return floor_div(kp, mask.window) == floor_div(qp, mask.window);
  }
  return true;
}

void apply_layer_mask(Matrix& logits, std::span<const int64_t> qpos, std::span<const int64_t> kpos, const LayerMask& mask,
                      bool causal) {
  mask_cells(logits, qpos, kpos, mask, causal);
}

void apply_layer_mask(MatrixF& logits, std::span<const int64_t> qpos, std::span<const int64_t> kpos, const LayerMask& mask,
                      bool causal) {
  mask_cells(logits, qpos, kpos, mask, causal);
}

Matrix softmax_rows_with_sink(const Matrix& logits, std::optional<double> sink, Vector* sink_weight) {
  Matrix w(logits.rows(), logits.cols());
  if (sink_weight) sink_weight->resize(logits.rows());
  std::vector<double> row(static_cast<std::size_t>(logits.cols()));
  for (Eigen::Index i = 0; i < logits.rows(); ++i) {
    const double s = softmax_row(logits.row(i), sink, row.data());
    for (Eigen::Index j = 0; j < logits.cols(); ++j) w(i, j) = row[static_cast<std::size_t>(j)];
    if (sink_weight) (*sink_weight)[i] = s;
  }
  return w;
}

MatrixF softmax_rows_with_sink(const MatrixF& logits, std::optional<double> sink, std::vector<float>* sink_weight) {
  MatrixF w(logits.rows(), logits.cols());
  if (sink_weight) sink_weight->assign(static_cast<std::size_t>(logits.rows()), 0.0f);
  std::vector<double> row(static_cast<std::size_t>(logits.cols()));
  for (Eigen::Index i = 0; i < logits.rows(); ++i) {
    const double s = softmax_row(logits.row(i), sink, row.data());
    for (Eigen::Index j = 0; j < logits.cols(); ++j) w(i, j) = static_cast<float>(row[static_cast<std::size_t>(j)]);
    if (sink_weight) (*sink_weight)[static_cast<std::size_t>(i)] = static_cast<float>(s);
  }
  return w;
}

}  // namespace posenc
