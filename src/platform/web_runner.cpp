// The browser runner: the canvas follows the page's layout, the browser owns the main loop, and the
// page (web/page/) is told about frames, state changes and the UI's actions; the other way, the
// page calls the functions of web_api.cpp (window.posenc), which reach this runner through page_runner().
//
// Sections, top to bottom: the runner and its loop (tick, wake, pause, sleeping); what the page sends
// (touch, text input, keys, the text field it edits); each frame (new_platform_frame, after_draw,
// present); keys and touch into ImGui (scancodes, long-press, modifiers, sliders, panel scroll); sleeping
// when nothing changes (draw_hash, canvas size); page_runner and run_app.
#include "platform/web_runner.h"

#include <emscripten.h>
#include <emscripten/eventloop.h>
#include <emscripten/html5.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "app/app.h"
#include "app/fonts.h"
#include "app/gl.h"
#include "app/i18n.h"
#include "app/svg_export.h"
#include "app/model_link.h"
#include "app/input.h"
#include "app/probe.h"
#include "platform/sdl_runner.h"
#include "platform/touch_gestures.h"

namespace posenc::platform {
namespace {

// SDL_CreateWindow refuses a window wider or taller than this ("Window is too large").
constexpr int kSdlWindowLimit = 16384;
// The largest canvas side in CSS pixels: SDL's window limit, and at most `drawable_limit` device pixels.
int canvas_css_limit(float ratio, int drawable_limit) {
  return std::max(1, std::min(kSdlWindowLimit, int(std::floor(drawable_limit / std::max(ratio, 0.01f)))));
}
int gl_drawable_limit();
void limit_canvas_css(int css_limit);

class WebRunner : public SdlRunner, public PageRunner {
 public:
  WebRunner(int width, int height) : SdlRunner(width, height), touch_([](ImVec2 p) { return app::zoomable_at(p); }) {
    touch_.set_typable(slider_at);
    // SDL's touch handling turns every touch into a mouse and prevents every touchstart's default, so no
    // touch on the canvas could ever scroll the page around an embed. The page feeds touch events to
    // TouchGestures instead (posenc_touch), which decides per gesture whose it is.
    emscripten_set_touchstart_callback("#canvas", nullptr, EM_FALSE, nullptr);
    emscripten_set_touchmove_callback("#canvas", nullptr, EM_FALSE, nullptr);
    emscripten_set_touchend_callback("#canvas", nullptr, EM_FALSE, nullptr);
    emscripten_set_touchcancel_callback("#canvas", nullptr, EM_FALSE, nullptr);
    // Beside SDL's own mousedown handler: the modifier keys held at a press, from the press itself.
    emscripten_set_mousedown_callback("#canvas", this, EM_FALSE, &WebRunner::on_mouse_down);
  }

  // One tick of the browser's loop. Draws only on change: input (SDL events), a new canvas size, a wake
  // from the page (setState, theme, ...), an active widget (a drag, a text field) or a picture that is
  // still changing (RoPE's animation, a hover that just appeared). Once three frames in a row drew the
  // same thing, the app sleeps: the main loop is paused (no animation frames are requested at all) and
  // frame_count() stays put; the page gets onSettled (inside the frame, so it can keep the canvas as a
  // poster). Anything that may change the picture wakes it: the page calls posenc_wake on every input
  // event, resize and page-side change, and the functions below that change the state wake it too.
  void tick() {
    if (paused_) return sleep();
    if (canvas_size_changed()) wake(3);
    SDL_PumpEvents();
    if (SDL_PeepEvents(nullptr, 0, SDL_PEEKEVENT, SDL_FIRSTEVENT, SDL_LASTEVENT) > 0) wake(3);
    const ImGuiContext* g = ImGui::GetCurrentContext();
    if (g && (g->ActiveId != 0 || g->IO.WantTextInput)) wake(1);
    if (touch_.needs_frame(emscripten_get_now())) wake(2);  // queued taps, a long-press coming due
    if (has_deferred_event()) wake(2);                      // an event held back for this frame
    if (awake_ <= 0) return sleep();
    --awake_;
    frame();
  }
  app::App& page_app() override { return app(); }
  void wake(int frames) override {
    awake_ = std::max(awake_, frames);
    if (sleeping_ && !paused_) {
      sleeping_ = false;
      emscripten_resume_main_loop();
    }
  }
  void set_paused(bool paused) override {
    paused_ = paused;
    drawn_key_ = 0;  // a paused page may have given its context back: draw the next frame whole
    if (!paused) wake(3);
  }
  bool sleeping() const override { return sleeping_; }
  int input_pending() const override {
    return std::max(0, SDL_PeepEvents(nullptr, 0, SDL_PEEKEVENT, SDL_FIRSTEVENT, SDL_LASTEVENT)) + (has_deferred_event() ? 1 : 0);
  }

