#include "core/models/gguf.h"

#include <cmath>
#include <cstring>
#include <set>

#include "core/bounds.h"
#include "core/text_split.h"
#include "core/unicode_text.h"

namespace posenc {
namespace {

// GGUF value types, numbered as ggml/include/gguf.h's enum gguf_type (GGUF_TYPE_UINT8 = 0 ... GGUF_TYPE_FLOAT64 = 12).
enum GgufType : uint32_t { kU8, kI8, kU16, kI16, kU32, kI32, kF32, kBool, kString, kArray, kU64, kI64, kF64, kTypeCount };

// Per type, in GgufType order: its name in messages and the smallest encoding of one value, for bounding
// counts before anything is allocated (a string: its 8-byte length prefix; an array: element type + count).
struct TypeInfo {
  const char* name;
  uint64_t min_size;
};
constexpr TypeInfo kTypes[kTypeCount] = {{"u8", 1},  {"i8", 1},  {"u16", 2},  {"i16", 2},    {"u32", 4},
                                         {"i32", 4}, {"f32", 4}, {"bool", 1}, {"string", 8}, {"array", 4 + 8},
                                         {"u64", 8}, {"i64", 8}, {"f64", 8}};

const char* type_name(uint32_t t) { return t < kTypeCount ? kTypes[t].name : "?"; }
uint64_t min_size(uint32_t t) { return t < kTypeCount ? kTypes[t].min_size : 1; }

// Longest string value accepted (chat templates are tens of KiB; beyond this a length is absurd).
constexpr uint64_t kMaxValueString = uint64_t{1} << 30;

}  // namespace

std::string gguf_printable(const std::string& s) { return utf8_escaped(s); }

namespace {

class Cursor {
 public:
  explicit Cursor(std::span<const uint8_t> b) : b_(b) {}
  uint64_t offset() const { return pos_; }
  uint64_t remaining() const { return b_.size() - pos_; }

  void need(uint64_t n, const std::string& what) const {
    if (n > remaining())
      throw GgufTruncated("gguf", "truncated GGUF header: " + what + " needs " + std::to_string(n) + " bytes at offset " +
                                      std::to_string(pos_) + ", only " + std::to_string(remaining()) + " left");
  }
  void skip(uint64_t n, const std::string& what) {
    need(n, what);
    pos_ += n;
  }
  template <class T>
  T read(const std::string& what) {
    need(sizeof(T), what);
    T v;
    std::memcpy(&v, b_.data() + pos_, sizeof(T));  // GGUF is little-endian, as every target here
    pos_ += sizeof(T);
    return v;
  }
  std::string string(const std::string& what, uint64_t max_len) {
    const uint64_t at = pos_;
    const uint64_t len = read<uint64_t>(what + " length");
    if (len > max_len)
      throw InvalidArgument("gguf", what + " at offset " + std::to_string(at) + " is " + std::to_string(len) +
                                        " bytes long (limit " + std::to_string(max_len) + ")");
    need(len, what);
    std::string s(reinterpret_cast<const char*>(b_.data() + pos_), len);
    pos_ += len;
    return s;
  }

