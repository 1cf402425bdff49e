// URL query strings <-> key/value maps.
#pragma once

#include <string>

#include "app/view.h"

namespace posenc::app {

// Query string <-> map ("a=1&b=2", percent-decoding, later duplicates win).
StateMap parse_query(const std::string& query);
std::string to_query(const StateMap& state);

}  // namespace posenc::app
