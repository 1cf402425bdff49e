// The keys a real model fills in a view (no ImGui): YaRN's and Llama 3's RoPE keys, which the RoPE,
// scores, Check and Model views share, and what a view can hold of a model (ModelFill). The views that
// take models are model_link.h's ModelLinkedView.
#pragma once

#include <string>
#include <vector>

#include "app/notices.h"
#include "app/params.h"
#include "core/encodings/rope.h"

namespace posenc::app {

// The model keys the RoPE and scores views share beyond the scaling type, factor and lengths: YaRN's and
// Llama 3's parameters and the cos/sin magnitude, with the Model view's names and ranges. Declared by each view
// in its params(); which type shows which is core/encodings/rope.h's kRopeScalingKeys.
struct RopeExtraKeys {
  double beta_fast = 32.0, beta_slow = 1.0;
  bool truncate = true;
  double attention_factor = 0, mscale = 0, mscale_all_dim = 0;  // 0 = derived / unset
  double low_freq_factor = 1.0, high_freq_factor = 4.0;         // Llama 3.1's published values

  void declare(ParamList& p);
  // Copies the keys into a scaling (each type uses its own).
  void apply(RopeScaling& s) const;
  // Fills the keys the model's scaling type takes from it; appends their names to `filled`.
  void fill(const RopeScaling& s, std::vector<std::string>& filled);
  // The keys of these that a scaling type takes (kRopeScalingKeys, in its order): YaRN's, Llama 3's, LongRoPE's
  // attention_factor, or none.
  static std::vector<const char*> keys_of(RopeScalingType type);
};

// What a view can hold of a model: filled keys, and notices for what it cannot show.
struct ModelFill {
  std::vector<std::string> keys;  // the keys filled (their text is the snapshot)
  Notices gaps;                   // what of the model the view cannot show (key "model")
  void gap(const std::string& message) { gaps.push_back({"model", message}); }
};

}  // namespace posenc::app
