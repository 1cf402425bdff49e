// The Model view's drawn parts for one model or two (ImGui): the header line with what was assumed, a RoPE
// card, the other schemes' lines, the per-pair ratio and wavelength plots (a compared model overlaid in other
// colours, a legend naming A and B), the differences list. The numbers come from model_model.h.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

#include "app/views/model_model.h"

namespace posenc::app {

// "<label>: model_type ..., position ..., head_dim ..., N heads<tail>" (probe `probe`), then one warning line per
// assumption.
void draw_model_header(const ModelShown& s, const std::string& label, const std::string& tail, const char* probe);
// One RoPE's card: rotary dims of head_dim (the width of the heads it rotates: rope_head_dim), base, scaling,
// lengths, magnitudes, the pair classes (probes "<probe_prefix>pairs.<length>").
void draw_rope_card(const RopePanel& p, int head_dim, const std::string& probe_prefix);
// ALiBi's slopes plot, T5 / DeBERTa / learned / none in words.
void draw_other_scheme(const ModelPosition& m, ImVec2 size);
// "Differences, A vs B ...": one bullet per difference (probe "text.model.differences").
void draw_model_differences(const std::vector<ModelDifference>& d, int64_t target);

struct ModelPlots {
  const ModelShown* a = nullptr;
  const ModelShown* b = nullptr;  // the compared model, overlaid (nullptr: none)
  bool ratio = true, wavelength = true;
};
// The ratio w'_k / w_k ("plot.ratio") and the wavelengths against the lengths ("plot.wavelength"), each
// `plot_h` high and `width` wide.
void draw_model_plots(const ModelPlots& p, float width, float plot_h);

}  // namespace posenc::app
