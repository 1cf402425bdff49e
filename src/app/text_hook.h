// Every text Dear ImGui draws passes through here: the link wraps both ImDrawList::AddText overloads
// (`--wrap`, cmake/app.cmake), the one call all of ImGui's text drawing and the app's own plot labels
// end in. The characters the drawing font lacks are noted for the font atlas (fonts.h: the CJK face is
// fetched or the glyphs are rebuilt, or they are named as missing); a test may watch every string drawn.
// Wrapped text (TextWrapped, a pushed wrap position, AddText with a wrap width) is broken into lines here
// by app/line_break.h, not by ImGui's own rule (spaces and ASCII punctuation only): ImGui::CalcTextSize
// is wrapped too, so an item's measured height and its drawn lines agree.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/noncopyable.h"

struct ImFont;

namespace posenc::app {

// Called with each string drawn (its visible text, the font it is drawn in, whether it is data: drawn
// inside a VerbatimText scope); empty: none.
using TextObserver = std::function<void(std::string_view text, const ImFont* font, bool data)>;
void set_text_observer(TextObserver observer);

// How a drawn line ends: the text's end, a newline of the text, a wrap at blanks (dropped), a wrap where
// the rules allow a break without blanks (between CJK characters, after a hyphen), or a cut inside a run
// wider than the line (no break allowed).
enum class LineEnd { End, Newline, Space, Break, Forced };
const char* line_end_name(LineEnd e);  // "end", "newline", "space", "break", "forced"

// A text as drawn in the last frame: its lines (a wrapped text's lines, or a text's lines between its
// newlines), how each ends, and the width it was wrapped to (0: not wrapped). window.posenc.drawnText()
// returns them.
struct DrawnText {
  std::vector<std::string> lines;
  std::vector<LineEnd> ends;
  float wrap_width = 0;
  bool data = false;
};
// The texts drawn in the last frame, in drawing order; at most kMaxDrawnTexts of them and kMaxDrawnBytes
// of text (drawn_texts_truncated() then says so).
constexpr size_t kMaxDrawnTexts = 8192;
constexpr size_t kMaxDrawnBytes = size_t{1} << 20;
const std::vector<DrawnText>& drawn_texts();
bool drawn_texts_truncated();
// Called at the start of every frame (with clear_probes): forget the last frame's texts.
void clear_drawn_texts();

// Text drawn while one lives is data, not interface text: what the user typed (text fields), example
// sentences, a model's names. It is never translated, and the catalogue test does not look for it.
class VerbatimText : NonCopyable {
 public:
  // `on` false: a scope that marks nothing (for a branch that draws interface text instead).
  explicit VerbatimText(bool on = true);
  ~VerbatimText();

 private:
  bool on_;
};

}  // namespace posenc::app
