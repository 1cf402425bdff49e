// Reading a user's tensor from a file: NumPy .npy (float16/32/64, C order), .safetensors (F16, BF16, F32,
// F64), JSON (a number, an array, or an array of rows) or text (rows of numbers separated by whitespace or
// commas; '#' starts a comment line). Every header is bounded: shape and offsets are checked against the
// file's size before anything is allocated for the data. Errors are InvalidArgument naming `field`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/types.h"

namespace posenc::model_io {

// Largest text / JSON tensor file and largest .npy / .safetensors header accepted.
inline constexpr std::uint64_t kMaxTensorTextBytes = std::uint64_t{256} << 20;
inline constexpr std::uint64_t kMaxTensorHeaderBytes = std::uint64_t{1} << 20;

struct TensorData {
  std::vector<int64_t> shape;  // as stored (0 dims for a scalar)
  std::vector<double> values;  // row-major
};

// The tensor in `path`, chosen by extension (.npy, .safetensors, .json, anything else: text). `name` selects a
// safetensors tensor ("" = the only one, or the one named `default_name` when there are several). At most
// 2^24 elements.
TensorData read_tensor_file(const std::string& path, const std::string& name, const std::string& field,
                            const std::string& default_name = "");

// Parsers of bytes already in memory (the readers above use them after bounding the file).
TensorData parse_npy(const std::string& bytes, const std::string& field);
TensorData parse_tensor_text(const std::string& text, const std::string& field);

// The tensor as a matrix: leading dimensions of size 1 are dropped ((1, 1, n, d) -> n x d); a vector is
// 1 x n; a scalar 1 x 1. More than two dimensions of size > 1 throw.
Matrix tensor_matrix(const TensorData& t, const std::string& field);

}  // namespace posenc::model_io
