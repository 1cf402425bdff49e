#include "app/state_params.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace posenc::app {

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
      if (eq == std::string::npos) out[percent_decode(pair)] = "";
      else out[percent_decode(pair.substr(0, eq))] = percent_decode(pair.substr(eq + 1));
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
