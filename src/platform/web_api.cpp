// The browser side of the runner: functions the page's JS calls (window.posenc in web/shell.html),
// and the page notifications (first frame, state changes mirrored into the address bar).
#include "platform/platform.h"

#if defined(__EMSCRIPTEN__)
#include <emscripten.h>

#include <cstdio>
#include <string>

#include <imgui_internal.h>

#include "app/probe.h"
#include "app/update_timer.h"

using posenc::platform::runner;

extern "C" {

EMSCRIPTEN_KEEPALIVE unsigned posenc_frame_count() {
  return runner().app ? unsigned(runner().app->frame_count()) : 0u;
}

// Wall-clock ms of the last view recompute (core computation + texture upload), for bench/frame-timing.mjs.
EMSCRIPTEN_KEEPALIVE double posenc_last_update_ms() { return posenc::app::last_update_ms(); }

// The state as a query string (same keys as the URL). The pointer stays valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* posenc_get_state() {
  static std::string state;
  state = runner().app ? runner().app->state_query() : "";
  return state.c_str();
}

EMSCRIPTEN_KEEPALIVE void posenc_set_state(const char* query) {
  if (runner().app && query) runner().app->load_state_query(query);
}

EMSCRIPTEN_KEEPALIVE const char* posenc_notices() {
  static std::string notices;
  notices = runner().app ? runner().app->notices() : "";
  return notices.c_str();
}

// The same as [{"key", "message"}, ...] (window.posenc.noticeList()).
EMSCRIPTEN_KEEPALIVE const char* posenc_notice_list() {
  static std::string list;
  list = runner().app ? posenc::app::notices_json(runner().app->notice_list()) : "[]";
  return list.c_str();
}

// Every view id, comma-separated, in menu order (window.posenc.views()).
EMSCRIPTEN_KEEPALIVE const char* posenc_view_ids() {
  static std::string ids;
  ids.clear();
  for (const std::string& id : posenc::app::App::view_ids()) ids += (ids.empty() ? "" : ",") + id;
  return ids.c_str();
}

// "x,y,w,h" of a named UI item in CSS pixels relative to the canvas, or "" if not drawn last frame.
EMSCRIPTEN_KEEPALIVE const char* posenc_item_rect(const char* name) {
  static char buf[96];
  ImVec2 min, max;
  if (!name || !posenc::app::find_probe(name, &min, &max)) return "";
  std::snprintf(buf, sizeof buf, "%.2f,%.2f,%.2f,%.2f", min.x, min.y, max.x - min.x, max.y - min.y);
  return buf;
}

// Whether the wheel should reach the app: over a zoomable map, or over a panel that can scroll.
// Otherwise the page scrolls as if the canvas were not there.
EMSCRIPTEN_KEEPALIVE int posenc_wants_wheel() {
  if (posenc::app::wheel_requested()) return 1;
  const ImGuiWindow* hovered = ImGui::GetCurrentContext() ? ImGui::GetCurrentContext()->HoveredWindow : nullptr;
  return hovered && hovered->ScrollMax.y > 0.0f ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE void posenc_set_system_dark(int dark) {
  if (runner().app) runner().app->set_system_dark(dark != 0);
}

EMSCRIPTEN_KEEPALIVE int posenc_preferred_height() { return runner().app ? runner().app->preferred_height() : 0; }

EMSCRIPTEN_KEEPALIVE const char* posenc_view_title() {
  return runner().app ? runner().app->current_view()->title() : "";
}

EMSCRIPTEN_KEEPALIVE int posenc_is_dark() { return runner().app && runner().app->dark() ? 1 : 0; }

// The data behind the current view: format "csv" or "json". Valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* posenc_export(const char* format) {
  static std::string out;
  if (!runner().app || !format) return "";
  const posenc::app::ExportData data = runner().app->export_data();
  out = std::string(format) == "csv" ? posenc::app::export_csv(data) : posenc::app::export_json(data);
  return out.c_str();
}

// The PNG export draws one chrome-less frame; the page reads the canvas right after it.
EMSCRIPTEN_KEEPALIVE void posenc_request_capture() {
  if (runner().app) runner().app->request_capture();
}

}  // extern "C"

namespace posenc::platform {

void notify_frame_done(Runner& r) {
  if (r.app->frame_count() == 1) EM_ASM({ if (Module.onFirstFrame) Module.onFirstFrame(); });
  if (r.app->take_state_changed()) EM_ASM({ if (Module.onStateChange) Module.onStateChange(); });
}

bool save_framebuffer_png(const std::string&, int, int) { return false; }

void handle_app_actions(Runner& r, int, int) {
  // The canvas still holds this frame (we are inside the animation-frame callback): read it now.
  if (r.app->take_capture_frame()) EM_ASM({ if (Module.onCapture) Module.onCapture(); });
  const char* name = nullptr;
  switch (r.app->take_action()) {
    case app::AppAction::None: break;
    case app::AppAction::CopyLink: name = "copy-link"; break;
    case app::AppAction::CopyEmbedCode: name = "copy-embed"; break;
    case app::AppAction::ExportPng: r.app->request_capture(); name = "export-png"; break;
    case app::AppAction::ExportCsv: name = "export-csv"; break;
    case app::AppAction::ExportJson: name = "export-json"; break;
  }
  if (name) EM_ASM({ if (Module.onAction) Module.onAction(UTF8ToString($0)); }, name);
}

}  // namespace posenc::platform

#endif  // __EMSCRIPTEN__
