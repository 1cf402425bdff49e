// The posenc explorer: owns the views, lays out the main window and holds the URL state.
// Knows ImGui and GL, nothing of SDL or the browser (src/platform/ drives it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/export.h"
#include "app/params.h"
#include "app/svg_export.h"
#include "app/ui_state.h"
#include "app/url_state.h"
#include "app/view.h"
#include "core/noncopyable.h"

namespace posenc::app {

// Things the app asks its platform to do (clipboard, downloads, reading pixels back).
enum class AppAction {
  None,
  CopyLink,
  CopyEmbedCode,
  ExportPng,
  ExportSvg,
  ExportCsv,
  ExportJson,
  OpenModelFile,
  OpenCompareFile,
  OpenWeightsFolder,
  OpenWeightsFiles
};

class App : NonCopyable {
 public:
  // Makes its UI state current (app/ui_state.h).
  App();
  ~App();

  // Builds one frame's UI (with this App's UI state made current). Call between ImGui::NewFrame() and
  // ImGui::Render().
  void frame();

  // This App's UI state (probes, readout, zoom windows, focused slider, touch, loaded-model receivers),
  // and making it the one the modules' free functions act on (app/ui_state.h): for a caller that drives
  // several Apps in one process, before it talks to one of them outside its frame().
  UiState& ui() { return ui_; }
  void make_current() { set_current_ui(&ui_); }

  // A config.json text or GGUF header loaded into this App's views that take models (load_model_bytes in
  // app/views/views.h, with this App current).
  std::string load_model(const unsigned char* data, std::size_t size, const std::string& view = "model", bool prefix = false);

  // A tensor file loaded into this App's Check view (load_tensor_bytes in app/views/views.h).
  std::string load_tensor(const unsigned char* data, std::size_t size, const std::string& name);

  // A weights report into this App's Frequency usage view (load_usage_bytes in app/views/views.h), and the
  // usage= URL that view waits for (the page fetches it).
  std::string load_usage(const unsigned char* data, std::size_t size, const std::string& source, bool from_url,
                         const std::string& failure = "");
  std::string usage_wanted_url();

  // Every view's id, in menu order (the one list tests, CMake test registration and docs read).
  static std::vector<std::string> view_ids();

  // The whole state as a URL query string ("view=waves&n=64&..."), and back. App-level keys:
  // view, embed (1 = only the view), controls (0 = hide the view's controls, compact = a strip above the
  // plots), theme (light|dark), figure (one plot of the view alone, a name from View::figures()).
  std::string state_query() const;
  // A key or value longer than kMaxValueBytes is ignored with a notice (the longest a key takes, a
  // model's per-pair factor list, is ~50 KB).
  void load_state_query(const std::string& query);
  static constexpr size_t kMaxValueBytes = kMaxStateValueBytes;  // url_state.h
  // What the last load ignored or corrected and why, why the current view cannot compute its state (if it
  // cannot), and the view's notes (what of a model it cannot show): one entry per key. notices() is the
  // same as text (empty when everything was taken).
  Notices notice_list();
  // The current view's notes alone (the strict CLI prints them as warnings; they do not fail a load).
  Notices view_notes();
  std::string notices() { return notices_text(notice_list()); }
  // A notice the platform adds (an export the page refused); it goes with the next state load.
  void add_notice(Notice notice) { notices_.push_back(std::move(notice)); }
  // Strict load for the command line: like load_state_query, but anything the lenient load would ignore
  // or correct, and a state the view cannot compute, is an error (the view's notes are not). Returns false and sets `field` (the URL
  // key of the first notice) and `message` (all notices).
  bool load_state_query_strict(const std::string& query, std::string& field, std::string& message);
  // True once per state change made through the UI (the platform mirrors it into the URL).
  bool take_state_changed();
  // Whether a control is held by the mouse or a finger (a slider being dragged).
  bool dragging() const;
  // Next action the UI asked for (then None).
  AppAction take_action();

  // The page's prefers-color-scheme, used while theme is Auto.
  void set_system_dark(bool dark);
  // The device's pointer is a finger (input.h: finger_pointer), known before any touch.
  void set_coarse_pointer(bool coarse) { ui_.coarse_pointer = coarse; }
  // An input method's composition (pinyin being typed) not yet committed: drawn in the active text field
  // after its caret, underlined, while the field's text stays as it is ("" ends it; the commit arrives as
  // typed text).
  void set_preedit(std::string text) { ui_.preedit = std::move(text); }
  bool dark() const;
  bool embed() const { return keys_.embed; }
  // Height (in window units) the current view would like in embed mode, so an iframe can fit it.
  int preferred_height() const { return preferred_height_; }

  // Share -> Copy embed code. The URL state of the embed: the short view query (short_view_query), then
  // embed=1 and the app-level keys that are set (controls, figure, theme, lang).
  std::string embed_query() const;
  // Share -> Copy link (and window.posenc.linkUrl): the short view query, then the app-level keys that are
  // set; the embed code's rule, so a link holds only what differs from a fresh view and loads this state.
  std::string link_query() const;
  // The iframe height of the embed code: what this state's embed layout needs at a kEmbedCodeWidth
  // column (the medium layout): padding, the Controls toggle (controls=1; compact adds its strip's
  // three rows), the formula line and the plots at min(560, 0.75 x width). The same rule gives the
  // height a medium-width embed asks its page for (posenc:height), so the page keeps it.
  int embed_height(float width = kEmbedCodeWidth) const;
  static constexpr float kEmbedCodeWidth = 720.0f;

