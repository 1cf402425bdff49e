// The most the app takes of each file the page or the desktop app hands it, and of one state value: one table,
// the readers' own limits (model_io's, url_state.h's) under the names the page reads them by (posenc_file_limits,
// platform/web_api.h; web/page/abi.js fileLimit), so that no copy of a limit lives in the page's JavaScript.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace posenc::app {

// A GGUF file's header is read through prefixes of the file: this many bytes first, then four times more while
// the header goes on, up to the gguf_header limit (the page and the desktop app alike).
inline constexpr std::size_t kGgufFirstReadBytes = std::size_t{1} << 20;
// What the page copies whole into the app: a tensor file for the Check view, a request for posenc.check (the
// wasm heap holds the bytes and a copy; posenc check on the command line reads up to 256 MiB of either).
inline constexpr std::size_t kMaxCopiedFileBytes = std::size_t{64} << 20;

struct FileLimit {
  const char* key;  // the name the page reads it by
  std::size_t bytes;
  const char* what;
};

// Every limit, in the order posenc_file_limits lists them.
std::span<const FileLimit> file_limits();
// The limit named `key`; throws std::out_of_range for a key the table lacks.
std::size_t file_limit(std::string_view key);
// The table as the page reads it: {"config_json": 8388608, ...}.
std::string file_limits_json();
// The most bytes the page hands the app at once: the largest limit of the table (the page's one buffer).
std::size_t largest_file_limit();
// A limit as the messages write it: "64 MiB", "256 KiB".
std::string limit_bytes_text(std::size_t bytes);

}  // namespace posenc::app
