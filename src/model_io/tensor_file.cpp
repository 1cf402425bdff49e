// The tensor readers of tensor_file.h.
//
// Index of this file:
// [SECTION] element types and decoding
// [SECTION] byte sources
//     a file, bytes in memory
// [SECTION] .npy
// [SECTION] .safetensors
// [SECTION] text: two streaming passes
// [SECTION] JSON: two SAX passes
// [SECTION] dispatch
//     by name and magic
// [SECTION] the squeeze to a matrix
#include "model_io/tensor_file.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <new>
#include <nlohmann/json.hpp>
#include <set>

#include "core/bounds.h"
#include "core/text_split.h"
#include "model_io/json_read.h"

namespace posenc::model_io {
namespace {

// [SECTION] element types and decoding

enum class DType { F16, BF16, F32, F64 };

int dtype_size(DType t) { return t == DType::F64 ? 8 : t == DType::F32 ? 4 : 2; }

double half_to_double(uint16_t h) {
  const int sign = (h >> 15) & 1, exp = (h >> 10) & 0x1F, frac = h & 0x3FF;
  double v;
  if (exp == 0) v = std::ldexp(frac, -24);
  else if (exp == 31) v = frac ? NAN : INFINITY;
  else v = std::ldexp(1024 + frac, exp - 25);
  return sign ? -v : v;
}

// Decodes little-endian elements (this reader only runs on little-endian machines: x86, arm, wasm).
std::vector<double> decode(const char* data, uint64_t count, DType t) {
  std::vector<double> out(count);
  for (uint64_t i = 0; i < count; ++i) {
    const char* p = data + i * static_cast<uint64_t>(dtype_size(t));
    switch (t) {
      case DType::F64: std::memcpy(&out[i], p, 8); break;
      case DType::F32: {
        float v;
        std::memcpy(&v, p, 4);
        out[i] = v;
        break;
      }
      case DType::F16: {
        uint16_t v;
        std::memcpy(&v, p, 2);
        out[i] = half_to_double(v);
        break;
      }
      case DType::BF16: {
        uint16_t v;
        std::memcpy(&v, p, 2);
        const uint32_t bits = static_cast<uint32_t>(v) << 16;
        float f;
        std::memcpy(&f, &bits, 4);
        out[i] = f;
        break;
      }
    }
  }
  return out;
}

// Element count of a shape, bounded by 2^24 without overflow.
uint64_t element_count(const std::vector<int64_t>& shape, const std::string& field) {
  uint64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) throw InvalidArgument(field, field + ": negative dimension in the file's shape");
    if (d != 0 && n > static_cast<uint64_t>(kMaxCells) / static_cast<uint64_t>(d))
      throw InvalidArgument(field, field + ": the tensor has more than 2^24 elements");
    n *= static_cast<uint64_t>(d);
  }
  if (n > static_cast<uint64_t>(kMaxCells)) throw InvalidArgument(field, field + ": the tensor has more than 2^24 elements");
  return n;
}

// [SECTION] byte sources

class Source {
 public:
  virtual ~Source() = default;
  virtual uint64_t size() const = 0;
  // Exactly `length` bytes from `offset`, or InvalidArgument.
  virtual std::string read(uint64_t offset, uint64_t length) const = 0;
};

class FileSource final : public Source {
 public:
  FileSource(std::string path, std::string field) : path_(std::move(path)), field_(std::move(field)) {
    std::error_code ec;
    size_ = std::filesystem::file_size(path_, ec);
    if (ec) throw InvalidArgument(field_, "cannot read " + field_ + " file '" + shown_text(path_, 256) + "'");
  }
  uint64_t size() const override { return size_; }
  std::string read(uint64_t offset, uint64_t length) const override {
    std::ifstream in(path_, std::ios::binary);
    if (!in) throw InvalidArgument(field_, "cannot read " + field_ + " file '" + shown_text(path_, 256) + "'");
    in.seekg(static_cast<std::streamoff>(offset));
    std::string s(length, '\0');
    in.read(s.data(), static_cast<std::streamsize>(length));
    if (static_cast<uint64_t>(in.gcount()) != length)
      throw InvalidArgument(field_, field_ + " file '" + shown_text(path_, 256) + "' is shorter than its header says");
    return s;
  }

