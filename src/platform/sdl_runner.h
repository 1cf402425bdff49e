// The windowed runners' common part (desktop and web): an SDL2 window with its GL context, ImGui's SDL2
// platform backend and the app. desktop_runner.cpp and web_runner.cpp add what their platform does
// differently; main.cpp reads the command line for both.
#pragma once

#include <SDL.h>

#include <array>
#include <bitset>
#include <cstring>
#include <memory>
#include <optional>
#include <string>

#include "platform/runner.h"
#include "core/noncopyable.h"

namespace posenc::platform {

// posenc-app's command line (in the browser the page passes --state from its URL).
struct AppOptions {
  int width = 1280, height = 800;
  std::string state;       // --state: URL query to load
  std::string model;       // --model FILE: a config.json or .gguf to open with (desktop)
  int frames = -1;         // --frames N: stop after N frames (-1: run until closed)
  std::string screenshot;  // --screenshot PATH: PNG of the last frame
};

// Creates the window and runs the explorer until it is closed (desktop) or hands the loop to the
// browser (web). Returns the process's exit code. Defined once per platform.
int run_app(const AppOptions& options);

// Framebuffer pixels per window unit (the font is rasterised at this scale). Defined once per platform.
float pixel_ratio(SDL_Window* window);

// An input method's composition as SDL reports it on the desktop: SDL_TEXTEDITING while it is typed (pinyin
// before its characters are chosen; "" when it is cancelled), its commit as SDL_TEXTINPUT, and a window that
// loses the keyboard ends it. The preedit the app draws after `event` (App::set_preedit; "" for none), or
// nothing for an event that leaves it as it is. In the browser SDL sees no composition (the page reports it:
// posenc_set_preedit). SDL_TEXTEDITING holds at most 31 bytes: a longer composition shows its first 31.
inline std::optional<std::string> preedit_after(const SDL_Event& event) {
  switch (event.type) {
    case SDL_TEXTEDITING: return std::string(event.edit.text, strnlen(event.edit.text, sizeof event.edit.text));
    case SDL_TEXTINPUT: return std::string();
    case SDL_WINDOWEVENT:
      if (event.window.event == SDL_WINDOWEVENT_FOCUS_LOST) return std::string();
      return std::nullopt;
    default: return std::nullopt;
  }
}

// An SDL window and GL context: GL 3.3 core natively, an ES 3.0 context (= WebGL2) in the browser.
class SdlGlWindow : NonCopyable {
 public:
  SdlGlWindow(int width, int height);  // throws std::runtime_error naming the SDL call that failed
  ~SdlGlWindow();
  SDL_Window* window() const { return window_; }
  SDL_GLContext context() const { return context_; }

 private:
  SDL_Window* window_ = nullptr;
  SDL_GLContext context_ = nullptr;
};

class SdlRunner : public Runner {
 public:
  SdlRunner(int width, int height);  // throws std::runtime_error naming what failed
  ~SdlRunner() override;

 protected:
  void new_platform_frame() override;  // SDL events (a close quits), then the SDL backend's new frame
  void present() override;
  // Each SDL event, after ImGui's backend has seen it (the web runner watches mouse presses and motion).
  virtual void on_event(const SDL_Event& /*event*/) {}
  // An event held back for the next frame (see new_platform_frame): the runner must draw another frame.
  bool has_deferred_event() const { return deferred_.has_value(); }
  SDL_Window* window() const { return window_.window(); }
  ImGuiGl& imgui() { return imgui_; }

 private:
  // Declaration order is teardown order, reversed: the app (it owns GL textures) goes first, the window
  // with its GL context last.
  SdlGlWindow window_;
  ImGuiGl imgui_;
  std::unique_ptr<app::App> owned_app_;
  std::optional<SDL_Event> deferred_;  // a key release or mouse event held back for the next frame
  Uint16 key_mods_ = KMOD_NONE;        // modifier keys as of the last key event handled
  bool mouse_seen_ = false;            // a mouse event was handled (then the two below hold)
  float mouse_x_ = 0, mouse_y_ = 0;    // the pointer as of the last mouse event handled
  std::array<bool, 3> mouse_down_{};   // ImGui's buttons (left, right, middle) as of the events handled
};

}  // namespace posenc::platform
