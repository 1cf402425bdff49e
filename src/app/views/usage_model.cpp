#include "app/views/usage_model.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace posenc::app {

std::vector<int> frequency_order(const model_io::UsagePairs& pairs) {
  std::vector<int> order(pairs.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return pairs.inv_freq[size_t(a)] > pairs.inv_freq[size_t(b)]; });
  return order;
}

double usage_share(const model_io::UsageLayer& layer, int head, int pair) {
  if (!layer.rope || layer.heads.empty()) return NAN;
  if (head != kUsageMeanHead) {
    if (head < 0 || size_t(head) >= layer.heads.size()) return NAN;
    return layer.heads[size_t(head)].qk_share[size_t(pair)];
  }
  // Over the heads that have shares (a head whose q.k norms are all 0 has none).
  double sum = 0;
  int counted = 0;
  for (const model_io::UsageHead& h : layer.heads)
    if (std::isfinite(h.qk_share[size_t(pair)])) sum += h.qk_share[size_t(pair)], ++counted;
  return counted > 0 ? sum / counted : NAN;
}

UsagePicture usage_picture(const model_io::UsageReport& report, int head) {
  UsagePicture p;
  const int layers = int(report.layers.size());
  const int pairs = int(report.pairs.size());
  for (const model_io::UsageLayer& l : report.layers) p.max_heads = std::max(p.max_heads, int(l.heads.size()));
  if (head != kUsageMeanHead && (head < 0 || head >= p.max_heads))
    throw InvalidArgument("head", "head " + std::to_string(head) + " is past the model's heads (" + std::to_string(p.max_heads) +
                                      " per layer; -1 = the mean over heads)");
  p.share = Matrix::Constant(layers, pairs, NAN);
  p.semantic = Matrix::Constant(layers, std::max(p.max_heads, 1), NAN);
  p.order.resize(size_t(layers));
  p.boundary.assign(size_t(layers), 0);
  double semantic_sum = 0;
  int heads_counted = 0;
  for (int r = 0; r < layers; ++r) {
    const model_io::UsageLayer& l = report.layers[size_t(r)];
    // A layer without positions has no pairs of its own: its row keeps the model's order (and no numbers).
    p.order[size_t(r)] = frequency_order(l.rope ? l.pairs : report.pairs);
    if (!l.rope) continue;
    ++p.rope_layers;
    for (int k = 0; k < pairs; ++k) {
      const int j = p.order[size_t(r)][size_t(k)];
      p.share(r, k) = usage_share(l, head, j);
      if (l.pairs.turns[size_t(j)] >= 1) ++p.boundary[size_t(r)];
    }
    for (size_t h = 0; h < l.heads.size(); ++h) {
      p.semantic(r, Eigen::Index(h)) = l.heads[h].semantic_share;
      if (!std::isfinite(l.heads[h].semantic_share)) continue;
      semantic_sum += l.heads[h].semantic_share;
      ++heads_counted;
    }
  }
  p.mean_semantic = heads_counted > 0 ? semantic_sum / heads_counted : NAN;
  return p;
}

}  // namespace posenc::app