 private:
  std::string path_, field_;
  uint64_t size_ = 0;
};

class MemorySource final : public Source {
 public:
  MemorySource(const std::string& bytes, std::string field) : bytes_(bytes), field_(std::move(field)) {}
  uint64_t size() const override { return bytes_.size(); }
  std::string read(uint64_t offset, uint64_t length) const override {
    if (offset > bytes_.size() || length > bytes_.size() - offset)
      throw InvalidArgument(field_, field_ + ": the data is shorter than its header says");
    return bytes_.substr(offset, length);
  }

 private:
  const std::string& bytes_;
  std::string field_;
};

// [SECTION] .npy

struct NpyHeader {
  uint64_t data_offset = 0;
  DType dtype = DType::F64;
  std::vector<int64_t> shape;
  uint64_t count = 0;
};

// The value text after 'key': in the header dict.
std::string npy_value(const std::string& header, const std::string& key, const std::string& field) {
  const auto k = header.find("'" + key + "'");
  if (k == std::string::npos) throw InvalidArgument(field, field + ": .npy header has no '" + key + "'");
  auto p = header.find(':', k);
  if (p == std::string::npos) throw InvalidArgument(field, field + ": malformed .npy header");
  ++p;
  while (p < header.size() && header[p] == ' ') ++p;
  return header.substr(p);
}

std::vector<int64_t> npy_shape(const std::string& header, const std::string& field) {
  const std::string shape = npy_value(header, "shape", field);
  if (shape.empty() || shape[0] != '(') throw InvalidArgument(field, field + ": malformed .npy shape");
  const auto close = shape.find(')');
  if (close == std::string::npos) throw InvalidArgument(field, field + ": malformed .npy shape");
  std::vector<int64_t> out;
  for (const std::string& item : split_list(shape.substr(1, close - 1), ',')) {
    const auto b = item.find_first_not_of(' ');
    if (b == std::string::npos) continue;
    const std::string digits = item.substr(b, item.find_last_not_of(' ') - b + 1);
    if (digits.empty() || digits.size() > 12 || digits.find_first_not_of("0123456789L") != std::string::npos)
      throw InvalidArgument(field, field + ": malformed .npy shape '" + shown_text(digits) + "'");
    out.push_back(std::stoll(digits));
    if (out.size() > 8) throw InvalidArgument(field, field + ": .npy has more than 8 dimensions");
  }
  return out;
}

// The preamble and header of a .npy file (format 1.0: a 2-byte header length; 2.0 and 3.0: 4 bytes), checked
// against total_size.
NpyHeader read_npy_header(const Source& src, const std::string& field) {
  const uint64_t total = src.size();
  if (total < 10) throw InvalidArgument(field, field + ": not a .npy file (too short)");
  const std::string pre = src.read(0, std::min<uint64_t>(total, 12));
  if (std::memcmp(pre.data(), "\x93NUMPY", 6) != 0)
    throw InvalidArgument(field, field + ": not a .npy file (no \\x93NUMPY magic)");
  const int major = static_cast<unsigned char>(pre[6]), minor = static_cast<unsigned char>(pre[7]);
  if (!((major == 1 || major == 2 || major == 3) && minor == 0))
    throw InvalidArgument(field, field + ": unsupported .npy format version " + std::to_string(major) + "." +
                                     std::to_string(minor) + " (1.0, 2.0 and 3.0 are read)");
  const uint64_t preamble = major == 1 ? 10 : 12;
  if (pre.size() < preamble) throw InvalidArgument(field, field + ": truncated .npy header");
  uint64_t header_len = 0;
  for (uint64_t i = 0; i < preamble - 8; ++i)
    header_len |= static_cast<uint64_t>(static_cast<unsigned char>(pre[8 + i])) << (8 * i);
  if (header_len > kMaxTensorHeaderBytes || preamble + header_len > total)
    throw InvalidArgument(field, field + ": .npy header length " + std::to_string(header_len) + " exceeds the file");
  const std::string header = src.read(preamble, header_len);
  NpyHeader h;
  h.data_offset = preamble + header_len;
  const std::string descr = npy_value(header, "descr", field);
  auto starts = [&](const char* s) { return descr.rfind(s, 0) == 0; };
  if (starts("'<f8'")) h.dtype = DType::F64;
  else if (starts("'<f4'")) h.dtype = DType::F32;
  else if (starts("'<f2'")) h.dtype = DType::F16;
  else
    throw InvalidArgument(field, field + ": .npy dtype must be little-endian float16, float32 or float64 (<f2, <f4, <f8), not " +
                                     shown_text(descr.substr(0, std::min<size_t>(descr.find(','), 16))));
  if (npy_value(header, "fortran_order", field).rfind("False", 0) != 0)
    throw InvalidArgument(field, field + ": .npy in Fortran order; save a C-order array (np.ascontiguousarray)");
  h.shape = npy_shape(header, field);
  h.count = element_count(h.shape, field);
  const uint64_t bytes = h.count * static_cast<uint64_t>(dtype_size(h.dtype));
  if (h.data_offset + bytes != total)
    throw InvalidArgument(field, field + ": .npy data is " + std::to_string(total - h.data_offset) +
                                     " bytes; the header's shape needs " + std::to_string(bytes));
  return h;
}

