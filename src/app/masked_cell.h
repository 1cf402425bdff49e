// The marker of a masked cell in a heatmap's float matrix: heatmap.h draws cells with this value (or
// larger) as masked, and the views' computations (the score kernels' masked_fill) write it. No ImGui, no
// GL, so a view's model (scores_model.h) includes it without the heatmap.
#pragma once

namespace posenc::app {

inline constexpr float kMaskedCell = 3.0e38f;

}  // namespace posenc::app
