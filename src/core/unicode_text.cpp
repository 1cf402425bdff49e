#include "core/unicode_text.h"

namespace posenc {
namespace {

// Length of the valid UTF-8 sequence at text[i] and its code point; 0 when invalid.
size_t decode(std::string_view text, size_t i, char32_t& cp) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return cp = c, 1;
  size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) n = 2, cp = c & 0x1F;
  else if (c == 0xE0) n = 3, lo = 0xA0, cp = c & 0x0F;
  else if (c >= 0xE1 && c <= 0xEC) n = 3, cp = c & 0x0F;
  else if (c == 0xED) n = 3, hi = 0x9F, cp = c & 0x0F;
  else if (c >= 0xEE && c <= 0xEF) n = 3, cp = c & 0x0F;
  else if (c == 0xF0) n = 4, lo = 0x90, cp = c & 0x07;
  else if (c >= 0xF1 && c <= 0xF3) n = 4, cp = c & 0x07;
  else if (c == 0xF4) n = 4, hi = 0x8F, cp = c & 0x07;
  else return 0;
  if (i + n > text.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    const unsigned char b = byte(i + k);
    if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xBF)) return 0;
    cp = (cp << 6) | (b & 0x3F);
  }
  return n;
}

bool is_space(char32_t c) { return c == ' ' || (c >= 0x09 && c <= 0x0D) || c == 0xA0 || c == 0x3000; }

}  // namespace

std::vector<char32_t> utf8_code_points(std::string_view text) {
  std::vector<char32_t> out;
  for (size_t i = 0; i < text.size();) {
    char32_t cp = 0;
    const size_t n = decode(text, i, cp);
    out.push_back(n ? cp : char32_t{0xFFFD});
    i += n ? n : 1;
  }
  return out;
}

std::string utf8_escaped(std::string_view text) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < text.size();) {
    char32_t cp = 0;
    const size_t n = decode(text, i, cp);
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (n == 0 || c < 0x20 || c == 0x7F) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

size_t utf8_length(std::string_view text) {
  size_t count = 0;
  for (size_t i = 0; i < text.size(); ++count) {
    char32_t cp = 0;
    const size_t n = decode(text, i, cp);
    i += n ? n : 1;
  }
  return count;
}

std::string utf8_encode(char32_t c) {
  if ((c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF) c = 0xFFFD;
  std::string out;
  if (c < 0x80) {
    out += char(c);
  } else if (c < 0x800) {
    out += char(0xC0 | (c >> 6));
    out += char(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += char(0xE0 | (c >> 12));
    out += char(0x80 | ((c >> 6) & 0x3F));
    out += char(0x80 | (c & 0x3F));
  } else {
    out += char(0xF0 | (c >> 18));
    out += char(0x80 | ((c >> 12) & 0x3F));
    out += char(0x80 | ((c >> 6) & 0x3F));
    out += char(0x80 | (c & 0x3F));
  }
  return out;
}

bool is_cjk(char32_t c) {
  for (const CodePointRange& r : kCjkRanges)
    if (c >= r.first && c <= r.last) return true;
  return false;
}

std::vector<std::string> split_tokens(std::string_view text) {
  std::vector<std::string> tokens;
  std::string word;
  auto end_word = [&] {
    if (!word.empty()) tokens.push_back(std::move(word));
    word.clear();
  };
  for (size_t i = 0; i < text.size();) {
    char32_t cp = 0;
    size_t n = decode(text, i, cp);
    if (n == 0) n = 1, cp = 0xFFFD;  // an invalid byte stays part of the word it is in
    const std::string_view bytes = text.substr(i, n);
    if (cp != 0xFFFD && is_space(cp)) {
      end_word();
    } else if (cp != 0xFFFD && is_cjk(cp)) {
      end_word();
      tokens.emplace_back(bytes);
    } else {
      word += bytes;
    }
    i += n;
  }
  end_word();
  return tokens;
}

}  // namespace posenc
