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
// half- and full-width forms.
bool is_cjk(char32_t c);

// Tokens of a sentence: whitespace (ASCII whitespace, U+00A0, the ideographic space U+3000) separates;
// each CJK character is a token of its own; a run of other characters is one token ("I爱NLP" -> I, 爱,
// NLP). Each token is the exact bytes of the text.
std::vector<std::string> split_tokens(std::string_view text);

}  // namespace posenc
