#include "app/text_hook.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <cstring>

#include "app/fonts.h"

// The wrapped symbols (their mangled names are the link options' in cmake/app.cmake):
//   void ImDrawList::AddText(const ImFont*, float, const ImVec2&, ImU32, const char*, const char*, float, const ImVec4*)
//   void ImDrawList::AddText(const ImVec2&, ImU32, const char*, const char*)
// The short overload calls the long one inside imgui_draw.cpp, where no wrap applies: each string is
// seen once.
#define POSENC_ADDTEXT_LONG _ZN10ImDrawList7AddTextEPK6ImFontfRK6ImVec2jPKcS7_fPK6ImVec4
#define POSENC_ADDTEXT_SHORT _ZN10ImDrawList7AddTextERK6ImVec2jPKcS4_
#define POSENC_CAT(a, b) a##b
#define POSENC_WRAP(name) POSENC_CAT(__wrap_, name)
#define POSENC_REAL(name) POSENC_CAT(__real_, name)

namespace posenc::app {
namespace {

TextObserver& observer() {
  static TextObserver o;
  return o;
}

int g_verbatim = 0;  // VerbatimText scopes alive

void seen(const ImDrawList* list, const ImFont* font, const char* begin, const char* end) {
  if (!begin) return;
  if (!end) end = begin + std::strlen(begin);
  if (end == begin) return;
  if (!font && list->_Data) font = list->_Data->Font;
  const std::string_view text(begin, size_t(end - begin));
  note_drawn_text(text, font);
  if (observer()) observer()(text, font, g_verbatim > 0);
}

}  // namespace

void set_text_observer(TextObserver o) { observer() = std::move(o); }

VerbatimText::VerbatimText(bool on) : on_(on) { g_verbatim += on_ ? 1 : 0; }
VerbatimText::~VerbatimText() { g_verbatim -= on_ ? 1 : 0; }

}  // namespace posenc::app

extern "C" {
void POSENC_REAL(POSENC_ADDTEXT_LONG)(ImDrawList* self, const ImFont* font, float font_size, const ImVec2& pos, ImU32 col,
                                      const char* text_begin, const char* text_end, float wrap_width,
                                      const ImVec4* cpu_fine_clip_rect);
void POSENC_REAL(POSENC_ADDTEXT_SHORT)(ImDrawList* self, const ImVec2& pos, ImU32 col, const char* text_begin,
                                       const char* text_end);

void POSENC_WRAP(POSENC_ADDTEXT_LONG)(ImDrawList* self, const ImFont* font, float font_size, const ImVec2& pos, ImU32 col,
                                      const char* text_begin, const char* text_end, float wrap_width,
                                      const ImVec4* cpu_fine_clip_rect) {
  posenc::app::seen(self, font, text_begin, text_end);
  POSENC_REAL(POSENC_ADDTEXT_LONG)(self, font, font_size, pos, col, text_begin, text_end, wrap_width, cpu_fine_clip_rect);
}

void POSENC_WRAP(POSENC_ADDTEXT_SHORT)(ImDrawList* self, const ImVec2& pos, ImU32 col, const char* text_begin,
                                       const char* text_end) {
  posenc::app::seen(self, nullptr, text_begin, text_end);
  POSENC_REAL(POSENC_ADDTEXT_SHORT)(self, pos, col, text_begin, text_end);
}
}
