// Desktop side of the runner: framebuffer screenshots (for the Xvfb smoke test and figure export).
#include "platform/platform.h"

#if !defined(__EMSCRIPTEN__)
#include <cstdio>
#include <fstream>
#include <vector>

#include "app/export.h"

#include "app/gl.h"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

namespace posenc::platform {

bool save_framebuffer_png(const std::string& path, int width, int height) {
  if (width <= 0 || height <= 0) return false;
  std::vector<unsigned char> pixels(size_t(width) * height * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  stbi_flip_vertically_on_write(1);  // GL's first row is the bottom one
  return stbi_write_png(path.c_str(), width, height, 4, pixels.data(), width * 4) != 0;
}

void notify_frame_done(Runner&) {}

// Desktop: exports go to files in the working directory, links to the clipboard.
void handle_app_actions(Runner& r, int fb_width, int fb_height) {
  const std::string base = std::string("posenc-") + r.app->current_view()->id();
  if (r.app->take_capture_frame()) {
    const std::string path = base + ".png";
    if (save_framebuffer_png(path, fb_width, fb_height)) std::fprintf(stderr, "posenc-app: wrote %s\n", path.c_str());
  }
  const app::AppAction action = r.app->take_action();
  switch (action) {
    case app::AppAction::None: break;
    case app::AppAction::CopyLink:
    case app::AppAction::CopyEmbedCode: SDL_SetClipboardText(("?" + r.app->state_query()).c_str()); break;
    case app::AppAction::ExportPng: r.app->request_capture(); break;
    case app::AppAction::ExportCsv:
    case app::AppAction::ExportJson: {
      const bool csv = action == app::AppAction::ExportCsv;
      const std::string path = base + (csv ? ".csv" : ".json");
      const app::ExportData data = r.app->export_data();
      std::ofstream out(path, std::ios::binary);
      out << (csv ? app::export_csv(data) : app::export_json(data));
      std::fprintf(stderr, out ? "posenc-app: wrote %s\n" : "posenc-app: could not write %s\n", path.c_str());
      break;
    }
  }
}

}  // namespace posenc::platform
#endif