TensorData read_npy(const Source& src, const std::string& field) {
  const NpyHeader h = read_npy_header(src, field);
  const std::string data = src.read(h.data_offset, src.size() - h.data_offset);
  return {h.shape, decode(data.data(), h.count, h.dtype)};
}

// [SECTION] .safetensors

struct StEntry {
  std::string name;
  uint64_t begin = 0, end = 0;
};

// The header object, a duplicated tensor name refused (the JSON parser would keep the last one).
nlohmann::json safetensors_header(const std::string& text, const std::string& field) {
  std::set<std::string> names;
  std::string duplicate;
  bool deep = false;
  const auto cb = [&](int depth, nlohmann::json::parse_event_t ev, nlohmann::json& parsed) {
    if (depth > 4) deep = true;
    if (ev == nlohmann::json::parse_event_t::key && depth == 1 && !names.insert(parsed.get<std::string>()).second &&
        duplicate.empty())
      duplicate = parsed.get<std::string>();
    return !deep;
  };
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text.data(), text.data() + text.size(), cb, /*allow_exceptions=*/true);
  } catch (const nlohmann::json::exception&) { throw InvalidArgument(field, field + ": malformed .safetensors header JSON"); }
  if (deep || !j.is_object()) throw InvalidArgument(field, field + ": malformed .safetensors header");
  if (!duplicate.empty())
    throw InvalidArgument(field, field + ": the .safetensors header names tensor '" + shown_text(duplicate, 64) + "' twice");
  return j;
}

// The tensors' byte ranges must tile the data exactly (safetensors' rule: no holes, no overlaps).
void check_tiling(std::vector<StEntry> entries, uint64_t data_size, const std::string& field) {
  std::stable_sort(entries.begin(), entries.end(), [](const StEntry& a, const StEntry& b) { return a.begin < b.begin; });
  uint64_t at = 0;
  const StEntry* prev = nullptr;
  for (const StEntry& e : entries) {
    const std::string name = "'" + shown_text(e.name, 64) + "'";
    if (e.begin < at)
      throw InvalidArgument(field, field + ": the .safetensors data of " + name + " overlaps " +
                                       (prev ? "'" + shown_text(prev->name, 64) + "'" : std::string("another tensor")));
    if (e.begin > at)
      throw InvalidArgument(
          field, field + ": a gap of " + std::to_string(e.begin - at) + " bytes in the .safetensors data before " + name);
    at = e.end;
    prev = &e;
  }
  if (at > data_size) throw InvalidArgument(field, field + ": .safetensors data_offsets run past the end of the file");
  if (at < data_size)
    throw InvalidArgument(
        field, field + ": " + std::to_string(data_size - at) + " trailing bytes after the last tensor of the .safetensors file");
}

