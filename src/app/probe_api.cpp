// What the page asks the app about its last frame, beside the runner's own API: the probe names drawn
// (window.posenc.probes()) and the current view in words (window.posenc.describe(), the page's live
// region). The app registers itself here, which also keeps this file linked into every runner.
#include <cstdio>

#include "app/app.h"
#include "app/controls.h"
#include "app/input.h"
#include "app/probe.h"

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#endif

namespace posenc::app {
namespace {
App* g_app = nullptr;
}  // namespace

void register_described_app(App* app, bool on) {
  if (on) g_app = app;
  else if (g_app == app) g_app = nullptr;
}

}  // namespace posenc::app

#ifdef __EMSCRIPTEN__
extern "C" {

// Every probe name drawn in the last frame, comma-separated. Valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* posenc_probe_names() {
  static std::string names;
  names = posenc::app::probe_names();
  return names.c_str();
}

// The current view as JSON {title, formula, params, numbers}. Valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* posenc_describe() {
  static std::string text;
  text = posenc::app::g_app ? posenc::app::g_app->describe() : "{}";
  return text.c_str();
}

// The hover readout of the last frame (the tooltip's text, lines joined by newlines; "" if none).
EMSCRIPTEN_KEEPALIVE const char* posenc_hover_readout() { return posenc::app::last_readout().c_str(); }

// "u0,v0,du,dv" of a zoomable plot's visible window (heatmap.<name> or plot.<figure>), "" if not drawn.
EMSCRIPTEN_KEEPALIVE const char* posenc_zoom(const char* name) {
  static char buf[128];
  ImVec4 w;
  if (!name || !posenc::app::find_zoom_window(name, &w)) return "";
  std::snprintf(buf, sizeof buf, "%.9g,%.9g,%.9g,%.9g", w.x, w.y, w.z, w.w);
  return buf;
}

// The key of the focused slider (the one the arrow keys step), "" if none.
EMSCRIPTEN_KEEPALIVE const char* posenc_focused_slider() { return posenc::app::focused_slider_key().c_str(); }

}  // extern "C"
#endif
