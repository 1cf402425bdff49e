// URL parameters of the views that take one of a fixed set of names, or a 0/1 flag.
#pragma once

#include <string>

#include "app/view.h"

namespace posenc::app {

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

}  // namespace posenc::app
