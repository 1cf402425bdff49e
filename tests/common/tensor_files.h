// Tensor files written by the tests (no committed binaries): NumPy .npy (numpy/lib/format.py: magic,
// version, header dict padded to a multiple of 64, the data) and safetensors (u64 header length, JSON header
// {name: {dtype, shape, data_offsets}}, the data).
#pragma once

#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "core/types.h"

namespace posenc::test {

// The shape of m as written: (rows, cols), or (heads, rows / heads, cols) when heads > 0, or (size,) for a
// vector.
inline std::vector<int64_t> file_shape(const Matrix& m, int heads = 0, bool vector = false) {
  if (vector) return {static_cast<int64_t>(m.size())};
  if (heads > 0) return {heads, static_cast<int64_t>(m.rows() / heads), static_cast<int64_t>(m.cols())};
  return {static_cast<int64_t>(m.rows()), static_cast<int64_t>(m.cols())};
}

inline std::string npy_shape_text(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

inline void append_values(std::string& data, const Matrix& m, bool f32) {
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    if (f32) {
      const float v = static_cast<float>(m.data()[i]);
      data.append(reinterpret_cast<const char*>(&v), 4);
    } else {
      const double v = m.data()[i];
      data.append(reinterpret_cast<const char*>(&v), 8);
    }
  }
}

// descr "<f4" or "<f8"; `shape_text` overrides the shape written (e.g. "(1, 512, 128)" or a lie).
inline void write_npy(const std::string& path, const Matrix& m, const std::string& descr, const std::vector<int64_t>& shape,
                      const std::string& shape_text = "", char major = 1, char minor = 0) {
  std::string header = "{'descr': '" + descr +
                       "', 'fortran_order': False, 'shape': " + (shape_text.empty() ? npy_shape_text(shape) : shape_text) + ", }";
  const size_t pre = major == 1 ? 10 : 12;
  while ((pre + header.size() + 1) % 64) header += ' ';
  header += '\n';
  std::string out = "\x93NUMPY";
  out += major;
  out += minor;
  const uint32_t len = static_cast<uint32_t>(header.size());
  for (size_t i = 0; i < pre - 8; ++i) out += static_cast<char>((len >> (8 * i)) & 0xFF);
  out += header;
  append_values(out, m, descr == "<f4");
  std::ofstream(path, std::ios::binary) << out;
}

struct SafetensorsEntry {
  std::string name;
  Matrix m;
  std::vector<int64_t> shape;
  std::string dtype = "F64";  // F64 or F32
};

// The header JSON written by hand (no JSON library here); `extra` is appended after the data (trailing bytes).
inline std::string safetensors_bytes(const std::vector<SafetensorsEntry>& tensors, const std::string& extra = "") {
  std::string header = "{", data;
  for (const SafetensorsEntry& t : tensors) {
    const size_t begin = data.size();
    append_values(data, t.m, t.dtype == "F32");
    std::string shape;
    for (size_t i = 0; i < t.shape.size(); ++i) shape += (i ? "," : "") + std::to_string(t.shape[i]);
    header += (header.size() > 1 ? "," : "") + std::string("\"") + t.name + "\":{\"dtype\":\"" + t.dtype + "\",\"shape\":[" +
              shape + "],\"data_offsets\":[" + std::to_string(begin) + "," + std::to_string(data.size()) + "]}";
  }
  header += "}";
  std::string out(8, '\0');
  const uint64_t n = header.size();
  std::memcpy(out.data(), &n, 8);
  return out + header + data + extra;
}

inline void write_safetensors(const std::string& path, const std::vector<SafetensorsEntry>& tensors,
                              const std::string& extra = "") {
  std::ofstream(path, std::ios::binary) << safetensors_bytes(tensors, extra);
}

}  // namespace posenc::test
