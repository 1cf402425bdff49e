// The app's two themes (ImGui's light and dark styles with the app's changes) and the WCAG 2 contrast
// arithmetic that keeps every text readable on them (>= 4.5:1, WCAG 2.1 SC 1.4.3 "Contrast (Minimum)").
#pragma once

#include <imgui.h>

namespace posenc::app {

// Sets `style`'s colours and shapes for a theme. The light theme's disabled text (the formula line,
// captions) is darkened from ImGui's #999 (2.6:1 on its #f0f0f0 window) to pass 4.5:1; the dark theme's
// hovered / pressed blues are darkened so white text stays readable on them.
void apply_theme_style(bool dark, ImGuiStyle& style);

// WCAG 2 relative luminance of an sRGB colour (alpha ignored) and the contrast ratio of two opaque
// colours, (L1 + 0.05) / (L2 + 0.05) with L1 the lighter: 1 (same) to 21 (black on white).
double relative_luminance(const ImVec4& c);
double contrast_ratio(const ImVec4& a, const ImVec4& b);
// `top` drawn with its alpha over the opaque `bottom`.
ImVec4 blend_over(const ImVec4& top, const ImVec4& bottom);

// The minimum contrast for text (WCAG AA, normal size).
inline constexpr double kMinTextContrast = 4.5;

// A colour (a curve's palette colour) made readable as text on `background`: kept if it reaches
// kMinTextContrast, otherwise darkened (light background) or lightened (dark) in steps until it does.
ImVec4 readable_on(const ImVec4& color, const ImVec4& background);
// readable_on the current window background.
ImVec4 readable_text(ImU32 color);

}  // namespace posenc::app
