// Deterministic inputs shared by the native (Google Benchmark) and wasm (node) kernel benchmarks.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/attention/attention.h"
#include "core/rng.h"
#include "core/encodings/shaw.h"

#include "core/types.h"

namespace posenc::bench {

// Uniform floats in [-1, 1) from a 64-bit LCG (cheap, identical on every target).
inline MatrixF random_matrix_f(Eigen::Index rows, Eigen::Index cols, uint64_t seed) {
  MatrixF m(rows, cols);
  uint64_t s = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    m.data()[i] = static_cast<float>(static_cast<double>(s >> 40) / static_cast<double>(1ULL << 23) - 1.0);
  }
  return m;
}

inline std::vector<int64_t> positions(int64_t n) {
  std::vector<int64_t> p(n);
  for (int64_t i = 0; i < n; ++i) p[i] = i;
  return p;
}

// ALiBi-like bias (-slope |j - i|), the shape of every additive bias job.
inline MatrixF alibi_bias(int n, float slope = 0.0625f) {
  MatrixF b(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) b(i, j) = -slope * static_cast<float>(j > i ? j - i : i - j);
  return b;
}

// One AttentionSpec per scheme of the scores view, with its default tables at width d (T5 32 buckets /
// max_distance 128, ALiBi slope 1/16, Shaw and learned clip 16, DeBERTa 256 buckets / 512, XL).
inline std::vector<std::pair<std::string, AttentionSpec>> score_specs(int d) {
  std::vector<std::pair<std::string, AttentionSpec>> out;
  out.push_back({"none", {NoPosition{}, {}, false}});
  out.push_back({"rope", {RopePosition{10000.0, {}, RopeLayout::Half}, {}, false}});
  T5Position t5;
  t5.bias.assign(32, 0.0);
  for (int b = 0; b < 32; ++b) t5.bias[b] = 0.1 * b - 1.0;
  out.push_back({"t5", {t5, {}, false}});
  out.push_back({"alibi", {AlibiPosition{0.0625}, {}, false}});
  ShawPosition shaw;
  shaw.max_relative_position = 16;
  shaw.key_table = shaw_random_table(16, d, 4);
  out.push_back({"shaw", {shaw, {}, false}});
  DebertaPosition deb;
  deb.pos_key = seeded_normal_matrix(512, d, 5, 1.0);
  deb.pos_query = seeded_normal_matrix(512, d, 6, 1.0);
  out.push_back({"deberta", {deb, {}, false}});
  XlPosition xl;
  xl.u = seeded_normal_matrix(d, 1, 7, 1.0).col(0);
  xl.v = seeded_normal_matrix(d, 1, 8, 1.0).col(0);
  xl.r_proj = seeded_normal_matrix(d, d, 9, 0.125);
  out.push_back({"xl", {xl, {}, false}});
  out.push_back({"learned", {LearnedBiasPosition{seeded_normal_matrix(33, 1, 10, 1.0), 0}, {}, false}});
  return out;
}

}  // namespace posenc::bench
