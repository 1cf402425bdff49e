// Numbers as a person writes them in a URL value or a text field: plain decimal notation only. strtod
// also reads hexadecimal ("0x10" = 16) and "inf"/"nan", and a leading zero ("010") reads as octal to some
// readers and programs: each is refused (a notice names the value) instead of being read one way silently.
#pragma once

#include <string>

namespace posenc::app {

// [+-]digits[.digits][e[+-]digits] (or .digits), finite; no leading zero before another digit, no spaces.
bool parse_decimal(const std::string& s, double& out);
// [-]digits within int; no leading zero before another digit, no sign '+', no spaces.
bool parse_decimal_int(const std::string& s, long long& out);

}  // namespace posenc::app
