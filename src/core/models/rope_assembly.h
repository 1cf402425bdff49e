// One home for turning a model's RoPE settings into a ModelRope, shared by the config.json reader and the GGUF
// reader: the trained length (the scaling's original length if set, else the max), the frequencies, YaRN's
// softmax mscale^2 (DeepSeek's MLA, llama.cpp's yarn_log_multiplier) and the sliding layers' own RoPE
// (Gemma 3's rope_local_base_freq, OLMo 3's unscaled sliding layers, llama.cpp's rope.freq_base_swa).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/encodings/rope.h"
#include "core/models/model_config.h"

namespace posenc {

struct RopeParts {
  int rotary_dim = 0;
  RopeLayout layout = RopeLayout::Half;
  double base = 10000.0;
  RopeScaling scaling;
  int64_t max_position_embeddings = 0;
  double softmax_scale = 0;  // what multiplies q.k before YaRN's mscale^2
  // softmax_scale *= get_mscale(factor, mscale_all_dim)^2 for YaRN with a nonzero mscale_all_dim
  // (modeling_deepseek_v3.py DeepseekV3Attention; llama.cpp's deepseek2 kq_scale).
  bool yarn_softmax_mscale = false;
  std::vector<int> mrope_section;
  bool mrope_interleaved = false;
  int head_dim = 0;       // the width of the heads rotated (ModelRope::head_dim; 0 = the model's)
  int rotary_offset = 0;  // ModelRope::rotary_offset
};

// Renames a core error ("scaling.factor", "dim") to the key of the file that carried the value.
using FieldRename = std::function<InvalidArgument(const InvalidArgument&)>;

// The ModelRope of `parts` (frequencies validated and computed; errors renamed by `rename`).
ModelRope assemble_rope(const RopeParts& parts, const FieldRename& rename);

// A sliding layer's RoPE beside `full`: the default (unscaled) RoPE at `base` over the same rotary dims,
// layout and lengths, with `softmax_scale` (no YaRN term).
ModelRope sliding_layer_rope(const ModelRope& full, double base, double softmax_scale);

// "<rotary dims> of <head width> (<pairs> pairs, <layout> layout)", proportional RoPE's pairs split into the
// rotating ones and those at frequency 0 ("512 of 512 (256 pairs: 64 rotating, 192 at frequency 0; half
// layout)"): `posenc inspect` and the Model view's card. head_dim: rope_head_dim of the model and `r`.
std::string rope_width_text(const ModelRope& r, int head_dim);

}  // namespace posenc
