// `posenc inspect FILE [--json] [--seq-len S]`: a model's positional encoding from its config.json or the
// header of a .gguf file (read by the core's model readers; docs/models.md).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

#include "core/models/model_config.h"

namespace CLI {
class App;
}

namespace posenc::cli {

struct InspectOptions {
  std::string file;
  bool json = false;
  int64_t seq_len = 0;  // 0: not given
};

CLI::App* add_inspect_command(CLI::App& app, InspectOptions& options);
int run_inspect(const InspectOptions& options, std::ostream& out, std::ostream& err);

// Reads a config.json or a .gguf (by its magic) into the model's positional encoding.
ModelPosition inspect_file(const std::string& path, std::optional<int64_t> seq_len);

// The readable summary (what the Model view's card says, plus the pairs in each class at the max length).
std::string inspect_summary(const ModelPosition& m);

}  // namespace posenc::cli
