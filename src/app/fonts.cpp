#include "app/fonts.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "app/i18n.h"
#include "core/unicode_text.h"
#include "posenc_fonts.h"

namespace posenc::app {
namespace {

ImFont* g_number_font = nullptr;
float g_pixel_ratio = 1.0f;

// The CJK face and what the atlas holds of it.
const unsigned char* g_cjk_data = nullptr;
size_t g_cjk_size = 0;
bool g_cjk_unavailable = false;
std::string g_cjk_failure;           // the page's words on why the face could not be had
bool g_atlas_has_catalogue = false;  // the Chinese catalogue's characters are in the atlas
std::set<char32_t> g_pending;        // drawn without a glyph, not yet tried with the CJK face
std::set<char32_t> g_tried;          // given to the CJK face at a build (whether it had them or not)
std::set<char32_t> g_missing;        // drawn, and no face has them: boxes
std::vector<ImWchar> g_cjk_ranges;   // the CJK face's ranges of the current atlas (ImGui keeps the pointer)

ImFont* add_font(const unsigned char* bytes, int size, const ImWchar* ranges, float pixel_size, bool merge) {
  ImFontConfig cfg;
  // The atlas keeps pointers into the bytes; they are static, never ImGui's to free.
  cfg.FontDataOwnedByAtlas = false;
  cfg.SizePixels = pixel_size;
  // Rasterised at the exact device pixel size and snapped to whole pixels: crisp stems, no blur from
  // sub-pixel placement.
  cfg.OversampleH = cfg.OversampleV = 1;
  cfg.PixelSnapH = true;
  cfg.MergeMode = merge;
  return ImGui::GetIO().Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(bytes), size, pixel_size, &cfg, ranges);
}

// The CJK code points the atlas should hold: the Chinese catalogue's (when the interface is Chinese)
// and every character drawn that another face lacked; as ImGui ranges (one per code point it can hold).
void collect_cjk_ranges() {
  std::set<char32_t> want = g_tried;
  want.insert(g_pending.begin(), g_pending.end());
  g_atlas_has_catalogue = ui_lang() == Lang::Zh && catalogue_loaded(Lang::Zh);
  if (g_atlas_has_catalogue) {
    const std::set<char32_t>& cat = catalogue_code_points(Lang::Zh);
    want.insert(cat.begin(), cat.end());
  }
  g_cjk_ranges.clear();
  for (char32_t c : want)
    if (c >= 0x80 && c <= 0xFFFF) g_cjk_ranges.push_back(ImWchar(c)), g_cjk_ranges.push_back(ImWchar(c));
  g_cjk_ranges.push_back(0);
  g_tried.insert(g_pending.begin(), g_pending.end());
  g_pending.clear();
}

// A box for U+FFFD, the glyph ImGui draws for any character a font lacks (BuildLookupTable picks
// U+FFFD first): an outlined rectangle, never a "?". Returns the custom rect's index.
int add_box_glyph(ImFont* font, float pixels) {
  const int w = std::max(4, int(std::round(pixels * 0.55f))), h = std::max(6, int(std::round(pixels * 0.72f)));
  return ImGui::GetIO().Fonts->AddCustomRectFontGlyph(font, ImWchar(0xFFFD), w, h, float(w) + std::round(pixels * 0.2f),
                                                      ImVec2(std::round(pixels * 0.1f), std::round(pixels * 0.16f)));
}

void paint_box(int rect_index, float pixels) {
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  unsigned char* alpha = nullptr;
  int tex_w = 0, tex_h = 0;
  atlas->GetTexDataAsAlpha8(&alpha, &tex_w, &tex_h);
  const ImFontAtlasCustomRect* r = atlas->GetCustomRectByIndex(rect_index);
  if (!alpha || !r->IsPacked()) return;
  const int t = std::max(1, int(std::round(pixels / 13.0f)));
  for (int y = 0; y < r->Height; ++y)
    for (int x = 0; x < r->Width; ++x) {
      const bool edge = x < t || y < t || x >= r->Width - t || y >= r->Height - t;
      alpha[size_t(r->Y + y) * size_t(tex_w) + size_t(r->X + x)] = edge ? 0xFF : 0x00;
    }
}

// After a build: the characters tried that no face got are missing.
void update_missing(ImFont* text) {
  for (char32_t c : g_tried)
    if (c > 0xFFFF || !text->FindGlyphNoFallback(ImWchar(c))) g_missing.insert(c);
    else g_missing.erase(c);
}

}  // namespace

