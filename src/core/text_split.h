// Splitting text as std::getline and `stream >> word` do, without iostreams: std::stringstream pulls the
// whole of libc++'s locale and stream machinery into the web build for a few list parses.
#pragma once

#include <cctype>
#include <string>
#include <vector>

namespace posenc {

// The items between `sep`s, as repeated std::getline(stream, item, sep) yields them: "a,,b" -> {"a", "",
// "b"}; a trailing separator adds no empty item; "" -> {}.
inline std::vector<std::string> split_list(const std::string& text, char sep) {
  std::vector<std::string> items;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find(sep, start);
    if (end == std::string::npos) {
      items.push_back(text.substr(start));
      break;
    }
    items.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return items;
}

// The words between runs of whitespace (std::isspace), as repeated `stream >> word` yields them.
inline std::vector<std::string> split_whitespace(const std::string& text) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    const size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i > start) words.push_back(text.substr(start, i - start));
  }
  return words;
}

// At most `limit` bytes of `text` for an error message, with every control byte (and DEL) written as \xNN
// so a NUL or a newline neither cuts nor breaks the message; "..." when cut.
inline std::string shown_text(const std::string& text, size_t limit = 32) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < text.size() && i < limit; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7F) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (text.size() > limit) out += "...";
  return out;
}

}  // namespace posenc
