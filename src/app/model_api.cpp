// The page's entry for loading a model (window.posenc.loadModel / loadFile in web/posenc-page.js): the page
// copies a config.json text or a GGUF header (a Blob.slice prefix of the file) into the buffer
// posenc_model_buffer gives, then calls posenc_load_model and loads the state query it returns. Browser only.
#if defined(__EMSCRIPTEN__)
#include <emscripten.h>

#include <cstddef>
#include <string>
#include <vector>

#include "app/views/views.h"

namespace {
constexpr std::size_t kMaxModelBytes = std::size_t{64} << 20;  // GGUF headers; config.json is checked at 8 MiB
std::vector<unsigned char>& model_buffer() {
  static std::vector<unsigned char> buffer;
  return buffer;
}
}  // namespace

extern "C" {

// A buffer of `len` bytes for the page to fill, or null when len is over the limit (64 MiB).
EMSCRIPTEN_KEEPALIVE unsigned char* posenc_model_buffer(unsigned len) {
  if (std::size_t(len) > kMaxModelBytes) return nullptr;
  model_buffer().assign(std::size_t(len) + 1, 0);
  return model_buffer().data();
}

// Loads `len` bytes at `ptr` (a config.json or GGUF header; null = too large) into every view that takes
// models. `prefix` != 0: the bytes are the start of a larger file, and a GGUF header that goes on past
// them returns "" (the page reads a longer prefix, up to 64 MiB). Otherwise returns the state query of
// `view` if it takes models (model, rope, scores), else the Model view's; errors become notices naming the
// key path. Valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* posenc_load_model(const unsigned char* ptr, unsigned len, int prefix,
                                                   const char* view) {
  static std::string query;
  query = posenc::app::load_model_bytes(ptr, len, view ? view : "model", prefix != 0);
  model_buffer().clear();
  model_buffer().shrink_to_fit();
  return query.c_str();
}

}  // extern "C"
#endif
