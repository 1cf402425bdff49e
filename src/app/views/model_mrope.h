// The Model view's M-RoPE panel (Qwen2-VL / Qwen2.5-VL contiguous sections, Qwen3-VL / Qwen3.5 interleaved):
// which position row (t, h, w) drives each rotation pair, the positions of an example sequence (text, then an
// image grid, then text) as Qwen2-VL's get_rope_index assigns them, and the pairs' angles at two image
// patches against 1-D RoPE at the same sequence index. Text only: t = h = w, so M-RoPE is 1-D RoPE.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/models/model_config.h"

namespace posenc::app {

// The example: kTextBefore text tokens, one image frame of kGridH x kGridW patches (after the 2x2 merge),
// kTextAfter text tokens.
inline constexpr int kMropeTextBefore = 3, kMropeGridH = 4, kMropeGridW = 6, kMropeTextAfter = 2;

struct MropeExample {
  std::vector<int> axes;                     // per pair: 0 t, 1 h, 2 w (rope_mrope_axes)
  int pairs_on[3] = {0, 0, 0};               // pairs per axis
  std::array<std::vector<int64_t>, 3> rows;  // t, h, w position of every token of the example
  std::vector<std::string> token_kind;       // "text" or "image r,c"
  bool image = false;                        // the image positions (else every token as text: t = h = w)
};

// The axes and the example's positions (image: true for get_rope_index's image rule, false: all text).
MropeExample mrope_example(const ModelRope& rope, bool image);

// The pairs' split as text: "pairs 0-15 t, 16-39 h, 40-63 w" (contiguous) or "interleaved: pair i is h when
// i % 3 == 1 and i < 3b, w when i % 3 == 2 and i < 3c, else t (t 22, h 21, w 21)".
std::string mrope_split_text(const ModelRope& rope, const MropeExample& ex);

// Draws the bar over the pairs (colour and letter per axis), the example's positions and the angle plot
// (figure "mrope"); `height` for the plot. Probes "mrope.bar", "text.mrope.positions", "plot.mrope".
void draw_mrope_panel(const ModelRope& rope, const MropeExample& ex, float width, float plot_height);

}  // namespace posenc::app
