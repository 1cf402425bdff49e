#include "app/text_hook.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "app/fonts.h"
#include "app/line_break.h"

// The wrapped symbols (their mangled names are the link options' in cmake/app.cmake):
//   void ImDrawList::AddText(const ImFont*, float, const ImVec2&, ImU32, const char*, const char*, float, const ImVec4*)
//   void ImDrawList::AddText(const ImVec2&, ImU32, const char*, const char*)
//   ImVec2 ImGui::CalcTextSize(const char*, const char*, bool, float)
// The short overload calls the long one inside imgui_draw.cpp, where no wrap applies: each string is
// seen once. CalcTextSize is called with a wrap width from imgui_widgets.cpp (TextEx, the one path of
// TextWrapped and of text under a pushed wrap position) and from the app, where the wrap applies.
#define POSENC_ADDTEXT_LONG _ZN10ImDrawList7AddTextEPK6ImFontfRK6ImVec2jPKcS7_fPK6ImVec4
#define POSENC_ADDTEXT_SHORT _ZN10ImDrawList7AddTextERK6ImVec2jPKcS4_
#define POSENC_CALCTEXTSIZE _ZN5ImGui12CalcTextSizeEPKcS1_bf
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

struct DrawnRecord {
  std::vector<DrawnText> texts;
  size_t bytes = 0;
  bool truncated = false;
};
DrawnRecord& drawn() {
  static DrawnRecord r;
  return r;
}

// Records one text as drawn: `lines` wrapped (wrap_width > 0), or the text split at its newlines.
void record_drawn(std::string_view text, const std::vector<WrappedLine>* lines, float wrap_width) {
  DrawnRecord& r = drawn();
  if (r.texts.size() >= kMaxDrawnTexts || r.bytes + text.size() > kMaxDrawnBytes) {
    r.truncated = true;
    return;
  }
  r.bytes += text.size();
  DrawnText d;
  d.wrap_width = wrap_width;
  d.data = g_verbatim > 0;
  if (lines) {
    for (size_t i = 0; i < lines->size(); ++i) {
      const WrappedLine& l = (*lines)[i];
      d.lines.emplace_back(text.substr(l.begin, l.end - l.begin));
      const bool last = i + 1 == lines->size();
      const std::string_view gap = text.substr(l.end, (last ? text.size() : (*lines)[i + 1].begin) - l.end);
      d.ends.push_back(last                                       ? LineEnd::End
                       : l.forced                                 ? LineEnd::Forced
                       : gap.find('\n') != std::string_view::npos ? LineEnd::Newline
                       : !gap.empty()                             ? LineEnd::Space
                                                                  : LineEnd::Break);
    }
  } else {
    for (size_t from = 0;;) {
      const size_t nl = text.find('\n', from);
      std::string line(text.substr(from, nl == std::string_view::npos ? std::string_view::npos : nl - from));
      std::erase(line, '\r');
      d.lines.push_back(std::move(line));
      d.ends.push_back(nl == std::string_view::npos ? LineEnd::End : LineEnd::Newline);
      if (nl == std::string_view::npos) break;
      from = nl + 1;
    }
  }
  r.texts.push_back(std::move(d));
}

// A font's advances at `size` pixels, as ImFont::CalcWordWrapPositionA reads them.
Advance font_advance(const ImFont* font, float size) {
  const float scale = size / font->FontSize;
  return [font, scale](char32_t c) {
    return (c < char32_t(font->IndexAdvanceX.Size) ? font->IndexAdvanceX[int(c)] : font->FallbackAdvanceX) * scale;
  };
}

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

const char* line_end_name(LineEnd e) {
  switch (e) {
    case LineEnd::End: return "end";
    case LineEnd::Newline: return "newline";
    case LineEnd::Space: return "space";
    case LineEnd::Break: return "break";
    case LineEnd::Forced: return "forced";
  }
  return "end";
}

