#include "app/theme.h"

#include <algorithm>
#include <cmath>

namespace posenc::app {

void apply_theme_style(bool dark, ImGuiStyle& style) {
  if (dark) ImGui::StyleColorsDark(&style);
  else ImGui::StyleColorsLight(&style);
  ImVec4* c = style.Colors;
  if (dark) {
    // ImGui's hovered / pressed blues (0.26, 0.59, 0.98) and (0.06, 0.53, 0.98) reach only 3.0:1 and 3.6:1
    // under white text: darker blues (5.7:1 and 6.6:1).
    for (ImGuiCol col : {ImGuiCol_ButtonHovered, ImGuiCol_HeaderHovered}) c[col] = ImVec4(0.12f, 0.40f, 0.75f, 1.0f);
    for (ImGuiCol col : {ImGuiCol_ButtonActive, ImGuiCol_HeaderActive, ImGuiCol_FrameBgActive, ImGuiCol_SliderGrabActive})
      c[col] = ImVec4(0.10f, 0.36f, 0.69f, 1.0f);
  } else {
    c[ImGuiCol_TextDisabled] = ImVec4(0.36f, 0.36f, 0.36f, 1.0f);  // #5c5c5c: 5.9:1 on #f0f0f0, 4.9:1 on the menu bar
  }
  // ImGui's dark disabled text (#808080) is 3.4:1 on its field / plot background: lighter.
  if (dark) c[ImGuiCol_TextDisabled] = ImVec4(0.62f, 0.62f, 0.62f, 1.0f);
  style.FrameRounding = 3.0f;
  style.GrabRounding = 3.0f;
}

double relative_luminance(const ImVec4& c) {
  auto lin = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * lin(c.x) + 0.7152 * lin(c.y) + 0.0722 * lin(c.z);
}

double contrast_ratio(const ImVec4& a, const ImVec4& b) {
  const double la = relative_luminance(a), lb = relative_luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

ImVec4 blend_over(const ImVec4& top, const ImVec4& bottom) {
  const float a = top.w;
  return ImVec4(top.x * a + bottom.x * (1 - a), top.y * a + bottom.y * (1 - a), top.z * a + bottom.z * (1 - a), 1.0f);
}

ImVec4 readable_on(const ImVec4& color, const ImVec4& background) {
  ImVec4 c(color.x, color.y, color.z, 1.0f);
  const bool dark_bg = relative_luminance(background) < 0.18;
  // Each step moves 10% of the way to black (or white): hue kept, at most 40 steps.
  for (int i = 0; i < 40 && contrast_ratio(c, background) < kMinTextContrast; ++i) {
    const float t = dark_bg ? 1.0f : 0.0f;
    c.x += (t - c.x) * 0.1f, c.y += (t - c.y) * 0.1f, c.z += (t - c.z) * 0.1f;
  }
  return c;
}

ImVec4 readable_text(ImU32 color) {
  const ImVec4 bg = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
  return readable_on(ImGui::ColorConvertU32ToFloat4(color), ImVec4(bg.x, bg.y, bg.z, 1.0f));
}

}  // namespace posenc::app
