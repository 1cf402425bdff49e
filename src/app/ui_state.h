// What the UI modules (probe, input, controls, model_link, the update timer) remember between and within
// frames, gathered in one object that each App owns, so two Apps in one process share none of it.
//
// The modules' free functions (probe_last_item, focused_slider_key, load_model_bytes, ...) act on the
// current UiState, as ImGui's functions act on its current context: an App makes its own current when it
// is made and at the start of every frame (App::make_current() for a caller that drives several Apps).
// Without an App (a view made alone in a test) they act on a state of their own.
#pragma once

#include <imgui.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/noncopyable.h"

namespace posenc::app {

// Declared here, defined by the modules that own them (i18n.h, model_link.h): the state holds them, the
// modules act on them, and this header stays below every module that includes it.
enum class Lang : int;
class ModelSink;

// A curve line_plot drew in this frame (only while recording: an SVG capture frame): the draw list and the
// index range its polylines took there (those triangles are replaced by the path), and its points in
// display units through every data point (non-finite points break it into runs).
struct SvgCurve {
  const ImDrawList* list = nullptr;
  int idx_begin = 0, idx_end = 0;
  std::vector<std::vector<ImVec2>> runs;
  ImU32 color = 0;
  float thickness = 1.0f;
  bool steps = false;
  bool markers = false;  // a dot at every point (at most 256 a run, as drawn)
  std::string label;
};

// Touch this frame, from the platform.
struct TouchFrame {
  bool touch = false;       // the pointer is a finger: hover readouts wait for a long-press
  bool long_press = false;  // a finger rests (~500 ms, little movement): the readout shows at the finger
  int fingers = 0;          // fingers down in a gesture the app owns (a pinch needs 2)
  ImVec2 centre{0, 0};      // their centroid (window units); ImGui's mouse position follows it
  float scale = 1.0f;       // pinch: spread of the fingers now / at the last frame (1 when not pinching)
  bool changed = false;     // a finger went down or up this frame: the centroid jumped (no pan from it)
  bool double_tap = false;  // this frame's press is the second tap of a double-tap (resets a zoom)
};

// Text being edited, per view and key: while the field is active it holds what the user typed (which may
// not parse yet). Text the parameter cannot take stays in the field after it is left, with the reason
// under it and a notice (field_notices), until it is edited into something valid or the value changes
// by other means (URL, setState, a preset): it is never silently replaced by the value.
struct TextEdit {
  std::string text;
  std::string why;      // why the text cannot be taken ("" when it is)
  std::string value;    // the parameter's text when it was rejected (the value the view still uses)
  bool active = false;  // the field had the keyboard last frame
};

struct UiState : private NonCopyable {
  UiState() = default;
  ~UiState();

  // i18n.h: the language the App shows (its lang key).
  Lang lang{};  // Lang::En (0) until the App sets its lang key

  // probe.h: the named rectangles of the last frame, and whether a widget asked for the wheel.
  std::map<std::string, std::pair<ImVec2, ImVec2>> probes;
  bool wheel_requested = false;

  // input.h: touch from the platform; the last frame's hover readout, zoomable areas and zoom windows.
  TouchFrame touch;
  bool coarse_pointer = false;  // the device's pointer is a finger (the page's (pointer: coarse))
  std::string readout;
  bool logging_readout = false;  // between begin_readout and end_readout
  std::vector<std::pair<ImVec2, ImVec2>> zoomable;
  std::map<std::string, ImVec4> zoom;
  std::string preedit;  // an input method's composition not yet committed (UTF-8; "" for none)

  // controls.h: the focused slider (ImGui id and key), the compact strip's table cells, text fields.
  ImGuiID focused_id = 0;
  std::string focused_key;
  bool columns = false;
  bool first_cell = true;
  std::map<std::string, TextEdit> text_edits;  // by "<view>/<key>"
  std::string control_scope;                   // the view whose controls are drawn (Controls' scope)
  // The declared keys the view's controls showed this frame (drawn, or read by a custom widget), and those
  // of the last frame that laid them out (for view `shown_view`): the parameters that matter now.
  std::vector<std::string> shown_now;
  std::vector<std::string> shown_keys;
  std::string shown_view;
  bool census = false;  // the controls are laid out unseen only to learn shown_now (nothing is drawn)

  // model_link.h: the views that receive a loaded model, and the page's file picker.
  std::vector<ModelSink*> model_sinks;
  bool file_picker = false;
  bool file_drop = false;  // the platform loads a file dropped on its window
  bool file_requested = false;
  bool compare_file_requested = false;
  int weights_requested = 0;  // the Frequency usage view's buttons: 1 a model folder, 2 files (AppAction)

  // svg_export.h: the curves line_plot drew in the frame an SVG export draws.
  bool svg_recording = false;
  std::vector<SvgCurve> svg_curves;

  // update_timer.h: wall-clock time of the last view recompute.
  double last_update_ms = 0.0;
  double last_recompute_ms = 0.0;  // its parts: the view's recompute() and upload()
  double last_upload_ms = 0.0;
};

// The state the modules act on now.
UiState& current_ui();
// Makes `state` current (nullptr: the state of no App). A UiState that is destroyed while current
// leaves the state of no App current.
void set_current_ui(UiState* state);

}  // namespace posenc::app
