// The headless runner (posenc render): the app drawn into an offscreen framebuffer of a fixed size on an
// OpenGL 3.3 core context without any window. EGL on Mesa's surfaceless platform needs neither a display
// server nor a GPU (llvmpipe renders on the CPU); where that platform is missing, EGL's default display
// is tried (X11 when DISPLAY is set, e.g. under xvfb-run).
#pragma once

#include <memory>
#include <string>

#include "platform/runner.h"

namespace posenc::platform {

class HeadlessRunner : public Runner {
 public:
  // Takes the app with its state loaded. Throws std::runtime_error("headless OpenGL: ...") when no
  // context can be had, saying what to install or run.
  HeadlessRunner(std::unique_ptr<app::App> app, int width, int height);
  ~HeadlessRunner() override;

  // Draws `frames` frames (ImGui needs a few to settle its layout) and reads the last one back.
  Image render(int frames);
  // The same frames' UI (the app's draw lists and the text it draws, its textures) without rasterising
  // them: for a test that reads what is drawn, not the pixels (llvmpipe's rasterising is most of a frame).
  void build_frames(int frames);
  // The same frames, the last one written as SVG (app/svg_export.h); `transparent`: no background.
  std::string render_svg(int frames, bool transparent);

 protected:
  void new_platform_frame() override;
  unsigned framebuffer() const override;
  // Waits for the frame's GL work: with no swap to end a frame, Mesa's software rasteriser would keep
  // queueing frames (and every frame's vertex buffers) until a read-back.
  void present() override;
  void on_svg(std::string svg) override { svg_ = std::move(svg); }

 private:
  struct Gl;  // EGL context, offscreen framebuffer, ImGui
  int width_, height_;
  std::string svg_;
  std::unique_ptr<Gl> gl_;
  std::unique_ptr<app::App> owned_app_;  // declared last: released first, while its GL context is alive
};

}  // namespace posenc::platform
