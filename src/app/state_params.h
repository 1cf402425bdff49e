// Reading view parameters from URL state: parse, range-check, and on any problem keep the current
// value and say what was ignored and why.
#pragma once

#include <string>

#include "app/view.h"

namespace posenc::app {

inline constexpr double kBaseMin = 2.0;
inline constexpr double kBaseMax = 1.0e7;

// Shortest text that reads back as the same double.
std::string format_number(double v);

void read_int(const StateMap& in, const char* key, int lo, int hi, int& value, std::string& notices);
void read_double(const StateMap& in, const char* key, double lo, double hi, double& value, std::string& notices);

// The URL key a notice is about. Every notice names its key first ("n=9999 is outside [...]",
// "d must be even: ...", "scheme=\"x\" is not ...") except App's `unknown parameter "key": ignored.`;
// the strict CLI reports this key as the error's field.
std::string notice_field(const std::string& notices);

// Sets `index` to the position of in[key] among names[0..count); an unknown name keeps the current value
// and adds a notice listing the accepted names.
inline void read_choice(const StateMap& in, const char* key, const char* const* names, int count, int& index,
                        std::string& notices) {
  auto it = in.find(key);
  if (it == in.end()) return;
  for (int i = 0; i < count; ++i)
    if (it->second == names[i]) {
      index = i;
      return;
    }
  std::string list;
  for (int i = 0; i < count; ++i) list += (i ? ", " : "") + std::string(names[i]);
  notices += std::string(key) + "=\"" + it->second + "\" is not one of " + list + ": ignored. ";
}

inline void read_flag(const StateMap& in, const char* key, bool& value, std::string& notices) {
  auto it = in.find(key);
  if (it == in.end()) return;
  if (it->second == "0" || it->second == "1")
    value = it->second == "1";
  else
    notices += std::string(key) + "=\"" + it->second + "\" must be 0 or 1: ignored. ";
}

// Query string <-> map ("a=1&b=2", percent-decoding, later duplicates win).
StateMap parse_query(const std::string& query);
std::string to_query(const StateMap& state);

}  // namespace posenc::app
