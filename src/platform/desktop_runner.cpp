// The desktop runner: exports go to files in the working directory, links to the clipboard, and
// --frames/--screenshot render a fixed number of frames and save the last one (the Xvfb smoke tests).
#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "app/app.h"
#include "app/export.h"
#include "platform/sdl_runner.h"

namespace posenc::platform {
namespace {

class DesktopRunner : public SdlRunner {
 public:
  explicit DesktopRunner(const AppOptions& options)
      : SdlRunner(options.width, options.height), frames_left_(options.frames), screenshot_(options.screenshot) {}
  bool failed() const { return failed_; }

 protected:
  void after_draw(int fb_width, int fb_height) override {
    handle_app_actions(fb_width, fb_height);
    if (frames_left_ > 0 && --frames_left_ == 0) {
      if (!screenshot_.empty() && !save_png(screenshot_, fb_width, fb_height)) {
        std::fprintf(stderr, "posenc-app: could not write %s\n", screenshot_.c_str());
        failed_ = true;
      }
      quit_ = true;
    }
  }

 private:
  static bool save_png(const std::string& path, int fb_width, int fb_height) {
    try {
      return write_png(path, read_framebuffer(0, fb_width, fb_height));
    } catch (const std::runtime_error&) {
      return false;
    }
  }

  void handle_app_actions(int fb_width, int fb_height) {
    const std::string base = std::string("posenc-") + app_->current_view()->id();
    if (app_->take_capture_frame()) {
      const std::string path = base + ".png";
      if (save_png(path, fb_width, fb_height)) std::fprintf(stderr, "posenc-app: wrote %s\n", path.c_str());
    }
    const app::AppAction action = app_->take_action();
    switch (action) {
      case app::AppAction::None: break;
      case app::AppAction::CopyLink:
      case app::AppAction::CopyEmbedCode: SDL_SetClipboardText(("?" + app_->state_query()).c_str()); break;
      case app::AppAction::ExportPng: app_->request_capture(); break;
      case app::AppAction::OpenModelFile: break;  // no file picker natively (the button is not shown)
      case app::AppAction::ExportCsv:
      case app::AppAction::ExportJson: {
        const bool csv = action == app::AppAction::ExportCsv;
        const std::string path = base + (csv ? ".csv" : ".json");
        const app::ExportData data = app_->export_data();
        std::ofstream out(path, std::ios::binary);
        out << (csv ? app::export_csv(data) : app::export_json(data));
        std::fprintf(stderr, out ? "posenc-app: wrote %s\n" : "posenc-app: could not write %s\n", path.c_str());
        break;
      }
    }
  }

  int frames_left_;
  std::string screenshot_;
  bool failed_ = false;
};

}  // namespace

float pixel_ratio(SDL_Window* window) {
  int ww = 0, wh = 0, fw = 0, fh = 0;
  SDL_GetWindowSize(window, &ww, &wh);
  SDL_GL_GetDrawableSize(window, &fw, &fh);
  return ww > 0 ? float(fw) / float(ww) : 1.0f;
}

int run_app(const AppOptions& options) {
  try {
    DesktopRunner runner(options);
    if (!options.state.empty()) runner.app().load_state_query(options.state);
    while (!runner.quit()) runner.frame();
    return runner.failed() ? 1 : 0;
  } catch (const std::runtime_error& e) {
    std::fprintf(stderr, "posenc-app: %s\n", e.what());
    return 1;
  }
}

}  // namespace posenc::platform
