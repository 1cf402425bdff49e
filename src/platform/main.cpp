// Entry point: create the SDL window and GL context, set up Dear ImGui, run the explorer.
#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <imgui_impl_sdl.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "app/gl.h"
#include "platform/platform.h"

#if defined(__EMSCRIPTEN__)
#include <emscripten.h>
#include <emscripten/html5.h>
#endif

namespace posenc::platform {
namespace {

// ImGui's built-in font rasterised for the framebuffer scale, so text is crisp on HiDPI screens.
void load_fonts(float pixel_ratio) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig cfg;
  cfg.SizePixels = std::round(13.0f * pixel_ratio);
  cfg.OversampleH = cfg.OversampleV = 1;
  cfg.PixelSnapH = true;
  io.Fonts->AddFontDefault(&cfg);
  io.FontGlobalScale = 1.0f / pixel_ratio;
}

#if !defined(__EMSCRIPTEN__)
float current_pixel_ratio(SDL_Window* window) {
  int ww = 0, wh = 0, fw = 0, fh = 0;
  SDL_GetWindowSize(window, &ww, &wh);
  SDL_GL_GetDrawableSize(window, &fw, &fh);
  return ww > 0 ? float(fw) / float(ww) : 1.0f;
}
#endif

#if defined(__EMSCRIPTEN__)
// The canvas is sized by the page's CSS (it fills its container); follow it every frame.
void follow_canvas_size(Runner& r) {
  double cw = 0, ch = 0;
  emscripten_get_element_css_size("#canvas", &cw, &ch);
  int w = std::max(1, int(cw)), h = std::max(1, int(ch));
  int ww = 0, wh = 0;
  SDL_GetWindowSize(r.window, &ww, &wh);
  const float dpr = float(emscripten_get_device_pixel_ratio());
  if (w != ww || h != wh || std::abs(dpr - r.pixel_ratio) > 1e-3f) {
    SDL_SetWindowSize(r.window, w, h);
    if (std::abs(dpr - r.pixel_ratio) > 1e-3f) {
      r.pixel_ratio = dpr;
      load_fonts(dpr);
      ImGui_ImplOpenGL3_DestroyFontsTexture();
    }
  }
}
#endif

}  // namespace

void run_frame(Runner& r) {
#if defined(__EMSCRIPTEN__)
  follow_canvas_size(r);
#endif
  SDL_Event event;
  while (SDL_PollEvent(&event)) {
    ImGui_ImplSDL2_ProcessEvent(&event);
    if (event.type == SDL_QUIT) r.quit = true;
    if (event.type == SDL_WINDOWEVENT && event.window.event == SDL_WINDOWEVENT_CLOSE) r.quit = true;
  }
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplSDL2_NewFrame();
  ImGui::NewFrame();
  r.app->frame();
  ImGui::Render();

  const ImGuiIO& io = ImGui::GetIO();
  const int fb_w = int(io.DisplaySize.x * io.DisplayFramebufferScale.x);
  const int fb_h = int(io.DisplaySize.y * io.DisplayFramebufferScale.y);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, fb_w, fb_h);
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  glClearColor(bg.x, bg.y, bg.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  handle_app_actions(r, fb_w, fb_h);

  if (r.frames_left > 0 && --r.frames_left == 0) {
    if (!r.screenshot.empty() && !save_framebuffer_png(r.screenshot, fb_w, fb_h)) {
      std::fprintf(stderr, "posenc-app: could not write %s\n", r.screenshot.c_str());
      std::exit(1);
    }
    r.quit = true;
  }
  SDL_GL_SwapWindow(r.window);
  notify_frame_done(r);
}

}  // namespace posenc::platform

namespace {

posenc::platform::Runner g_runner;

void usage() {
  std::fputs(
      "usage: posenc-app [--frames N] [--screenshot out.png] [--size WxH] [--state 'view=waves&n=64']\n"
      "  --frames N        render N frames, then exit (with --screenshot: save the last one)\n",
      stderr);
}

}  // namespace

