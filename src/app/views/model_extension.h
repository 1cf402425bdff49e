// The Model view's context-extension panel: for a target length T, what to set in config.json for linear,
// dynamic, YaRN, llama3 and LongRoPE (core/analysis/context_extension.h) and how many pairs extrapolate at T
// under each, beside the model as configured now.
#pragma once

#include <string>
#include <vector>

#include "core/analysis/context_extension.h"
#include "core/models/model_config.h"

namespace posenc::app {

struct ExtensionPanel {
  int64_t target = 0, trained = 0;
  double factor = 1.0;
  int pairs = 0;
  // The model as configured, run at T: its own frequencies there.
  int now_full_turn = 0, now_interpolated = 0, now_extrapolated = 0;
  std::string now_type;  // its rope_type
  std::vector<ExtensionRecipe> recipes;
  int need_long_factor = 0;         // pairs_below_full_turn
  bool model_long_factors = false;  // LongRoPE counted with the model's own long_factor
};

// From the model's (full-attention) RoPE and a target length.
ExtensionPanel extension_panel(const ModelRope& rope, int64_t target);

// One line per method: "yarn: rope_scaling {"rope_type": "yarn", "factor": 16, "original_max_position_embeddings":
// 8192}, max_position_embeddings 131072: 0 of 64 pairs extrapolate (19 kept, 29 divided by f, 16 blended),
// cos/sin x 1.277". The first line is the model as configured.
std::vector<std::pair<std::string, std::string>> extension_lines(const ExtensionPanel& p);

// Draws the lines (wrapped to the width). Probes "text.extension.<method>".
void draw_extension_panel(const ExtensionPanel& p);

}  // namespace posenc::app
