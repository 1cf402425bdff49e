// `posenc render --state QUERY -o fig.png|fig.svg [--width W --height H --theme light|dark] [--transparent]
// [--probes FILE] [--controls]`: one view drawn as the app's Export PNG draws it (embed mode without
// controls; --controls: with the view's controls) by the headless runner
// (src/platform/headless_runner.h: OpenGL 3.3 through EGL, no window, no X server) and written as a PNG, or
// as an SVG of the same frame (app/svg_export.h) when the output ends in .svg.
#pragma once

#include <iosfwd>
#include <string>

namespace CLI {
class App;
}

namespace posenc::cli {

struct RenderOptions {
  std::string state;
  std::string output;  // PNG path, or SVG (*.svg)
  int width = 1200, height = 800;
  std::string theme;         // light | dark; empty: the state's theme, else light
  std::string probes;        // optional JSON sidecar: the named rectangles (heatmaps, plots) in pixels
  int frames = 4;            // ImGui needs a few frames to settle its layout
  bool transparent = false;  // SVG: no background
  bool controls = false;     // also draw the view's controls (else: only the figure, as Export PNG)
};

CLI::App* add_render_command(CLI::App& app, RenderOptions& options);

// Writes the PNG (and the probes file) and returns 0, or one JSON error object on err and returns 2.
int run_render(const RenderOptions& options, std::ostream& out, std::ostream& err);

}  // namespace posenc::cli