TensorData read_safetensors(const Source& src, const std::string& name, const std::string& default_name,
                            const std::string& field) {
  const uint64_t size = src.size();
  if (size < 8) throw InvalidArgument(field, field + ": not a .safetensors file (too short)");
  const std::string pre = src.read(0, 8);
  uint64_t n = 0;
  for (int i = 0; i < 8; ++i) n |= static_cast<uint64_t>(static_cast<unsigned char>(pre[static_cast<size_t>(i)])) << (8 * i);
  if (n > kMaxTensorHeaderBytes || 8 + n > size)
    throw InvalidArgument(field,
                          field + ": .safetensors header length " + std::to_string(n) + " exceeds the file or the 1 MiB limit");
  const nlohmann::json header = safetensors_header(src.read(8, n), field);
  std::vector<StEntry> entries;
  std::vector<std::string> names;
  for (const auto& [k, t] : header.items()) {
    if (k == "__metadata__") continue;
    names.push_back(k);
    const std::string q = "'" + shown_text(k, 64) + "'";
    if (!t.is_object() || !t.contains("data_offsets") || !t["data_offsets"].is_array() || t["data_offsets"].size() != 2 ||
        !t["data_offsets"][0].is_number_unsigned() || !t["data_offsets"][1].is_number_unsigned())
      throw InvalidArgument(field, field + ": malformed .safetensors entry for " + q + " (data_offsets)");
    entries.push_back({k, t["data_offsets"][0].get<uint64_t>(), t["data_offsets"][1].get<uint64_t>()});
    if (entries.back().end < entries.back().begin)
      throw InvalidArgument(field, field + ": .safetensors data_offsets of " + q + " end before they begin");
  }
  check_tiling(entries, size - 8 - n, field);
  std::string chosen = name;
  if (chosen.empty()) {
    if (names.size() == 1) chosen = names[0];
    else if (!default_name.empty() && header.contains(default_name)) chosen = default_name;
    else {
      std::string list;
      for (size_t i = 0; i < names.size() && i < 20; ++i) list += (i ? ", " : "") + shown_text(names[i], 64);
      throw InvalidArgument(field, field + ": the .safetensors file holds " + std::to_string(names.size()) +
                                       " tensors; name one with --name (" + list + ")");
    }
  }
  if (!header.contains(chosen) || chosen == "__metadata__")
    throw InvalidArgument(field, field + ": no tensor '" + shown_text(chosen, 64) + "' in the .safetensors file");
  const nlohmann::json& t = header.at(chosen);
  if (!t.contains("dtype") || !t.contains("shape") || !t["dtype"].is_string() || !t["shape"].is_array())
    throw InvalidArgument(field, field + ": malformed .safetensors entry for '" + shown_text(chosen, 64) + "'");
  const std::string dt = t["dtype"].get<std::string>();
  DType dtype;
  if (dt == "F64") dtype = DType::F64;
  else if (dt == "F32") dtype = DType::F32;
  else if (dt == "F16") dtype = DType::F16;
  else if (dt == "BF16") dtype = DType::BF16;
  else throw InvalidArgument(field, field + ": .safetensors dtype must be F16, BF16, F32 or F64, not " + shown_text(dt, 16));
  std::vector<int64_t> shape;
  for (const auto& d : t["shape"]) {
    if (!d.is_number_unsigned() && !d.is_number_integer()) throw InvalidArgument(field, field + ": malformed shape");
    shape.push_back(d.get<int64_t>());
    if (shape.size() > 8) throw InvalidArgument(field, field + ": more than 8 dimensions");
  }
  const uint64_t count = element_count(shape, field);
  const uint64_t b = t["data_offsets"][0].get<uint64_t>(), e = t["data_offsets"][1].get<uint64_t>();
  const uint64_t bytes = count * static_cast<uint64_t>(dtype_size(dtype));
  if (e - b != bytes)
    throw InvalidArgument(field, field + ": data_offsets [" + std::to_string(b) + ", " + std::to_string(e) +
                                     "] disagree with the shape (" + std::to_string(bytes) + " bytes)");
  const std::string data = src.read(8 + n + b, bytes);
  return {shape, decode(data.data(), count, dtype)};
}

// [SECTION] text: two streaming passes

