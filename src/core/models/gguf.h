// GGUF header reader: the key/value metadata at the start of a .gguf file (never the tensors), and the
// positional encoding it describes, mapped the way llama.cpp reads it (src/llama-model.cpp,
// llama_model_rope_type and the hparams loader; key names from src/llama-arch.cpp). docs/models.md.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/models/config_value.h"
#include "core/models/model_config.h"
#include "core/models/model_families.h"  // llama_cpp_rope_type

namespace posenc {

// One tensor info (ggml's gguf.cpp layout): its name, dimensions (ne[0] innermost), ggml type id and data offset
// relative to the start of the tensor data section.
struct GgufTensorInfo {
  std::string name;
  std::vector<uint64_t> ne;
  uint32_t type = 0;
  uint64_t offset = 0;
};

struct GgufHeader {
  uint32_t version = 0;
  uint64_t tensor_count = 0;
  // key -> value, in file order. Arrays longer than kGgufMaxKeptArray (tokenizer vocabularies) are checked
  // and skipped: they are kept as null.
  ConfigValue metadata = ConfigValue::object();
  uint64_t metadata_bytes = 0;  // bytes from the file start to the end of the key/value section
  // The tensor infos that follow the metadata (the tensors' data is never read here). llama.cpp keeps some
  // RoPE parameters as tensors (rope_freqs, rope_factors_long/short), which read_gguf_model refuses by name.
  std::vector<std::string> tensor_names;
  std::vector<GgufTensorInfo> tensors;  // the same tensors with their dimensions, types and offsets
  uint64_t header_bytes = 0;            // bytes from the file start to the end of the tensor infos
};

// The bytes end before the header does: a longer prefix of the same file may parse (the page reads a
// GGUF's header with Blob.slice and asks for more on this error). Field "gguf".
class GgufTruncated : public InvalidArgument {
 public:
  using InvalidArgument::InvalidArgument;
};

inline constexpr uint64_t kGgufMaxKeys = uint64_t{1} << 20;
inline constexpr uint64_t kGgufMaxTensors = uint64_t{1} << 24;
inline constexpr uint64_t kGgufMaxKeyLength = 65535;
inline constexpr uint64_t kGgufMaxKeptArray = 4096;
inline constexpr int kGgufMaxArrayDepth = 4;
inline constexpr uint32_t kGgufMaxTensorDims = 4;  // GGML_MAX_DIMS

// Parses the header from `bytes`, a prefix of the file (the metadata and the tensor infos must be inside it:
// GgufTruncated when they go on past it). Every malformation throws InvalidArgument with field "gguf" (or
// the offending key) and a sentence saying what and at which byte offset; nothing is allocated beyond what
// the bytes themselves can hold.
GgufHeader read_gguf_header(std::span<const uint8_t> bytes);

// The model's positional encoding from the header (general.architecture and its keys; gguf_model.cpp).
ModelPosition read_gguf_model(const GgufHeader& header, std::optional<int64_t> seq_len = std::nullopt);

// A GGUF string as posenc prints it (errors, keys, model_type): control bytes (a NUL would end the message where C
// strings are printed), DEL and bytes that are not valid UTF-8 become \xNN (utf8_escaped, core/unicode_text.h).
// Keys and tensor names that are not valid UTF-8 are kept in this form by read_gguf_header.
std::string gguf_printable(const std::string& s);

}  // namespace posenc
