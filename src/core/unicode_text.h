// UTF-8 text as code points, which code points are CJK, and text cut into tokens the way a reader of
// Chinese counts them: one token per CJK character (the seeds' 我不爱你 is four tokens), words of other
// scripts between spaces (mixed text: Latin words and CJK characters).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace posenc {

// The code points of `text`; a byte that starts no valid UTF-8 sequence (RFC 3629: no overlongs, no
// surrogates, nothing past U+10FFFF) becomes U+FFFD and is skipped alone.
std::vector<char32_t> utf8_code_points(std::string_view text);
// One code point as UTF-8 (U+FFFD for a surrogate or anything past U+10FFFF).
std::string utf8_encode(char32_t c);
// The number of code points (what a reader counts as characters).
size_t utf8_length(std::string_view text);
// `text` with every byte that starts no valid UTF-8 sequence, every control byte (< 0x20) and DEL written as
// \xNN: valid UTF-8 for JSON and a terminal whatever the bytes were (GGUF keys and strings are raw bytes).
std::string utf8_escaped(std::string_view text);

// The CJK blocks: radicals, CJK symbols and punctuation, kana, bopomofo, hangul, the unified ideographs
// (U+4E00-9FFF, extension A, the supplementary extensions), compatibility ideographs and forms, and the
// half- and full-width forms. The one list: is_cjk reads it, and so does the page (web/posenc-lang.js decides
// before the app runs whether a URL's text needs the CJK face; the build writes these rows into it,
// cmake/page_tables.cmake).
struct CodePointRange {
  char32_t first, last;
};
inline constexpr CodePointRange kCjkRanges[] = {
    {0x2E80, 0x2FFF},    // CJK and Kangxi radicals, ideographic description
    {0x3000, 0x33FF},    // CJK punctuation, kana, bopomofo, hangul jamo, enclosed, compatibility
    {0x3400, 0x4DBF},    // extension A
    {0x4E00, 0x9FFF},    // unified ideographs
    {0xAC00, 0xD7AF},    // hangul syllables
    {0xF900, 0xFAFF},    // compatibility ideographs
    {0xFE10, 0xFE1F},    // vertical forms
    {0xFE30, 0xFE6F},    // compatibility and small forms
    {0xFF00, 0xFFEF},    // half- and full-width forms
    {0x20000, 0x3FFFF},  // supplementary ideographic planes
};
bool is_cjk(char32_t c);

// Tokens of a sentence: whitespace (ASCII whitespace, U+00A0, the ideographic space U+3000) separates;
// each CJK character is a token of its own; a run of other characters is one token ("I爱NLP" -> I, 爱,
// NLP). Each token is the exact bytes of the text.
std::vector<std::string> split_tokens(std::string_view text);

}  // namespace posenc
