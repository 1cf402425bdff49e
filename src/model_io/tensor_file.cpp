#include "model_io/tensor_file.h"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/bounds.h"
#include "core/text_split.h"
#include "model_io/json_read.h"

namespace posenc::model_io {
namespace {

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
      case DType::F64: {
        double v;
        std::memcpy(&v, p, 8);
        out[i] = v;
        break;
      }
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

uint64_t file_size(const std::string& path, const std::string& field) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw InvalidArgument(field, "cannot read " + field + " file '" + path + "'");
  return size;
}

std::string read_range(const std::string& path, uint64_t offset, uint64_t length, const std::string& field) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InvalidArgument(field, "cannot read " + field + " file '" + path + "'");
  in.seekg(static_cast<std::streamoff>(offset));
  std::string s(length, '\0');
  in.read(s.data(), static_cast<std::streamsize>(length));
  if (static_cast<uint64_t>(in.gcount()) != length)
    throw InvalidArgument(field, field + " file '" + path + "' is shorter than its header says");
  return s;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// ---------------------------------------------------------------- .npy

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

// Parses the first bytes of a .npy file (at least its 10-byte preamble and header) and checks the data
// size against total_size.
NpyHeader parse_npy_header(const std::string& head, uint64_t total_size, const std::string& field) {
  if (head.size() < 10 || std::memcmp(head.data(), "\x93NUMPY", 6) != 0)
    throw InvalidArgument(field, field + ": not a .npy file (no \\x93NUMPY magic)");
  const int major = static_cast<unsigned char>(head[6]);
  uint64_t header_len = 0, preamble = 0;
  if (major == 1) {
    header_len = static_cast<unsigned char>(head[8]) | (static_cast<unsigned>(static_cast<unsigned char>(head[9])) << 8);
    preamble = 10;
  } else if (major == 2 || major == 3) {
    if (head.size() < 12) throw InvalidArgument(field, field + ": truncated .npy header");
    for (int i = 0; i < 4; ++i) header_len |= static_cast<uint64_t>(static_cast<unsigned char>(head[8 + i])) << (8 * i);
    preamble = 12;
  } else {
    throw InvalidArgument(field, field + ": unsupported .npy version " + std::to_string(major));
  }
  if (header_len > kMaxTensorHeaderBytes || preamble + header_len > total_size)
    throw InvalidArgument(field, field + ": .npy header length " + std::to_string(header_len) + " exceeds the file");
  if (head.size() < preamble + header_len) throw InvalidArgument(field, field + ": truncated .npy header");
  const std::string header = head.substr(preamble, header_len);
  NpyHeader h;
  h.data_offset = preamble + header_len;
  const std::string descr = npy_value(header, "descr", field);
  auto starts = [&](const char* s) { return descr.rfind(s, 0) == 0; };
  if (starts("'<f8'")) h.dtype = DType::F64;
  else if (starts("'<f4'")) h.dtype = DType::F32;
  else if (starts("'<f2'")) h.dtype = DType::F16;
  else
    throw InvalidArgument(field, field + ": .npy dtype must be little-endian float16, float32 or float64 (<f2, <f4, <f8), not " +
                                     descr.substr(0, std::min<size_t>(descr.find(','), 16)));
  if (npy_value(header, "fortran_order", field).rfind("False", 0) != 0)
    throw InvalidArgument(field, field + ": .npy in Fortran order; save a C-order array (np.ascontiguousarray)");
  const std::string shape = npy_value(header, "shape", field);
  if (shape.empty() || shape[0] != '(') throw InvalidArgument(field, field + ": malformed .npy shape");
  const auto close = shape.find(')');
  if (close == std::string::npos) throw InvalidArgument(field, field + ": malformed .npy shape");
  for (const std::string& item : split_list(shape.substr(1, close - 1), ',')) {
    const auto b = item.find_first_not_of(' ');
    if (b == std::string::npos) continue;
    const std::string digits = item.substr(b, item.find_last_not_of(' ') - b + 1);
    if (digits.empty() || digits.size() > 12 || digits.find_first_not_of("0123456789L") != std::string::npos)
      throw InvalidArgument(field, field + ": malformed .npy shape");
    h.shape.push_back(std::stoll(digits));
    if (h.shape.size() > 8) throw InvalidArgument(field, field + ": .npy has more than 8 dimensions");
  }
  h.count = element_count(h.shape, field);
  const uint64_t bytes = h.count * static_cast<uint64_t>(dtype_size(h.dtype));
  if (h.data_offset + bytes != total_size)
    throw InvalidArgument(field, field + ": .npy data is " + std::to_string(total_size - h.data_offset) +
                                     " bytes; the header's shape needs " + std::to_string(bytes));
  return h;
}

TensorData read_npy(const std::string& path, const std::string& field) {
  const uint64_t size = file_size(path, field);
  const std::string pre = read_range(path, 0, std::min<uint64_t>(size, 12), field);
  if (pre.size() < 10) throw InvalidArgument(field, field + ": not a .npy file (too short)");
  // The header length from the preamble, bounded before the header itself is read.
  const bool v1 = static_cast<unsigned char>(pre[6]) == 1;
  uint64_t header_len = 0;
  for (int i = 0; i < (v1 ? 2 : 4) && 8 + i < static_cast<int>(pre.size()); ++i)
    header_len |= static_cast<uint64_t>(static_cast<unsigned char>(pre[static_cast<size_t>(8 + i)])) << (8 * i);
  header_len = std::min<uint64_t>({header_len + (v1 ? 10 : 12), size, kMaxTensorHeaderBytes + 12});
  const std::string head = read_range(path, 0, header_len, field);
  const NpyHeader h = parse_npy_header(head, size, field);
  const std::string data = read_range(path, h.data_offset, size - h.data_offset, field);
  return {h.shape, decode(data.data(), h.count, h.dtype)};
}

// ---------------------------------------------------------------- .safetensors

TensorData read_safetensors(const std::string& path, const std::string& name, const std::string& default_name,
                            const std::string& field) {
  const uint64_t size = file_size(path, field);
  if (size < 8) throw InvalidArgument(field, field + ": not a .safetensors file (too short)");
  const std::string pre = read_range(path, 0, 8, field);
  uint64_t n = 0;
  for (int i = 0; i < 8; ++i) n |= static_cast<uint64_t>(static_cast<unsigned char>(pre[i])) << (8 * i);
  if (n > kMaxTensorHeaderBytes || 8 + n > size)
    throw InvalidArgument(field,
                          field + ": .safetensors header length " + std::to_string(n) + " exceeds the file or the 1 MiB limit");
  const std::string header_text = read_range(path, 8, n, field);
  // The header is a flat object of objects: depth beyond 4 is refused while parsing.
  const nlohmann::json header = parse_json_within_depth(header_text, 4, field, field + ": malformed .safetensors header JSON",
                                                        field + ": malformed .safetensors header");
  if (!header.is_object()) throw InvalidArgument(field, field + ": malformed .safetensors header");
  std::vector<std::string> names;
  for (const auto& [k, v] : header.items())
    if (k != "__metadata__") names.push_back(k);
  std::string chosen = name;
  if (chosen.empty()) {
    if (names.size() == 1) chosen = names[0];
    else if (!default_name.empty() && header.contains(default_name)) chosen = default_name;
    else {
      std::string list;
      for (size_t i = 0; i < names.size() && i < 20; ++i) list += (i ? ", " : "") + names[i].substr(0, 64);
      throw InvalidArgument(field, field + ": the .safetensors file holds " + std::to_string(names.size()) +
                                       " tensors; name one with --name (" + list + ")");
    }
  }
  if (!header.contains(chosen) || chosen == "__metadata__")
    throw InvalidArgument(field, field + ": no tensor '" + chosen.substr(0, 64) + "' in the .safetensors file");
  const nlohmann::json& t = header.at(chosen);
  if (!t.is_object() || !t.contains("dtype") || !t.contains("shape") || !t.contains("data_offsets") || !t["dtype"].is_string() ||
      !t["shape"].is_array() || !t["data_offsets"].is_array() || t["data_offsets"].size() != 2)
    throw InvalidArgument(field, field + ": malformed .safetensors entry for '" + chosen.substr(0, 64) + "'");
  const std::string dt = t["dtype"].get<std::string>();
  DType dtype;
  if (dt == "F64") dtype = DType::F64;
  else if (dt == "F32") dtype = DType::F32;
  else if (dt == "F16") dtype = DType::F16;
  else if (dt == "BF16") dtype = DType::BF16;
  else throw InvalidArgument(field, field + ": .safetensors dtype must be F16, BF16, F32 or F64, not " + dt.substr(0, 16));
  std::vector<int64_t> shape;
  for (const auto& d : t["shape"]) {
    if (!d.is_number_unsigned() && !d.is_number_integer()) throw InvalidArgument(field, field + ": malformed shape");
    shape.push_back(d.get<int64_t>());
    if (shape.size() > 8) throw InvalidArgument(field, field + ": more than 8 dimensions");
  }
  const uint64_t count = element_count(shape, field);
  const auto& off = t["data_offsets"];
  if (!off[0].is_number_unsigned() || !off[1].is_number_unsigned())
    throw InvalidArgument(field, field + ": malformed data_offsets");
  const uint64_t b = off[0].get<uint64_t>(), e = off[1].get<uint64_t>();
  const uint64_t bytes = count * static_cast<uint64_t>(dtype_size(dtype));
  if (e < b || e - b != bytes || e > size - 8 - n)
    throw InvalidArgument(field, field + ": data_offsets [" + std::to_string(b) + ", " + std::to_string(e) +
                                     "] disagree with the shape or the file size");
  const std::string data = read_range(path, 8 + n + b, bytes, field);
  return {shape, decode(data.data(), count, dtype)};
}

// ---------------------------------------------------------------- JSON and text

TensorData from_json(const nlohmann::json& j, const std::string& field) {
  TensorData t;
  if (j.is_number()) {
    t.values.push_back(j.get<double>());
    return t;
  }
  const std::string shape_msg = field + " must be a number, an array of numbers or an array of equal rows";
  if (!j.is_array()) throw InvalidArgument(field, shape_msg);
  if (j.empty() || !j[0].is_array()) {
    t.shape = {static_cast<int64_t>(j.size())};
    element_count(t.shape, field);
    for (const auto& v : j) {
      if (!v.is_number()) throw InvalidArgument(field, shape_msg);
      t.values.push_back(v.get<double>());
    }
    return t;
  }
  const size_t cols = j[0].size();
  t.shape = {static_cast<int64_t>(j.size()), static_cast<int64_t>(cols)};
  element_count(t.shape, field);
  t.values.reserve(j.size() * cols);
  for (const auto& row : j) {
    if (!row.is_array() || row.size() != cols) throw InvalidArgument(field, shape_msg);
    for (const auto& v : row) {
      if (!v.is_number()) throw InvalidArgument(field, shape_msg);
      t.values.push_back(v.get<double>());
    }
  }
  return t;
}

std::string read_text_file(const std::string& path, const std::string& field) {
  const uint64_t size = file_size(path, field);
  if (size > kMaxTensorTextBytes)
    throw InvalidArgument(field, field + " file is " + std::to_string(size) + " bytes; text tensors are limited to 256 MiB");
  return read_range(path, 0, size, field);
}

}  // namespace