const std::vector<DrawnText>& drawn_texts() { return drawn().texts; }
bool drawn_texts_truncated() { return drawn().truncated; }
void clear_drawn_texts() { drawn() = {}; }

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
  if (!text_begin) return;
  if (!text_end) text_end = text_begin + std::strlen(text_begin);
  const std::string_view text(text_begin, size_t(text_end - text_begin));
  if (wrap_width <= 0) {
    if (!text.empty()) posenc::app::record_drawn(text, nullptr, 0);
    POSENC_REAL(POSENC_ADDTEXT_LONG)(self, font, font_size, pos, col, text_begin, text_end, wrap_width, cpu_fine_clip_rect);
    return;
  }
  // Wrapped: the lines of app/line_break.h, each drawn unwrapped one line height below the last (as
  // ImFont::RenderText places them: from the floored position, font_size apart).
  if (!font) font = self->_Data->Font;
  if (font_size == 0.0f) font_size = self->_Data->FontSize;
  const std::vector<posenc::app::WrappedLine> lines =
      posenc::app::wrap_text(text, wrap_width, posenc::app::font_advance(font, font_size));
  posenc::app::record_drawn(text, &lines, wrap_width);
  const float x = pos.x, y = std::floor(pos.y);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].end == lines[i].begin) continue;
    POSENC_REAL(POSENC_ADDTEXT_LONG)
    (self, font, font_size, ImVec2(x, y + float(i) * font_size), col, text_begin + lines[i].begin, text_begin + lines[i].end,
     0.0f, cpu_fine_clip_rect);
  }
}

void POSENC_WRAP(POSENC_ADDTEXT_SHORT)(ImDrawList* self, const ImVec2& pos, ImU32 col, const char* text_begin,
                                       const char* text_end) {
  posenc::app::seen(self, nullptr, text_begin, text_end);
  if (text_begin && (text_end ? text_end > text_begin : *text_begin))
    posenc::app::record_drawn(text_end ? std::string_view(text_begin, size_t(text_end - text_begin)) : text_begin, nullptr, 0);
  POSENC_REAL(POSENC_ADDTEXT_SHORT)(self, pos, col, text_begin, text_end);
}

// ImGui's own function, under the C name the link gives it: ImVec2 (two floats, trivially copyable) is
// returned as the C++ declaration returns it, whatever clang says of C linkage.
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wreturn-type-c-linkage"
#endif
ImVec2 POSENC_REAL(POSENC_CALCTEXTSIZE)(const char* text, const char* text_end, bool hide_text_after_double_hash,
                                        float wrap_width);

// A wrapped text's size by the lines it is drawn in: the widest line, rounded up as ImGui rounds, and one
// line height per line.
ImVec2 POSENC_WRAP(POSENC_CALCTEXTSIZE)(const char* text, const char* text_end, bool hide_text_after_double_hash,
                                        float wrap_width) {
  if (wrap_width <= 0 || !text) return POSENC_REAL(POSENC_CALCTEXTSIZE)(text, text_end, hide_text_after_double_hash, wrap_width);
  const ImGuiContext& g = *GImGui;
  if (!text_end) text_end = text + std::strlen(text);
  if (hide_text_after_double_hash) text_end = ImGui::FindRenderedTextEnd(text, text_end);
  if (text == text_end) return ImVec2(0.0f, g.FontSize);
  const std::vector<posenc::app::WrappedLine> lines = posenc::app::wrap_text(
      std::string_view(text, size_t(text_end - text)), wrap_width, posenc::app::font_advance(g.Font, g.FontSize));
  float width = 0;
  for (const posenc::app::WrappedLine& l : lines) width = std::max(width, l.width);
  return ImVec2(IM_FLOOR(width + 0.99999f), g.FontSize * float(std::max<size_t>(lines.size(), 1)));
}
#ifdef __clang__
#pragma clang diagnostic pop
#endif
}
