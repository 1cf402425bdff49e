// The one wrap of the app's text (app/line_break.h): its classes against Unicode's LineBreak.txt, the
// examples readers met (numbers cut after their point, Chinese lines starting with 。), and properties of
// many generated strings of both scripts: numbers and Latin words never split, no line starts with
// closing or ends with opening punctuation, every line fits unless it is one unbreakable run; and ImGui's
// wrapped text drawn and measured by it alike.
#include "app/line_break.h"

#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "app/text_hook.h"
#include "core/unicode_text.h"
#include "app_test_util.h"

namespace {

using posenc::app::break_class;
using posenc::app::BreakClass;
using posenc::app::wrap_text;
using posenc::app::WrappedLine;

// Widths of a monospaced CJK font: ideographs and full-width forms two units, everything else one.
float advance(char32_t c) { return posenc::is_cjk(c) ? 2.0f : 1.0f; }

std::vector<std::string> lines_of(const std::string& text, float width) {
  std::vector<std::string> out;
  for (const WrappedLine& l : wrap_text(text, width, advance)) out.push_back(text.substr(l.begin, l.end - l.begin));
  return out;
}

// Unicode 15.0's LineBreak.txt, from Debian's unicode-data (scripts/bootstrap installs it). Every code
// point of the blocks the table covers has the tailored class of the file's (the file's default XX where
// it lists nothing); TAB and U+3000 are blanks (SP) as ImGui treats them.
TEST(LineBreak, ClassesAreLineBreakTxtTailored) {
  std::ifstream in("/usr/share/unicode/LineBreak.txt");
  ASSERT_TRUE(in) << "/usr/share/unicode/LineBreak.txt (Debian package unicode-data) is missing";
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header, "# LineBreak-15.0.0.txt");
  std::vector<std::string> file_class(0x40000, "XX");
  for (std::string line; std::getline(in, line);) {
    line = line.substr(0, line.find('#'));
    const size_t semi = line.find(';');
    if (semi == std::string::npos) continue;
    const std::string range = line.substr(0, semi);
    std::string cls = line.substr(semi + 1);
    cls.erase(cls.find_last_not_of(' ') + 1);
    const size_t dots = range.find("..");
    const unsigned lo = std::stoul(range.substr(0, dots), nullptr, 16);
    const unsigned hi = dots == std::string::npos ? lo : std::stoul(range.substr(dots + 2), nullptr, 16);
    for (unsigned c = lo; c <= hi && c < file_class.size(); ++c) file_class[c] = cls;
  }
  const std::pair<char32_t, char32_t> blocks[] = {{0x0000, 0x052F}, {0x1100, 0x11FF},  {0x2000, 0x22FF}, {0x2E80, 0x9FFF},
                                                  {0xA000, 0xA4CF}, {0xAC00, 0xD7FF},  {0xF900, 0xFAFF}, {0xFE10, 0xFE6F},
                                                  {0xFF00, 0xFFEF}, {0x20000, 0x3FFFD}};
  int checked = 0, wrong = 0;
  for (const auto& [lo, hi] : blocks) {
    for (char32_t c = lo; c <= hi; ++c) {
      const auto expected = (c == U'\t' || c == 0x3000) ? BreakClass::SP : posenc::app::tailored_break_class(file_class[c]);
      ASSERT_TRUE(expected) << "LineBreak.txt class " << file_class[c] << " has no tailoring";
      ++checked;
      if (break_class(c) != *expected && ++wrong < 20)
        ADD_FAILURE() << std::hex << "U+" << unsigned(c) << ": file " << file_class[c];
    }
  }
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(checked, 175822);  // the blocks above, every code point
}

TEST(LineBreak, NumbersStayWhole) {
  for (const std::string number : {"2.220e-16", "0.044194173824159216", "1.55811e+06", "12.5%", "3,000", "-0.5", "1e-400"})
    for (float width = 1; width < 24; ++width) {
      const auto lines = wrap_text(number, width, advance);
      for (size_t i = 0; i + 1 < lines.size(); ++i) EXPECT_TRUE(lines[i].forced) << number << " at width " << width;
      if (width >= float(number.size())) { EXPECT_EQ(lines_of(number, width), std::vector<std::string>{number}); }
    }
  // "1.55811e+06 倍": the one break is the space.
  EXPECT_EQ(lines_of("比 1.55811e+06 倍", 12), (std::vector<std::string>{"比", "1.55811e+06", "倍"}));
  EXPECT_EQ(lines_of("误差 2.220e-16，容差", 14), (std::vector<std::string>{"误差", "2.220e-16，容", "差"}));
}

