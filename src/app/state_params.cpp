#include "app/state_params.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace posenc::app {

std::string format_number(double v) {
  char buf[32];
  for (int precision = 6; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

void read_int(const StateMap& in, const char* key, int lo, int hi, int& value, std::string& notices) {
  auto it = in.find(key);
  if (it == in.end()) return;
  const std::string& s = it->second;
  int v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) {
    notices += std::string(key) + "=\"" + s + "\" is not an integer: ignored. ";
    return;
  }
  if (v < lo || v > hi) {
    notices += std::string(key) + "=" + s + " is outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]: ignored. ";
    return;
  }
  value = v;
}

void read_double(const StateMap& in, const char* key, double lo, double hi, double& value, std::string& notices) {
  auto it = in.find(key);
  if (it == in.end()) return;
  const std::string& s = it->second;
  char* end = nullptr;
  const double v = s.empty() ? NAN : std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v)) {
    notices += std::string(key) + "=\"" + s + "\" is not a finite number: ignored. ";
    return;
  }
  if (v < lo || v > hi) {
    notices += std::string(key) + "=" + s + " is outside [" + format_number(lo) + ", " + format_number(hi) + "]: ignored. ";
    return;
  }
  value = v;
}

std::string notice_field(const std::string& notices) {
  static const std::string kUnknown = "unknown parameter \"";
  if (notices.compare(0, kUnknown.size(), kUnknown) == 0) {
    const size_t end = notices.find('"', kUnknown.size());
    return notices.substr(kUnknown.size(), end == std::string::npos ? std::string::npos : end - kUnknown.size());
  }
  size_t end = 0;
  while (end < notices.size() && (std::isalnum((unsigned char)notices[end]) || notices[end] == '_')) ++end;
  return notices.substr(0, end);
}

namespace {
std::string percent_decode(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%' && i + 2 < s.size() && std::isxdigit((unsigned char)s[i + 1]) &&
               std::isxdigit((unsigned char)s[i + 2])) {
      out += static_cast<char>(std::strtol(s.substr(i + 1, 2).c_str(), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string percent_encode(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}
}  // namespace

StateMap parse_query(const std::string& query) {
  StateMap out;
  size_t start = (!query.empty() && query[0] == '?') ? 1 : 0;
  while (start <= query.size()) {
    size_t amp = query.find('&', start);
    if (amp == std::string::npos) amp = query.size();
    const std::string pair = query.substr(start, amp - start);
    if (!pair.empty()) {
      const size_t eq = pair.find('=');
      if (eq == std::string::npos)
        out[percent_decode(pair)] = "";
      else
        out[percent_decode(pair.substr(0, eq))] = percent_decode(pair.substr(eq + 1));
    }
    start = amp + 1;
  }
  return out;
}

std::string to_query(const StateMap& state) {
  std::string out;
  for (const auto& [k, v] : state) {
    if (!out.empty()) out += '&';
    out += percent_encode(k) + "=" + percent_encode(v);
  }
  return out;
}

}  // namespace posenc::app