  // One changed touch point of a DOM touch event (event_ms: its timeStamp, the clock of
  // emscripten_get_now()); bit 1: the page prevents its default, bit 2: it says two fingers move a map.
  int touch(TouchPhase phase, int id, ImVec2 pos, bool cancelable, double event_ms) override {
    const double now = emscripten_get_now();
    if (!(event_ms > now - 60000 && event_ms <= now + 1000)) event_ms = now;  // no usable timeStamp
    const bool own = touch_.on_touch(phase, id, pos, cancelable, event_ms);
    wake(3);
    // A finger that rests sends no more events: look again when a long-press would be due, so it is
    // seen even by a loop that does not tick without input.
    if (phase == TouchPhase::Start)
      emscripten_set_timeout(&WebRunner::long_press_check, std::max(0.0, event_ms + TouchGestures::kLongPressMs - now) + 10,
                             this);
    return (own ? 1 : 0) | (touch_.take_hint() ? 2 : 0);
  }
  void set_page_scrolls(int mode) override {
    touch_.set_page_scrolls(mode != 0);
    touch_.set_cooperative(mode == 2);
  }

  // Phone text entry (README, "Input"): the page's hidden text element forwards what a phone keyboard
  // typed. Both go in as SDL events, the same path as the canvas's own keys on a desktop (so the order of
  // text and keys survives: a key release waits for the next frame, see SdlRunner::new_platform_frame).
  void text_input(const char* utf8) override {
    // SDL_TEXTINPUT holds at most 31 bytes: split longer text between UTF-8 sequences.
    const std::string text = utf8 ? utf8 : "";
    constexpr size_t kMax = sizeof(SDL_TextInputEvent::text) - 1;
    for (size_t at = 0; at < text.size();) {
      size_t n = std::min(kMax, text.size() - at);
      while (n > 0 && at + n < text.size() && (static_cast<unsigned char>(text[at + n]) & 0xC0) == 0x80) --n;
      if (n == 0) break;
      SDL_Event e{};
      e.type = SDL_TEXTINPUT;
      e.text.windowID = SDL_GetWindowID(window());
      std::copy(text.begin() + long(at), text.begin() + long(at + n), e.text.text);
      SDL_PushEvent(&e);
      at += n;
    }
    wake(3);
  }
  // One key press and release by its DOM `key` name; mods: 1 Ctrl, 2 Shift, 4 Alt, 8 Meta. False for a
  // key the app has no use for (the page then leaves it to the browser).
  bool key(const char* dom_key, int mods) override {
    const SDL_Scancode code = scancode(dom_key ? dom_key : "");
    if (code == SDL_SCANCODE_UNKNOWN) return false;
    SDL_Event e{};
    e.type = SDL_KEYDOWN;
    e.key.windowID = SDL_GetWindowID(window());
    e.key.state = SDL_PRESSED;
    e.key.keysym.scancode = code;
    e.key.keysym.sym = SDL_GetKeyFromScancode(code);
    e.key.keysym.mod = Uint16((mods & 1 ? KMOD_LCTRL : 0) | (mods & 2 ? KMOD_LSHIFT : 0) | (mods & 4 ? KMOD_LALT : 0) |
                              (mods & 8 ? KMOD_LGUI : 0));
    SDL_PushEvent(&e);
    e.type = SDL_KEYUP;
    e.key.state = SDL_RELEASED;
    e.key.keysym.mod = KMOD_NONE;  // the modifiers are up again with the key (the release is a frame later)
    SDL_PushEvent(&e);
    wake(3);
    return true;
  }
  // The text field being edited as JSON {x, y, w, h, name, text} (CSS pixels relative to the canvas;
  // name: the probe under its caret, "" if none), or "" when no text field is active.
  const std::string& text_field() const override { return text_field_; }