TEST(LineBreak, ChinesePunctuationStaysWithItsText) {
  // A break may fall between any two ideographs, never before 。，、；：！？）」』】 nor after （「『【.
  EXPECT_EQ(lines_of("位置编码波形。公式", 14), (std::vector<std::string>{"位置编码波形。", "公式"}));
  EXPECT_EQ(lines_of("位置编码波形。公式", 12), (std::vector<std::string>{"位置编码波", "形。公式"}));
  EXPECT_EQ(lines_of("一二三（四五）六", 6), (std::vector<std::string>{"一二三", "（四", "五）六"}));
  EXPECT_EQ(lines_of("甲乙丙「丁」", 6), (std::vector<std::string>{"甲乙丙", "「丁」"}));
  EXPECT_EQ(lines_of("see (f(x)).", 8), (std::vector<std::string>{"see", "(f(x))."}));
  EXPECT_EQ(lines_of("ひらがなとカタカナ", 4), (std::vector<std::string>{"ひら", "がな", "とカ", "タカ", "ナ"}));
  EXPECT_EQ(lines_of("ab\n\ncd\n", 10), (std::vector<std::string>{"ab", "", "cd"}));
}

// A generated text: groups (an optional opening mark, a number, a Latin word or one CJK character, then
// closing marks) joined by a space, a newline, or nothing where both sides are CJK.
struct Group {
  size_t begin, end;
  float width;
};
struct Generated {
  std::string text;
  std::vector<Group> groups;
};

Generated generate(std::mt19937& rng) {
  static const std::vector<std::string> numbers = {
      "2.220e-16", "0.044194173824159216", "1.55811e+06", "12.5%", "3,000", "-0.5", "42", "1e-400", "0.6", "100%"};
  static const std::vector<std::string> cjk = {"位", "置", "编", "码", "倍", "误", "差", "の", "カ", "ア", "한"};
  static const std::vector<std::string> cjk_open = {"（", "「", "『", "【"}, ascii_open = {"(", "[", "{"};
  static const std::vector<std::string> cjk_close = {"。", "，", "、", "；", "：", "！", "？", "）", "」", "』", "】"};
  static const std::vector<std::string> ascii_close = {".", ",", ";", ":", "!", "?", ")", "]", "}"};
  auto pick = [&](const std::vector<std::string>& v) { return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng)]; };
  auto chance = [&](int percent) { return std::uniform_int_distribution<int>(0, 99)(rng) < percent; };
  Generated g;
  const int groups = std::uniform_int_distribution<int>(1, 30)(rng);
  bool last_cjk = false;
  for (int i = 0; i < groups; ++i) {
    const int kind = std::uniform_int_distribution<int>(0, 2)(rng);  // number, word, CJK
    const bool cjk_marks = kind == 2 || chance(50);
    std::string group;
    if (chance(20)) group += pick(cjk_marks ? cjk_open : ascii_open);
    if (kind == 0) group += pick(numbers);
    else if (kind == 1)
      for (int n = std::uniform_int_distribution<int>(1, 14)(rng); n > 0; --n)
        group += char(std::uniform_int_distribution<int>(0, 1)(rng) ? 'a' + std::uniform_int_distribution<int>(0, 25)(rng)
                                                                    : 'A' + std::uniform_int_distribution<int>(0, 25)(rng));
    else group += pick(cjk);
    for (int n = chance(30) ? std::uniform_int_distribution<int>(1, 2)(rng) : 0; n > 0; --n)
      group += pick(cjk_marks ? cjk_close : ascii_close);
    const auto cps = posenc::utf8_code_points(group);
    const bool starts_cjk = posenc::is_cjk(cps.front()), ends_cjk = posenc::is_cjk(cps.back());
    if (i > 0) g.text += chance(5) ? "\n" : (last_cjk && starts_cjk && chance(70)) ? "" : chance(20) ? "  " : " ";
    float width = 0;
    for (char32_t c : cps) width += advance(c);
    g.groups.push_back({g.text.size(), g.text.size() + group.size(), width});
    g.text += group;
    last_cjk = ends_cjk;
  }
  return g;
}

bool is_closing(const std::string& s) {
  for (const char* c :
       {"。", "，", "、", "；", "：", "！", "？", "）", "」", "』", "】", ".", ",", ";", ":", "!", "?", ")", "]", "}"})
    if (s.starts_with(c)) return true;
  return false;
}
bool is_opening(const std::string& s) {
  for (const char* c : {"（", "「", "『", "【", "(", "[", "{"})
    if (s.ends_with(c)) return true;
  return false;
}

