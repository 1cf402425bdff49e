// split_list / split_whitespace give exactly what std::getline and `stream >> word` give (they replace them
// where iostreams would weigh on the web build).
#include "core/text_split.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace {

std::vector<std::string> by_getline(const std::string& text, char sep) {
  std::stringstream ss(text);
  std::vector<std::string> out;
  for (std::string item; std::getline(ss, item, sep);) out.push_back(item);
  return out;
}

std::vector<std::string> by_extraction(const std::string& text) {
  std::istringstream ss(text);
  std::vector<std::string> out;
  for (std::string word; ss >> word;) out.push_back(word);
  return out;
}

TEST(TextSplit, ListMatchesGetline) {
  for (const std::string text :
       {"", ",", ",,", "a", "a,", ",a", "a,,b", "0, 1,8", "1,2,3,", " , ", "x\ny", "1.5,2e3,-4", ",,a,,"}) {
    EXPECT_EQ(posenc::split_list(text, ','), by_getline(text, ',')) << '"' << text << '"';
    EXPECT_EQ(posenc::split_list(text, '\n'), by_getline(text, '\n')) << '"' << text << '"';
  }
  EXPECT_EQ(posenc::split_list("a\n\nb\n", '\n'), (std::vector<std::string>{"a", "", "b"}));
}

TEST(TextSplit, WordsMatchStreamExtraction) {
  for (const std::string text : {"", " ", "a", "  a  b ", "1 2\t3\v4\f5\r6", "x\n y", "   1e-3   -2  "})
    EXPECT_EQ(posenc::split_whitespace(text), by_extraction(text)) << '"' << text << '"';
}

}  // namespace
