#include "app/line_break.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>

#include "core/unicode_text.h"

namespace posenc::app {
namespace {

using K = BreakClass;

struct ClassRange {
  char32_t lo, hi;
  BreakClass cls;
};

// Unicode 15.0's LineBreak.txt (Debian's unicode-data 15.0.0, /usr/share/unicode/LineBreak.txt) over the
// blocks U+0000-052F, 1100-11FF, 2000-22FF, 2E80-9FFF, A000-A4CF, AC00-D7FF, F900-FAFF, FE10-FE6F,
// FF00-FFEF and 20000-3FFFD, tailored (kTailoring), runs of one class merged, AL left out (the default).
// tests/app/line_break_test.cpp checks it against the file, code point by code point.
constexpr ClassRange kClasses[] = {
    {0x0000, 0x0008, K::CM}, {0x0009, 0x0009, K::SP}, {0x000A, 0x000C, K::BK},   {0x000D, 0x001F, K::CM},
    {0x0020, 0x0020, K::SP}, {0x0021, 0x0021, K::EX}, {0x0022, 0x0022, K::QU},   {0x0024, 0x0024, K::PR},
    {0x0025, 0x0025, K::PO}, {0x0027, 0x0027, K::QU}, {0x0028, 0x0028, K::OP},   {0x0029, 0x0029, K::CP},
    {0x002B, 0x002B, K::PR}, {0x002C, 0x002C, K::IS}, {0x002D, 0x002D, K::HY},   {0x002E, 0x002E, K::IS},
    {0x002F, 0x002F, K::SY}, {0x0030, 0x0039, K::NU}, {0x003A, 0x003B, K::IS},   {0x003F, 0x003F, K::EX},
    {0x005B, 0x005B, K::OP}, {0x005C, 0x005C, K::PR}, {0x005D, 0x005D, K::CP},   {0x007B, 0x007B, K::OP},
    {0x007C, 0x007C, K::BA}, {0x007D, 0x007D, K::CL}, {0x007F, 0x0084, K::CM},   {0x0085, 0x0085, K::BK},
    {0x0086, 0x009F, K::CM}, {0x00A0, 0x00A0, K::GL}, {0x00A1, 0x00A1, K::OP},   {0x00A2, 0x00A2, K::PO},
    {0x00A3, 0x00A5, K::PR}, {0x00AB, 0x00AB, K::QU}, {0x00AD, 0x00AD, K::BA},   {0x00B0, 0x00B0, K::PO},
    {0x00B1, 0x00B1, K::PR}, {0x00B4, 0x00B4, K::BB}, {0x00BB, 0x00BB, K::QU},   {0x00BF, 0x00BF, K::OP},
    {0x02C8, 0x02C8, K::BB}, {0x02CC, 0x02CC, K::BB}, {0x02DF, 0x02DF, K::BB},   {0x0300, 0x034E, K::CM},
    {0x034F, 0x034F, K::GL}, {0x0350, 0x035B, K::CM}, {0x035C, 0x0362, K::GL},   {0x0363, 0x036F, K::CM},
    {0x037E, 0x037E, K::IS}, {0x0483, 0x0489, K::CM}, {0x1100, 0x11FF, K::ID},   {0x2000, 0x2006, K::BA},
    {0x2007, 0x2007, K::GL}, {0x2008, 0x200A, K::BA}, {0x200B, 0x200B, K::ZW},   {0x200C, 0x200F, K::CM},
    {0x2010, 0x2010, K::BA}, {0x2011, 0x2011, K::GL}, {0x2012, 0x2013, K::BA},   {0x2014, 0x2014, K::B2},
    {0x2018, 0x2019, K::QU}, {0x201A, 0x201A, K::OP}, {0x201B, 0x201D, K::QU},   {0x201E, 0x201E, K::OP},
    {0x201F, 0x201F, K::QU}, {0x2024, 0x2026, K::IN}, {0x2027, 0x2027, K::BA},   {0x2028, 0x2029, K::BK},
    {0x202A, 0x202E, K::CM}, {0x202F, 0x202F, K::GL}, {0x2030, 0x2037, K::PO},   {0x2039, 0x203A, K::QU},
    {0x203C, 0x203D, K::NS}, {0x2044, 0x2044, K::IS}, {0x2045, 0x2045, K::OP},   {0x2046, 0x2046, K::CL},
    {0x2047, 0x2049, K::NS}, {0x2056, 0x2056, K::BA}, {0x2057, 0x2057, K::PO},   {0x2058, 0x205B, K::BA},
    {0x205D, 0x205F, K::BA}, {0x2060, 0x2060, K::GL}, {0x2066, 0x206F, K::CM},   {0x207D, 0x207D, K::OP},
    {0x207E, 0x207E, K::CL}, {0x208D, 0x208D, K::OP}, {0x208E, 0x208E, K::CL},   {0x20A0, 0x20A6, K::PR},
    {0x20A7, 0x20A7, K::PO}, {0x20A8, 0x20B5, K::PR}, {0x20B6, 0x20B6, K::PO},   {0x20B7, 0x20BA, K::PR},
    {0x20BB, 0x20BB, K::PO}, {0x20BC, 0x20BD, K::PR}, {0x20BE, 0x20BE, K::PO},   {0x20BF, 0x20BF, K::PR},
    {0x20C0, 0x20C0, K::PO}, {0x20C1, 0x20CF, K::PR}, {0x20D0, 0x20F0, K::CM},   {0x2103, 0x2103, K::PO},
    {0x2109, 0x2109, K::PO}, {0x2116, 0x2116, K::PR}, {0x2212, 0x2213, K::PR},   {0x22EF, 0x22EF, K::IN},
    {0x2E80, 0x2E99, K::ID}, {0x2E9B, 0x2EF3, K::ID}, {0x2F00, 0x2FD5, K::ID},   {0x2FF0, 0x2FFB, K::ID},
    {0x3000, 0x3000, K::SP}, {0x3001, 0x3002, K::CL}, {0x3003, 0x3004, K::ID},   {0x3005, 0x3005, K::NS},
    {0x3006, 0x3007, K::ID}, {0x3008, 0x3008, K::OP}, {0x3009, 0x3009, K::CL},   {0x300A, 0x300A, K::OP},
    {0x300B, 0x300B, K::CL}, {0x300C, 0x300C, K::OP}, {0x300D, 0x300D, K::CL},   {0x300E, 0x300E, K::OP},
    {0x300F, 0x300F, K::CL}, {0x3010, 0x3010, K::OP}, {0x3011, 0x3011, K::CL},   {0x3012, 0x3013, K::ID},
    {0x3014, 0x3014, K::OP}, {0x3015, 0x3015, K::CL}, {0x3016, 0x3016, K::OP},   {0x3017, 0x3017, K::CL},
    {0x3018, 0x3018, K::OP}, {0x3019, 0x3019, K::CL}, {0x301A, 0x301A, K::OP},   {0x301B, 0x301B, K::CL},
    {0x301C, 0x301C, K::NS}, {0x301D, 0x301D, K::OP}, {0x301E, 0x301F, K::CL},   {0x3020, 0x3029, K::ID},
    {0x302A, 0x302F, K::CM}, {0x3030, 0x3034, K::ID}, {0x3035, 0x3035, K::CM},   {0x3036, 0x303A, K::ID},
    {0x303B, 0x303C, K::NS}, {0x303D, 0x303F, K::ID}, {0x3041, 0x3041, K::NS},   {0x3042, 0x3042, K::ID},
    {0x3043, 0x3043, K::NS}, {0x3044, 0x3044, K::ID}, {0x3045, 0x3045, K::NS},   {0x3046, 0x3046, K::ID},
    {0x3047, 0x3047, K::NS}, {0x3048, 0x3048, K::ID}, {0x3049, 0x3049, K::NS},   {0x304A, 0x3062, K::ID},
    {0x3063, 0x3063, K::NS}, {0x3064, 0x3082, K::ID}, {0x3083, 0x3083, K::NS},   {0x3084, 0x3084, K::ID},
    {0x3085, 0x3085, K::NS}, {0x3086, 0x3086, K::ID}, {0x3087, 0x3087, K::NS},   {0x3088, 0x308D, K::ID},
    {0x308E, 0x308E, K::NS}, {0x308F, 0x3094, K::ID}, {0x3095, 0x3096, K::NS},   {0x3099, 0x309A, K::CM},
    {0x309B, 0x309E, K::NS}, {0x309F, 0x309F, K::ID}, {0x30A0, 0x30A1, K::NS},   {0x30A2, 0x30A2, K::ID},
    {0x30A3, 0x30A3, K::NS}, {0x30A4, 0x30A4, K::ID}, {0x30A5, 0x30A5, K::NS},   {0x30A6, 0x30A6, K::ID},
    {0x30A7, 0x30A7, K::NS}, {0x30A8, 0x30A8, K::ID}, {0x30A9, 0x30A9, K::NS},   {0x30AA, 0x30C2, K::ID},
    {0x30C3, 0x30C3, K::NS}, {0x30C4, 0x30E2, K::ID}, {0x30E3, 0x30E3, K::NS},   {0x30E4, 0x30E4, K::ID},
    {0x30E5, 0x30E5, K::NS}, {0x30E6, 0x30E6, K::ID}, {0x30E7, 0x30E7, K::NS},   {0x30E8, 0x30ED, K::ID},
    {0x30EE, 0x30EE, K::NS}, {0x30EF, 0x30F4, K::ID}, {0x30F5, 0x30F6, K::NS},   {0x30F7, 0x30FA, K::ID},
    {0x30FB, 0x30FE, K::NS}, {0x30FF, 0x30FF, K::ID}, {0x3105, 0x312F, K::ID},   {0x3131, 0x318E, K::ID},
    {0x3190, 0x31E3, K::ID}, {0x31F0, 0x31FF, K::NS}, {0x3200, 0x321E, K::ID},   {0x3220, 0x3247, K::ID},
    {0x3250, 0x4DBF, K::ID}, {0x4E00, 0x9FFF, K::ID}, {0xA000, 0xA014, K::ID},   {0xA015, 0xA015, K::NS},
    {0xA016, 0xA48C, K::ID}, {0xA490, 0xA4C6, K::ID}, {0xAC00, 0xD7A3, K::ID},   {0xD7B0, 0xD7C6, K::ID},
    {0xD7CB, 0xD7FB, K::ID}, {0xF900, 0xFAFF, K::ID}, {0xFE10, 0xFE10, K::IS},   {0xFE11, 0xFE12, K::CL},
    {0xFE13, 0xFE14, K::IS}, {0xFE15, 0xFE16, K::EX}, {0xFE17, 0xFE17, K::OP},   {0xFE18, 0xFE18, K::CL},
    {0xFE19, 0xFE19, K::IN}, {0xFE20, 0xFE2F, K::CM}, {0xFE30, 0xFE34, K::ID},   {0xFE35, 0xFE35, K::OP},
    {0xFE36, 0xFE36, K::CL}, {0xFE37, 0xFE37, K::OP}, {0xFE38, 0xFE38, K::CL},   {0xFE39, 0xFE39, K::OP},
    {0xFE3A, 0xFE3A, K::CL}, {0xFE3B, 0xFE3B, K::OP}, {0xFE3C, 0xFE3C, K::CL},   {0xFE3D, 0xFE3D, K::OP},
    {0xFE3E, 0xFE3E, K::CL}, {0xFE3F, 0xFE3F, K::OP}, {0xFE40, 0xFE40, K::CL},   {0xFE41, 0xFE41, K::OP},
    {0xFE42, 0xFE42, K::CL}, {0xFE43, 0xFE43, K::OP}, {0xFE44, 0xFE44, K::CL},   {0xFE45, 0xFE46, K::ID},
    {0xFE47, 0xFE47, K::OP}, {0xFE48, 0xFE48, K::CL}, {0xFE49, 0xFE4F, K::ID},   {0xFE50, 0xFE50, K::CL},
    {0xFE51, 0xFE51, K::ID}, {0xFE52, 0xFE52, K::CL}, {0xFE54, 0xFE55, K::NS},   {0xFE56, 0xFE57, K::EX},
    {0xFE58, 0xFE58, K::ID}, {0xFE59, 0xFE59, K::OP}, {0xFE5A, 0xFE5A, K::CL},   {0xFE5B, 0xFE5B, K::OP},
    {0xFE5C, 0xFE5C, K::CL}, {0xFE5D, 0xFE5D, K::OP}, {0xFE5E, 0xFE5E, K::CL},   {0xFE5F, 0xFE66, K::ID},
    {0xFE68, 0xFE68, K::ID}, {0xFE69, 0xFE69, K::PR}, {0xFE6A, 0xFE6A, K::PO},   {0xFE6B, 0xFE6B, K::ID},
    {0xFF01, 0xFF01, K::EX}, {0xFF02, 0xFF03, K::ID}, {0xFF04, 0xFF04, K::PR},   {0xFF05, 0xFF05, K::PO},
    {0xFF06, 0xFF07, K::ID}, {0xFF08, 0xFF08, K::OP}, {0xFF09, 0xFF09, K::CL},   {0xFF0A, 0xFF0B, K::ID},
    {0xFF0C, 0xFF0C, K::CL}, {0xFF0D, 0xFF0D, K::ID}, {0xFF0E, 0xFF0E, K::CL},   {0xFF0F, 0xFF19, K::ID},
    {0xFF1A, 0xFF1B, K::NS}, {0xFF1C, 0xFF1E, K::ID}, {0xFF1F, 0xFF1F, K::EX},   {0xFF20, 0xFF3A, K::ID},
    {0xFF3B, 0xFF3B, K::OP}, {0xFF3C, 0xFF3C, K::ID}, {0xFF3D, 0xFF3D, K::CL},   {0xFF3E, 0xFF5A, K::ID},
    {0xFF5B, 0xFF5B, K::OP}, {0xFF5C, 0xFF5C, K::ID}, {0xFF5D, 0xFF5D, K::CL},   {0xFF5E, 0xFF5E, K::ID},
    {0xFF5F, 0xFF5F, K::OP}, {0xFF60, 0xFF61, K::CL}, {0xFF62, 0xFF62, K::OP},   {0xFF63, 0xFF64, K::CL},
    {0xFF65, 0xFF65, K::NS}, {0xFF66, 0xFF66, K::ID}, {0xFF67, 0xFF70, K::NS},   {0xFF71, 0xFF9D, K::ID},
    {0xFF9E, 0xFF9F, K::NS}, {0xFFA0, 0xFFBE, K::ID}, {0xFFC2, 0xFFC7, K::ID},   {0xFFCA, 0xFFCF, K::ID},
    {0xFFD2, 0xFFD7, K::ID}, {0xFFDA, 0xFFDC, K::ID}, {0xFFE0, 0xFFE0, K::PO},   {0xFFE1, 0xFFE1, K::PR},
    {0xFFE2, 0xFFE4, K::ID}, {0xFFE5, 0xFFE6, K::PR}, {0x20000, 0x2FFFD, K::ID}, {0x30000, 0x3FFFD, K::ID},
};

struct Tailoring {
  std::string_view uax14;
  BreakClass cls;
};
// UAX #14's classes as posenc treats them. Ambiguous (AI), unknown (XX), complex-context (SA), Hebrew
// (HL), surrogates, contingent breaks and regional indicators break as letters; emoji and Hangul jamo
// and syllables as ideographs (a break between syllable blocks, as between CJK characters); conditional
// Japanese starters (CJ: small kana, ー) as non-starters (the strict line breaking of Chinese and
// Japanese); CR and ZWJ are glued to what precedes them (ImGui skips CR); LF and NEL are mandatory breaks;
// the word joiner is glue.
constexpr Tailoring kTailoring[] = {
    {"BK", K::BK}, {"LF", K::BK}, {"NL", K::BK}, {"SP", K::SP}, {"ZW", K::ZW}, {"CM", K::CM}, {"ZWJ", K::CM}, {"CR", K::CM},
    {"GL", K::GL}, {"WJ", K::GL}, {"OP", K::OP}, {"CL", K::CL}, {"CP", K::CP}, {"QU", K::QU}, {"NS", K::NS},  {"CJ", K::NS},
    {"EX", K::EX}, {"IS", K::IS}, {"SY", K::SY}, {"PR", K::PR}, {"PO", K::PO}, {"NU", K::NU}, {"AL", K::AL},  {"AI", K::AL},
    {"XX", K::AL}, {"SA", K::AL}, {"HL", K::AL}, {"SG", K::AL}, {"CB", K::AL}, {"RI", K::AL}, {"ID", K::ID},  {"EB", K::ID},
    {"EM", K::ID}, {"H2", K::ID}, {"H3", K::ID}, {"JL", K::ID}, {"JV", K::ID}, {"JT", K::ID}, {"BA", K::BA},  {"BB", K::BB},
    {"HY", K::HY}, {"B2", K::B2}, {"IN", K::IN},
};

bool any_of(BreakClass c, std::initializer_list<BreakClass> set) { return std::find(set.begin(), set.end(), c) != set.end(); }

struct Unit {
  size_t begin, end;
  char32_t cp;
  BreakClass cls;
  float advance;
};

}  // namespace

BreakClass break_class(char32_t c) {
  // The blanks ImGui skips at a wrap (ImCharIsBlankW): TAB is BA in UAX #14, U+3000 BA too.
  if (c == U'\t' || c == 0x3000) return K::SP;
  const auto* it =
      std::upper_bound(std::begin(kClasses), std::end(kClasses), c, [](char32_t v, const ClassRange& r) { return v < r.lo; });
  if (it == std::begin(kClasses)) return K::AL;
  --it;
  return c <= it->hi ? it->cls : K::AL;
}

std::optional<BreakClass> tailored_break_class(std::string_view uax14_class) {
  for (const Tailoring& t : kTailoring)
    if (t.uax14 == uax14_class) return t.cls;
  return std::nullopt;
}

bool break_allowed(BreakClass before, BreakClass prev, BreakClass next, char32_t next_code_point) {
  if (prev == K::BK) return true;                                                              // LB4
  if (any_of(next, {K::BK, K::SP, K::ZW})) return false;                                       // LB6, LB7
  if (prev == K::ZW || before == K::ZW) return true;                                           // LB8
  if (next == K::CM) return false;                                                             // LB9
  if (prev == K::GL || (next == K::GL && !any_of(prev, {K::SP, K::BA, K::HY}))) return false;  // LB11-12a
  if (any_of(next, {K::CL, K::CP, K::EX, K::IS, K::SY})) return false;                         // LB13
  if (before == K::OP) return false;                                                           // LB14: OP SP* ×
  if (before == K::QU && next == K::OP) return false;                                          // LB15
  if (any_of(before, {K::CL, K::CP}) && next == K::NS) return false;                           // LB16
  if (before == K::B2 && next == K::B2) return false;                                          // LB17
  if (prev == K::SP) return true;                                                              // LB18
  if (prev == K::QU || next == K::QU) return false;                                            // LB19
  if (any_of(next, {K::BA, K::HY, K::NS}) || prev == K::BB) return false;                      // LB21
  if (next == K::IN) return false;                                                             // LB22
  if ((prev == K::AL && next == K::NU) || (prev == K::NU && next == K::AL)) return false;      // LB23
  if ((prev == K::PR && next == K::ID) || (prev == K::ID && next == K::PO)) return false;      // LB23a
  if ((any_of(prev, {K::PR, K::PO}) && next == K::AL) || (prev == K::AL && any_of(next, {K::PR, K::PO}))) return false;  // LB24
  // LB25, as pairs (UAX #14's own simpler tailoring of the number regex): no break inside a number.
  if (any_of(prev, {K::CL, K::CP, K::NU}) && any_of(next, {K::PO, K::PR})) return false;
  if (any_of(prev, {K::PO, K::PR}) && any_of(next, {K::OP, K::NU})) return false;
  if (any_of(prev, {K::HY, K::IS, K::NU, K::SY}) && next == K::NU) return false;
  if (prev == K::AL && next == K::AL) return false;  // LB28
  if (prev == K::IS && next == K::AL) return false;  // LB29
  // LB30: a letter or digit stays with a narrow opening parenthesis after it ("f(x)"), a closing one
  // with what follows it; the wide CJK brackets (East Asian Width W: the CJK blocks, is_cjk) still break.
  if (any_of(prev, {K::AL, K::NU}) && next == K::OP && !is_cjk(next_code_point)) return false;
  if (prev == K::CP && any_of(next, {K::AL, K::NU})) return false;
  return true;  // LB31
}

std::vector<WrappedLine> wrap_text(std::string_view text, float wrap_width, const Advance& advance) {
  // Decode as ImFont::RenderText does: a NUL (or malformed sequence read as one) ends the text.
  std::vector<Unit> units;
  const char* const base = text.data();
  const char* const end = base + text.size();
  for (const char* s = base; s < end;) {
    unsigned c = static_cast<unsigned char>(*s);
    const int len = c < 0x80 ? 1 : ImTextCharFromUtf8(&c, s, end);
    if (c == 0) break;
    BreakClass cls = break_class(c);
    // LB9 / LB10: a combining mark takes the class of its base; with none (after a space, a break or at
    // the start) it is a letter.
    if (cls == K::CM) cls = (!units.empty() && !any_of(units.back().cls, {K::BK, K::SP, K::ZW})) ? units.back().cls : K::AL;
    const float w = (c == U'\r' || c == U'\n') ? 0.0f : advance(c);
    units.push_back({size_t(s - base), size_t(s - base) + size_t(len), c, cls, w});
    s += len;
  }
  const size_t n = units.size();
  // allowed[i]: a line may end before unit i. `before` carries the class before a run of spaces.
  std::vector<char> allowed(n, 0);
  BreakClass before = n ? units[0].cls : K::AL;
  for (size_t i = 1; i < n; ++i) {
    if (units[i - 1].cls != K::SP) before = units[i - 1].cls;
    const bool combining = break_class(units[i].cp) == K::CM;  // LB9: nothing breaks before a mark
    allowed[i] = !combining && break_allowed(before, units[i - 1].cls, units[i].cls, units[i].cp);
  }

  std::vector<WrappedLine> lines;
  size_t start = 0;
  while (start < n) {
    float width = 0, visible = 0, visible_at_break = 0;
    size_t last_break = 0, last_visible = start, last_visible_at_break = start;
    size_t stop = n, next = n;
    bool forced = false;
    for (size_t j = start; j < n; ++j) {
      if (units[j].cls == K::BK) {
        stop = j, next = j + 1;  // a newline ends the line; what follows keeps its blanks
        break;
      }
      if (j > start && allowed[j]) last_break = j, visible_at_break = visible, last_visible_at_break = last_visible;
      const bool blank = units[j].cls == K::SP;
      const float w = width + units[j].advance;
      if (!blank && w > wrap_width && j > start) {
        if (last_break > start) {
          stop = last_break, visible = visible_at_break, last_visible = last_visible_at_break;
        } else {
          stop = j, forced = true;
        }
        next = stop;
        while (next < n && units[next].cls == K::SP) ++next;  // blanks at a wrap are dropped
        break;
      }
      width = w;
      if (!blank) visible = w, last_visible = j + 1;
    }
    WrappedLine line;
    line.begin = units[start].begin;
    // The line's bytes up to its last visible unit (no trailing blanks).
    line.end = last_visible > start ? units[last_visible - 1].end : line.begin;
    line.width = visible;
    line.forced = forced;
    lines.push_back(line);
    if (stop == n) break;
    start = next;
    // A newline as the last character ends the text: no empty line after it.
  }
  return lines;
}

}  // namespace posenc::app
