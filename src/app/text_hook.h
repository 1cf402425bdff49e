// Every text Dear ImGui draws passes through here: the link wraps both ImDrawList::AddText overloads
// (`--wrap`, cmake/app.cmake), the one call all of ImGui's text drawing and the app's own plot labels
// end in. The characters the drawing font lacks are noted for the font atlas (fonts.h: the CJK face is
// fetched or the glyphs are rebuilt, or they are named as missing); a test may watch every string drawn.
#pragma once

#include <functional>
#include <string_view>

struct ImFont;

namespace posenc::app {

// Called with each string drawn (its visible text, the font it is drawn in, whether it is data: drawn
// inside a VerbatimText scope); empty: none.
using TextObserver = std::function<void(std::string_view text, const ImFont* font, bool data)>;
void set_text_observer(TextObserver observer);

// Text drawn while one lives is data, not interface text: what the user typed (text fields), example
// sentences, a model's names. It is never translated, and the catalogue test does not look for it.
class VerbatimText {
 public:
  // `on` false: a scope that marks nothing (for a branch that draws interface text instead).
  explicit VerbatimText(bool on = true);
  ~VerbatimText();
  VerbatimText(const VerbatimText&) = delete;
  VerbatimText& operator=(const VerbatimText&) = delete;

 private:
  bool on_;
};

}  // namespace posenc::app
