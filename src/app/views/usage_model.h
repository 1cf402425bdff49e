// What the Frequency usage view computes from a weights report (model_io/usage_json.h), without ImGui or GL:
// the layers x pairs map of qk_share (one head's, or the mean over the layer's heads), its columns the pairs
// ordered by frequency (highest first, each layer by its own frequencies), the trained-length full-turn
// boundary per layer, and the layers x heads map of semantic_share. NaN marks what has no number: a layer
// without positions, a head a layer does not have.
#pragma once

#include <string>
#include <vector>

#include "core/types.h"
#include "model_io/usage_json.h"

namespace posenc::app {

inline constexpr int kUsageMeanHead = -1;  // head = -1: the mean over the layer's heads

struct UsagePicture {
  Matrix share;                         // layers x pairs (by frequency rank); NaN rows: no positions
  std::vector<std::vector<int>> order;  // per layer: rank -> pair j
  std::vector<int> boundary;            // per layer: pairs with turns >= 1 (the ranks left of the boundary)
  Matrix semantic;                      // layers x heads (the most any layer has); NaN where there is none
  int max_heads = 0;
  int rope_layers = 0;
  double mean_semantic = 0;  // semantic_share over every head of every rope layer
};

// The picture of `report` for `head` (kUsageMeanHead, or a head index below the most heads a layer has:
// else InvalidArgument naming "head").
UsagePicture usage_picture(const model_io::UsageReport& report, int head);

// Pair j's order by frequency: indices sorted by inv_freq, highest first (ties by j).
std::vector<int> frequency_order(const model_io::UsagePairs& pairs);

// The qk_share of pair j in `layer`: head h's, or the mean over the layer's heads that have shares; NaN
// when the layer has no such head or no positions, or the head no shares (its q.k norms all 0).
double usage_share(const model_io::UsageLayer& layer, int head, int pair);

}  // namespace posenc::app
