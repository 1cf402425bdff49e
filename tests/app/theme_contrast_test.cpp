// Every text the app draws reaches WCAG 2's 4.5:1 contrast on every background it is drawn on, in both
// themes, computed from the colours the app applies (apply_theme_style and the app's text colours).
#include <gtest/gtest.h>
#include <imgui.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "app/controls.h"
#include "app/plot.h"
#include "app/theme.h"

namespace {

using posenc::app::blend_over;
using posenc::app::contrast_ratio;

ImVec4 rgb(int r, int g, int b) { return ImVec4(r / 255.0f, g / 255.0f, b / 255.0f, 1.0f); }

// WCAG 2's own numbers: black on white 21:1; #777 on white 4.48:1 (the grey that just fails AA, WebAIM's
// example); ImGui's light disabled text #999 on #f0f0f0 2.5:1 (the value this theme had to fix).
TEST(ThemeContrast, RatioMatchesWcagReferenceValues) {
  EXPECT_NEAR(contrast_ratio(rgb(0, 0, 0), rgb(255, 255, 255)), 21.0, 1e-9);
  EXPECT_NEAR(contrast_ratio(rgb(255, 255, 255), rgb(0, 0, 0)), 21.0, 1e-9);
  EXPECT_NEAR(contrast_ratio(rgb(0x77, 0x77, 0x77), rgb(255, 255, 255)), 4.48, 0.005);
  EXPECT_NEAR(contrast_ratio(rgb(0x99, 0x99, 0x99), rgb(0xf0, 0xf0, 0xf0)), 2.50, 0.005);
  EXPECT_DOUBLE_EQ(contrast_ratio(rgb(10, 20, 30), rgb(10, 20, 30)), 1.0);
}

TEST(ThemeContrast, ReadableOnReachesTheMinimumAndKeepsReadableColours) {
  const ImVec4 light = rgb(0xf0, 0xf0, 0xf0), dark = rgb(0x0f, 0x0f, 0x0f);
  const ImVec4 yellow = rgb(240, 228, 66);
  EXPECT_GE(contrast_ratio(posenc::app::readable_on(yellow, light), light), 4.5);
  const ImVec4 kept = posenc::app::readable_on(yellow, dark);  // already 13:1 on the dark window
  EXPECT_EQ(kept.x, yellow.x);
  EXPECT_EQ(kept.z, yellow.z);
  EXPECT_GE(contrast_ratio(posenc::app::readable_on(rgb(0, 114, 178), dark), dark), 4.5);
}

struct Pair {
  std::string text, background;
  ImVec4 fg, bg;
};

std::vector<Pair> theme_pairs(bool dark) {
  ImGuiStyle& style = ImGui::GetStyle();
  posenc::app::apply_theme_style(dark, style);
  const ImVec4* c = style.Colors;
  const ImVec4 window = blend_over(c[ImGuiCol_WindowBg], dark ? rgb(0, 0, 0) : rgb(255, 255, 255));
  const ImVec4 frame = blend_over(c[ImGuiCol_FrameBg], window);
  std::vector<std::pair<std::string, ImVec4>> backgrounds = {
      {"WindowBg", window},
      {"ChildBg", blend_over(c[ImGuiCol_ChildBg], window)},
      {"PopupBg", blend_over(c[ImGuiCol_PopupBg], window)},
      {"MenuBarBg", blend_over(c[ImGuiCol_MenuBarBg], window)},
      {"FrameBg (plot area, fields)", frame},
      {"plot legend box (WindowBg 0.75 over the plot)", blend_over(ImVec4(window.x, window.y, window.z, 0.75f), frame)},
  };
  // Where only the theme's text colour is drawn: widgets in their states.
  std::vector<std::pair<std::string, ImVec4>> widget_backgrounds = {
      {"FrameBgHovered", blend_over(c[ImGuiCol_FrameBgHovered], window)},
      {"FrameBgActive", blend_over(c[ImGuiCol_FrameBgActive], window)},
      {"Button", blend_over(c[ImGuiCol_Button], window)},
      {"ButtonHovered", blend_over(c[ImGuiCol_ButtonHovered], window)},
      {"ButtonActive", blend_over(c[ImGuiCol_ButtonActive], window)},
      {"Header", blend_over(c[ImGuiCol_Header], window)},
      {"HeaderHovered", blend_over(c[ImGuiCol_HeaderHovered], window)},
      {"HeaderActive", blend_over(c[ImGuiCol_HeaderActive], window)},
      {"TitleBgActive", blend_over(c[ImGuiCol_TitleBgActive], window)},
      {"Tab", blend_over(c[ImGuiCol_Tab], window)},
      {"TabActive", blend_over(c[ImGuiCol_TabActive], window)},
  };
  // Text colours drawn in the panels and plots (the app's own ones read the style just applied).
  std::vector<std::pair<std::string, ImVec4>> texts = {
      {"Text", c[ImGuiCol_Text]},
      {"TextDisabled (formula line, captions, notes)", c[ImGuiCol_TextDisabled]},
      {"error", posenc::app::error_color()},
      {"warning", posenc::app::warning_color()},
      {"good", posenc::app::good_color()},
  };
  std::vector<Pair> out;
  for (const auto& [tn, t] : texts)
    for (const auto& [bn, b] : backgrounds) out.push_back({tn, bn, t, b});
  // Series colours as text: the panels' lines (RoPE scaling, Check causes) and a plot's hover tooltip.
  for (int i = 0; i < 8; ++i) {
    const ImVec4 t = posenc::app::readable_text(posenc::app::palette_color(i));
    for (int b = 0; b < 3; ++b)
      out.push_back(
          {"palette " + std::to_string(i) + " as text", backgrounds[size_t(b)].first, t, backgrounds[size_t(b)].second});
  }
  for (const auto& [bn, b] : widget_backgrounds) out.push_back({"Text", bn, c[ImGuiCol_Text], b});
  return out;
}

TEST(ThemeContrast, EveryTextReachesFourAndAHalfToOneInBothThemes) {
  ImGui::CreateContext();
  for (bool dark : {false, true}) {
    const std::vector<Pair> pairs = theme_pairs(dark);
    EXPECT_GT(pairs.size(), 60u);
    for (const Pair& p : pairs) {
      const double ratio = contrast_ratio(p.fg, p.bg);
      // POSENC_CONTRAST_TABLE=1 prints the table (docs/accessibility.md).
      if (std::getenv("POSENC_CONTRAST_TABLE"))
        std::printf("| %s | %s | %s | %.2f |\n", dark ? "dark" : "light", p.text.c_str(), p.background.c_str(), ratio);
      EXPECT_GE(ratio, posenc::app::kMinTextContrast)
          << (dark ? "dark" : "light") << " theme: " << p.text << " on " << p.background;
    }
  }
  ImGui::DestroyContext();
}

}  // namespace