// One number of a text tensor, by one grammar (docs/cli.md, "Tensor files"): an optional sign (+ or -), digits
// with an optional decimal point (5, 5., .5, 5.25), an optional exponent (e or E, an optional sign, digits);
// or inf / infinity / nan in any case, signed. Anything else is refused naming the token (hexadecimal, a NUL
// or any other byte inside it); so is a value float64 cannot hold as written: a nonzero number that would
// read as 0 or as a subnormal (below 2.2e-308), or a finite one that would read as infinity.
double text_number(const std::string& tok, bool too_long, const std::string& field, const std::string& where) {
  auto refuse = [&](const std::string& why) { throw InvalidArgument(field, where + ": '" + shown_text(tok) + "' " + why); };
  if (too_long) refuse("is not a number (longer than 64 bytes)");
  if (tok.find('\0') != std::string::npos) refuse("is not a number (it holds a NUL byte)");
  size_t i = tok[0] == '+' || tok[0] == '-' ? 1 : 0;
  std::string word;
  for (size_t j = i; j < tok.size(); ++j) word += static_cast<char>(std::tolower(static_cast<unsigned char>(tok[j])));
  const bool special = word == "inf" || word == "infinity" || word == "nan";
  bool nonzero = false;
  if (!special) {
    size_t digits = 0;
    for (; i < tok.size() && std::isdigit(static_cast<unsigned char>(tok[i])); ++i, ++digits) nonzero |= tok[i] != '0';
    if (i < tok.size() && tok[i] == '.')
      for (++i; i < tok.size() && std::isdigit(static_cast<unsigned char>(tok[i])); ++i, ++digits) nonzero |= tok[i] != '0';
    if (digits == 0) refuse("is not a number");
    if (i < tok.size() && (tok[i] == 'e' || tok[i] == 'E')) {
      ++i;
      if (i < tok.size() && (tok[i] == '+' || tok[i] == '-')) ++i;
      const size_t start = i;
      while (i < tok.size() && std::isdigit(static_cast<unsigned char>(tok[i]))) ++i;
      if (i == start) refuse("is not a number (an exponent without digits)");
    }
    if (i != tok.size()) refuse("is not a number");
  }
  const double v = std::strtod(tok.c_str(), nullptr);
  if (!special && std::isinf(v)) refuse("is beyond float64's range (it would read as infinity)");
  if (nonzero && std::fabs(v) < std::numeric_limits<double>::min())
    refuse("is below float64's normal range, 2.2e-308 (it would read as " + std::string(v == 0 ? "0" : "a subnormal") + ")");
  return v;
}

// Rows of numbers, read chunk by chunk without holding a line: the first pass counts (and refuses past
// 2^24 numbers, or a malformed token), the second fills a vector of exactly that size.
class TextScan {
 public:
  TextScan(std::string field, bool semicolon_rows, std::vector<double>* out)
      : field_(std::move(field)), semicolon_rows_(semicolon_rows), out_(out) {}

  void feed(const char* p, size_t n) {
    for (size_t i = 0; i < n; ++i) step(p[i]);
  }
  TensorData finish() {
    step('\n');
    TensorData t;
    if (rows_ == 1) t.shape = {cols_};
    else if (rows_ > 1) t.shape = {rows_, cols_};
    else t.shape = {0};
    return t;
  }
  int64_t count() const { return count_; }

 private:
  void step(char c) {
    if (comment_) {
      if (c == '\n') comment_ = false, ++line_;
      return;
    }
    const bool row_end = c == '\n' || (semicolon_rows_ && c == ';');
    if (row_end || c == ' ' || c == ',' || c == '\t' || c == '\r' || c == ';') {
      token();
      if (row_end) row();
      if (c == '\n') ++line_;
      return;
    }
    if (c == '#' && tok_.empty() && in_row_ == 0) {
      comment_ = true;
      return;
    }
    if (tok_.size() < 64) tok_ += c;
    else long_ = true;
  }
  void token() {
    if (tok_.empty()) return;
    const double v = text_number(tok_, long_, field_, field_ + ": line " + std::to_string(line_));
    if (++count_ > kMaxCells) throw InvalidArgument(field_, field_ + ": the tensor has more than 2^24 elements");
    if (out_) out_->push_back(v);
    ++in_row_;
    tok_.clear();
    long_ = false;
  }
  void row() {
    if (in_row_ == 0) return;  // a blank line (or one of comments)
    if (cols_ >= 0 && in_row_ != cols_)
      throw InvalidArgument(field_, field_ + ": row " + std::to_string(rows_ + 1) + " (line " + std::to_string(line_) + ") has " +
                                        std::to_string(in_row_) + " numbers; the first row has " + std::to_string(cols_));
    cols_ = in_row_;
    ++rows_;
    in_row_ = 0;
  }

