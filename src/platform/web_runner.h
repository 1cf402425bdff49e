// The browser runner as the page's functions (web_api.cpp) reach it. The runner owns the app and the
// loop; page_runner() is the page API's one handle to both, so no layer below keeps a registry of apps.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

#include "platform/runner.h"  // the runners' base, and its declarations of app::App and app::SvgImage
#include "platform/touch_gestures.h"

namespace posenc::platform {

// What the page may ask of the running explorer (implemented by web_runner.cpp's runner).
class PageRunner {
 public:
  virtual app::App& page_app() = 0;
  // Draw `frames` more frames: the loop resumes if it was asleep (nothing changed; see the runner's tick).
  virtual void wake(int frames) = 0;
  // While the WebGL context is lost nothing is drawn; unpausing wakes the app.
  virtual void set_paused(bool paused) = 0;
  // Whether the main loop is paused because nothing changes.
  virtual bool sleeping() const = 0;
  // Input events the app has not handled yet: queued, or held back for the next frame (one key release
  // per frame, see SdlRunner::new_platform_frame).
  virtual int input_pending() const = 0;
  // One changed touch point of a DOM touch event (event_ms: its timeStamp); true: the page prevents its
  // default.
  virtual int touch(TouchPhase phase, int id, ImVec2 pos, bool cancelable, double event_ms) = 0;
  // Whether the page around the app scrolls: 0 no (the app's own page), 1 yes (an iframe), 2 yes and
  // gestures are cooperative (an embed in an iframe: one finger scrolls the page, two move a map).
  virtual void set_page_scrolls(int mode) = 0;
  // Phone text entry: text a keyboard inserted (UTF-8), one key press by its DOM `key` name (mods: 1 Ctrl,
  // 2 Shift, 4 Alt, 8 Meta; false for a key the app has no use for), and the text field being edited as
  // JSON {x, y, w, h, name, text, touch} ("" when none is active).
  virtual void text_input(const char* utf8) = 0;
  virtual bool key(const char* dom_key, int mods) = 0;
  virtual const std::string& text_field() const = 0;
  // The last SVG export (Module.onSvg says when one is ready) and its pictures: each is referenced in the
  // document as href="posenc-image:<index>" until the page puts its own PNG there.
  virtual const std::string& svg() const = 0;
  virtual const std::vector<app::SvgImage>& svg_images() const = 0;

 protected:
  ~PageRunner() = default;
};

// The page's runner once run_app has started it; nullptr before (the page may call in early) or if it
// failed to start. It lives as long as the page (the browser owns the loop, run_app never returns).
PageRunner* page_runner();

}  // namespace posenc::platform
