#include "platform/sdl_runner.h"

#include <imgui.h>
#include <imgui_impl_sdl.h>

#include <cfloat>
#include <stdexcept>

#include "app/app.h"

namespace posenc::platform {

SdlGlWindow::SdlGlWindow(int width, int height) {
  if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) throw std::runtime_error(std::string("SDL_Init failed: ") + SDL_GetError());
#if defined(__EMSCRIPTEN__)
  // An ES 3.0 context request with -sMAX_WEBGL_VERSION=2 gives WebGL2.
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_ES);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
  const Uint32 flags = SDL_WINDOW_OPENGL | SDL_WINDOW_ALLOW_HIGHDPI;  // the page's CSS sizes the canvas
#else
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
  const Uint32 flags = SDL_WINDOW_OPENGL | SDL_WINDOW_ALLOW_HIGHDPI | SDL_WINDOW_RESIZABLE;
#endif
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 0);
  SDL_GL_SetAttribute(SDL_GL_STENCIL_SIZE, 0);
  window_ = SDL_CreateWindow("posenc — positional encoding explorer", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, width,
                             height, flags);
  if (!window_) {
    const std::string why = std::string("SDL_CreateWindow failed: ") + SDL_GetError();
    SDL_Quit();
    throw std::runtime_error(why);
  }
  context_ = SDL_GL_CreateContext(window_);
  if (!context_) {
    const std::string why = std::string("could not create a GL context: ") + SDL_GetError();
    SDL_DestroyWindow(window_);
    SDL_Quit();
    throw std::runtime_error(why);
  }
  SDL_GL_MakeCurrent(window_, context_);
  SDL_GL_SetSwapInterval(1);
}

SdlGlWindow::~SdlGlWindow() {
  SDL_GL_DeleteContext(context_);
  SDL_DestroyWindow(window_);
  SDL_Quit();
}

SdlRunner::SdlRunner(int width, int height)
    : window_(width, height), imgui_(pixel_ratio(window_.window())), owned_app_(std::make_unique<app::App>()) {
  ImGui_ImplSDL2_InitForOpenGL(window_.window(), window_.context());
  app_ = owned_app_.get();
}

SdlRunner::~SdlRunner() { ImGui_ImplSDL2_Shutdown(); }

namespace {
// ImGui's index of an SDL mouse button (0 left, 1 right, 2 middle), -1 for the others.
int imgui_button(Uint8 button) {
  switch (button) {
    case SDL_BUTTON_LEFT: return 0;
    case SDL_BUTTON_RIGHT: return 1;
    case SDL_BUTTON_MIDDLE: return 2;
    default: return -1;
  }
}
}  // namespace

void SdlRunner::new_platform_frame() {
  // ImGui 1.86 sees a key as held or not per frame: a key pressed and released between two frames (a
  // quick tap, a browser test's press()) would never be pressed for it. So a key's release whose press
  // is in this frame waits for the next frame, and every event after it too (they keep their order).
  // The mouse likewise, as ImGui 1.87's input queue trickles it: after a button changed in this frame, a
  // second change of it or any motion waits for the next frame, so a click and a move away within one
  // slow frame is a click where it was made, not where the pointer went.
  // Likewise a press of a key released in this frame: held and released and held again, ImGui would see it
  // held throughout and the second press would be lost (Enter, Enter typed faster than the frames).
  std::bitset<SDL_NUM_SCANCODES> pressed, released;
  unsigned buttons_changed = 0;
  // Handles `event` in this frame, or holds it back (false) when it must wait for the next.
  auto take = [&](const SDL_Event& event) {
    if (event.type == SDL_KEYDOWN || event.type == SDL_KEYUP) {
      const size_t key = size_t(event.key.keysym.scancode);
      if (event.type == SDL_KEYUP && pressed.test(key)) return false;
      if (event.type == SDL_KEYDOWN && released.test(key)) return false;
      if (event.type == SDL_KEYDOWN) pressed.set(key);
      if (event.type == SDL_KEYUP) released.set(key);
      key_mods_ = event.key.keysym.mod;
    }
    const bool button = event.type == SDL_MOUSEBUTTONDOWN || event.type == SDL_MOUSEBUTTONUP;
    const int b = button ? imgui_button(event.button.button) : -1;
    if ((b >= 0 && (buttons_changed >> b & 1u)) || (event.type == SDL_MOUSEMOTION && buttons_changed != 0)) return false;
    if (event.type == SDL_MOUSEMOTION) mouse_x_ = float(event.motion.x), mouse_y_ = float(event.motion.y);
    if (button) mouse_x_ = float(event.button.x), mouse_y_ = float(event.button.y);
    mouse_seen_ = mouse_seen_ || event.type == SDL_MOUSEMOTION || button;
    if (b >= 0) {
      buttons_changed |= 1u << b;
      mouse_down_[size_t(b)] = event.type == SDL_MOUSEBUTTONDOWN;
    }
    ImGui_ImplSDL2_ProcessEvent(&event);
    on_event(event);
    if (event.type == SDL_QUIT) quit_ = true;
    if (event.type == SDL_WINDOWEVENT && event.window.event == SDL_WINDOWEVENT_CLOSE) quit_ = true;
    return true;
  };
  if (deferred_) {
    take(*deferred_);  // the first event of a frame is never held back
    deferred_.reset();
  }
  SDL_Event event;
  while (SDL_PollEvent(&event)) {
    if ((event.type == SDL_KEYDOWN || event.type == SDL_KEYUP) &&
        (event.key.keysym.scancode < 0 || event.key.keysym.scancode >= SDL_NUM_SCANCODES))
      continue;
    if (!take(event)) {
      deferred_ = event;
      break;
    }
  }
  ImGui_ImplSDL2_NewFrame();
  // The backend reads the mouse as SDL has it now, which may already hold events not handled yet (held
  // back, or queued after this frame's poll: the page's SDL updates its state first): the pointer and
  // buttons are as the handled events left them.
  if (mouse_seen_) {
    ImGuiIO& io = ImGui::GetIO();
    if (io.MousePos.x != -FLT_MAX) io.MousePos = ImVec2(mouse_x_, mouse_y_);
    for (size_t i = 0; i < mouse_down_.size(); ++i) io.MouseDown[i] = mouse_down_[i];
  }
  // The modifier keys as of the events handled so far (the backend reads SDL's state at the moment,
  // which may already hold a release this frame has not handled yet).
  ImGuiIO& io = ImGui::GetIO();
  io.KeyCtrl = (key_mods_ & KMOD_CTRL) != 0;
  io.KeyShift = (key_mods_ & KMOD_SHIFT) != 0;
  io.KeyAlt = (key_mods_ & KMOD_ALT) != 0;
  io.KeySuper = (key_mods_ & KMOD_GUI) != 0;
}

void SdlRunner::present() { SDL_GL_SwapWindow(window_.window()); }

}  // namespace posenc::platform
