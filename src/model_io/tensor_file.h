// A user's tensor from the bytes of a file or from pasted text, as a row-major double matrix: NumPy .npy
// (float16 / float32 / float64, little-endian, C order) and text (whitespace / comma separated rows, or
// JSON-style nested arrays). Both are bounded before anything is allocated: a .npy header's shape is
// checked against the file's size, text against its length; at most kMaxTensorElements numbers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/types.h"

namespace posenc::model_io {

inline constexpr std::size_t kMaxTensorElements = std::size_t{1} << 24;
inline constexpr std::size_t kMaxNpyHeaderBytes = std::size_t{1} << 16;

// True when the bytes start with the .npy magic ("\x93NUMPY").
bool is_npy(std::span<const uint8_t> bytes);

// A .npy file's array: shape () -> 1 x 1, (n,) -> 1 x n, (r, c) -> r x c; more dimensions only when all
// but the last two are 1 (a batch of one). Throws InvalidArgument(field, ...) naming what is wrong (magic,
// version, header, dtype, fortran_order, shape, size).
Matrix read_npy(std::span<const uint8_t> bytes, const std::string& field);

// Text: with brackets, each innermost [...] is a row ("[1, 2, 3]" is 1 x 3, "[[1,2],[3,4]]" is 2 x 2);
// without, each non-empty line is a row of numbers separated by spaces, tabs or commas, and ';' also ends a
// row ("1 2; 3 4" is 2 x 2; '#' starts a comment to the line's end, as numpy.savetxt writes its header). Every row the same length, every
// number finite. Throws InvalidArgument(field, ...) naming the row and column of a bad entry.
Matrix parse_tensor_text(std::string_view text, const std::string& field);

// Row-major text of a matrix (one row per line, numbers separated by spaces, shortest round-trip form).
std::string tensor_text(const Matrix& m);

}  // namespace posenc::model_io
