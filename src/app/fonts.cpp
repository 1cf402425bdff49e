#include "app/fonts.h"

#include <imgui.h>

#include <cmath>

#include "posenc_fonts.h"

namespace posenc::app {
namespace {

ImFont* g_number_font = nullptr;

ImFont* add_font(const unsigned char* bytes, int size, const unsigned short* ranges, float pixel_size) {
  ImFontConfig cfg;
  // The atlas keeps pointers into the bytes; they are static, never ImGui's to free.
  cfg.FontDataOwnedByAtlas = false;
  cfg.SizePixels = pixel_size;
  // Rasterised at the exact device pixel size and snapped to whole pixels: crisp stems, no blur from
  // sub-pixel placement.
  cfg.OversampleH = cfg.OversampleV = 1;
  cfg.PixelSnapH = true;
  static_assert(sizeof(ImWchar) == sizeof(unsigned short));
  return ImGui::GetIO().Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(bytes), size, pixel_size, &cfg,
                                                    reinterpret_cast<const ImWchar*>(ranges));
}

}  // namespace

void load_fonts(float pixel_ratio) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  const float pixels = std::round(kTextSize * pixel_ratio);
  add_font(fonts::k_text, int(sizeof fonts::k_text), fonts::k_text_ranges, pixels);
  g_number_font = add_font(fonts::k_mono, int(sizeof fonts::k_mono), fonts::k_mono_ranges, pixels);
  io.FontDefault = nullptr;  // the first font added: the text face
  io.FontGlobalScale = 1.0f / pixel_ratio;
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

}  // namespace posenc::app
