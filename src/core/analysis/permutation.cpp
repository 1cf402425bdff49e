#include "core/analysis/permutation.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "core/attention/attention.h"
#include "core/bounds.h"
#include "core/rng.h"
#include "core/encodings/sinusoidal.h"

namespace posenc {
namespace {

// Uniform integer in [0, bound) by rejection (std::uniform_int_distribution is not portable).
uint64_t uniform_below(std::mt19937_64& engine, uint64_t bound) {
  const uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
  uint64_t r;
  do r = engine();
  while (r >= limit);
  return r % bound;
}

uint64_t fnv1a(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

Matrix attend(const Matrix& x, const Matrix& wq, const Matrix& wk, const Matrix& wv, PermutationEncoding enc, double base) {
  const int n = static_cast<int>(x.rows()), d = static_cast<int>(x.cols());
  std::vector<int64_t> pos(n);
  std::iota(pos.begin(), pos.end(), int64_t{0});
  Matrix xe = x;
  if (enc == PermutationEncoding::Sinusoidal) xe += sinusoidal_table(pos, d, base);
  const Matrix q = xe * wq, k = xe * wk, v = xe * wv;
  AttentionSpec spec;
  if (enc == PermutationEncoding::Rope) spec.position = RopePosition{base, {}, RopeLayout::Half};
  return *attention(q, k, &v, pos, pos, spec).output;
}

}  // namespace

std::vector<int> seeded_permutation(int n, uint64_t seed) {
  require_in_range(n, 0, kMaxCells, "n");
  std::vector<int> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  if (seed == 0 || n < 2) return perm;
  std::mt19937_64 engine(seed);
  do {
    for (int i = n - 1; i > 0; --i) std::swap(perm[i], perm[uniform_below(engine, uint64_t(i) + 1)]);
  } while (std::is_sorted(perm.begin(), perm.end()));  // a "shuffle" must move something
  return perm;
}

Matrix permute_rows(const Matrix& x, const std::vector<int>& perm) {
  require(static_cast<Eigen::Index>(perm.size()) == x.rows(), "perm", "perm must have one entry per row");
  std::vector<char> seen(perm.size(), 0);
  for (int p : perm) {
    require(p >= 0 && p < static_cast<int>(perm.size()) && !seen[p], "perm", "perm must be a permutation of 0..n-1");
    seen[p] = 1;
  }
  Matrix out(x.rows(), x.cols());
  for (Eigen::Index r = 0; r < x.rows(); ++r) out.row(r) = x.row(perm[r]);
  return out;
}

Matrix word_embeddings(const std::vector<std::string>& words, int dim, uint64_t seed) {
  require_in_range(dim, 1, kMaxDim, "dim");
  Matrix x(static_cast<Eigen::Index>(words.size()), dim);
  for (size_t r = 0; r < words.size(); ++r) {
    NormalRng rng(seed ^ fnv1a(words[r]));
    for (int c = 0; c < dim; ++c) x(static_cast<Eigen::Index>(r), c) = rng.normal();
  }
  return x;
}

PermutationResult permutation_test(const Matrix& x, const std::vector<int>& perm, PermutationEncoding encoding,
                                   uint64_t weight_seed, double base) {
  const int n = static_cast<int>(x.rows()), d = static_cast<int>(x.cols());
  require(n >= 1, "x", "x needs at least one token");
  require(d >= 2 && d <= kMaxDim && d % 2 == 0, "dim", "dim must be even and in [2, 4096]");
  require(int64_t{n} * n * d <= kMaxWork, "x", "the request exceeds the work limit");
  PermutationResult out;
  out.perm = perm;
  const Matrix shuffled = permute_rows(x, perm);  // validates perm
  const double stddev = 1.0 / std::sqrt(static_cast<double>(d));
  const Matrix wq = seeded_normal_matrix(d, d, weight_seed * 3 + 1, stddev);
  const Matrix wk = seeded_normal_matrix(d, d, weight_seed * 3 + 2, stddev);
  const Matrix wv = seeded_normal_matrix(d, d, weight_seed * 3 + 3, stddev);
  out.output = attend(x, wq, wk, wv, encoding, base);
  out.output_shuffled = attend(shuffled, wq, wk, wv, encoding, base);
  out.row_difference = out.output_shuffled - permute_rows(out.output, perm);
  out.max_row_difference = out.row_difference.cwiseAbs().maxCoeff();
  out.pooled = out.output.colwise().mean().transpose();
  out.pooled_shuffled = out.output_shuffled.colwise().mean().transpose();
  out.max_pooled_difference = (out.pooled_shuffled - out.pooled).cwiseAbs().maxCoeff();
  return out;
}

}  // namespace posenc