TEST(LineBreak, GeneratedTextsOfBothScriptsBreakOnlyBetweenGroups) {
  std::mt19937 rng(20260);
  int forced = 0, breaks = 0;
  for (int round = 0; round < 4000; ++round) {
    const Generated g = generate(rng);
    const float width = float(std::uniform_int_distribution<int>(1, 40)(rng));
    const std::vector<WrappedLine> lines = wrap_text(g.text, width, advance);
    ASSERT_FALSE(lines.empty()) << g.text;
    EXPECT_EQ(lines.front().begin, 0u);
    for (size_t i = 0; i < lines.size(); ++i) {
      const WrappedLine& l = lines[i];
      const std::string text = g.text.substr(l.begin, l.end - l.begin);
      float w = 0;
      for (char32_t c : posenc::utf8_code_points(text)) w += advance(c);
      EXPECT_FLOAT_EQ(l.width, w) << text;
      // Every line fits, unless it is one character wider than the line.
      EXPECT_TRUE(w <= width || posenc::utf8_length(text) == 1) << "'" << text << "' wider than " << width;
      if (i + 1 == lines.size()) continue;
      const WrappedLine& next = lines[i + 1];
      // Between two lines only blanks and at most one newline were left out.
      const std::string between = g.text.substr(l.end, next.begin - l.end);
      EXPECT_EQ(between.find_first_not_of(" \n"), std::string::npos) << "'" << between << "' dropped";
      if (between.find('\n') != std::string::npos) continue;
      ++breaks;
      // A wrap falls between groups; inside one only where that group alone is wider than the line.
      const std::string after = g.text.substr(next.begin, next.end - next.begin);
      for (const Group& group : g.groups) {
        if (next.begin <= group.begin || next.begin >= group.end) continue;
        EXPECT_TRUE(l.forced) << "'" << text << "' | '" << after << "' split a group at width " << width;
        EXPECT_GT(group.width, width) << "a group that fits a line was cut: "
                                      << g.text.substr(group.begin, group.end - group.begin);
        ++forced;
      }
      if (l.forced) continue;
      EXPECT_FALSE(is_closing(after)) << "a line starts with closing punctuation: '" << after << "'";
      EXPECT_FALSE(is_opening(text)) << "a line ends with opening punctuation: '" << text << "'";
    }
  }
  EXPECT_GT(breaks, 10000);  // the generated texts did wrap, often
  EXPECT_GT(forced, 100);    // and the narrow lines cut the long numbers and words
}

// ImGui's own wrapped text (TextWrapped) is drawn in the lines of wrap_text and measured by them: the
// item is as tall as its lines, each line no wider than the wrap width.
TEST(LineBreak, ImGuiWrappedTextIsDrawnAndMeasuredByTheSameLines) {
  posenc::test::ImGuiFrames frames;
  const std::string text =
      "The float32 tolerance is 2.220e-16 x abs(expected) + 0.044194173824159216; the ratio is 1.55811e+06 "
      "(eps = 2^-52). Rotation angles of pair i grow as position x base^(-2i/d).";
  for (float wrap = 160; wrap <= 600; wrap += 37) {  // wider than the longest number
    ImGui::NewFrame();
    posenc::app::clear_drawn_texts();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(800, 800));
    ImGui::Begin("wrap");
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
    ImGui::TextWrapped("%s", text.c_str());
    const float height = ImGui::GetItemRectSize().y;
    ImGui::PopTextWrapPos();
    ImGui::End();
    ImGui::Render();
    const auto& drawn = posenc::app::drawn_texts();
    const posenc::app::DrawnText* wrapped = nullptr;
    for (const auto& d : drawn)
      if (d.wrap_width > 0) wrapped = &d;
    ASSERT_NE(wrapped, nullptr);
    EXPECT_EQ(height, float(wrapped->lines.size()) * ImGui::GetFontSize()) << "wrap " << wrap;
    std::string joined;
    for (const std::string& line : wrapped->lines) {
      EXPECT_LE(ImGui::CalcTextSize(line.c_str()).x, wrap + 1) << line;
      joined += (joined.empty() ? "" : " ") + line;
    }
    EXPECT_EQ(joined, text) << "every line breaks at a space at these widths";
    for (const char* number : {"2.220e-16", "0.044194173824159216", "1.55811e+06", "2^-52)."})
      EXPECT_NE(std::find_if(wrapped->lines.begin(), wrapped->lines.end(),
                             [&](const std::string& l) { return l.find(number) != std::string::npos; }),
                wrapped->lines.end())
          << number << " whole on one line at wrap " << wrap;
  }
}

}  // namespace
