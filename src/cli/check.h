// `posenc check`: a user's RoPE tensor (.npy, .safetensors, JSON or text) against posenc's reference, with the
// diagnosis of what differs (docs/cli.md). Also the shared pieces of the `check` op of `posenc eval`.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>

#include "core/analysis/rope_check.h"

namespace CLI {
class App;
}

namespace posenc::cli {

struct CheckOptions {
  std::string config, reference, layer_type;  // --config FILE | --reference JSON; --layer-type
  std::string kind;
  std::string actual, name;  // --actual FILE, --name (safetensors tensor)
  std::string positions;     // "0,1,2", "start:stop[:step]" or a file
  std::string x, q, k;
  std::optional<double> tolerance_abs, tolerance_rel;
  bool json = false;
};

// Registers the `check` subcommand on app.
CLI::App* add_check_command(CLI::App& app, CheckOptions& options);

// Exit 0 on a match, 1 on a mismatch (the diagnosis printed), 2 on bad input (one JSON error on err).
int run_check(const CheckOptions& options, std::ostream& out, std::ostream& err);

}  // namespace posenc::cli
