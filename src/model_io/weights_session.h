// `posenc weights` and the page's weight loading, one code path: the files' headers in (safetensors read as
// JSON here, GGUF by core/models/gguf.h), the model's configuration (config.json text or the GGUF header),
// the tensor names of data/weight_tensors.json, then the core's plan-and-feed analysis
// (core/weights/qk_usage.h) and its result as JSON (weights_json.h). No file access: the CLI reads the
// plan's ranges with seeks, the page with File.slice. docs/weights.md.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/models/config_value.h"
#include "core/models/gguf.h"
#include "core/models/model_config.h"
#include "core/weights/qk_usage.h"

namespace posenc::model_io {

// Largest safetensors header accepted (a shard of a large MoE model lists a few thousand tensors in well
// under 1 MiB), and the most of a GGUF file read as its header (tokenizer vocabularies included).
inline constexpr uint64_t kMaxSafetensorsHeaderBytes = uint64_t{16} << 20;
inline constexpr uint64_t kMaxGgufHeaderBytes = uint64_t{64} << 20;
// A GGUF header is read as a prefix of the file: this many bytes first, four times more while it is cut.
inline constexpr uint64_t kGgufFirstPrefixBytes = uint64_t{64} << 10;

// The tensors a .safetensors header declares (`header` holds the file's first 8 + n bytes), offsets made
// absolute, each checked: dtype string, shape, data_offsets inside the data section and agreeing with
// dtype x shape. Errors name the tensor (or "safetensors" for the header itself).
std::vector<WeightTensor> safetensors_weight_tensors(std::span<const uint8_t> header, uint64_t file_size, int file,
                                                     const std::string& file_name);

// The shard file names `model.safetensors.index.json` lists (weight_map's values, first-seen order), and its
// weight_map as (tensor, file) pairs.
struct SafetensorsIndex {
  std::vector<std::string> files;
  std::vector<std::pair<std::string, std::string>> weight_map;
};
SafetensorsIndex parse_safetensors_index(std::string_view text);

// The family's tensor names (data/weight_tensors.json) for a model read as `format`.
QkTensorNames qk_tensor_names(const ModelPosition& m, WeightFormat format);

class WeightsSession {
 public:
  WeightsSession();
  ~WeightsSession();

  // Adds a weight file: its name (".gguf" selects GGUF, anything else safetensors), size in bytes, and its
  // first bytes. Returns 0 when they hold the whole header, else how many first bytes it needs (the caller
  // reads up to that many and calls again with them: only the bytes beyond the ones given before count as
  // read). Errors (InvalidArgument) name the file or tensor.
  uint64_t add_file(const std::string& name, uint64_t size, std::span<const uint8_t> first_bytes);
  // config.json's text (required for safetensors; a GGUF carries its own configuration).
  void set_config(std::string_view text);
  // model.safetensors.index.json's text (optional): every shard it names must be added, and each tensor
  // must be in the shard it names.
  void set_index(std::string_view text);

  // Reads the configuration and plans the reads: `layers` a list like "0,3,5-7" ("" = all). The ranges to
  // read in order, each a byte range of file `file` (the index in add_file order).
  const std::vector<WeightRange>& plan(const std::string& layers = "");
  const std::vector<std::string>& file_names() const { return names_; }
  uint64_t total_bytes() const;
  int total_tensors() const;
  uint64_t bytes_done() const;
  int ranges_done() const;
  // The plan's bytes in order, any chunking.
  void feed(std::span<const uint8_t> bytes);
  // The result (weights_json), once every range was fed.
  nlohmann::ordered_json finish();
  uint64_t header_bytes_read() const { return header_bytes_; }

 private:
  struct File {
    std::string name;
    uint64_t size = 0, seen = 0;
    bool gguf = false, complete = false;
    std::unique_ptr<GgufHeader> gguf_header;
  };
  std::vector<File> files_;
  std::vector<std::string> names_;
  std::vector<WeightTensor> tensors_;
  std::optional<ConfigValue> config_;
  std::optional<SafetensorsIndex> index_;
  uint64_t header_bytes_ = 0;
  ModelPosition model_;
  std::unique_ptr<QkUsageAnalysis> analysis_;
};

}  // namespace posenc::model_io
