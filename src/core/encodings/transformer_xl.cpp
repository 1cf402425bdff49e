#include "core/encodings/transformer_xl.h"

#include <unordered_map>
#include <vector>

#include "core/encodings/sinusoidal.h"

namespace posenc {

XlTerms transformer_xl_terms(const Matrix& q, const Matrix& k, std::span<const int64_t> qpos, std::span<const int64_t> kpos,
                             const Vector& u, const Vector& v, const Matrix& r_proj, double base) {
  const Eigen::Index d = q.cols(), n = q.rows(), m = k.rows();
  require(k.cols() == d, "k", "k must have as many columns as q");
  require(d % 2 == 0, "q", "Transformer-XL needs an even width d (sinusoidal R)");
  require(u.size() == d, "position.u", "position.u must have d entries");
  require(v.size() == d, "position.v", "position.v must have d entries");
  require(r_proj.rows() == d && r_proj.cols() == d, "position.r_proj", "position.r_proj must be d x d");
  XlTerms t;
  t.content_content = q * k.transpose();
  t.global_content = (k * u).transpose().replicate(n, 1);
  // (q_i . W R) = (W^T q_i) . R: project once per query instead of once per pair.
  const Matrix qw = q * r_proj;              // n x d, row i = (W^T q_i)^T
  const Vector vw = r_proj.transpose() * v;  // W^T v
  // R rows for the distinct deltas only (contiguous positions give n + m - 1 of them).
  std::unordered_map<int64_t, Eigen::Index> row_of;
  std::vector<int64_t> deltas;
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < m; ++j) {
      const int64_t delta = qpos[i] - kpos[j];
      if (row_of.emplace(delta, static_cast<Eigen::Index>(deltas.size())).second) deltas.push_back(delta);
    }
  // sinusoidal_table range-checks positions to 10^6; deltas reach 2*10^6, so compute them directly.
  const std::vector<double> w = sinusoidal_frequencies(static_cast<int>(d), base);
  Matrix R(static_cast<Eigen::Index>(deltas.size()), d);
  for (Eigen::Index r = 0; r < R.rows(); ++r)
    for (Eigen::Index c = 0; c < d / 2; ++c) {
      const double angle = static_cast<double>(deltas[r]) * w[c];
      R(r, 2 * c) = std::sin(angle);
      R(r, 2 * c + 1) = std::cos(angle);
    }
  t.content_position.resize(n, m);
  t.global_position.resize(n, m);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < m; ++j) {
      const auto row = R.row(row_of[qpos[i] - kpos[j]]);
      t.content_position(i, j) = qw.row(i).dot(row);
      t.global_position(i, j) = row.dot(vw.transpose());
    }
  return t;
}

}  // namespace posenc
