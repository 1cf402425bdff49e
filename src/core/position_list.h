// The one grammar of a list of positions, read by `posenc check --positions`, the check request's
// "positions" given as a string, and the Check view's Positions field (docs/cli.md).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace posenc {

// Items separated by commas, semicolons or white space; an item is an integer, start:stop[:step] (Python's
// range: stop excluded, step != 0 and may be negative) or a..b (both ends included). "" gives no positions.
// At most 2^24 positions (counted before any is made), each in [-10^6, 10^6]. Throws InvalidArgument(field,
// ...) quoting the item that does not read (control bytes escaped).
std::vector<int64_t> parse_position_list(std::string_view text, const std::string& field);

}  // namespace posenc
