// PNG files for the native runners (desktop screenshots and exports, posenc render).
#include "platform/runner.h"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

namespace posenc::platform {

bool write_png(const std::string& path, const Image& image) {
  if (image.width <= 0 || image.height <= 0) return false;
  return stbi_write_png(path.c_str(), image.width, image.height, 4, image.rgba.data(), image.width * 4) != 0;
}

}  // namespace posenc::platform
