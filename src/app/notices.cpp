#include "app/notices.h"

#include <cstdio>

#include <nlohmann/json.hpp>

namespace posenc::app {
namespace {

// Length of the valid UTF-8 sequence starting at s[i] (0 if invalid), per RFC 3629 (no overlongs,
// no surrogates, nothing past U+10FFFF).
size_t utf8_length(const std::string& s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return 1;
  size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c == 0xE0) n = 3, lo = 0xA0;
  else if (c >= 0xE1 && c <= 0xEC) n = 3;
  else if (c == 0xED) n = 3, hi = 0x9F;
  else if (c >= 0xEE && c <= 0xEF) n = 3;
  else if (c == 0xF0) n = 4, lo = 0x90;
  else if (c >= 0xF1 && c <= 0xF3) n = 4;
  else if (c == 0xF4) n = 4, hi = 0x8F;
  else return 0;
  if (i + n > s.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < n; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  return n;
}

std::string hex_escape(unsigned char c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02X", c);
  return buf;
}

}  // namespace

bool is_clean_text(const std::string& s, bool line_breaks) {
  for (size_t i = 0; i < s.size();) {
    const size_t n = utf8_length(s, i);
    const bool breaks = line_breaks && (s[i] == '\n' || s[i] == '\r' || s[i] == '\t');
    if (n == 0 || (n == 1 && !breaks && (static_cast<unsigned char>(s[i]) < 0x20 || s[i] == 0x7F))) return false;
    i += n;
  }
  return true;
}

std::string quote_for_notice(const std::string& value) {
  constexpr size_t kMaxShown = 64;
  std::string out;
  size_t i = 0;
  for (; i < value.size() && i < kMaxShown;) {
    const size_t n = utf8_length(value, i);
    const unsigned char c = static_cast<unsigned char>(value[i]);
    if (n == 0 || (n == 1 && (c < 0x20 || c == 0x7F))) {
      out += hex_escape(c);
      i += 1;
    } else {
      out.append(value, i, n);
      i += n;
    }
  }
  if (i < value.size()) out += "...";
  return out;
}

std::string notices_text(const Notices& notices) {
  std::string out;
  for (const Notice& n : notices) out += (out.empty() ? "" : " ") + n.message;
  return out;
}

std::string notices_json(const Notices& notices) {
  nlohmann::json out = nlohmann::json::array();
  for (const Notice& n : notices) out.push_back({{"key", n.key}, {"message", n.message}});
  return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace posenc::app
