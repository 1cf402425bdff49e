// Where a line of text may break, by the core rules of Unicode's line breaking algorithm (UAX #14,
// Unicode 15.0), and the one wrap every text the app draws goes through (app/text_hook.cpp hands ImGui's
// wrapped drawing and measuring to wrap_text). A break is allowed between CJK characters and after a
// space; never inside a number ("2.220e-16", "1.55811e+06", "12%") or a Latin word, never before closing
// punctuation (。，、；：！？）」』】 . , ; : ! ? ) ] }) nor after opening punctuation (（「『【 ( [ {). Only
// a single unbreakable run wider than the line is cut where it overflows. The rules implemented and the
// tailorings are listed in docs/i18n.md ("Line breaking").
#pragma once

#include <functional>
#include <optional>
#include <string_view>
#include <vector>

namespace posenc::app {

// The UAX #14 line-break classes the rules tell apart. Classes UAX #14 has beyond these are tailored
// onto them (tailored_break_class).
enum class BreakClass : unsigned char {
  BK,  // mandatory break (LF, NEL, LS, PS)
  SP,  // space (also TAB and the ideographic space U+3000: blanks ImGui skips at a wrap)
  ZW,  // zero width space
  CM,  // combining mark, ZWJ, CR: takes the class of the character before it
  GL,  // non-breaking glue (NBSP, word joiner)
  OP,  // opening punctuation
  CL,  // closing punctuation
  CP,  // closing parenthesis ) ]
  QU,  // quotation
  NS,  // non-starter (：；, small kana, the prolonged sound mark)
  EX,  // exclamation, interrogation
  IS,  // infix separator of numbers . , : ;
  SY,  // solidus /
  PR,  // prefix of a number + $ ±
  PO,  // postfix of a number % ‰ °
  NU,  // digit
  AL,  // alphabetic and everything else
  ID,  // ideographic (CJK ideographs, kana, Hangul, full-width letters and digits)
  BA,  // break after (hyphens other than -, tab-like spaces)
  BB,  // break before
  HY,  // hyphen-minus
  B2,  // em dash
  IN,  // inseparable … ‥
};

// A code point's class: Unicode 15.0's LineBreak.txt for Latin, Greek, Cyrillic, punctuation, symbols,
// CJK, kana, Hangul and the full-width forms, tailored; AL elsewhere.
BreakClass break_class(char32_t c);
// The class a UAX #14 class name (LineBreak.txt's spelling) is treated as; nullopt for a name UAX #14
// does not have.
std::optional<BreakClass> tailored_break_class(std::string_view uax14_class);

// Whether a line may break between two characters (before `next`), by the pair rules LB6-LB31; `before`
// is the class of the last character before any spaces that `prev` ends (prev itself when it is no space).
bool break_allowed(BreakClass before, BreakClass prev, BreakClass next, char32_t next_code_point);

// One line of a wrapped text: bytes [begin, end) of the text (no trailing blanks, no newline), its width
// in the advance function's unit, and whether it ends where no break was allowed (a run wider than the
// line, cut).
struct WrappedLine {
  size_t begin = 0, end = 0;
  float width = 0;
  bool forced = false;
};

using Advance = std::function<float(char32_t)>;
// `text` (UTF-8, decoded as ImGui decodes it) broken into lines no wider than `wrap_width`: each line ends
// at the last allowed break that fits, a newline always ends one, blanks at a wrap are dropped. A line is
// wider only when it is one character wider than the line. Empty text has no lines.
std::vector<WrappedLine> wrap_text(std::string_view text, float wrap_width, const Advance& advance);

}  // namespace posenc::app
