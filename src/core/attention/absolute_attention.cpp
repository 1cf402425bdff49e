#include "core/attention/absolute_attention.h"

#include <cmath>
#include <numeric>
#include <vector>

#include "core/bounds.h"

namespace posenc {

AttentionResult absolute_attention(const Matrix& x, const Matrix& pe, const Matrix& wq, const Matrix& wk, const Matrix* wv,
                                   double scale, bool causal) {
  const Eigen::Index n = x.rows(), d = x.cols();
  const int64_t n64 = n;  // products in 64 bits: Eigen::Index is 32-bit on wasm32
  require(n >= 1 && d >= 1 && d <= kMaxDim, "x", "x must be n x d with n >= 1 and d in [1, 4096]");
  require(n64 * n64 <= kMaxCells, "x", "n * n exceeds 2^24 logits");
  require(pe.rows() == n && pe.cols() == d, "pe", "pe must have the shape of x");
  require(wq.rows() == d && wq.cols() >= 1, "wq", "wq must have d rows");
  require(wk.rows() == d && wk.cols() == wq.cols(), "wk", "wk must have the shape of wq");
  if (wv) require(wv->rows() == d && wv->cols() >= 1, "wv", "wv must have d rows");
  require(n64 * n64 * int64_t{wq.cols()} <= kMaxWork, "x", "the request exceeds the work limit (2^31 multiply-adds)");
  require(std::isfinite(scale), "scale", "scale must be finite");

  const Matrix qx = x * wq, kx = x * wk, qp = pe * wq, kp = pe * wk;
  AttentionResult out;
  out.scale = scale;
  out.terms.push_back({"content-content x_i W_Q . x_j W_K", scale * (qx * kx.transpose())});
  out.terms.push_back({"content-position x_i W_Q . p_j W_K", scale * (qx * kp.transpose())});
  out.terms.push_back({"position-content p_i W_Q . x_j W_K", scale * (qp * kx.transpose())});
  out.terms.push_back({"position-position p_i W_Q . p_j W_K", scale * (qp * kp.transpose())});
  out.logits = out.terms[0].values + out.terms[1].values + out.terms[2].values + out.terms[3].values;
  require(out.logits.allFinite(), "x", "the logits overflow double precision: inputs too large");
  if (causal) {
    std::vector<int64_t> pos(static_cast<size_t>(n));
    std::iota(pos.begin(), pos.end(), int64_t{0});
    apply_causal_mask(out.logits, pos, pos);
  }
  out.weights = softmax_rows(out.logits);
  if (wv) out.output = out.weights * ((x + pe) * *wv);
  return out;
}

}  // namespace posenc