void load_fonts(float pixel_ratio) {
  g_pixel_ratio = pixel_ratio;
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  const float pixels = std::round(kTextSize * pixel_ratio);
  const bool cjk = g_cjk_data != nullptr;
  if (cjk) collect_cjk_ranges();
  static_assert(sizeof(ImWchar) == sizeof(unsigned short));
  const auto ranges = [](const unsigned short* r) { return reinterpret_cast<const ImWchar*>(r); };
  ImFont* text = add_font(fonts::k_text, int(sizeof fonts::k_text), ranges(fonts::k_text_ranges), pixels, false);
  if (cjk && g_cjk_ranges.size() > 1) add_font(g_cjk_data, int(g_cjk_size), g_cjk_ranges.data(), pixels, true);
  // The Language menu's 语言 and 中文 in any interface language (the CJK face, when merged, has them first).
  add_font(fonts::k_lang_names, int(sizeof fonts::k_lang_names), ranges(fonts::k_lang_names_ranges), pixels, true);
  g_number_font = add_font(fonts::k_mono, int(sizeof fonts::k_mono), ranges(fonts::k_mono_ranges), pixels, false);
  if (cjk && g_cjk_ranges.size() > 1) add_font(g_cjk_data, int(g_cjk_size), g_cjk_ranges.data(), pixels, true);
  const int text_box = add_box_glyph(text, pixels), number_box = add_box_glyph(g_number_font, pixels);
  io.Fonts->Build();
  paint_box(text_box, pixels);
  paint_box(number_box, pixels);
  io.FontDefault = nullptr;  // the first font added: the text face
  io.FontGlobalScale = 1.0f / pixel_ratio;
  if (cjk) update_missing(text);
}

bool reload_fonts_if_stale() {
  if (!fonts_stale()) return false;
  load_fonts(g_pixel_ratio);
  return true;
}

ImFont* number_font() { return g_number_font; }

// Only a font of the current context's atlas (a context made after another, as in tests, has its own).
NumberFontScope::NumberFontScope()
    : pushed_(g_number_font && ImGui::GetCurrentContext() && ImGui::GetIO().Fonts->Fonts.contains(g_number_font) &&
              g_number_font->IsLoaded()) {
  if (pushed_) ImGui::PushFont(g_number_font);
}

NumberFontScope::~NumberFontScope() {
  if (pushed_) ImGui::PopFont();
}

void provide_cjk_font(const unsigned char* data, size_t size) {
  g_cjk_data = data;
  g_cjk_size = size;
  g_cjk_unavailable = false;
}

void cjk_font_unavailable(const std::string& why) {
  g_cjk_unavailable = true;
  g_cjk_failure = why;
  // What waited for the face is missing now.
  for (char32_t c : g_pending) g_missing.insert(c);
}

bool cjk_font_provided() { return g_cjk_data != nullptr; }

bool cjk_font_wanted() {
  if (g_cjk_data || g_cjk_unavailable) return false;
  if (ui_lang() == Lang::Zh) return true;
  return std::any_of(g_pending.begin(), g_pending.end(), [](char32_t c) { return is_cjk(c); });
}

bool fonts_stale() {
  if (!g_cjk_data || !ImGui::GetCurrentContext()) return false;
  if (!g_pending.empty()) return true;
  return ui_lang() == Lang::Zh && catalogue_loaded(Lang::Zh) && !g_atlas_has_catalogue;
}

void note_drawn_text(std::string_view text, const ImFont* font) {
  // The text face holds every glyph the numbers' face has, and the CJK glyphs go into both alike: what
  // the text face lacks, no face has (a character only the numbers' face lacks is not looked for: tick
  // labels are numbers). The text face is the atlas's first font; an atlas without our faces (no box
  // glyph: ImGui's default font in a test's bare context) says nothing about them: not looked at.
  (void)font;
  if (!ImGui::GetCurrentContext() || ImGui::GetIO().Fonts->Fonts.empty()) return;
  font = ImGui::GetIO().Fonts->Fonts[0];
  if (!font->FindGlyphNoFallback(ImWchar(0xFFFD))) return;
  // ASCII is the text face's; only other bytes start a look-up.
  if (std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; })) return;
  for (char32_t c : utf8_code_points(text)) {
    if (c < 0x80 || c == 0xFFFD) continue;
    if (c <= 0xFFFF && font->FindGlyphNoFallback(ImWchar(c))) continue;
    if (g_missing.count(c) || g_pending.count(c)) continue;
    // A face may still have it: the CJK face (fetched for CJK text) once there, at the next build.
    const bool can_wait = c <= 0xFFFF && !g_tried.count(c) && !g_cjk_unavailable && (g_cjk_data || is_cjk(c));
    if (can_wait) g_pending.insert(c);
    else g_missing.insert(c);
  }
}

const std::set<char32_t>& missing_glyphs() { return g_missing; }

Notices font_notices() {
  Notices out;
  // Characters wait for the face while it is wanted and not yet here: the page is fetching it.
  if (cjk_font_wanted() && !g_pending.empty())
    out.push_back({"text", "The Chinese font is loading: its characters are drawn as boxes until it arrives."});
  if (g_cjk_unavailable)
    out.push_back({"text", "The Chinese font could not be loaded (" +
                               (g_cjk_failure.empty() ? std::string("no reason given") : g_cjk_failure) +
                               "): its characters are drawn as boxes."});
  if (g_missing.empty()) return out;
  std::string list;
  int shown = 0;
  for (char32_t c : g_missing) {
    if (shown++ == 8) {
      list += ", ...";
      break;
    }
    char code[16];
    std::snprintf(code, sizeof code, "U+%04X", unsigned(c));
    list += (list.empty() ? "" : ", ") + ("\"" + utf8_encode(c) + "\" (" + code + ")");
  }
  out.push_back({"text", "No font has a glyph for " + list + ": drawn as a box."});
  return out;
}

void reset_seen_glyphs() {
  g_pending.clear();
  g_tried.clear();
  g_missing.clear();
}

}  // namespace posenc::app
