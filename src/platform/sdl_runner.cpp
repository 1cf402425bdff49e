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
  window_ = SDL_CreateWindow("posenc — positional encoding explorer", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                             width, height, flags);
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
  SDL_Event event;
  while (SDL_PollEvent(&event)) {
    ImGui_ImplSDL2_ProcessEvent(&event);
    if (event.type == SDL_QUIT) quit_ = true;
    if (event.type == SDL_WINDOWEVENT && event.window.event == SDL_WINDOWEVENT_CLOSE) quit_ = true;
  }
  ImGui_ImplSDL2_NewFrame();
}

void SdlRunner::present() { SDL_GL_SwapWindow(window_.window()); }

}  // namespace posenc::platform
