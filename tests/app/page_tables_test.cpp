// The page's copy of the app's tables answers as the app does: web/posenc-lang.js as the build writes it
// (cmake/page_tables.cmake: the tables' C++ rows written in), run by node (page_tables_probe.mjs), names
// the app's languages in the app's order and finds CJK text where the app does (core/unicode_text.h's
// kCjkRanges, at each range's ends and one code point outside each end); and no second hand-written list is
// left in the page or the app.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "app/i18n.h"
#include "core/unicode_text.h"
#include "test_paths.h"

namespace {

namespace fs = std::filesystem;
using posenc::kCjkRanges;
using posenc::app::kLanguages;

fs::path checkout() { return fs::path(posenc::test::kI18nDir).parent_path(); }

// What the page decides, for the code points given (page_tables_probe.mjs's JSON).
nlohmann::json page_answers(const std::vector<char32_t>& points) {
  std::string command = std::string(posenc::test::kNodePath) + " " + (checkout() / "tests/app/page_tables_probe.mjs").string() +
                        " " + posenc::test::kPageLangScript;
  for (char32_t c : points) command += " " + std::to_string(uint32_t(c));
  std::string out;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    std::array<char, 4096> buffer{};
    while (size_t n = fread(buffer.data(), 1, buffer.size(), pipe)) out.append(buffer.data(), n);
    EXPECT_EQ(pclose(pipe), 0) << command;
  }
  return nlohmann::json::parse(out, nullptr, false);
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The code lines of a file (comment lines left out: a comment may name a language).
std::vector<std::string> code_lines(const fs::path& path) {
  std::vector<std::string> lines;
  std::istringstream in(read_file(path));
  for (std::string line; std::getline(in, line);) {
    const size_t first = line.find_first_not_of(" \t");
    if (first != std::string::npos && line.compare(first, 2, "//") != 0) lines.push_back(line);
  }
  return lines;
}

std::vector<fs::path> files_under(const fs::path& dir, std::initializer_list<const char*> extensions) {
  std::vector<fs::path> out;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    for (const char* ext : extensions)
      if (entry.is_regular_file() && entry.path().extension() == ext) out.push_back(entry.path());
  return out;
}

TEST(PageTables, ThePageNamesTheAppsLanguagesInOrder) {
  const nlohmann::json page = page_answers({});
  ASSERT_TRUE(page.is_object()) << "the probe printed no JSON";
  std::vector<std::string> app;
  for (const auto& row : kLanguages) app.push_back(row.code);
  EXPECT_EQ(page["languages"].get<std::vector<std::string>>(), app);
  // Each row is its language's: the enum's order, and a code the app reads back.
  for (size_t i = 0; i < std::size(kLanguages); ++i) {
    EXPECT_EQ(size_t(kLanguages[i].lang), i);
    EXPECT_EQ(posenc::app::lang_from_code(kLanguages[i].code), kLanguages[i].lang);
    EXPECT_STREQ(posenc::app::lang_code(kLanguages[i].lang), kLanguages[i].code);
  }
}

// A second list would drift: no language list in the page's scripts (an array literal holding a language's
// code), no language code spelt in the app's code outside kLanguages.
TEST(PageTables, NoSecondLanguageList) {
  const fs::path root = checkout();
  for (const auto& row : kLanguages) {
    const std::string code = row.code;
    const std::regex js_list("\\[[^\\]]*['\"]" + code + "['\"][^\\]]*\\]");
    for (const fs::path& file : files_under(root / "web", {".js", ".html"}))
      for (const std::string& line : code_lines(file))
        EXPECT_FALSE(std::regex_search(line, js_list)) << file << ": a list of languages (the page's is the app's "
                                                       << "kLanguages, written in by cmake/page_tables.cmake): " << line;
    for (const fs::path& file : files_under(root / "src", {".h", ".cpp"})) {
      if (file == root / "src/app/i18n.h") continue;
      for (const std::string& line : code_lines(file))
        EXPECT_EQ(line.find('"' + code + '"'), std::string::npos)
            << file << ": the language code \"" << code << "\" spelt outside kLanguages (app/i18n.h): " << line;
    }
  }
}

TEST(PageTables, ThePageFindsCjkWhereTheAppDoes) {
  std::vector<char32_t> points{U'a', U' ', 0x7F, 0xFF, 0x10FFFF};
  for (const auto& r : kCjkRanges) points.insert(points.end(), {r.first - 1, r.first, r.last, r.last + 1});
  const nlohmann::json page = page_answers(points);
  ASSERT_TRUE(page.is_object()) << "the probe printed no JSON";
  ASSERT_EQ(page["cjk"].size(), points.size());
  size_t cjk = 0;
  for (size_t i = 0; i < points.size(); ++i) {
    EXPECT_EQ(page["cjk"][i].get<bool>(), posenc::is_cjk(points[i])) << "U+" << std::hex << uint32_t(points[i]);
    cjk += posenc::is_cjk(points[i]);
  }
  EXPECT_GE(cjk, 2 * std::size(kCjkRanges));  // each range's ends are CJK
}

// Nor a second copy of the CJK blocks: no range bound of kCjkRanges in the page's scripts (\u2E80, \u{2e80})
// nor compared against in the app's code outside core/unicode_text.
TEST(PageTables, NoSecondCjkRanges) {
  const fs::path root = checkout();
  for (const auto& r : kCjkRanges) {
    std::ostringstream hex;
    hex << std::hex << uint32_t(r.first);
    const std::regex js_bound("\\\\u\\{?0*" + hex.str() + "\\b", std::regex::icase);
    for (const fs::path& file : files_under(root / "web", {".js", ".html"}))
      for (const std::string& line : code_lines(file))
        EXPECT_FALSE(std::regex_search(line, js_bound)) << file << ": a CJK range bound (the page's ranges are the app's "
                                                        << "kCjkRanges, written in by cmake/page_tables.cmake): " << line;
    const std::regex cxx_bound("[<>]=?\\s*0x0*" + hex.str() + "\\b", std::regex::icase);
    for (const fs::path& file : files_under(root / "src", {".h", ".cpp"})) {
      if (file.stem() == "unicode_text") continue;
      for (const std::string& line : code_lines(file))
        EXPECT_FALSE(std::regex_search(line, cxx_bound)) << file << ": a CJK range bound outside kCjkRanges: " << line;
    }
  }
}

}  // namespace
