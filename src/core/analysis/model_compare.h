// Two models side by side: what differs in how they place positions (`posenc inspect A B`, the Model view's
// compare=). Each difference is named by the `model` response's key path ("rope.base",
// "layers.sliding_attention.rotary_dim", "per_layer") with both values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/models/model_config.h"

namespace posenc {

// A value as text, and as a number when it is one (JSON writes numbers as numbers).
struct DiffValue {
  std::string text;
  std::optional<double> number;
};

struct ModelDifference {
  std::string what;
  DiffValue a, b;
};

// The differences between a and b: kind, head dims, every RoPE field of the shared layer types (and which layer
// types each has), the layer count and pattern, and how many pairs of the main RoPE extrapolate at
// `target_length` (what = "rope.extrapolated_at_<T>"). Empty when they place positions alike.
std::vector<ModelDifference> compare_models(const ModelPosition& a, const ModelPosition& b, int64_t target_length);

// The layer list in short: runs of equal layers, a repeating block written once with its count
// ("[sliding 1024 rope x5, full rope] x10"); "" without a layer list.
std::string layer_pattern_text(const std::vector<LayerSpec>& layers);

// "base: 500000 vs 1e+06" lines, one per difference.
std::string differences_text(const std::vector<ModelDifference>& d);

}  // namespace posenc
