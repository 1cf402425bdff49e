// A number as `std::ostream << x` writes it at a given precision (printf's %.*g), without iostreams:
// std::ostringstream pulls libc++'s locale and stream machinery into the web build for a few numbers.
#pragma once

#include <cstdio>
#include <string>

namespace posenc {

// `x` with `digits` significant digits, as an ostream with precision(digits) and the default float
// format writes it: 1e+06, 0.1, 12.5, inf, nan.
inline std::string significant(double x, int digits = 6) {
  char text[48];
  std::snprintf(text, sizeof text, "%.*g", digits, x);
  return text;
}

}  // namespace posenc
