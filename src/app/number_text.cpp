#include "app/number_text.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace posenc::app {
namespace {

bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// Length of the decimal number syntax at the start of s (0 if none); `integer`: digits only.
size_t decimal_syntax(const std::string& s, bool integer) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '-' || (!integer && s[i] == '+'))) ++i;
  const size_t int_start = i;
  while (i < s.size() && digit(s[i])) ++i;
  const size_t int_digits = i - int_start;
  if (int_digits > 1 && s[int_start] == '0') return 0;  // 010: octal to some readers
  if (integer) return int_digits ? i : 0;
  size_t frac_digits = 0;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && digit(s[i])) ++i, ++frac_digits;
  }
  if (int_digits + frac_digits == 0) return 0;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
    const size_t exp_start = j;
    while (j < s.size() && digit(s[j])) ++j;
    if (j == exp_start) return 0;
    i = j;
  }
  return i;
}

}  // namespace

bool parse_decimal(const std::string& s, double& out) {
  if (s.empty() || decimal_syntax(s, false) != s.size()) return false;
  out = std::strtod(s.c_str(), nullptr);
  return std::isfinite(out);
}

bool parse_decimal_int(const std::string& s, long long& out) {
  if (s.empty() || s.size() > 20 || decimal_syntax(s, true) != s.size()) return false;
  errno = 0;
  out = std::strtoll(s.c_str(), nullptr, 10);
  return errno == 0;
}

}  // namespace posenc::app