TensorData parse_npy(const std::string& bytes, const std::string& field) {
  const NpyHeader h = parse_npy_header(bytes, bytes.size(), field);
  return {h.shape, decode(bytes.data() + h.data_offset, h.count, h.dtype)};
}

TensorData parse_tensor_text(const std::string& text, const std::string& field) {
  TensorData t;
  int64_t rows = 0, cols = -1, lineno = 0;
  for (std::string line : split_list(text, '\n')) {
    ++lineno;
    for (char& c : line)
      if (c == ',' || c == ';' || c == '\t' || c == '\r') c = ' ';
    const auto b = line.find_first_not_of(' ');
    if (b == std::string::npos || line[b] == '#') continue;
    int64_t n = 0;
    for (const std::string& tok : split_whitespace(line)) {
      char* end = nullptr;
      const double v = std::strtod(tok.c_str(), &end);
      if (end == tok.c_str() || *end != '\0')
        throw InvalidArgument(field,
                              field + ": line " + std::to_string(lineno) + ": '" + tok.substr(0, 32) + "' is not a number");
      t.values.push_back(v);
      ++n;
      if (static_cast<int64_t>(t.values.size()) > kMaxCells)
        throw InvalidArgument(field, field + ": the tensor has more than 2^24 elements");
    }
    if (cols >= 0 && n != cols)
      throw InvalidArgument(field, field + ": line " + std::to_string(lineno) + " has " + std::to_string(n) +
                                       " numbers; the first row has " + std::to_string(cols));
    cols = n;
    ++rows;
  }
  if (rows == 1) t.shape = {cols};
  else if (rows > 1) t.shape = {rows, cols};
  else t.shape = {0};
  return t;
}

