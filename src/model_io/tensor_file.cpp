#include "model_io/tensor_file.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace posenc::model_io {
namespace {

constexpr unsigned char kNpyMagic[] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

uint32_t read_le(std::span<const uint8_t> b, std::size_t at, int bytes) {
  uint32_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | b[at + std::size_t(i)];
  return v;
}

// IEEE binary16 -> double (subnormals, infinities and NaN included).
double half_to_double(uint16_t h) {
  const int sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, frac = h & 0x3ff;
  double v;
  if (exp == 0) v = std::ldexp(double(frac), -24);
  else if (exp == 31) v = frac ? NAN : INFINITY;
  else v = std::ldexp(double(frac | 0x400), exp - 25);
  return sign ? -v : v;
}

// The value of `key` in the header's Python dict literal: the text after "'key':" up to its end (a quoted
// string, a parenthesised tuple, or a bare word).
std::string header_value(const std::string& header, const std::string& key, const std::string& field) {
  const std::string quoted[] = {"'" + key + "'", "\"" + key + "\""};
  std::size_t at = std::string::npos;
  for (const std::string& q : quoted)
    if ((at = header.find(q)) != std::string::npos) {
      at += q.size();
      break;
    }
  if (at == std::string::npos) throw InvalidArgument(field, "the .npy header has no '" + key + "'");
  at = header.find(':', at);
  if (at == std::string::npos) throw InvalidArgument(field, "the .npy header's '" + key + "' has no value");
  ++at;
  while (at < header.size() && header[at] == ' ') ++at;
  if (at >= header.size()) throw InvalidArgument(field, "the .npy header's '" + key + "' has no value");
  const char open = header[at];
  if (open == '\'' || open == '"') {
    const std::size_t end = header.find(open, at + 1);
    if (end == std::string::npos) throw InvalidArgument(field, "the .npy header's '" + key + "' is not closed");
    return header.substr(at + 1, end - at - 1);
  }
  if (open == '(') {
    const std::size_t end = header.find(')', at);
    if (end == std::string::npos) throw InvalidArgument(field, "the .npy header's '" + key + "' is not closed");
    return header.substr(at, end - at + 1);
  }
  std::size_t end = at;
  while (end < header.size() && header[end] != ',' && header[end] != '}') ++end;
  std::string v = header.substr(at, end - at);
  while (!v.empty() && v.back() == ' ') v.pop_back();
  return v;
}

// "(3, 4)" -> {3, 4}; "()" -> {}; each extent checked so the product stays within kMaxTensorElements.
std::vector<std::size_t> parse_shape(const std::string& tuple, const std::string& field) {
  std::vector<std::size_t> dims;
  std::size_t i = 1, product = 1;
  while (i < tuple.size() && tuple[i] != ')') {
    if (tuple[i] == ' ' || tuple[i] == ',') {
      ++i;
      continue;
    }
    if (tuple[i] < '0' || tuple[i] > '9')
      throw InvalidArgument(field, "the .npy shape " + tuple.substr(0, 64) + " is not a tuple of integers");
    std::size_t v = 0;
    while (i < tuple.size() && tuple[i] >= '0' && tuple[i] <= '9') {
      v = v * 10 + std::size_t(tuple[i] - '0');
      if (v > kMaxTensorElements)
        throw InvalidArgument(field, "the .npy shape " + tuple.substr(0, 64) + " has more than 2^24 elements");
      ++i;
    }
    // A zero extent makes an empty array: reject it rather than let the product hide a huge extent.
    if (v == 0) throw InvalidArgument(field, "the .npy array is empty (shape " + tuple.substr(0, 64) + ")");
    product *= v;
    if (product > kMaxTensorElements)
      throw InvalidArgument(field, "the .npy shape " + tuple.substr(0, 64) + " has more than 2^24 elements");
    dims.push_back(v);
    if (dims.size() > 32) throw InvalidArgument(field, "the .npy shape has more than 32 dimensions");
  }
  return dims;
}

std::string shortest(double v) {
  char buf[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

}  // namespace

bool is_npy(std::span<const uint8_t> bytes) {
  return bytes.size() >= sizeof kNpyMagic && std::memcmp(bytes.data(), kNpyMagic, sizeof kNpyMagic) == 0;
}

Matrix read_npy(std::span<const uint8_t> bytes, const std::string& field) {
  if (!is_npy(bytes)) throw InvalidArgument(field, "not a .npy file (it does not start with \\x93NUMPY)");
  if (bytes.size() < 10) throw InvalidArgument(field, "the .npy file ends inside its preamble");
  const int major = bytes[6];
  if (major < 1 || major > 3)
    throw InvalidArgument(field, ".npy format version " + std::to_string(major) + " is not 1, 2 or 3");
  const int len_bytes = major == 1 ? 2 : 4;
  const std::size_t start = 8 + std::size_t(len_bytes);
  if (bytes.size() < start) throw InvalidArgument(field, "the .npy file ends inside its preamble");
  const std::size_t header_len = read_le(bytes, 8, len_bytes);
  if (header_len > kMaxNpyHeaderBytes)
    throw InvalidArgument(field, "the .npy header is " + std::to_string(header_len) + " bytes; the limit is 64 KiB");
  if (header_len > bytes.size() - start)
    throw InvalidArgument(field, "the .npy header (" + std::to_string(header_len) + " bytes) runs past the file's end");
  const std::string header(reinterpret_cast<const char*>(bytes.data() + start), header_len);

  const std::string descr = header_value(header, "descr", field);
  if (descr.size() != 3 || (descr[0] != '<' && descr[0] != '=' && descr[0] != '|') || descr[1] != 'f' ||
      (descr[2] != '2' && descr[2] != '4' && descr[2] != '8'))
    throw InvalidArgument(field, "the .npy dtype '" + descr.substr(0, 32) +
                                     "' is not little-endian float16, float32 or float64 (<f2, <f4, <f8)");
  const std::size_t item = std::size_t(descr[2] - '0');
  const std::string fortran = header_value(header, "fortran_order", field);
  if (fortran != "False")
    throw InvalidArgument(field, "the .npy array is in Fortran order; save it in C order (numpy.ascontiguousarray)");
  const std::string shape_text = header_value(header, "shape", field);
  if (shape_text.empty() || shape_text[0] != '(')
    throw InvalidArgument(field, "the .npy shape '" + shape_text.substr(0, 64) + "' is not a tuple");
  std::vector<std::size_t> dims = parse_shape(shape_text, field);
  for (std::size_t k = 0; k + 2 < dims.size(); ++k)
    if (dims[k] != 1)
      throw InvalidArgument(field, "the .npy array has shape " + shape_text.substr(0, 64) +
                                       ": only the last two dimensions may be larger than 1");
  const std::size_t rows = dims.size() >= 2 ? dims[dims.size() - 2] : 1;
  const std::size_t cols = dims.empty() ? 1 : dims.back();
  const std::size_t count = rows * cols;
  const std::size_t data_at = start + header_len;
  if (bytes.size() - data_at != count * item)
    throw InvalidArgument(field, "the .npy shape " + shape_text.substr(0, 64) + " of " + std::to_string(item) +
                                     "-byte floats needs " + std::to_string(count * item) + " data bytes; the file has " +
                                     std::to_string(bytes.size() - data_at));

  Matrix m(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
  const uint8_t* p = bytes.data() + data_at;
  for (std::size_t i = 0; i < count; ++i, p += item) {
    double v;
    if (item == 2) {
      v = half_to_double(uint16_t(p[0] | (p[1] << 8)));
    } else if (item == 4) {
      uint32_t u = 0;
      for (int b = 3; b >= 0; --b) u = (u << 8) | p[b];
      float f;
      std::memcpy(&f, &u, 4);
      v = f;
    } else {
      uint64_t u = 0;
      for (int b = 7; b >= 0; --b) u = (u << 8) | p[b];
      std::memcpy(&v, &u, 8);
    }
    m.data()[i] = v;
  }
  return m;
}

Matrix parse_tensor_text(std::string_view text, const std::string& field) {
  // A number takes at least two characters with its separator, so the length bounds the count up front.
  if (text.size() > 2 * kMaxTensorElements * 12)
    throw InvalidArgument(field, "the text is " + std::to_string(text.size()) + " characters; the limit is 384 MiB");
  const bool bracketed = text.find('[') != std::string_view::npos;
  std::vector<double> values;
  std::vector<std::size_t> row_ends;  // values.size() at the end of each row
  int depth = 0;
  std::size_t line = 1;
  bool comment = false;
  auto end_row = [&] {
    const std::size_t begin = row_ends.empty() ? 0 : row_ends.back();
    if (values.size() > begin) row_ends.push_back(values.size());
  };
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      comment = false;
      if (!bracketed) end_row();
      ++i;
      continue;
    }
    if (comment) {
      ++i;
      continue;
    }
    if (c == '#') {
      comment = true;
      ++i;
      continue;
    }
    if (c == '[') {
      ++depth;
      ++i;
      continue;
    }
    if (c == ']') {
      if (depth == 0) throw InvalidArgument(field, "line " + std::to_string(line) + ": ']' without '['");
      end_row();
      --depth;
      ++i;
      continue;
    }
    if (c == ';' && !bracketed) {  // "1 2; 3 4": rows on one line (a URL carries no newline)
      end_row();
      ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == ',' || c == ';') {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && std::strchr(" \t\r\n,;[]#", text[j]) == nullptr) ++j;
    const std::string token(text.substr(i, std::min<std::size_t>(j - i, 64)));
    char* end = nullptr;
    const double v = std::strtod(token.c_str(), &end);
    const std::size_t row = row_ends.size() + 1, col = values.size() - (row_ends.empty() ? 0 : row_ends.back()) + 1;
    if (j - i > 64 || end != token.c_str() + token.size())
      throw InvalidArgument(field, "row " + std::to_string(row) + ", column " + std::to_string(col) + ": \"" +
                                       token.substr(0, 32) + "\" is not a number");
    if (!std::isfinite(v))
      throw InvalidArgument(field, "row " + std::to_string(row) + ", column " + std::to_string(col) + ": " + token +
                                       " is not finite");
    if (values.size() >= kMaxTensorElements)
      throw InvalidArgument(field, "more than 2^24 numbers");
    values.push_back(v);
    i = j;
  }
  if (depth != 0) throw InvalidArgument(field, "a '[' is not closed");
  end_row();
  if (values.empty()) throw InvalidArgument(field, "no numbers");
  const std::size_t cols = row_ends.front();
  for (std::size_t r = 1; r < row_ends.size(); ++r)
    if (row_ends[r] - row_ends[r - 1] != cols)
      throw InvalidArgument(field, "row " + std::to_string(r + 1) + " has " + std::to_string(row_ends[r] - row_ends[r - 1]) +
                                       " numbers; row 1 has " + std::to_string(cols));
  Matrix m(static_cast<Eigen::Index>(row_ends.size()), static_cast<Eigen::Index>(cols));
  std::memcpy(m.data(), values.data(), values.size() * sizeof(double));
  return m;
}

std::string tensor_text(const Matrix& m) {
  std::string out;
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    for (Eigen::Index c = 0; c < m.cols(); ++c) out += (c ? " " : "") + shortest(m(r, c));
    out += '\n';
  }
  return out;
}

}  // namespace posenc::model_io