  std::string field_;
  bool semicolon_rows_;
  std::vector<double>* out_;
  std::string tok_;
  bool long_ = false, comment_ = false;
  int64_t line_ = 1, rows_ = 0, cols_ = -1, in_row_ = 0, count_ = 0;
};

// Two passes of a scanner (TextScan, JsonTensorScan: `make(out)` builds one) over the input (`feed(scan)`): the
// first counts and checks the numbers (finish throws naming the field), the second fills a vector reserved to
// that count, so a tensor's values are allocated once, at their size.
template <class Make, class Feed>
TensorData scan_twice(Make make, Feed feed) {
  auto counting = make(nullptr);
  feed(counting);
  counting.finish();
  std::vector<double> values;
  values.reserve(static_cast<size_t>(counting.count()));
  auto filling = make(&values);
  feed(filling);
  TensorData t = filling.finish();
  t.values = std::move(values);
  return t;
}

template <class Feed>
TensorData scan_text(const std::string& field, bool semicolon_rows, Feed feed) {
  return scan_twice([&](std::vector<double>* out) { return TextScan(field, semicolon_rows, out); }, feed);
}

TensorData read_text(const Source& src, const std::string& field) {
  if (src.size() > kMaxTensorTextBytes)
    throw InvalidArgument(field,
                          field + " file is " + std::to_string(src.size()) + " bytes; text tensors are limited to 256 MiB");
  constexpr uint64_t kChunk = uint64_t{1} << 20;
  return scan_text(field, false, [&](TextScan& scan) {
    for (uint64_t at = 0; at < src.size(); at += kChunk) {
      const std::string chunk = src.read(at, std::min(kChunk, src.size() - at));
      scan.feed(chunk.data(), chunk.size());
    }
  });
}

// [SECTION] JSON: two SAX passes

// A number, or arrays of numbers nested up to 3 deep (rows, heads of rows), every array at a depth the same
// length: the first pass checks the shape and counts (refusing past 2^24), the second fills.
class JsonTensorScan final : public nlohmann::json_sax<nlohmann::json> {
 public:
  JsonTensorScan(std::string field, std::vector<double>* out) : field_(std::move(field)), out_(out) {}
  int64_t count() const { return count_; }
  // The tensor's shape; throws naming the field where the JSON is no tensor.
  TensorData finish() const {
    if (!error_.empty()) throw InvalidArgument(field_, field_ + ": the JSON tensor " + error_);
    TensorData t;
    t.shape = shape_;
    return t;
  }

  bool null() override { return fail("holds null where a number belongs"); }
  bool boolean(bool) override { return fail("holds true / false where a number belongs"); }
  bool string(string_t&) override { return fail("holds a string where a number belongs"); }
  bool binary(binary_t&) override { return fail("holds binary data"); }
  bool start_object(std::size_t) override { return fail("holds an object where a number belongs"); }
  bool key(string_t&) override { return false; }
  bool end_object() override { return false; }
  bool number_integer(number_integer_t v) override { return number(static_cast<double>(v)); }
  bool number_unsigned(number_unsigned_t v) override { return number(static_cast<double>(v)); }
  bool number_float(number_float_t v, const string_t&) override { return number(v); }
  bool start_array(std::size_t) override {
    if (leaf_ >= 0 && depth() >= leaf_) return fail("mixes numbers and arrays at one depth");
    if (depth() >= 3) return fail("nests deeper than heads x rows x numbers (3 levels)");
    if (!open_.empty()) ++open_.back();
    open_.push_back(0);
    return true;
  }
  bool end_array() override {
    const size_t d = open_.size() - 1;
    if (shape_.size() <= d) shape_.resize(d + 1, -1);
    if (shape_[d] < 0) shape_[d] = open_.back();
    else if (shape_[d] != open_.back()) return fail("has rows (or heads) of different lengths");
    open_.pop_back();
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    if (error_.empty()) error_ = "is not valid JSON";
    return false;
  }