 protected:
  void new_platform_frame() override {
    follow_canvas_size();
    pressed_ = false;
    SdlRunner::new_platform_frame();
    apply_modifiers();
    apply_touch();
  }

  void on_event(const SDL_Event& event) override {
    if (event.type == SDL_MOUSEBUTTONDOWN) pressed_ = true;
    if (event.type == SDL_MOUSEMOTION) touch_.on_mouse_motion(emscripten_get_now());
  }

  // A frame equal to the one the canvas shows is not drawn again (the browser keeps showing it), unless
  // the page reads the canvas in it: a capture, or (in an embed) the settling frame whose onSettled keeps
  // the poster. After a change that is one frame drawn of the three that settle it, and none while a test
  // or the page keeps the app awake with nothing changing.
  bool draw_wanted(int fb_width, int fb_height) override {
    key_ = frame_key(fb_width, fb_height);
    const bool settling = key_ == last_hash_ && same_ == 1 && page_reads_settled_canvas();
    if (key_ == drawn_key_ && !settling && !app_->capture_frame()) return false;
    drawn_key_ = key_;
    return true;
  }

  void after_draw(int, int) override {
    // The canvas still holds this frame (we are inside the animation-frame callback): read it now.
    if (app_->take_capture_frame())
      EM_ASM({
        if (Module.onCapture) Module.onCapture();
      });
    const char* name = nullptr;
    switch (app_->take_action()) {
      case app::AppAction::None: break;
      case app::AppAction::CopyLink: name = "copy-link"; break;
      case app::AppAction::CopyEmbedCode: name = "copy-embed"; break;
      case app::AppAction::ExportPng:
        app_->request_capture();
        name = "export-png";
        break;
      case app::AppAction::ExportSvg:
        app_->request_svg();
        name = "export-svg";
        break;
      case app::AppAction::ExportCsv: name = "export-csv"; break;
      case app::AppAction::ExportJson: name = "export-json"; break;
      case app::AppAction::OpenModelFile: name = "open-model-file"; break;
      case app::AppAction::OpenCompareFile: name = "open-compare-file"; break;
      case app::AppAction::OpenWeightsFolder: name = "open-weights-folder"; break;
      case app::AppAction::OpenWeightsFiles: name = "open-weights-files"; break;
    }
    if (name)
      EM_ASM(
          {
            if (Module.onAction) Module.onAction(UTF8ToString($0));
          },
          name);
    report_text_field();
    request_language_files();
    // Glyphs this frame drew as boxes that the CJK face has: the next frame rebuilds the atlas.
    if (app::fonts_stale()) wake(2);
    // Did this frame draw anything new? Then keep drawing; three equal frames in a row: settled.
    const uint64_t hash = key_;
    if (hash != last_hash_ || name) {
      last_hash_ = hash;
      same_ = 0;
      wake(3);
    } else if (++same_ == 2) {
      awake_ = 0;
      EM_ASM({
        if (Module.onSettled) Module.onSettled();
      });
    }
  }

  void present() override {
    SdlRunner::present();
    if (app_->frame_count() == 1)
      EM_ASM({
        if (Module.onFirstFrame) Module.onFirstFrame();
      });
    // During a drag the page defers its description (the view's exact numbers) to the drag's end.
    if (app_->take_state_changed())
      EM_ASM(
          {
            if (Module.onStateChange) Module.onStateChange($0);
          },
          app_->dragging());
  }

