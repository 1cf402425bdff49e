// Reading a user's tensor: NumPy .npy (format 1.0, 2.0, 3.0; float16/32/64, little-endian, C order),
// .safetensors (F16, BF16, F32, F64), JSON (a number, an array, an array of rows, an array of heads of rows)
// or text (rows of numbers separated by whitespace, commas or semicolons; '#' starts a comment line).
// Bounded before anything is built: .npy / .safetensors headers are checked against the size (a
// safetensors file's data must be tiled exactly by its tensors: no trailing bytes, gaps, overlaps or
// duplicate names); text and JSON are read twice, streaming, the first time only counting (at most 2^24
// numbers), so a refused tensor never holds its values. A PyTorch .pt / .pth file (torch.save's zip of
// pickles) is refused naming what to write instead. Errors are InvalidArgument naming `field`, their
// quotes with control bytes escaped (\x00).
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

// The tensor in `path`, by extension (.npy, .safetensors, .json, .pt / .pth refused, anything else: text) or
// by its first bytes (NumPy magic, a zip or pickle). `name` selects a safetensors tensor ("" = the only
// one, or the one named `default_name` when there are several). At most 2^24 elements.
TensorData read_tensor_file(const std::string& path, const std::string& name, const std::string& field,
                            const std::string& default_name = "");

// The same for bytes already in memory (a file dropped on the page), `file_name` choosing as the extension
// does.
TensorData parse_tensor_bytes(const std::string& bytes, const std::string& file_name, const std::string& name,
                              const std::string& field);

// Parsers of bytes already in memory. parse_tensor_text: `semicolon_rows` ends a row at ';' too (the check
// request's and the Check view's text, where rows travel as "1 2; 3 4"); in files ';' separates numbers.
// A text (or a text file) whose first byte that is not blank is '[' is read as JSON, as a .json file is.
TensorData parse_npy(const std::string& bytes, const std::string& field);
TensorData parse_tensor_text(const std::string& text, const std::string& field, bool semicolon_rows = false);

// The tensor as a matrix: leading dimensions of size 1 are dropped ((1, 1, n, d) -> n x d); a vector is
// 1 x n; a scalar 1 x 1. More than two dimensions of size > 1 throw, unless `heads` is given: then three
// ((1, H, n, d) -> H x n x d) give the H blocks of n rows stacked, and *heads = H (else 0).
Matrix tensor_matrix(const TensorData& t, const std::string& field, int* heads = nullptr);

}  // namespace posenc::model_io
