#include "app/file_limits.h"

#include <algorithm>
#include <stdexcept>

#include "app/url_state.h"
#include "model_io/config_json.h"
#include "model_io/usage_json.h"
#include "model_io/weights_session.h"

namespace posenc::app {
namespace {

constexpr FileLimit kFileLimits[] = {
    {"config_json", model_io::kMaxConfigBytes, "a model's config.json, read whole"},
    {"gguf_header", model_io::kMaxGgufHeaderBytes, "the most of a GGUF file read as its header (metadata and tensor infos)"},
    {"gguf_first_read", kGgufFirstReadBytes, "the first prefix of a GGUF file read for its header (then 4x more)"},
    {"tensor_file", kMaxCopiedFileBytes, "a tensor file for the Check view, read whole"},
    {"check_request", kMaxCopiedFileBytes, "a request handed to posenc.check, copied whole"},
    {"usage_json", model_io::kMaxUsageJsonBytes, "a report posenc weights --json wrote, for the Frequency usage view"},
    {"state_value", kMaxStateValueBytes, "one key or value of a state query (a longer one is ignored with a notice)"},
};

}  // namespace

std::span<const FileLimit> file_limits() { return kFileLimits; }

std::size_t file_limit(std::string_view key) {
  for (const FileLimit& l : kFileLimits)
    if (key == l.key) return l.bytes;
  throw std::out_of_range("no file limit named " + std::string(key));
}

std::string file_limits_json() {
  std::string out = "{";
  for (const FileLimit& l : kFileLimits)
    out += (out.size() > 1 ? ", \"" : "\"") + std::string(l.key) + "\": " + std::to_string(l.bytes);
  return out + "}";
}

std::size_t largest_file_limit() {
  std::size_t most = 0;
  for (const FileLimit& l : kFileLimits) most = std::max(most, l.bytes);
  return most;
}

std::string limit_bytes_text(std::size_t bytes) {
  if (bytes >= (std::size_t{1} << 20) && bytes % (std::size_t{1} << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= (std::size_t{1} << 10) && bytes % (std::size_t{1} << 10) == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " bytes";
}

}  // namespace posenc::app
