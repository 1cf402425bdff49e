// SDL2 + OpenGL/WebGL2 runner for the explorer (one runner for desktop and browser, like
// hello_imgui's). The app layer knows nothing of what is here.
#pragma once

#include <SDL.h>

#include <string>

#include "app/app.h"

namespace posenc::platform {

struct Runner {
  SDL_Window* window = nullptr;
  SDL_GLContext gl = nullptr;
  app::App* app = nullptr;
  float pixel_ratio = 1.0f;  // framebuffer pixels per window unit, fonts are rasterised at this scale
  bool quit = false;
  int frames_left = -1;      // native --frames N: stop after N frames
  std::string screenshot;    // native --screenshot PATH: PNG of the last frame
};

// One iteration: events, UI, render, swap.
void run_frame(Runner& r);

// Writes the current default framebuffer as a PNG (native only). Returns false on failure.
bool save_framebuffer_png(const std::string& path, int width, int height);

// Web: tells the page about frames and state (no-op natively).
void notify_frame_done(Runner& r);

// Carries out what the UI asked for (clipboard, PNG/CSV/JSON export). Called after the frame is drawn
// and before it is presented, so a PNG capture reads this frame's pixels.
void handle_app_actions(Runner& r, int fb_width, int fb_height);

}  // namespace posenc::platform

namespace posenc::platform {
// The process's one runner (the web API reaches the app through it).
Runner& runner();
}  // namespace posenc::platform
