#include "export.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <fstream>
#include <functional>
#include <iostream>

#include "app/compiled_languages.h"
#include "app/app.h"
#include "app/export.h"
#include "app/params.h"
#include "app/state_params.h"
#include "app/view.h"
#include "core/types.h"
#include "model_io/usage_json.h"
#include "command.h"

namespace posenc::cli {

namespace {
// The Frequency usage view's usage= names a weights report the page fetches; here it is read as a file (the
// path before any ?query or #fragment, relative to the working directory), bounded, before the state is
// loaded, so the strict load finds the view's data there (or its error naming usage).
void load_usage_file(app::App& app, const std::string& state) {
  const app::StateMap keys = app::parse_query(state);
  const auto view = keys.find("view"), usage = keys.find("usage");
  if (view == keys.end() || view->second != "usage" || usage == keys.end() || usage->second.empty()) return;
  const std::string url = usage->second, path = url.substr(0, url.find_first_of("?#"));
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) {
    app.load_usage(nullptr, 0, url, true, "cannot open " + path);
    return;
  }
  const std::streamoff size = in.tellg();
  if (size < 0 || size > std::streamoff(model_io::kMaxUsageJsonBytes)) {
    app.load_usage(nullptr, size_t(std::max<std::streamoff>(size, 0)), url, true);
    return;
  }
  std::string bytes(size_t(size), '\0');
  in.seekg(0);
  in.read(bytes.data(), size);
  bytes.resize(size_t(in.gcount()));
  app.load_usage(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), url, true);
}
}  // namespace

void load_state_strict(app::App& app, const std::string& state) {
  load_usage_file(app, state);
  std::string field, message;
  if (!app.load_state_query_strict(state, field, message)) throw InvalidArgument(field, message);
  // What the view cannot show of a model (view=rope&model=phi-3-mini-128k: LongRoPE's factors) is said, not
  // an error: the numbers written are the view's.
  for (const app::Notice& n : app.view_notes()) std::cerr << "posenc: note (" << n.key << "): " << n.message << "\n";
}

void write_output(const std::function<void(std::ostream&)>& write, const std::string& path, std::ostream& out,
                  const char* field) {
  if (path.empty() || path == "-") {
    write(out);
    out.flush();
    if (!out) throw InvalidArgument(field, std::string(field) + ": cannot write to standard output");
    return;
  }
  std::ofstream file(path, std::ios::binary);
  write(file);
  file.close();  // flushes: a full device (/dev/full) fails here
  if (!file) throw InvalidArgument(field, std::string(field) + ": cannot write '" + path + "'");
}

void write_output(const std::string& text, const std::string& path, std::ostream& out, const char* field) {
  write_output([&](std::ostream& to) { to << text; }, path, out, field);
}

CLI::App* add_export_command(CLI::App& app, ExportOptions& options) {
  CLI::App* cmd = app.add_subcommand("export", "The data behind one view (matrices with axes, curves) as CSV or JSON");
  cmd->add_option("--state", options.state, "The view's URL state, e.g. 'view=waves&n=64&d=32'")->required();
  cmd->add_option("--format", options.format, "csv or json (default json)")->check(CLI::IsMember({"csv", "json"}));
  cmd->add_option("-o,--output", options.output, "Output file (default: standard output)");
  return cmd;
}

CLI::App* add_views_command(CLI::App& app, ViewsOptions& options) {
  CLI::App* cmd = app.add_subcommand("views", "List the explorer's view ids (or, with --markdown, their URL parameters)");
  cmd->add_flag("--markdown", options.markdown, "Every view's URL parameters as Markdown tables");
  return cmd;
}

int run_views(const ViewsOptions& options, std::ostream& out) {
  if (!options.markdown) {
    for (const std::string& id : app::App::view_ids()) out << id << "\n";
    return 0;
  }
  app::App app;
  for (const std::string& id : app::App::view_ids()) {
    app.load_state_query("view=" + id);
    const app::View& view = *app.current_view();
    out << "`" << id << "` (" << view.title() << "):\n\n| key | meaning | values | default |\n|---|---|---|---|\n";
    const app::ParamList list = view.param_list();
    for (const app::Param& p : list.items()) {
      std::string meaning = p.opt.help && p.kind != app::ParamKind::Text ? p.opt.help : p.label();
      const std::string value = p.text();
      out << "| `" << p.key << "` | " << meaning << " | " << p.range_text() << " | "
          << (value.empty() ? std::string("empty") : "`" + value + "`") << " |\n";
    }
    out << "\n";
  }
  return 0;
}

int run_export(const ExportOptions& options, std::ostream& out, std::ostream& err) {
  app::load_compiled_languages();  // lang=zh: the Chinese catalogue and the CJK face
  return run_command(err, "computing the view", "internal error: ", [&] {
    app::App app;  // no ImGui context, no GL: the views only compute
    load_state_strict(app, options.state);
    const app::ExportData data = app.export_data();
    // Computed fully before anything is written, so an error of the view never leaves half a file on stdout;
    // the text is then written a row at a time (a scores view at n = 2048 is 500 MB of JSON).
    write_output(
        [&](std::ostream& to) {
          if (options.format == "csv") {
            app::write_export_csv(data, to);
          } else {
            app::write_export_json(data, to);
            to << "\n";
          }
        },
        options.output, out);
    return 0;
  });
}

}  // namespace posenc::cli
