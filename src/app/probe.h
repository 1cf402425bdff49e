// Named screen rectangles of UI items, recorded every frame so tests (and the JS API) can aim at
// a slider or a heatmap instead of guessing pixels.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

namespace posenc::app {

// Records the last ImGui item's rectangle under `name` (call right after the widget).
void probe_last_item(const char* name);
// Records an explicit rectangle.
void probe_rect(const char* name, ImVec2 min, ImVec2 max);
// Records `plot.<figure>` as the rectangle already recorded under `existing` (a heatmap's image).
void probe_plot(const std::string& figure, const char* existing);
// Names of every rectangle recorded in the last frame, comma-separated (window.posenc.probes()).
std::string probe_names();
// Looks a rectangle up; false if it was not drawn in the last frame.
bool find_probe(const std::string& name, ImVec2* min, ImVec2* max);
// Every rectangle recorded in the last frame, sorted by name (the headless renderer's --probes sidecar).
struct NamedRect {
  std::string name;
  ImVec2 min, max;
};
std::vector<NamedRect> all_probes();
// Called at the start of every frame: forget last frame's rectangles (and the wheel request).
void clear_probes();

// A widget under the mouse that uses the wheel (zoomable map) asks for it this frame; the browser page
// lets wheel events reach the app only then, so an embed never hijacks the page's scrolling.
void request_wheel();
bool wheel_requested();

}  // namespace posenc::app
