#include "platform/sdl_runner.h"

#include <imgui.h>
#include <imgui_impl_sdl.h>

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

void SdlRunner::new_platform_frame() {
  // ImGui 1.86 sees a key as held or not per frame: a key pressed and released between two frames (a
  // quick tap, a browser test's press()) would never be pressed for it. So a key's release whose press
  // is in this frame waits for the next frame, and every event after it too (they keep their order).
  std::bitset<SDL_NUM_SCANCODES> pressed;
  auto handle = [&](const SDL_Event& event) {
    ImGui_ImplSDL2_ProcessEvent(&event);
    on_event(event);
    if (event.type == SDL_KEYDOWN || event.type == SDL_KEYUP) key_mods_ = event.key.keysym.mod;
    if (event.type == SDL_QUIT) quit_ = true;
    if (event.type == SDL_WINDOWEVENT && event.window.event == SDL_WINDOWEVENT_CLOSE) quit_ = true;
  };
  if (deferred_) {
    handle(*deferred_);
    deferred_.reset();
  }
  SDL_Event event;
  while (SDL_PollEvent(&event)) {
    if (event.type == SDL_KEYDOWN || event.type == SDL_KEYUP) {
      const int key = event.key.keysym.scancode;
      if (key < 0 || key >= SDL_NUM_SCANCODES) continue;
      if (event.type == SDL_KEYUP && pressed.test(size_t(key))) {
        deferred_ = event;
        break;
      }
      if (event.type == SDL_KEYDOWN) pressed.set(size_t(key));
    }
    handle(event);
  }
  ImGui_ImplSDL2_NewFrame();
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