 private:
  int depth() const { return static_cast<int>(open_.size()); }
  bool number(double v) {
    if (leaf_ < 0) leaf_ = depth();
    if (depth() != leaf_) return fail("mixes numbers and arrays at one depth");
    if (++count_ > kMaxCells) return fail("has more than 2^24 numbers");
    if (!open_.empty()) ++open_.back();
    if (out_) out_->push_back(v);
    return true;
  }
  bool fail(const char* why) {
    if (error_.empty()) error_ = why;
    return false;
  }
  std::string field_;
  std::string error_;
  std::vector<int64_t> shape_;
  int64_t count_ = 0;
  std::vector<double>* out_;
  std::vector<int64_t> open_;  // elements so far of each open array
  int leaf_ = -1;              // the depth numbers sit at
};

template <class Parse>
TensorData scan_json(const std::string& field, Parse parse) {
  return scan_twice([&](std::vector<double>* out) { return JsonTensorScan(field, out); }, parse);
}

void refuse_large_json(const Source& src, const std::string& field) {
  if (src.size() > kMaxTensorTextBytes)
    throw InvalidArgument(field,
                          field + " file is " + std::to_string(src.size()) + " bytes; JSON tensors are limited to 256 MiB");
}

// A JSON tensor held in memory (a dropped file, bytes from the page). Parsed through a pointer range: the
// one input adapter every JSON text of posenc's goes through (each adapter type is a lexer and a parser
// more in the web build's download).
TensorData read_json_bytes(const Source& src, const std::string& field, const std::string*) {
  refuse_large_json(src, field);
  const std::string all = src.read(0, src.size());
  return scan_json(field, [&](JsonTensorScan& scan) {
    nlohmann::json::sax_parse(all.data(), all.data() + all.size(), &scan, nlohmann::json::input_format_t::json, /*strict=*/true);
  });
}

// A JSON tensor file, streamed: only the parser's buffer is held (a FILE*: an istream would bring libc++'s
// locale machinery in). Only read_tensor_file reaches it, so the web build (bytes, never paths) links none of it.
TensorData read_json_file(const Source& src, const std::string& field, const std::string* path) {
  refuse_large_json(src, field);
  return scan_json(field, [&](JsonTensorScan& scan) {
    const std::unique_ptr<std::FILE, int (*)(std::FILE*)> in(std::fopen(path->c_str(), "rb"), &std::fclose);
    if (!in) throw InvalidArgument(field, "cannot read " + field + " file '" + shown_text(*path, 256) + "'");
    nlohmann::json::sax_parse(in.get(), &scan, nlohmann::json::input_format_t::json, /*strict=*/true);
  });
}

using JsonReader = TensorData (*)(const Source&, const std::string& field, const std::string* path);

// [SECTION] dispatch

[[noreturn]] void refuse_pytorch(const std::string& field) {
  throw InvalidArgument(field, field +
                                   ": a PyTorch file (torch.save writes a zip archive of pickles), which posenc does not read; "
                                   "save the tensor as .npy (numpy.save('t.npy', t.float().cpu().numpy())) or .safetensors "
                                   "(safetensors.torch.save_file({'t': t.contiguous()}, 't.safetensors'))");
}

// Text whose first byte that is not blank is '[' is a JSON tensor: no number of the text grammar starts with
// '[', so the two forms never overlap (a pasted `[[1, 2], [3, 4]]` or Python's print of a list reads as JSON).
bool json_text(const std::string& lead) {
  const size_t at = lead.find_first_not_of(" \t\r\n");
  return at != std::string::npos && lead[at] == '[';
}