  // Share -> Export SVG and window.posenc.exportSvg(): the page encodes the pictures (its canvas makes
  // PNGs; the module carries no PNG encoder) and puts them in place of their references.
  const std::string& svg() const override { return svg_; }
  const std::vector<app::SvgImage>& svg_images() const override { return svg_images_; }
  std::string svg_image_href(const app::SvgImage& image) override {
    svg_images_.push_back(image);
    return "posenc-image:" + std::to_string(svg_images_.size() - 1);
  }
  void on_svg(std::string svg) override {
    svg_ = std::move(svg);
    // The page reads the document and its pictures while it is told (synchronously); then they go.
    EM_ASM({
      if (Module.onSvg) Module.onSvg();
    });
    svg_images_.clear();
  }

 private:
  // Tells the page when a text field starts or stops taking text, or moves (Module.onTextField): the
  // page shows a phone's keyboard through its hidden text element while one is active by touch. A field
  // a finger opened has its text selected (what a tap on a short parameter usually wants: replace it;
  // a second tap inside places the caret).
  void report_text_field() {
    ImGuiContext& g = *ImGui::GetCurrentContext();
    const bool editing = g.ActiveId != 0 && g.InputTextState.ID == g.ActiveId && g.WantTextInputNextFrame == 1;
    const bool opened = editing && g.ActiveId != text_field_id_;
    // Opened by touch: a finger drives the pointer now. It stays so while edited (the finger lifts).
    if (opened) {
      text_field_touch_ = touch_.active();
      if (text_field_touch_) g.InputTextState.SelectAll();
    }
    text_field_id_ = editing ? g.ActiveId : 0;
    std::string field;
    if (editing) {
      // The field's probe: the control around the caret (ImGui reports the caret's top-left for an IME).
      const ImVec2 caret(g.PlatformImePos.x + 1.0f, g.PlatformImePos.y + 0.5f * g.FontSize);
      app::NamedRect hit{"", g.PlatformImePos, ImVec2(g.PlatformImePos.x + 1.0f, g.PlatformImePos.y + g.FontSize)};
      for (const app::NamedRect& r : app::all_probes()) {
        const bool inside = caret.x >= r.min.x && caret.x <= r.max.x && caret.y >= r.min.y && caret.y <= r.max.y;
        const bool control = r.name.rfind("input.", 0) == 0 || r.name.rfind("slider.", 0) == 0;
        if (inside && control) {
          hit = r;
          break;
        }
      }
      const char* text = g.InputTextState.InitialTextA.Data ? g.InputTextState.InitialTextA.Data : "";
      char rect[128];
      std::snprintf(rect, sizeof rect, "{\"x\":%.1f,\"y\":%.1f,\"w\":%.1f,\"h\":%.1f,", hit.min.x, hit.min.y,
                    hit.max.x - hit.min.x, hit.max.y - hit.min.y);
      field = std::string(rect) + "\"name\":" + json_string(hit.name) + ",\"text\":" + json_string(text) +
              ",\"touch\":" + (text_field_touch_ ? "true" : "false") + "}";
    }
    if (field == text_field_) return;
    text_field_ = field;
    EM_ASM(
        {
          if (Module.onTextField) Module.onTextField(UTF8ToString($0));
        },
        text_field_.c_str());
  }
  // The page fetches the Chinese interface's files when the app first needs them: the current language's
  // catalogue (bit 1), the CJK face (bit 2: the interface is Chinese, or CJK text was drawn). Each is asked
  // for once; the page answers with posenc_set_catalogue / posenc_set_cjk_font (web_api.h).
  void request_language_files() {
    const bool catalogue = app::ui_lang() != app::Lang::En && !app::catalogue_loaded(app::ui_lang());
    const int want = (catalogue ? 1 : 0) | (app::cjk_font_wanted() ? 2 : 0);
    if ((want & ~requested_files_) == 0) return;
    requested_files_ |= want;
    EM_ASM(
        {
          if (Module.onNeedLanguage) Module.onNeedLanguage($0, UTF8ToString($1));
        },
        want, app::lang_code(app::ui_lang()));
  }
  int requested_files_ = 0;

