// `posenc export --state QUERY --format csv|json [-o FILE]`: the data behind one view of the explorer,
// computed headless (no window, no GL), and the strict state loading shared with `posenc render`.
#pragma once

#include <iosfwd>
#include <functional>
#include <string>

#include "cli/command.h"

namespace CLI {
class App;
}

namespace posenc::app {
class App;
}

namespace posenc::cli {

struct ExportOptions {
  std::string state;            // URL query string ("view=waves&n=64"), a leading '?' is fine
  std::string format = "json";  // csv | json
  std::string output;           // file, or empty / "-" for stdout
};

CLI::App* add_export_command(CLI::App& app, ExportOptions& options);

// Writes the export on out (or the file) and returns 0, or one JSON error object on err and returns 2.
int run_export(const ExportOptions& options, std::ostream& out, std::ostream& err);

// `posenc views [--markdown]`: every view id, one a line (App::view_ids()), or with --markdown the URL
// parameter table of every view generated from the views' declarations (docs/url-parameters.md, which
// the CTest url_parameters_doc holds equal to it).
using ViewsOptions = ListingOptions;
CLI::App* add_views_command(CLI::App& app, ViewsOptions& options);
int run_views(const ViewsOptions& options, std::ostream& out);

// Loads `state` into app; an unknown key, a bad value or a state the view cannot compute throws
// posenc::InvalidArgument naming the URL key.
void load_state_strict(app::App& app, const std::string& state);

// Writes `text` to `path` ("-" or empty: `out`); throws InvalidArgument(field, ...) on any failure,
// including one found only when the file is flushed and closed (a full device).
void write_output(const std::string& text, const std::string& path, std::ostream& out, const char* field = "output");
// The same for a text written piece by piece (write(stream)): never held whole.
void write_output(const std::function<void(std::ostream&)>& write, const std::string& path, std::ostream& out,
                  const char* field = "output");

}  // namespace posenc::cli