TensorData read_any(const Source& src, const std::string& file_name, const std::string* path, JsonReader read_json,
                    const std::string& name, const std::string& field, const std::string& default_name) {
  const std::string head = src.read(0, std::min<uint64_t>(src.size(), 8));
  const bool zip = head.rfind("PK\x03\x04", 0) == 0, pickle = !head.empty() && static_cast<unsigned char>(head[0]) == 0x80;
  if (file_name.ends_with(".pt") || file_name.ends_with(".pth") || zip || pickle) refuse_pytorch(field);
  if (file_name.ends_with(".npy") || head.rfind("\x93NUMPY", 0) == 0) return read_npy(src, field);
  if (file_name.ends_with(".safetensors")) return read_safetensors(src, name, default_name, field);
  if (file_name.ends_with(".json") || json_text(src.read(0, std::min<uint64_t>(src.size(), 4096))))
    return read_json(src, field, path);
  return read_text(src, field);
}

// Out of memory while reading names the field (never a bare "out of memory" with no field).
template <class F>
TensorData bounded(const std::string& field, F read) {
  try {
    return read();
  } catch (const std::bad_alloc&) {
    throw InvalidArgument(field, field + ": out of memory while reading the tensor (at most 2^24 numbers are read)");
  }
}

}  // namespace

TensorData parse_npy(const std::string& bytes, const std::string& field) { return read_npy(MemorySource(bytes, field), field); }

TensorData parse_tensor_text(const std::string& text, const std::string& field, bool semicolon_rows) {
  if (json_text(text.substr(0, 4096))) return read_json_bytes(MemorySource(text, field), field, nullptr);
  return scan_text(field, semicolon_rows, [&](TextScan& scan) { scan.feed(text.data(), text.size()); });
}

TensorData read_tensor_file(const std::string& path, const std::string& name, const std::string& field,
                            const std::string& default_name) {
  return bounded(field,
                 [&] { return read_any(FileSource(path, field), path, &path, read_json_file, name, field, default_name); });
}

TensorData parse_tensor_bytes(const std::string& bytes, const std::string& file_name, const std::string& name,
                              const std::string& field) {
  return bounded(field, [&] {
    const MemorySource src(bytes, field);
    // Dropped without an extension we know: safetensors by its shape (a u64 length, then '{').
    if (!file_name.ends_with(".safetensors") && bytes.size() >= 9 && bytes[8] == '{') {
      uint64_t n = 0;
      for (int i = 0; i < 8; ++i)
        n |= static_cast<uint64_t>(static_cast<unsigned char>(bytes[static_cast<size_t>(i)])) << (8 * i);
      if (n <= kMaxTensorHeaderBytes && 8 + n <= bytes.size()) return read_safetensors(src, name, field, field);
    }
    return read_any(src, file_name, nullptr, read_json_bytes, name, field, field);
  });
}

// [SECTION] the squeeze to a matrix

Matrix tensor_matrix(const TensorData& t, const std::string& field, int* heads) {
  std::vector<int64_t> dims;
  for (size_t i = 0; i < t.shape.size(); ++i)
    if (t.shape[i] != 1 || t.shape.size() - i <= 2) dims.push_back(t.shape[i]);
  while (dims.size() > 2 && dims.front() == 1) dims.erase(dims.begin());
  if (heads) *heads = 0;
  if (heads && dims.size() == 3) {
    if (dims[0] > kMaxHeads) throw InvalidArgument(field, field + ": more than 1024 heads");
    *heads = static_cast<int>(dims[0]);
    dims = {dims[0] * dims[1], dims[2]};
  }
  if (dims.size() > 2)
    throw InvalidArgument(field, field + (heads ? " must have at most three dimensions larger than 1 (heads x n x width)"
                                                : " must be a matrix (at most two dimensions larger than 1)"));
  const Eigen::Index rows = dims.size() == 2 ? dims[0] : 1;
  const Eigen::Index cols = dims.empty() ? 1 : dims.back();
  if (static_cast<uint64_t>(rows) * static_cast<uint64_t>(cols) != t.values.size())
    throw InvalidArgument(field, field + ": shape and values disagree");
  Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = t.values[static_cast<size_t>(i)];
  return m;
}

}  // namespace posenc::model_io
