// The UI's typefaces: a text face for labels and formulas (Inter) and a face with equal-width digits for
// numbers (DejaVu Sans Mono), both subset at build time from Debian's font packages and compiled in
// (cmake/fonts.cmake), so desktop, web and headless renders draw the same glyphs from one code path.
#pragma once

struct ImFont;

namespace posenc::app {

// The text size in layout units (window pixels at pixel ratio 1).
inline constexpr float kTextSize = 13.0f;

// Rasterises both faces into ImGui's font atlas for a framebuffer pixel ratio (text is drawn back at
// 1/ratio, so it is crisp on HiDPI screens while the layout, in window units, does not change). Replaces
// any fonts loaded before; the GL font texture must be rebuilt after a call once the renderer exists.
// The text face becomes ImGui's default font.
void load_fonts(float pixel_ratio);

// The numbers' face (null before load_fonts: callers then keep the current font).
ImFont* number_font();

// Text measured and drawn inside its scope uses the numbers' face (tick labels: equal-width digits line
// up); the current font stays when none is loaded (unit tests without fonts).
class NumberFontScope {
 public:
  NumberFontScope();
  ~NumberFontScope();
  NumberFontScope(const NumberFontScope&) = delete;
  NumberFontScope& operator=(const NumberFontScope&) = delete;

 private:
  bool pushed_;
};

}  // namespace posenc::app