namespace posenc::platform {
Runner& runner() { return g_runner; }
}  // namespace posenc::platform

int main(int argc, char** argv) {
  using namespace posenc;
  platform::Runner& r = g_runner;
  int width = 1280, height = 800;
  std::string state;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto next = [&]() -> const char* {
      if (i + 1 >= argc) {
        usage();
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--frames") r.frames_left = std::max(1, std::atoi(next()));
    else if (arg == "--screenshot") r.screenshot = next();
    else if (arg == "--state") state = next();
    else if (arg == "--size") {
      if (std::sscanf(next(), "%dx%d", &width, &height) != 2 || width < 64 || height < 64) {
        usage();
        return 2;
      }
    } else {
      usage();
      return 2;
    }
  }
  if (!r.screenshot.empty() && r.frames_left < 0) r.frames_left = 3;

#if defined(__EMSCRIPTEN__)
  SDL_SetHint(SDL_HINT_EMSCRIPTEN_KEYBOARD_ELEMENT, "#canvas");
#endif
  if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) {
    std::fprintf(stderr, "posenc-app: SDL_Init failed: %s\n", SDL_GetError());
    return 1;
  }
#if defined(__EMSCRIPTEN__)
  // An ES 3.0 context request with -sMAX_WEBGL_VERSION=2 gives WebGL2.
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_ES);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
  const char* glsl_version = "#version 300 es";
  {
    double cw = 0, ch = 0;
    emscripten_get_element_css_size("#canvas", &cw, &ch);
    if (cw >= 1 && ch >= 1) width = int(cw), height = int(ch);
  }
#else
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
  const char* glsl_version = "#version 330 core";
#endif
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 0);
  SDL_GL_SetAttribute(SDL_GL_STENCIL_SIZE, 0);
  r.window = SDL_CreateWindow("posenc — positional encoding explorer", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                              width, height, SDL_WINDOW_OPENGL | SDL_WINDOW_ALLOW_HIGHDPI
#if !defined(__EMSCRIPTEN__)
                                                 | SDL_WINDOW_RESIZABLE
#endif
  );
  if (!r.window) {
    std::fprintf(stderr, "posenc-app: SDL_CreateWindow failed: %s\n", SDL_GetError());
    return 1;
  }
  r.gl = SDL_GL_CreateContext(r.window);
  if (!r.gl) {
    std::fprintf(stderr, "posenc-app: could not create a GL context: %s\n", SDL_GetError());
    return 1;
  }
  SDL_GL_MakeCurrent(r.window, r.gl);
  SDL_GL_SetSwapInterval(1);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  // Colours come from the app's theme (App::apply_theme).
  ImGui_ImplSDL2_InitForOpenGL(r.window, r.gl);
  ImGui_ImplOpenGL3_Init(glsl_version);
#if defined(__EMSCRIPTEN__)
  r.pixel_ratio = float(emscripten_get_device_pixel_ratio());
#else
  r.pixel_ratio = platform::current_pixel_ratio(r.window);
#endif
  platform::load_fonts(r.pixel_ratio);

  app::App app;
  r.app = &app;
#if defined(__EMSCRIPTEN__)
  // theme=auto follows the page's prefers-color-scheme (the page reports later changes).
  app.set_system_dark(EM_ASM_INT({ return window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 1 : 0; }) != 0);
#endif
  if (!state.empty()) app.load_state_query(state);

#if defined(__EMSCRIPTEN__)
  emscripten_set_main_loop_arg([](void* arg) { platform::run_frame(*static_cast<platform::Runner*>(arg)); }, &r, 0,
                               true);
#else
  while (!r.quit) platform::run_frame(r);
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplSDL2_Shutdown();
  ImGui::DestroyContext();
  SDL_GL_DeleteContext(r.gl);
  SDL_DestroyWindow(r.window);
  SDL_Quit();
#endif
  return 0;
}
