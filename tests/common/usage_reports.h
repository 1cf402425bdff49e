// Weights reports as `posenc weights --json` writes them (its contract: docs/weights.md), generated for
// tests from the definitions: per pair inv_freq = base^(-2j/r) (or given), wavelength = 2 pi / inv_freq,
// turns = trained length x inv_freq / 2 pi; per head q_norm, k_norm drawn from a seeded generator,
// qk = q_norm k_norm, qk_share = qk / sum qk, semantic_share = sum of qk_share over turns < 1, top_pairs the
// 8 largest shares, largest first. Layers listed in `none_layers` have position none and no numbers.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <numbers>
#include <numeric>
#include <set>
#include <string>
#include <vector>

namespace posenc::test {

struct UsageReportSpec {
  int layers = 4, heads = 4, kv_heads = 2, rotary_dim = 16;
  double base = 10000, trained = 4096;
  std::set<int> none_layers = {};
  std::set<int> own_pair_layers = {};  // layers with their own frequencies (base x 10 there)
  uint64_t seed = 1;
  std::string layout = "half";
};

inline nlohmann::json usage_pairs_json(int rotary_dim, double base, double trained) {
  nlohmann::json p = {
      {"inv_freq", nlohmann::json::array()}, {"wavelength", nlohmann::json::array()}, {"turns", nlohmann::json::array()}};
  for (int j = 0; j < rotary_dim / 2; ++j) {
    const double w = std::pow(base, -2.0 * j / rotary_dim);
    p["inv_freq"].push_back(w);
    p["wavelength"].push_back(2 * std::numbers::pi / w);
    p["turns"].push_back(trained * w / (2 * std::numbers::pi));
  }
  return p;
}

inline nlohmann::json usage_report_json(const UsageReportSpec& s) {
  uint64_t state = s.seed * 0x9E3779B97F4A7C15ull + 1;
  auto uniform = [&state] {  // xorshift64*: the same numbers everywhere
    state ^= state >> 12, state ^= state << 25, state ^= state >> 27;
    return double((state * 0x2545F4914F6CDD1Dull) >> 11) / double(uint64_t{1} << 53);
  };
  nlohmann::json r;
  r["model_type"] = "llama";
  r["rotary_dim"] = s.rotary_dim;
  r["layout"] = s.layout;
  r["pairs"] = usage_pairs_json(s.rotary_dim, s.base, s.trained);
  r["layers"] = nlohmann::json::array();
  const int pairs = s.rotary_dim / 2;
  for (int l = 0; l < s.layers; ++l) {
    nlohmann::json layer = {{"layer", l}};
    if (s.none_layers.count(l)) {
      layer["position"] = "none";
      layer["kind"] = "linear_attention";
      r["layers"].push_back(layer);
      continue;
    }
    layer["position"] = "rope";
    layer["kind"] = "full_attention";
    const nlohmann::json pj = s.own_pair_layers.count(l) ? usage_pairs_json(s.rotary_dim, s.base * 10, s.trained) : r["pairs"];
    if (s.own_pair_layers.count(l)) layer["pairs"] = pj;
    layer["heads"] = nlohmann::json::array();
    for (int h = 0; h < s.heads; ++h) {
      const size_t n = static_cast<size_t>(pairs);
      std::vector<double> q(n), k(n), qk(n), share(n);
      for (int j = 0; j < pairs; ++j)
        q[size_t(j)] = 0.1 + uniform(), k[size_t(j)] = 0.1 + uniform(), qk[size_t(j)] = q[size_t(j)] * k[size_t(j)];
      const double sum = std::accumulate(qk.begin(), qk.end(), 0.0);
      double semantic = 0;
      for (int j = 0; j < pairs; ++j) {
        share[size_t(j)] = qk[size_t(j)] / sum;
        if (pj["turns"][size_t(j)].get<double>() < 1) semantic += share[size_t(j)];
      }
      std::vector<int> top(n);
      std::iota(top.begin(), top.end(), 0);
      std::stable_sort(top.begin(), top.end(), [&](int a, int b) { return share[size_t(a)] > share[size_t(b)]; });
      top.resize(std::min<size_t>(8, top.size()));
      layer["heads"].push_back({{"head", h},
                                {"kv_head", h / (s.heads / s.kv_heads)},
                                {"q_norm", q},
                                {"k_norm", k},
                                {"qk", qk},
                                {"qk_share", share},
                                {"semantic_share", semantic},
                                {"top_pairs", top}});
    }
    r["layers"].push_back(layer);
  }
  r["read"] = {{"tensors", 2 * (s.layers - int(s.none_layers.size()))}, {"bytes", 123456}};
  r["assumptions"] = nlohmann::json::array();
  r["unread_keys"] = nlohmann::json::array();
  return r;
}

}  // namespace posenc::test
