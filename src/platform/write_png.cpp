// PNG files for the native runners (desktop screenshots and exports, posenc render).
#include <cstdio>

#include "platform/runner.h"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

namespace posenc::platform {

std::string encode_png(const Image& image) {
  if (image.width <= 0 || image.height <= 0) return {};
  int len = 0;
  unsigned char* png = stbi_write_png_to_mem(image.rgba.data(), image.width * 4, image.width, image.height, 4, &len);
  if (!png) return {};
  std::string bytes(reinterpret_cast<const char*>(png), static_cast<size_t>(len));
  STBIW_FREE(png);
  return bytes;
}

bool write_png(const std::string& path, const Image& image) {
  // Encoded in memory and written with checked IO: stbi_write_png ignores fwrite/fclose failures
  // (a full disk, /dev/full).
  const std::string bytes = encode_png(image);
  if (bytes.empty()) return false;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  const bool wrote = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  return std::fclose(f) == 0 && wrote;
}

}  // namespace posenc::platform
