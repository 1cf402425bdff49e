#include "export.h"

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>

#include "app/app.h"
#include "app/export.h"
#include "core/types.h"
#include "eval.h"

namespace posenc::cli {

void load_state_strict(app::App& app, const std::string& state) {
  std::string field, message;
  if (!app.load_state_query_strict(state, field, message)) throw InvalidArgument(field, message);
  app.current_view()->prepare();
  const std::string why = app.current_view()->error();
  if (!why.empty()) throw InvalidArgument("", std::string(app.current_view()->id()) + " view cannot compute this state: " + why);
}

void write_output(const std::string& text, const std::string& path, std::ostream& out, const char* field) {
  if (path.empty() || path == "-") {
    out << text;
    out.flush();
    if (!out) throw InvalidArgument(field, std::string(field) + ": cannot write to standard output");
    return;
  }
  std::ofstream file(path, std::ios::binary);
  file << text;
  file.close();  // flushes: a full device (/dev/full) fails here
  if (!file) throw InvalidArgument(field, std::string(field) + ": cannot write '" + path + "'");
}

CLI::App* add_export_command(CLI::App& app, ExportOptions& options) {
  CLI::App* cmd = app.add_subcommand("export", "The data behind one view (matrices with axes, curves) as CSV or JSON");
  cmd->add_option("--state", options.state, "The view's URL state, e.g. 'view=waves&n=64&d=32'")->required();
  cmd->add_option("--format", options.format, "csv or json (default json)")->check(CLI::IsMember({"csv", "json"}));
  cmd->add_option("-o,--output", options.output, "Output file (default: standard output)");
  return cmd;
}

int run_export(const ExportOptions& options, std::ostream& out, std::ostream& err) {
  try {
    app::App app;  // no ImGui context, no GL: the views only compute
    load_state_strict(app, options.state);
    const app::ExportData data = app.export_data();
    // Built fully before anything is written, so an error never leaves half a file on stdout.
    const std::string text = options.format == "csv" ? app::export_csv(data) : app::export_json(data) + "\n";
    write_output(text, options.output, out);
    return 0;
  } catch (const InvalidArgument& e) {
    err << error_json(e.what(), e.field());
  } catch (const std::bad_alloc&) {
    err << error_json("out of memory while computing the view", "");
  } catch (const std::exception& e) {
    err << error_json(std::string("internal error: ") + e.what(), "");
  }
  return 2;
}

}  // namespace posenc::cli
