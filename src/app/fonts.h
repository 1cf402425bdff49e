// The UI's typefaces: a text face for labels and formulas (Inter) and a face with equal-width digits for
// numbers (DejaVu Sans Mono), both subset at build time from Debian's font packages and compiled in
// (cmake/fonts.cmake), so desktop, web and headless renders draw the same glyphs from one code path.
// The Language menu's CJK characters (语言, 中文) come from a tiny compiled-in subset of WenQuanYi Micro
// Hei merged into the text face, so an English interface names Chinese without fetching anything.
// CJK text comes from a third face (a subset of WenQuanYi Micro Hei: the Chinese catalogue, GB2312 level 1,
// CJK punctuation and the characters of the presets and examples) merged into both: compiled into the
// native programs, fetched by the page only when the interface is Chinese or CJK text appears. ImGui
// 1.86 rasterises an atlas once, so the atlas holds the CJK glyphs the interface needs and the characters
// drawn so far, and is rebuilt (fonts_stale) when new ones are drawn. A character no face has is drawn as
// a box (never "?") and named in a notice (missing_glyph_notice).
#pragma once

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "app/notices.h"
#include "core/noncopyable.h"

struct ImFont;

namespace posenc::app {

// The text size in layout units (window pixels at pixel ratio 1).
inline constexpr float kTextSize = 13.0f;

// Rasterises the faces into ImGui's font atlas for a framebuffer pixel ratio (text is drawn back at
// 1/ratio, so it is crisp on HiDPI screens while the layout, in window units, does not change). Replaces
// any fonts loaded before; the GL font texture must be rebuilt after a call once the renderer exists.
// The text face becomes ImGui's default font.
void load_fonts(float pixel_ratio);

// The numbers' face (null before load_fonts: callers then keep the current font).
ImFont* number_font();

// Text measured and drawn inside its scope uses the numbers' face (tick labels: equal-width digits line
// up); the current font stays when none is loaded (unit tests without fonts).
class NumberFontScope : NonCopyable {
 public:
  NumberFontScope();
  ~NumberFontScope();

 private:
  bool pushed_;
};

// The CJK face's bytes (a TrueType file; kept, not copied: they must outlive every atlas), or that it
// cannot be had (the page's fetch failed: its characters are then missing, drawn as boxes, and `why`, the
// page's words naming the file and the failure, is the font's notice).
void provide_cjk_font(const unsigned char* data, size_t size);
void cjk_font_unavailable(const std::string& why = "");
bool cjk_font_provided();
// Whether the interface needs the CJK face and it has not been provided (the page then fetches it):
// the current language is Chinese, or CJK text was drawn.
bool cjk_font_wanted();
// Whether the atlas lacks glyphs it could have (the Chinese catalogue's, or characters drawn since the
// last load_fonts that the CJK face may have): the runner calls load_fonts before the next frame.
bool fonts_stale();
// load_fonts again at the last pixel ratio when fonts_stale(); true when it did (the caller rebuilds the
// GL font texture).
bool reload_fonts_if_stale();

// Text ImGui draws (every ImDrawList::AddText, app/text_hook.cpp): notes the characters `font` has no
// glyph for.
void note_drawn_text(std::string_view text, const ImFont* font);
// The characters drawn that no face has (after the CJK face was tried), as boxes.
const std::set<char32_t>& missing_glyphs();
// The fonts' notices (key "text"): the CJK face is loading while characters that wait for it are drawn as
// boxes (the page draws at once and fetches the face meanwhile); it could not be loaded (naming why); the
// characters no face has.
Notices font_notices();
// Forgets the characters seen (tests).
void reset_seen_glyphs();

}  // namespace posenc::app
