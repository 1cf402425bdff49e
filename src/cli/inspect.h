// `posenc inspect A [B] [--json] [--seq-len S] [--target-len T]`: a model's positional encoding from its
// config.json or the header of a .gguf file (read by the core's model readers; docs/models.md); with two files,
// both and their differences. `posenc families [--markdown]`: the family table.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "core/models/model_config.h"

namespace CLI {
class App;
}

namespace posenc::cli {

struct InspectOptions {
  std::vector<std::string> files;  // one, or two to compare
  bool json = false;
  int64_t seq_len = 0;     // 0: not given
  int64_t target_len = 0;  // two files: the length extrapolated pairs are counted at (0: the larger max length)
};

CLI::App* add_inspect_command(CLI::App& app, InspectOptions& options);
int run_inspect(const InspectOptions& options, std::ostream& out, std::ostream& err);

// `posenc families [--markdown]`: the family table's families and their model types, or docs/models.md's table.
using FamiliesOptions = ListingOptions;
CLI::App* add_families_command(CLI::App& app, FamiliesOptions& options);
int run_families(const FamiliesOptions& options, std::ostream& out);

// Reads a config.json or a .gguf (by its magic) into the model's positional encoding.
ModelPosition inspect_file(const std::string& path, std::optional<int64_t> seq_len);

// The readable summary (what the Model view's card says, plus the pairs in each class at the max length).
std::string inspect_summary(const ModelPosition& m);

}  // namespace posenc::cli