  static std::string json_string(const std::string& s) {
    std::string out = "\"";
    for (const char c : s) {
      if (c == '"' || c == '\\') out += '\\', out += c;
      else if (static_cast<unsigned char>(c) < 0x20) {
        char esc[8];
        std::snprintf(esc, sizeof esc, "\\u%04x", c);
        out += esc;
      } else out += c;
    }
    return out + "\"";
  }
  static SDL_Scancode scancode(const std::string& key) {
    static const std::pair<const char*, SDL_Scancode> kKeys[] = {{"Enter", SDL_SCANCODE_RETURN},
                                                                 {"Escape", SDL_SCANCODE_ESCAPE},
                                                                 {"Backspace", SDL_SCANCODE_BACKSPACE},
                                                                 {"Delete", SDL_SCANCODE_DELETE},
                                                                 {"Tab", SDL_SCANCODE_TAB},
                                                                 {"ArrowLeft", SDL_SCANCODE_LEFT},
                                                                 {"ArrowRight", SDL_SCANCODE_RIGHT},
                                                                 {"ArrowUp", SDL_SCANCODE_UP},
                                                                 {"ArrowDown", SDL_SCANCODE_DOWN},
                                                                 {"Home", SDL_SCANCODE_HOME},
                                                                 {"End", SDL_SCANCODE_END},
                                                                 {"PageUp", SDL_SCANCODE_PAGEUP},
                                                                 {"PageDown", SDL_SCANCODE_PAGEDOWN},
                                                                 {"a", SDL_SCANCODE_A},
                                                                 {"c", SDL_SCANCODE_C},
                                                                 {"v", SDL_SCANCODE_V},
                                                                 {"x", SDL_SCANCODE_X},
                                                                 {"y", SDL_SCANCODE_Y},
                                                                 {"z", SDL_SCANCODE_Z}};
    for (const auto& [name, code] : kKeys)
      if (key == name) return code;
    return SDL_SCANCODE_UNKNOWN;
  }

  static void long_press_check(void* self) {
    auto* runner = static_cast<WebRunner*>(self);
    if (runner->touch_.needs_frame(emscripten_get_now())) runner->wake(2);
  }

  // The modifier keys of the last mouse press on the canvas, as the browser reported them with it.
  static EM_BOOL on_mouse_down(int, const EmscriptenMouseEvent* e, void* self) {
    auto* runner = static_cast<WebRunner*>(self);
    runner->press_ctrl_ = e->ctrlKey, runner->press_shift_ = e->shiftKey;
    runner->press_alt_ = e->altKey, runner->press_super_ = e->metaKey;
    return EM_FALSE;  // SDL's handler decides about the default
  }

  // ImGui's modifier flags come from key events, and SDL gets key events only while the canvas has the
  // keyboard focus: a Ctrl pressed before the click that focused the canvas went to the page, so
  // ctrl+click dragged the slider instead of opening its text field. In the frame of a press the
  // modifiers the browser reported with the press count too.
  void apply_modifiers() {
    if (!pressed_) return;
    ImGuiIO& io = ImGui::GetIO();
    io.KeyCtrl |= press_ctrl_;
    io.KeyShift |= press_shift_;
    io.KeyAlt |= press_alt_;
    io.KeySuper |= press_super_;
  }

  // While touch drives the pointer: ImGui's mouse from the finger, panel scrolling, the app's touch frame.
  void apply_touch() {
    ImGuiIO& io = ImGui::GetIO();
    if (!touch_.active()) {
      app::set_touch_frame({});
      io.MouseDoubleClickTime = 0.30f, io.MouseDoubleClickMaxDist = 6.0f;  // ImGui's defaults
      return;
    }
    const TouchGestures::Frame f = touch_.frame(emscripten_get_now());
    if (f.cancel_press) ImGui::ClearActiveID();  // the browser took the gesture: no click, no drag
    io.MousePos = f.mouse.valid ? f.mouse.pos : ImVec2(-FLT_MAX, -FLT_MAX);
    io.MouseDown[0] = f.mouse.down;
    // A long-press lifted on a slider presses with Ctrl (its text field opens); Ctrl is let go after.
    if (f.mouse.ctrl) io.KeyCtrl = touch_ctrl_ = true;
    else if (touch_ctrl_) io.KeyCtrl = touch_ctrl_ = false;
    io.MouseDown[1] = io.MouseDown[2] = false;
    // A finger is less precise than a mouse: a double-tap may land a little later and further away.
    io.MouseDoubleClickTime = 0.40f, io.MouseDoubleClickMaxDist = 24.0f;
    if (f.scroll_dy != 0.0f) scroll_panel(f.scroll_dy);
    app::set_touch_frame(f.touch);
  }

