// Desktop side of the runner: framebuffer screenshots (for the Xvfb smoke test and figure export).
#include "platform/platform.h"

#if !defined(__EMSCRIPTEN__)
#include <vector>

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

}  // namespace posenc::platform
#endif
