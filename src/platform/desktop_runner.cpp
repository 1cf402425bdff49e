// The desktop runner: exports go to files in the working directory, links to the clipboard, and
// --frames/--screenshot render a fixed number of frames and save the last one (the Xvfb smoke tests).
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/app.h"
#include "app/compiled_languages.h"
#include "app/export.h"
#include "app/file_limits.h"
#include "app/model_link.h"
#include "app/views/views.h"
#include "platform/sdl_runner.h"

namespace posenc::platform {
namespace {

// A config.json or GGUF file into the views that take models, read as the web page reads one, by the app's
// limits (app/file_limits.h): a config.json whole (config_json at most), a GGUF header through prefixes of the
// file (gguf_first_read, then 4x more while the header goes on, gguf_header at most), never the tensors. The
// app then shows the model (or the notice).
void load_model_file(app::App& app, const std::string& path) {
  const auto config_max = std::streamoff(app::file_limit("config_json")),
             first_read = std::streamoff(app::file_limit("gguf_first_read")),
             gguf_max = std::streamoff(app::file_limit("gguf_header"));
  const std::string view = app.current_view()->id();
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) {
    app.load_state_query(app::model_load_failed({"model", "loading the model: cannot open " + path}, view));
    return;
  }
  const std::streamoff size = in.tellg();
  auto read = [&](std::streamoff n) {
    std::vector<unsigned char> bytes(static_cast<size_t>(n));
    in.seekg(0);
    in.read(reinterpret_cast<char*>(bytes.data()), n);
    bytes.resize(static_cast<size_t>(in.gcount()));
    return bytes;
  };
  const std::vector<unsigned char> head = read(std::min<std::streamoff>(size, 4));
  const bool gguf = head.size() == 4 && std::memcmp(head.data(), "GGUF", 4) == 0;
  std::string query;
  if (!gguf) {
    if (size > config_max) {
      query = app::load_model_bytes(nullptr, static_cast<size_t>(size), view);
    } else {
      const std::vector<unsigned char> all = read(size);
      query = app::load_model_bytes(all.data(), all.size(), view);
    }
  } else {
    for (std::streamoff n = std::min(size, first_read); query.empty(); n = std::min({size, gguf_max, n * 4})) {
      const std::vector<unsigned char> prefix = read(n);
      query = app::load_model_bytes(prefix.data(), prefix.size(), view, n < size && n < gguf_max);
    }
  }
  app.load_state_query(query);
}

// A weights report (the JSON posenc weights --json writes) dropped while the Frequency usage view is shown:
// read whole when within its limit (else the view names the size), as the page reads a dropped one.
void load_usage_file(app::App& app, const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  const std::string name = path.substr(path.find_last_of('/') + 1);
  if (!in) {
    app.load_state_query(app.load_usage(nullptr, 0, name, false, "cannot open " + path));
    return;
  }
  const std::streamoff size = in.tellg();
  if (size > std::streamoff(app::file_limit("usage_json"))) {
    app.load_state_query(app.load_usage(nullptr, size_t(size), name, false));
    return;
  }
  std::vector<unsigned char> bytes(static_cast<size_t>(size));
  in.seekg(0);
  in.read(reinterpret_cast<char*>(bytes.data()), size);
  bytes.resize(static_cast<size_t>(in.gcount()));
  app.load_state_query(app.load_usage(bytes.data(), bytes.size(), name, false));
}

class DesktopRunner : public SdlRunner {
 public:
  explicit DesktopRunner(const AppOptions& options)
      : SdlRunner(options.width, options.height), frames_left_(options.frames), screenshot_(options.screenshot) {}
  bool failed() const { return failed_; }

 protected:
  // An input method's composition is drawn in the focused field (preedit_after); a config.json or .gguf
  // dropped on the window loads it; in the Frequency usage view, a weights report.
  void on_event(const SDL_Event& event) override {
    if (const std::optional<std::string> preedit = preedit_after(event)) app_->set_preedit(*preedit);
    if (event.type != SDL_DROPFILE || !event.drop.file) return;
    const std::string path = event.drop.file;
    SDL_free(event.drop.file);
    if (std::strcmp(app_->current_view()->id(), "usage") == 0) load_usage_file(*app_, path);
    else load_model_file(*app_, path);
  }

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

  // Share -> Export SVG: the recorded frame's document, beside the PNG export's file.
  void on_svg(std::string svg) override {
    const std::string path = std::string("posenc-") + app_->current_view()->id() + ".svg";
    std::ofstream out(path, std::ios::binary);
    out << svg;
    out.close();
    std::fprintf(stderr, out ? "posenc-app: wrote %s\n" : "posenc-app: could not write %s\n", path.c_str());
  }

 private:
  static bool save_png(const std::string& path, int fb_width, int fb_height) {
    try {
      return write_png(path, read_framebuffer(0, fb_width, fb_height));
    } catch (const std::runtime_error&) { return false; }
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
      case app::AppAction::ExportSvg: app_->request_svg(); break;
      case app::AppAction::OpenModelFile:
      case app::AppAction::OpenCompareFile:
      case app::AppAction::OpenWeightsFolder:
      case app::AppAction::OpenWeightsFiles: break;  // no file picker natively (the buttons are not shown)
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
  app::load_compiled_languages();  // lang=zh: the Chinese catalogue and the CJK face
  try {
    DesktopRunner runner(options);
    app::set_model_file_drop(true);
    if (!options.state.empty()) runner.app().load_state_query(options.state);
    if (!options.model.empty()) load_model_file(runner.app(), options.model);
    while (!runner.quit()) runner.frame();
    return runner.failed() ? 1 : 0;
  } catch (const std::runtime_error& e) {
    std::fprintf(stderr, "posenc-app: %s\n", e.what());
    return 1;
  }
}

}  // namespace posenc::platform
