// The error contract every subcommand keeps: exit 0 on success; otherwise exit 2 with one JSON object
// ({"error", "field"}) on stderr.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>

namespace posenc::cli {

// Runs a subcommand's body and returns its exit code. An exception becomes the JSON error on err and
// exit 2: posenc::InvalidArgument gives its message and field, running out of memory "out of memory
// while <doing>", anything else `other_prefix` followed by its message.
int run_command(std::ostream& err, const std::string& doing, const std::string& other_prefix, const std::function<int()>& body);

// Flushes `out`; if standard output failed (a closed pipe, /dev/full), says so on err and returns 2, else 0.
int flushed(std::ostream& out, std::ostream& err, const std::string& what);

}  // namespace posenc::cli
