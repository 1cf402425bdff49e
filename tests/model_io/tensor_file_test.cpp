// Tensor files for posenc check: .npy bytes built here (NumPy format 1.0), text rows, and the squeeze to a
// matrix; every malformed header is an InvalidArgument naming the field before any data is allocated.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "model_io/tensor_file.h"

using namespace posenc;
using namespace posenc::model_io;

namespace {

std::string npy(const std::string& descr, const std::string& shape, const std::string& data,
                const std::string& fortran = "False") {
  std::string header = "{'descr': '" + descr + "', 'fortran_order': " + fortran + ", 'shape': " + shape + ", }";
  while ((10 + header.size() + 1) % 64) header += ' ';
  header += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(header.size() & 0xFF);
  out += static_cast<char>(header.size() >> 8);
  return out + header + data;
}

std::string field_of(const std::string& bytes) {
  try {
    parse_npy(bytes, "actual");
  } catch (const InvalidArgument& e) { return e.field(); }
  return "(no error)";
}

}  // namespace

TEST(TensorFile, NpyFloat16And32AndShape) {
  // float16 1.0 = 0x3C00, -2.0 = 0xC000, 0.5 = 0x3800, 2^-24 (smallest subnormal) = 0x0001.
  const std::string h = std::string("\x00\x3C\x00\xC0\x00\x38\x01\x00", 8);
  const TensorData t = parse_npy(npy("<f2", "(2, 2)", h), "actual");
  ASSERT_EQ(t.shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(t.values, (std::vector<double>{1.0, -2.0, 0.5, 0x1p-24}));
  const float f[3] = {0.25f, -1.5f, 3.0f};
  const TensorData t32 = parse_npy(npy("<f4", "(3,)", std::string(reinterpret_cast<const char*>(f), 12)), "actual");
  EXPECT_EQ(t32.shape, (std::vector<int64_t>{3}));
  EXPECT_EQ(t32.values, (std::vector<double>{0.25, -1.5, 3.0}));
  const Matrix m = tensor_matrix(t32, "actual");
  EXPECT_EQ(m.rows(), 1);
  EXPECT_EQ(m.cols(), 3);
}

TEST(TensorFile, NpyHeadersAreCheckedAgainstTheSize) {
  const std::string eight(8, '\0');
  EXPECT_EQ(field_of(npy("<f8", "(2,)", eight)), "actual");                // data shorter than the shape
  EXPECT_EQ(field_of(npy("<f8", "(1000000, 1000000)", eight)), "actual");  // 10^12 elements: refused, not allocated
  EXPECT_EQ(field_of(npy("<f8", "(9223372036854775807, 4)", eight)), "actual");
  EXPECT_EQ(field_of(npy(">f8", "(1,)", eight)), "actual");          // big-endian
  EXPECT_EQ(field_of(npy("<i8", "(1,)", eight)), "actual");          // not a float
  EXPECT_EQ(field_of(npy("<f8", "(1,)", eight, "True")), "actual");  // Fortran order
  EXPECT_EQ(field_of("not a npy file"), "actual");
  std::string lying = npy("<f8", "(1,)", eight);
  lying[8] = '\xFF';  // header length past the end
  lying[9] = '\xFF';
  EXPECT_EQ(field_of(lying), "actual");
  EXPECT_EQ(field_of(npy("<f8", "(1,)", eight)), "(no error)");
}

TEST(TensorFile, TextRowsAndSqueeze) {
  const TensorData t = parse_tensor_text("# cos\n1, 2, 3\n4 5 6\n\n", "actual");
  EXPECT_EQ(t.shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(t.values, (std::vector<double>{1, 2, 3, 4, 5, 6}));
  EXPECT_THROW(parse_tensor_text("1 2 3\n4 5\n", "actual"), InvalidArgument);
  EXPECT_THROW(parse_tensor_text("1 2 x\n", "actual"), InvalidArgument);
  TensorData four{{1, 1, 2, 3}, {1, 2, 3, 4, 5, 6}};
  const Matrix m = tensor_matrix(four, "actual");
  EXPECT_EQ(m.rows(), 2);
  EXPECT_EQ(m(1, 2), 6.0);
  TensorData cube{{2, 3, 1}, {1, 2, 3, 4, 5, 6}};
  EXPECT_THROW(tensor_matrix(cube, "actual"), InvalidArgument);  // only leading 1s drop: 2 x 3 x 1 is no matrix
}

namespace {

// The message of parse_tensor_text's error (its field must be `actual`), or "(read)".
std::string text_error(const std::string& text) {
  try {
    parse_tensor_text(text, "actual");
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.field(), "actual") << text;
    return e.what();
  }
  return "(read)";
}

}  // namespace

TEST(TensorFile, TextNumbersFollowOneGrammar) {
  // Accepted as written: a leading '+', a trailing or leading point, exponents, inf / nan words.
  const TensorData t = parse_tensor_text("+5 5. .5 -2.5e-3 1E+2 +0.0 -inf NaN", "actual");
  ASSERT_EQ(t.values.size(), 8u);
  EXPECT_EQ(t.values[0], 5.0);
  EXPECT_EQ(t.values[1], 5.0);
  EXPECT_EQ(t.values[2], 0.5);
  EXPECT_EQ(t.values[3], -2.5e-3);
  EXPECT_EQ(t.values[4], 100.0);
  EXPECT_EQ(t.values[5], 0.0);
  EXPECT_TRUE(std::isinf(t.values[6]) && t.values[6] < 0);
  EXPECT_TRUE(std::isnan(t.values[7]));
  // Refused naming the token, never changed: a value float64 cannot hold as written, hexadecimal, a NUL.
  EXPECT_EQ(text_error("1 1e-400\n"), "actual: line 1: '1e-400' is below float64's normal range, 2.2e-308 (it would read as 0)");
  EXPECT_EQ(text_error("1e-310"),
            "actual: line 1: '1e-310' is below float64's normal range, 2.2e-308 (it would read as a subnormal)");
  EXPECT_EQ(text_error("0\n1e400"), "actual: line 2: '1e400' is beyond float64's range (it would read as infinity)");
  EXPECT_EQ(text_error(std::string("1\0junk 2", 8)), "actual: line 1: '1\\x00junk' is not a number (it holds a NUL byte)");
  EXPECT_EQ(text_error("0x1p3"), "actual: line 1: '0x1p3' is not a number");
  EXPECT_EQ(text_error("++5"), "actual: line 1: '++5' is not a number");
  EXPECT_EQ(text_error("."), "actual: line 1: '.' is not a number");
  EXPECT_EQ(text_error("5e"), "actual: line 1: '5e' is not a number (an exponent without digits)");
  EXPECT_EQ(text_error("0e-400 0.000e999"), "(read)");  // zero written as zero stays zero
}

// Text that starts with '[' (after blanks) is JSON, in memory and in a text file alike; the rows form
// never starts so.
TEST(TensorFile, JsonWrittenAsTextReadsAsJson) {
  const TensorData t = parse_tensor_text(" \n[[1, 2.5], [3, -4e-3]]", "actual");
  EXPECT_EQ(t.shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(t.values, (std::vector<double>{1, 2.5, 3, -4e-3}));
  EXPECT_EQ(parse_tensor_text("[[[1, 2]], [[3, 4]]]", "actual").shape, (std::vector<int64_t>{2, 1, 2}));
  EXPECT_EQ(text_error("[[1, 2], [3]]"), "actual: the JSON tensor has rows (or heads) of different lengths");
  EXPECT_EQ(text_error("[1 2]"), "actual: the JSON tensor is not valid JSON");
  EXPECT_EQ(parse_tensor_bytes("[0.5, 0.25]", "cos.txt", "", "actual").values, (std::vector<double>{0.5, 0.25}));
}
