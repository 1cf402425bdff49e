#include "render.h"

#include <CLI/CLI.hpp>
#include <cctype>
#include <cmath>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/compiled_languages.h"
#include "app/app.h"
#include "app/probe.h"
#include "app/state_params.h"
#include "core/types.h"
#include "command.h"
#include "export.h"
#include "platform/headless_runner.h"

namespace posenc::cli {
namespace {

constexpr int kMaxSide = 8192;

std::string probes_json(int w, int h) {
  nlohmann::ordered_json j;
  j["width"] = w;
  j["height"] = h;
  j["probes"] = nlohmann::ordered_json::object();
  for (const app::NamedRect& r : app::all_probes())
    j["probes"][r.name] = {std::lround(r.min.x), std::lround(r.min.y), std::lround(r.max.x), std::lround(r.max.y)};
  return j.dump(1) + "\n";
}

// An output named *.svg (any case) gets the SVG.
bool is_svg_path(const std::string& path) {
  if (path.size() < 4) return false;
  std::string ext = path.substr(path.size() - 4);
  for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".svg";
}

}  // namespace

CLI::App* add_render_command(CLI::App& app, RenderOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "render",
      "Render one view as Export PNG draws it (no menus, no controls) to a PNG or an SVG (by the output's extension), "
      "without a window");
  cmd->add_option("--state", options.state, "The view's URL state, e.g. 'view=similarity&scheme=sinusoidal'")->required();
  cmd->add_option("-o,--output", options.output, "PNG or SVG file to write (.svg: text, curves and axes as vectors)")->required();
  cmd->add_flag("--transparent", options.transparent, "SVG: no background (for a paper's own page)");
  cmd->add_flag("--controls", options.controls,
                "Also draw the view's controls (beside the plots, or the state's controls=compact strip)");
  cmd->add_option("--width", options.width, "Width in pixels (default 1200)")->check(CLI::Range(64, kMaxSide));
  cmd->add_option("--height", options.height, "Height in pixels (default 800)")->check(CLI::Range(64, kMaxSide));
  cmd->add_option("--theme", options.theme, "light or dark (default: the state's theme, else light)")
      ->check(CLI::IsMember({"light", "dark"}));
  cmd->add_option("--probes", options.probes, "Also write the named rectangles (heatmaps, plots) as JSON here");
  cmd->add_option("--frames", options.frames, "Frames to run before the read-back (default 4)")->check(CLI::Range(2, 100));
  return cmd;
}

int run_render(const RenderOptions& options, std::ostream& out, std::ostream& err) {
  app::load_compiled_languages();  // lang=zh: the Chinese catalogue and the CJK face
  return run_command(err, "rendering", "", [&] {
    const int w = options.width, h = options.height;
    // Figures are what Export PNG draws: the embed view without its controls (App::frame's capture), or
    // with them for --controls (the state's compact strip, else the controls shown); --theme overrides the
    // state's theme (later keys win).
    std::string query = options.state;
    if (!query.empty() && query[0] == '?') query.erase(0, 1);
    query += "&embed=1";
    if (!options.controls) query += "&controls=0";
    else if (const app::StateMap keys = app::parse_query(query); !keys.count("controls") || keys.at("controls") != "compact")
      query += "&controls=1";
    if (!options.theme.empty()) query += "&theme=" + options.theme;

    // The state is checked before any GL is set up: a bad key is the same error with or without a GPU.
    auto app = std::make_unique<app::App>();
    app->set_system_dark(false);  // no page to follow: light unless the state or --theme says dark
    load_state_strict(*app, query);

    const bool svg = is_svg_path(options.output);
    if (options.transparent && !svg) throw InvalidArgument{"transparent", "--transparent is for an SVG output (-o figure.svg)"};
    platform::HeadlessRunner runner(std::move(app), w, h);
    if (svg) {
      const std::string document = runner.render_svg(options.frames, options.transparent);
      if (!options.probes.empty()) write_output(probes_json(w, h), options.probes, out, "probes");
      write_output(document, options.output, out, "output");
      return 0;
    }
    const platform::Image image = runner.render(options.frames);
    if (!options.probes.empty()) write_output(probes_json(w, h), options.probes, out, "probes");
    write_output(platform::encode_png(image), options.output, out, "output");
    return 0;
  });
}

}  // namespace posenc::cli