  // Whether a slider (a declared one or one a view draws, probed as slider.<key>) was drawn at `p` in
  // the last frame: a long-press lifted there opens its text field.
  static bool slider_at(ImVec2 p) {
    for (const app::NamedRect& r : app::all_probes())
      if (r.name.rfind("slider.", 0) == 0 && p.x >= r.min.x && p.x < r.max.x && p.y >= r.min.y && p.y < r.max.y) return true;
    return false;
  }

  // A vertical swipe on the app's own page: the panel under the finger (or the nearest one around it
  // that scrolls) follows the finger.
  static void scroll_panel(float dy) {
    ImGuiContext& g = *ImGui::GetCurrentContext();
    for (ImGuiWindow* w = g.HoveredWindow; w; w = w->ParentWindow)
      if (w->ScrollMax.y > 0.0f && !(w->Flags & ImGuiWindowFlags_NoScrollWithMouse)) {
        ImGui::SetScrollY(w, std::clamp(w->Scroll.y - dy, 0.0f, w->ScrollMax.y));
        return;
      }
  }

  TouchGestures touch_;
  bool pressed_ = false;  // a mouse press was among this frame's events
  bool press_ctrl_ = false, press_shift_ = false, press_alt_ = false, press_super_ = false;
  bool touch_ctrl_ = false;                // the touch press of this frame set io.KeyCtrl
  ImGuiID text_field_id_ = 0;              // the text field active after the last frame (0: none)
  bool text_field_touch_ = false;          // it was opened by touch
  std::string text_field_;                 // what the page was last told about it (JSON, "" for none)
  std::string svg_;                        // the last SVG export (PageRunner::svg)
  std::vector<app::SvgImage> svg_images_;  // its pictures while the page is told

  // Module.readsSettledCanvas: the page reads the canvas in the settling frame (an embed keeps its poster).
  static bool page_reads_settled_canvas() {
    return EM_ASM_INT({ return Module.readsSettledCanvas ? 1 : 0; }) != 0;
  }

  bool canvas_size_changed() {
    double cw = 0, ch = 0;
    emscripten_get_element_css_size("#canvas", &cw, &ch);
    const float ratio = float(emscripten_get_device_pixel_ratio());
    const bool changed = cw != last_w_ || ch != last_h_ || ratio != last_ratio_;
    last_w_ = cw, last_h_ = ch, last_ratio_ = ratio;
    return changed;
  }

  // No frame to draw: stop the browser's loop until wake() (while the WebGL context is lost too).
  void sleep() {
    if (sleeping_) return;
    sleeping_ = true;
    emscripten_pause_main_loop();
  }

  int awake_ = 3;          // frames still to draw; the first frames always run
  bool sleeping_ = false;  // the main loop is paused
  int same_ = 0;
  uint64_t key_ = 0;        // this frame's frame_key
  uint64_t drawn_key_ = 0;  // the key of the frame the canvas shows
  uint64_t last_hash_ = 0;
  bool paused_ = false;
  double last_w_ = -1, last_h_ = -1;
  float last_ratio_ = -1;

