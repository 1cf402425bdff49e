// `posenc weights PATH... [--config FILE] [--layers LIST] [--json]`: which rotary frequencies a trained model's
// q/k weights use, per layer, head and pair (model_io/weights_session.h does the reading; docs/weights.md the
// numbers, docs/cli.md the command). PATH: a model folder (config.json + .safetensors or an index), .safetensors
// files or one .gguf. Only the headers and the tensors used are read, with seeks.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace posenc::cli {

struct WeightsOptions {
  std::vector<std::string> paths;
  std::string config;  // config.json for .safetensors files given one by one ("" : the folder's)
  std::string layers;  // "0,3,5-7" ("" : every layer)
  bool json = false;
};

CLI::App* add_weights_command(CLI::App& app, WeightsOptions& options);
// Progress goes to `err` only when `progress` (the CLI passes: standard error is a terminal).
int run_weights(const WeightsOptions& options, std::ostream& out, std::ostream& err, bool progress);
// Whether standard error is a terminal (progress is written only then).
bool stderr_is_terminal();

}  // namespace posenc::cli