 private:
  std::span<const uint8_t> b_;
  uint64_t pos_ = 0;
};

ConfigValue read_value(Cursor& c, uint32_t type, const std::string& key, int depth);

ConfigValue read_array(Cursor& c, const std::string& key, int depth) {
  const uint64_t at = c.offset();
  if (depth >= kGgufMaxArrayDepth)
    throw InvalidArgument(key, "GGUF key '" + key + "': arrays nested deeper than " + std::to_string(kGgufMaxArrayDepth) +
                                   " levels at offset " + std::to_string(at));
  const uint32_t et = c.read<uint32_t>("array element type of '" + key + "'");
  if (et >= kTypeCount)
    throw InvalidArgument(
        key, "GGUF key '" + key + "': unknown array element type " + std::to_string(et) + " at offset " + std::to_string(at));
  const uint64_t n = c.read<uint64_t>("array length of '" + key + "'");
  // Each element takes at least min_size bytes: the remaining bytes cannot hold this count (a longer prefix
  // of the file might).
  if (n > c.remaining() / min_size(et))
    throw GgufTruncated(key, "GGUF key '" + key + "': array of " + std::to_string(n) + " " + type_name(et) +
                                 " values cannot fit in the " + std::to_string(c.remaining()) + " bytes left (offset " +
                                 std::to_string(at) + ")");
  const bool keep = n <= kGgufMaxKeptArray;
  ConfigValue::Array items;
  if (keep) items.reserve(n);
  for (uint64_t i = 0; i < n; ++i) {
    ConfigValue v = read_value(c, et, key, depth + 1);
    if (keep) items.push_back(std::move(v));
  }
  return keep ? ConfigValue::array(std::move(items)) : ConfigValue();
}

ConfigValue read_value(Cursor& c, uint32_t type, const std::string& key, int depth) {
  const std::string what = "value of '" + key + "'";
  switch (type) {
    case kU8: return ConfigValue::integer(c.read<uint8_t>(what));
    case kI8: return ConfigValue::integer(c.read<int8_t>(what));
    case kU16: return ConfigValue::integer(c.read<uint16_t>(what));
    case kI16: return ConfigValue::integer(c.read<int16_t>(what));
    case kU32: return ConfigValue::integer(c.read<uint32_t>(what));
    case kI32: return ConfigValue::integer(c.read<int32_t>(what));
    case kF32: return ConfigValue::number(c.read<float>(what));
    case kBool: {
      const uint64_t at = c.offset();
      const uint8_t b = c.read<uint8_t>(what);
      if (b > 1)
        throw InvalidArgument(key, "GGUF key '" + key + "': bool byte " + std::to_string(b) + " at offset " + std::to_string(at) +
                                       " is neither 0 nor 1");
      return ConfigValue::boolean(b == 1);
    }
    case kString: return ConfigValue::string(c.string(what, kMaxValueString));
    case kArray: return read_array(c, key, depth);
    case kU64: {
      const uint64_t v = c.read<uint64_t>(what);
      // Kept exactly when it fits int64; larger values only matter as "too large" later.
      return v <= static_cast<uint64_t>(INT64_MAX) ? ConfigValue::integer(static_cast<int64_t>(v))
                                                   : ConfigValue::number(static_cast<double>(v));
    }
    case kI64: return ConfigValue::integer(c.read<int64_t>(what));
    case kF64: return ConfigValue::number(c.read<double>(what));
  }
  throw InvalidArgument(key, "GGUF key '" + key + "': unknown value type " + std::to_string(type));
}

}  // namespace

GgufHeader read_gguf_header(std::span<const uint8_t> bytes) {
  Cursor c(bytes);
  GgufHeader h;
  if (bytes.size() < 4) throw InvalidArgument("gguf", "not a GGUF file: fewer than 4 bytes");
  if (std::memcmp(bytes.data(), "GGUF", 4) != 0)
    throw InvalidArgument("gguf", "not a GGUF file: the first 4 bytes are not the magic 'GGUF'");
  c.read<uint32_t>("magic");
  h.version = c.read<uint32_t>("version");
  if (h.version != 2 && h.version != 3)
    throw InvalidArgument("gguf", "unsupported GGUF version " + std::to_string(h.version) +
                                      " (versions 2 and 3 are read; version 1 used 32-bit counts)");
  h.tensor_count = c.read<uint64_t>("tensor count");
  const uint64_t kv_count = c.read<uint64_t>("metadata key/value count");
  if (h.tensor_count > kGgufMaxTensors)
    throw InvalidArgument("gguf", "absurd GGUF tensor count " + std::to_string(h.tensor_count) + " (limit 2^24)");
  if (kv_count > kGgufMaxKeys)
    throw InvalidArgument("gguf", "absurd GGUF metadata count " + std::to_string(kv_count) + " (limit 2^20)");
  // A key/value takes at least 8 (key length) + 1 (key) + 4 (type) + 1 (value) bytes.
  if (kv_count > c.remaining() / 14)
    throw GgufTruncated("gguf", "GGUF metadata count " + std::to_string(kv_count) + " cannot fit in the " +
                                    std::to_string(c.remaining()) + " bytes read");
  std::set<std::string> seen;
  for (uint64_t i = 0; i < kv_count; ++i) {
    const uint64_t at = c.offset();
    std::string key = c.string("key #" + std::to_string(i), kGgufMaxKeyLength);
    if (key.empty()) throw InvalidArgument("gguf", "empty GGUF key #" + std::to_string(i) + " at offset " + std::to_string(at));
    if (shown_text(key, std::string::npos) != key)
      throw InvalidArgument("gguf", "GGUF key #" + std::to_string(i) + " at offset " + std::to_string(at) +
                                        " holds a control byte: '" + gguf_printable(key) + "'");
    // A key that is not valid UTF-8 (no key llama.cpp reads) is kept escaped, \xNN, so that it prints in
    // JSON and text alike (unread_keys, errors) as its bytes.
    key = gguf_printable(key);
    if (!seen.insert(key).second) throw InvalidArgument(key, "duplicate GGUF key '" + key + "' at offset " + std::to_string(at));
    const uint64_t type_at = c.offset();
    const uint32_t type = c.read<uint32_t>("type of '" + key + "'");
    if (type >= kTypeCount)
      throw InvalidArgument(
          key, "GGUF key '" + key + "': unknown value type " + std::to_string(type) + " at offset " + std::to_string(type_at));
    ConfigValue v = read_value(c, type, key, 0);
    h.metadata.as_object().emplace_back(std::move(key), std::move(v));
  }
  h.metadata_bytes = c.offset();
  // Tensor infos (ggml's gguf.cpp layout): name, n_dims, n_dims dims, type, offset.
  // Each takes at least 8 + 1 + 4 + 4 + 8 bytes.
  if (h.tensor_count > c.remaining() / 25)
    throw GgufTruncated("gguf", "GGUF tensor count " + std::to_string(h.tensor_count) + " cannot fit in the " +
                                    std::to_string(c.remaining()) + " bytes after the metadata");
  for (uint64_t i = 0; i < h.tensor_count; ++i) {
    const uint64_t at = c.offset();
    const std::string what = "tensor info #" + std::to_string(i);
    std::string name = c.string("name of " + what, kGgufMaxKeyLength);
    if (shown_text(name, std::string::npos) != name)
      throw InvalidArgument("gguf", "GGUF " + what + " at offset " + std::to_string(at) + " has a name with a control byte: '" +
                                        gguf_printable(name) + "'");
    name = gguf_printable(name);
    const uint32_t n_dims = c.read<uint32_t>("dimension count of tensor '" + name + "'");
    if (n_dims > kGgufMaxTensorDims)
      throw InvalidArgument("gguf", "GGUF tensor '" + name + "' at offset " + std::to_string(at) + " has " +
                                        std::to_string(n_dims) + " dimensions (at most 4)");
    c.need(uint64_t{8} * n_dims + 4 + 8, "dimensions, type and offset of tensor '" + name + "'");
    GgufTensorInfo info;
    info.name = name;
    for (uint32_t d = 0; d < n_dims; ++d) info.ne.push_back(c.read<uint64_t>("dimension of tensor '" + name + "'"));
    info.type = c.read<uint32_t>("type of tensor '" + name + "'");
    info.offset = c.read<uint64_t>("offset of tensor '" + name + "'");
    h.tensors.push_back(std::move(info));
    h.tensor_names.push_back(std::move(name));
  }
  h.header_bytes = c.offset();
  return h;
}

}  // namespace posenc
