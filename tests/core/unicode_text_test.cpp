// Text as a reader of Chinese counts it (core/unicode_text.h): one token per CJK character, words of
// other scripts between spaces; UTF-8 decoded by RFC 3629 (the same rule as the URL's clean-text check).
#include "core/unicode_text.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using posenc::is_cjk;
using posenc::split_tokens;
using posenc::utf8_code_points;
using posenc::utf8_encode;
using posenc::utf8_length;
using Tokens = std::vector<std::string>;

TEST(UnicodeText, ChineseIsOneTokenPerCharacter) {
  // The seeds' example (002): 我不爱你 and its shuffle 不我爱你 are four tokens each, spaced or not.
  EXPECT_EQ(split_tokens("我不爱你"), (Tokens{"我", "不", "爱", "你"}));
  EXPECT_EQ(split_tokens("我 不 爱 你"), (Tokens{"我", "不", "爱", "你"}));
  EXPECT_EQ(split_tokens("  不我爱你  "), (Tokens{"不", "我", "爱", "你"}));
  EXPECT_EQ(split_tokens("猫坐在垫子上"), (Tokens{"猫", "坐", "在", "垫", "子", "上"}));
}

TEST(UnicodeText, MixedTextIsLatinWordsAndCjkCharacters) {
  EXPECT_EQ(split_tokens("I爱NLP"), (Tokens{"I", "爱", "NLP"}));
  EXPECT_EQ(split_tokens("RoPE 旋转位置编码 v2"), (Tokens{"RoPE", "旋", "转", "位", "置", "编", "码", "v2"}));
  // CJK punctuation and full-width forms are CJK characters; Latin punctuation stays with its word.
  EXPECT_EQ(split_tokens("我，不爱你。"), (Tokens{"我", "，", "不", "爱", "你", "。"}));
  EXPECT_EQ(split_tokens("the cat sat on the mat."), (Tokens{"the", "cat", "sat", "on", "the", "mat."}));
  // Kana and hangul are CJK characters too.
  EXPECT_EQ(split_tokens("すし한국"), (Tokens{"す", "し", "한", "국"}));
}

TEST(UnicodeText, WhitespaceIncludesTheIdeographicSpace) {
  EXPECT_EQ(split_tokens("a\tb\nc\u3000d\u00a0e"), (Tokens{"a", "b", "c", "d", "e"}));
  EXPECT_EQ(split_tokens(""), Tokens{});
  EXPECT_EQ(split_tokens(" \u3000 "), Tokens{});
}

TEST(UnicodeText, InvalidBytesStayInTheirWord) {
  // A lone continuation byte and a truncated sequence are kept (the tokens hold the exact bytes).
  EXPECT_EQ(split_tokens("a\x80"
                         "b c"),
            (Tokens{"a\x80"
                    "b",
                    "c"}));
  EXPECT_EQ(split_tokens("x\xe6\x88"), (Tokens{"x\xe6\x88"}));
  EXPECT_EQ(utf8_code_points("a\x80"), (std::vector<char32_t>{U'a', 0xFFFD}));
}

TEST(UnicodeText, CodePointsAndLength) {
  EXPECT_EQ(utf8_code_points("aé我𠀀"), (std::vector<char32_t>{U'a', 0xE9, 0x6211, 0x20000}));
  EXPECT_EQ(utf8_length("我不爱你"), 4u);
  EXPECT_EQ(utf8_length("abc"), 3u);
  // Overlong forms and surrogates are not UTF-8 (RFC 3629).
  EXPECT_EQ(utf8_code_points("\xc0\xaf"), (std::vector<char32_t>{0xFFFD, 0xFFFD}));
  EXPECT_EQ(utf8_code_points("\xed\xa0\x80"), (std::vector<char32_t>{0xFFFD, 0xFFFD, 0xFFFD}));
  for (char32_t c : {char32_t{0x41}, char32_t{0xE9}, char32_t{0x6211}, char32_t{0xFFFD}, char32_t{0x20000}, char32_t{0x10FFFF}})
    EXPECT_EQ(utf8_code_points(utf8_encode(c)), std::vector<char32_t>{c});
  EXPECT_EQ(utf8_encode(0xD800), "\xef\xbf\xbd");
}

TEST(UnicodeText, CjkBlocks) {
  for (char32_t c : {0x4E00, 0x9FFF, 0x6211, 0x3000, 0x3002, 0xFF0C, 0x3042, 0xAC00, 0x3400, 0x20000, 0xF900})
    EXPECT_TRUE(is_cjk(c)) << std::hex << unsigned(c);
  for (char32_t c : {0x41, 0xE9, 0x3B1, 0x2212, 0x2026, 0x2DFF, 0xA000, 0xFFFD, 0x1F600})
    EXPECT_FALSE(is_cjk(c)) << std::hex << unsigned(c);
}
