// The error contract every subcommand keeps: exit 0 on success; otherwise exit 2 with one JSON object
// ({"error", "field"}) on stderr.
#pragma once

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <string>

namespace posenc::cli {

// Bytes of a message echoed in an error; longer ones are cut and their length given.
inline constexpr std::size_t kMaxErrorMessageBytes = 2048;

// {"error": message, "field": field or null} followed by a newline; field "" is null unless
// name_empty_field (an unknown key "" is named as ""). Both are capped (kMaxErrorMessageBytes, kMaxEchoedKey).
std::string error_json(const std::string& message, const std::string& field, bool name_empty_field = false);

// Runs a subcommand's body and returns its exit code. An exception becomes the JSON error on err and
// exit 2: posenc::InvalidArgument gives its message and field, running out of memory "out of memory
// while <doing>", anything else `other_prefix` followed by its message.
int run_command(std::ostream& err, const std::string& doing, const std::string& other_prefix, const std::function<int()>& body);

// The options of a listing subcommand (views, families): names one a line, or with --markdown the table
// the docs carry.
struct ListingOptions {
  bool markdown = false;
};

// Flushes `out`; if standard output failed (a closed pipe, /dev/full), says so on err and returns 2, else 0.
int flushed(std::ostream& out, std::ostream& err, const std::string& what);

}  // namespace posenc::cli
