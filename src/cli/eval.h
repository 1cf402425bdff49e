// `posenc eval FILE|-`: one JSON request in, one JSON response out (contract v1, docs/cli.md).
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>

#include "model_io/json_request.h"

namespace CLI {
class App;
}

namespace posenc::cli {

struct EvalOptions {
  std::string file;  // path or "-" for stdin
};

// Registers the `eval` subcommand on app; options are filled when it is parsed.
CLI::App* add_eval_command(CLI::App& app, EvalOptions& options);

// Reads the request, writes the response on out (exit code 0) or one JSON error object on err (exit 2).
int run_eval(const EvalOptions& options, std::ostream& out, std::ostream& err);

// Largest request accepted (checked before parsing), nesting depth, echoed key length: model_io/json_request.h.
using model_io::kMaxEchoedKey;
using model_io::kMaxJsonDepth;
using model_io::kMaxRequestBytes;

// The pure part: request text -> response text. Throws posenc::InvalidArgument on bad input
// (field "" means no particular field). evaluate_request_to writes the response to out once it is
// fully computed and checked (the attention op then streams it row by row instead of building it whole).
std::string evaluate_request(const std::string& text);
void evaluate_request_to(const std::string& text, std::ostream& out);

}  // namespace posenc::cli