  // The canvas is sized by the page's CSS (it fills its container); follow it every frame, up to what
  // WebGL can draw (canvas_css_limit): a taller container (an iframe 100000 px high) gets a canvas of
  // that height at its top, and the app lays the view out in it.
  void follow_canvas_size() {
    const float ratio = pixel_ratio(window());
    limit_canvas_css(canvas_css_limit(ratio, gl_drawable_limit()));
    double cw = 0, ch = 0;
    emscripten_get_element_css_size("#canvas", &cw, &ch);
    const int w = std::max(1, int(cw)), h = std::max(1, int(ch));
    int ww = 0, wh = 0;
    SDL_GetWindowSize(window(), &ww, &wh);
    // SDL sizes the canvas's backing store from the ratio too: set the size again when either changed.
    if (w != ww || h != wh || std::abs(ratio - imgui().pixel_ratio()) > 1e-3f) {
      SDL_SetWindowSize(window(), w, h);
      imgui().set_pixel_ratio(ratio);
    }
  }
};

// The page's runner; it lives as long as the page (the browser owns the loop, main never returns).
std::unique_ptr<WebRunner> g_runner;

// The largest drawing buffer side WebGL gives this page: the viewport and renderbuffer limits (Chrome
// clamps a larger canvas's drawing buffer to them without a word, which would stretch the picture).
int gl_drawable_limit() {
  static int limit = 0;
  if (limit == 0) {
    GLint viewport[2] = {0, 0}, renderbuffer = 0;
    glGetIntegerv(GL_MAX_VIEWPORT_DIMS, viewport);
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &renderbuffer);
    limit = std::min({viewport[0], viewport[1], renderbuffer});
    if (limit <= 0) limit = 4096;  // WebGL2's guaranteed minimum
  }
  return limit;
}

// The canvas's CSS size as a max-width and max-height on the element: the page's layout keeps
// the canvas within what can be drawn (it never exceeds the container it otherwise fills).
void limit_canvas_css(int css_limit) {
  static int applied = 0;
  if (css_limit == applied) return;
  applied = css_limit;
  EM_ASM(
      {
        const c = document.getElementById('canvas');
        if (c) c.style.maxWidth = c.style.maxHeight = $0 + 'px';
      },
      css_limit);
}

}  // namespace

PageRunner* page_runner() { return g_runner.get(); }

float pixel_ratio(SDL_Window*) { return float(emscripten_get_device_pixel_ratio()); }

int run_app(const AppOptions& options) {
  EM_ASM({
    if (window.performance && performance.mark) performance.mark('posenc:main');
  });  // bench/startup.mjs
  SDL_SetHint(SDL_HINT_EMSCRIPTEN_KEYBOARD_ELEMENT, "#canvas");
  int width = options.width, height = options.height;
  double cw = 0, ch = 0;
  emscripten_get_element_css_size("#canvas", &cw, &ch);
  if (cw >= 1 && ch >= 1) width = int(cw), height = int(ch);
  // Within SDL's window limit (16384, "Window is too large" past it) before a context can say more: the
  // first frame then fits the canvas to what this browser's WebGL draws (follow_canvas_size).
  const int first_limit = canvas_css_limit(float(emscripten_get_device_pixel_ratio()), kSdlWindowLimit);
  limit_canvas_css(first_limit);
  width = std::min(width, first_limit), height = std::min(height, first_limit);
  try {
    g_runner = std::make_unique<WebRunner>(width, height);
  } catch (const std::runtime_error& e) {
    std::fprintf(stderr, "posenc-app: %s\n", e.what());
    EM_ASM(
        {
          if (Module.onStartFailure) Module.onStartFailure(UTF8ToString($0));
        },
        e.what());
    return 1;
  }
  // theme=auto follows the page's prefers-color-scheme (the page reports later changes).
  g_runner->app().set_system_dark(
      EM_ASM_INT({ return window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 1 : 0; }) != 0);
  // The page opens a file picker for "Load config.json / GGUF" (onAction "open-model-file").
  app::set_model_file_picker(true);
  if (!options.state.empty()) g_runner->app().load_state_query(options.state);
  // The first frame now, not at the loop's first animation frame (one display refresh or more later: the
  // canvas shows what is drawn outside an animation frame as well, once this task ends).
  g_runner->tick();
  emscripten_set_main_loop([] { g_runner->tick(); }, 0, true);
  return 0;
}

}  // namespace posenc::platform
