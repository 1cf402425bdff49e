// What every runner of the explorer shares (desktop: SDL2 + GL 3.3, web: SDL2 + WebGL2, headless: EGL):
// one Dear ImGui/GL setup, one frame sequence and one PNG read-back. Like hello_imgui's runners, a
// concrete runner overrides only the steps where its platform differs. The app layer knows nothing of
// what is here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/noncopyable.h"

namespace posenc::app {
class App;
struct SvgImage;
}  // namespace posenc::app

namespace posenc::platform {

// Dear ImGui on the current GL context: the context (no .ini file), the app's fonts (app/fonts.h) rasterised
// for the framebuffer's pixel ratio, and the OpenGL 3 renderer with the app's GLSL version (app/gl.h).
// Colours come from the app's theme (App::apply_theme). Throws std::runtime_error if the renderer fails.
class ImGuiGl : NonCopyable {
 public:
  explicit ImGuiGl(float pixel_ratio);
  ~ImGuiGl();

  float pixel_ratio() const { return pixel_ratio_; }
  // Re-rasterises the font for a new ratio (the page was zoomed or moved to another screen).
  void set_pixel_ratio(float pixel_ratio);

 private:
  float pixel_ratio_;
};

// The frame sequence: the platform's new frame, the app's UI, drawing into the runner's framebuffer,
// then the runner's hand-off (read-backs, app actions) and presentation.
class Runner {
 public:
  virtual ~Runner() = default;
  void frame();
  bool quit() const { return quit_; }
  app::App& app() { return *app_; }

 protected:
  // Events, display size and time step for ImGui (the platform backend's NewFrame).
  virtual void new_platform_frame() = 0;
  // The GL framebuffer the frame is drawn into (0: the window's).
  virtual unsigned framebuffer() const { return 0; }
  // Whether this frame is drawn (after_draw and present follow either way). The web runner leaves out a
  // frame equal to the one its canvas still shows: software WebGL spends most of a frame drawing.
  virtual bool draw_wanted(int /*fb_width*/, int /*fb_height*/) { return true; }
  // What a frame draws, as one number: its draw lists and textures, its size and background, how often the
  // heatmaps coloured their pictures and the font texture was built (equal keys: equal pixels).
  static uint64_t frame_key(int fb_width, int fb_height);
  // After drawing, before presenting: the frame's pixels are still there to read.
  virtual void after_draw(int /*fb_width*/, int /*fb_height*/) {}
  // The SVG of a frame the app recorded for a vector export (App::request_svg), and how a picture in it
  // (a heatmap) is referenced: a PNG data: URL unless the runner has its own way.
  virtual void on_svg(std::string /*svg*/) {}
  virtual std::string svg_image_href(const app::SvgImage& image);
  virtual void present() {}

  app::App* app_ = nullptr;  // owned by the concrete runner, which releases it before its GL context
  bool rasterize_ = true;    // false: frames build the UI but draw nothing (HeadlessRunner::build_frames)
  bool quit_ = false;
};

// RGBA pixels, top row first.
struct Image {
  int width = 0, height = 0;
  std::vector<unsigned char> rgba;
};

// Reads a framebuffer (0: the window's back buffer) back. The app's windows are opaque, so alpha is set
// to 255 whatever blending left there. Throws std::runtime_error if GL reports an error.
Image read_framebuffer(unsigned framebuffer, int width, int height);

// Writes a PNG (native builds; the browser encodes its canvas itself). Returns false on failure.
// The image as PNG bytes (empty if it cannot be encoded), and written to a file (false on any IO failure).
std::string encode_png(const Image& image);
bool write_png(const std::string& path, const Image& image);

}  // namespace posenc::platform
