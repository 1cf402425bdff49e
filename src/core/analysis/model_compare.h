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
  // Which side's value rests on something posenc assumed (an Assumption of that model): "a", "b" or both.
  std::vector<std::string> assumed;
};

// The length two models are compared at: the larger of their trained lengths (RoPE max_position_embeddings, a
// learned table's rows), at least 1. `posenc inspect A B` and the Model view's compare= both use it.
int64_t compare_length(const ModelPosition& a, const ModelPosition& b);

// The differences between a and b: kind, head dims, every RoPE field of the shared layer types (and which layer
// types each has), the layer count and pattern, and how many pairs of the main RoPE extrapolate at
// `target_length` (what = "rope.extrapolated_at_<T>"; compare_length(a, b) when not given). Each difference
// names the sides whose value was assumed. Empty when they place positions alike.
std::vector<ModelDifference> compare_models(const ModelPosition& a, const ModelPosition& b,
                                            std::optional<int64_t> target_length = std::nullopt);

// The layer list in short: runs of equal layers, a repeating block written once with its count
// ("[sliding 1024 rope x5, full rope] x10"); "" without a layer list.
std::string layer_pattern_text(const std::vector<LayerSpec>& layers);

// Whether side "a" or "b" of a difference was assumed.
bool difference_assumed(const ModelDifference& d, const char* side);

// "rope.base: 10000 (assumed) vs 160000" lines, one per difference ("(assumed)" after an assumed value).
std::string differences_text(const std::vector<ModelDifference>& d);

}  // namespace posenc