TensorData read_tensor_file(const std::string& path, const std::string& name, const std::string& field,
                            const std::string& default_name) {
  if (ends_with(path, ".npy")) return read_npy(path, field);
  if (ends_with(path, ".safetensors")) return read_safetensors(path, name, default_name, field);
  const std::string text = read_text_file(path, field);
  if (ends_with(path, ".json")) {
    return from_json(parse_json_within_depth(text, 8, field, field + ": malformed JSON in '" + path + "'",
                                             field + ": JSON nested deeper than 8 levels"),
                     field);
  }
  return parse_tensor_text(text, field);
}

Matrix tensor_matrix(const TensorData& t, const std::string& field) {
  std::vector<int64_t> dims;
  for (size_t i = 0; i < t.shape.size(); ++i)
    if (t.shape[i] != 1 || t.shape.size() - i <= 2) dims.push_back(t.shape[i]);
  while (dims.size() > 2 && dims.front() == 1) dims.erase(dims.begin());
  if (dims.size() > 2) throw InvalidArgument(field, field + " must be a matrix (at most two dimensions larger than 1)");
  const Eigen::Index rows = dims.size() == 2 ? dims[0] : 1;
  const Eigen::Index cols = dims.empty() ? 1 : dims.back();
  if (static_cast<uint64_t>(rows) * static_cast<uint64_t>(cols) != t.values.size())
    throw InvalidArgument(field, field + ": shape and values disagree");
  Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = t.values[static_cast<size_t>(i)];
  return m;
}

}  // namespace posenc::model_io