  // PNG export: the next frame is drawn chrome-less (only the view); the platform reads it back when
  // take_capture_frame() says the frame just drawn is that one.
  void request_capture() { capture_pending_ = true; }
  bool take_capture_frame();
  bool capture_frame() const { return capture_frame_; }  // the same without taking it
  // SVG export (app/svg_export.h): the next frame is recorded for frame_svg, drawn chrome-less as the
  // PNG export's (`chrome_less`; posenc render records the frame it draws anyway); take_svg_frame() says
  // the frame just built (ImGui::Render done) is that one, svg_options() what its document says.
  void request_svg(bool chrome_less = true, bool transparent = false) {
    svg_pending_ = true, svg_chrome_less_ = chrome_less, svg_transparent_ = transparent;
  }
  bool take_svg_frame();
  SvgOptions svg_options() const;

  // The data behind the current view (CSV / JSON export). With `max_values`, a view whose tables would
  // hold more is not built: the result says how many values (values, over) and holds no table.
  ExportData export_data(size_t max_values = SIZE_MAX) const;

  // The current view in words, as JSON: {title, formula, params: {key: value}, numbers: [{name, value}]}.
  std::string describe();

  // The current view's parameter declaration for a form outside the canvas (param_form.h): kinds,
  // labels, ranges, choices, current values, the notice of each key, and which parameters the current
  // state's controls show (the ones that matter for the current scheme, as of the last frame).
  std::string form();
  // The keys the current state's controls show (empty before a frame has laid them out).
  std::vector<std::string> shown_keys() const;

  uint64_t frame_count() const { return frame_count_; }
  View* current_view() { return current_; }

 private:
  // view, then only the view's keys whose value differs from what a fresh view would hold after reading
  // the keys before them (no default-valued key; a key a preset or another key fills is left out too),
  // in declaration order: the one rule of the embed code and the link.
  std::string short_view_query() const;
  // Replaces the current view by a fresh one of the same id (a new preset model starts from scratch).
  void replace_current_view();
  // What one frame lays out: from the frame's size (never the screen's) and the app-level keys.
  struct FrameLayout {
    float width = 0, height = 0;
    LayoutMode mode = LayoutMode::Wide;
    bool small_embed = false;  // an embed too small for more than one figure
    std::string figure;        // the figure shown alone ("" = all)
    bool side = false;         // the controls beside the plots (else above them, or hidden)
  };
  FrameLayout plan_frame() const;
  void begin_main_window(const FrameLayout& layout);
  // The controls beside or above the plots; returns the height they take above the plots.
  float draw_controls_area(const FrameLayout& layout);
  // The formula line and the plots; returns the formula line's height.
  float draw_content_area(const FrameLayout& layout);
  // The height an embed asks its page for.
  void update_preferred_height(const FrameLayout& layout, float top_used, float controls_h, float caption_h);

  void draw_menu_bar(bool picker);
  void draw_controls_panel(int columns);
  // The controls laid out unseen (a window outside the viewport) when the layout drew none this frame, so
  // the keys they show are known whatever the layout (narrow panel closed, controls=0, a PNG capture).
  void census_controls();
  bool controls_drawn_ = false;  // draw_controls_panel ran this frame
  // The app-level URL parameters (embed, controls, figure), declared once (app/url_state.cpp).
  void app_params(ParamList& list);
  // The current view's notes, the text its fields could not take and the fonts' notices: what
  // notice_list lists after the load's notices and draw_notices shows (dismissable) after them.
  Notices current_notes();
  void draw_notices();
  // Height the layout needs at `width` in `mode` below `top` (padding, menu, notices) with `controls_h`
  // of controls and `caption_h` of formula above the plots, showing `figure` alone ("" = all figures).
  float layout_height(float width, LayoutMode mode, float top, float controls_h, float caption_h,
                      const std::string& figure) const;
  void apply_theme();
  View* find_view(const std::string& id);

  UiState ui_;  // declared first: the views below are released before it
  std::vector<std::unique_ptr<View>> views_;
  View* current_ = nullptr;
  AppKeys keys_;  // embed, controls, figure, theme
  Notices notices_;
  bool state_changed_ = false;
  bool time_next_update_ = true;  // the next frame follows a state load: time its update
  AppAction action_ = AppAction::None;
  int controls_open_ = -1;                // the medium/compact controls strip is open (-1: not decided yet; UI only)
  bool notice_more_ = false;              // the notice shows all its lines
  std::string dismissed_notes_;           // the view notes the reader dismissed (shown again once they change)
  bool narrow_controls_open_ = false;     // the narrow layout's controls panel (behind a toggle)
  float controls_natural_h_ = 0;          // height the controls took last frame
  ImVec2 menu_view_min_, menu_view_max_;  // the closed view picker's header (probe menu.view while open)
  bool system_dark_ = true;
  int applied_dark_ = -1;  // theme applied to ImGui's style (-1 = none yet)
  int preferred_height_ = 480;
  bool capture_pending_ = false, capture_frame_ = false;
  bool svg_pending_ = false, svg_chrome_less_ = true, svg_transparent_ = false, svg_frame_ = false;
  uint64_t frame_count_ = 0;
};

}  // namespace posenc::app
