// The tensor readers' bounds and refusals: a safetensors file whose tensors do not tile its data exactly
// (trailing bytes, a gap, an overlap, a name given twice) is refused naming the field and saying which; .npy
// versions other than 1.0 / 2.0 / 3.0 are refused; a quoted token never cuts at a NUL (control bytes are
// escaped); text and JSON tensors are counted before anything is kept; heads of rows read as H x n x w; a
// PyTorch file is refused with what to write instead.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../common/tensor_files.h"
#include "model_io/tensor_file.h"

using namespace posenc;
using namespace posenc::model_io;
using posenc::test::SafetensorsEntry;

namespace {

std::string error_of(const std::string& bytes, const std::string& file_name) {
  try {
    parse_tensor_bytes(bytes, file_name, "", "actual");
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.field(), "actual");
    return e.what();
  }
  return "(no error)";
}

// Patches the first occurrence of `from` in the header with `to` (same length keeps the header length).
std::string patched(std::string bytes, const std::string& from, const std::string& to) {
  const auto at = bytes.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  bytes.replace(at, from.size(), to);
  return bytes;
}

}  // namespace

TEST(TensorFileBounds, SafetensorsDataMustBeTiledExactly) {
  const Matrix a = Matrix::Constant(2, 2, 1.0), b = Matrix::Constant(1, 2, 2.0);
  const std::vector<SafetensorsEntry> two = {{"a", a, {2, 2}, "F32"}, {"b", b, {1, 2}, "F32"}};
  // a: [0, 16], b: [16, 24]
  const std::string ok = posenc::test::safetensors_bytes(two);
  EXPECT_EQ(parse_tensor_bytes(ok, "t.safetensors", "b", "actual").values, (std::vector<double>{2, 2}));
  EXPECT_NE(error_of(posenc::test::safetensors_bytes(two, "xyz"), "t.safetensors").find("3 trailing bytes"), std::string::npos);
  // b starting at 20: a gap of 4 bytes before it (and its data past the end).
  std::string gap = patched(ok, "[16,24]", "[20,28]");
  EXPECT_NE(error_of(gap + "0000", "t.safetensors").find("a gap of 4 bytes"), std::string::npos)
      << error_of(gap, "t.safetensors");
  // b starting at 12: overlaps a.
  std::string overlap = patched(ok, "[16,24]", "[12,20]");
  EXPECT_NE(error_of(overlap, "t.safetensors").find("overlaps"), std::string::npos) << error_of(overlap, "t.safetensors");
  // The name "a" twice (the parser would keep the second one silently).
  std::string dup = patched(ok, "\"b\":", "\"a\":");
  EXPECT_NE(error_of(dup, "t.safetensors").find("names tensor 'a' twice"), std::string::npos) << error_of(dup, "t.safetensors");
}

TEST(TensorFileBounds, NpyVersionsOtherThanOneTwoThreeAreRefused) {
  const Matrix m = Matrix::Constant(1, 2, 0.5);
  const std::string dir = testing::TempDir();
  for (auto [major, minor, ok] : {std::tuple{1, 0, true}, {2, 0, true}, {3, 0, true}, {1, 1, false}, {4, 0, false}}) {
    const std::string f = dir + "v.npy";
    posenc::test::write_npy(f, m, "<f8", {2}, "", static_cast<char>(major), static_cast<char>(minor));
    std::string what;
    try {
      read_tensor_file(f, "", "actual");
    } catch (const InvalidArgument& e) { what = e.what(); }
    if (ok) {
      EXPECT_EQ(what, "") << major << "." << minor;
    } else {
      EXPECT_NE(what.find("unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor)),
                std::string::npos)
          << what;
    }
    std::remove(f.c_str());
  }
}

TEST(TensorFileBounds, MessagesEscapeControlBytes) {
  const std::string what = error_of(std::string("1 2\n3 \0x\n", 9), "t.txt");
  EXPECT_NE(what.find("'\\x00x' is not a number"), std::string::npos) << what;
  EXPECT_EQ(what.find('\0'), std::string::npos);
}

TEST(TensorFileBounds, TextAndJsonAreCountedBeforeAnythingIsKept) {
  // 2^24 + 1 zeros on one line: refused while counting.
  std::string big;
  big.reserve((std::size_t{1} << 25) + 4);
  for (int64_t i = 0; i <= (int64_t{1} << 24); ++i) big += "0 ";
  EXPECT_NE(error_of(big, "t.txt").find("more than 2^24"), std::string::npos);
  // Rows of different lengths, heads of rows.
  EXPECT_NE(error_of("[[1, 2], [3]]", "t.json").find("different lengths"), std::string::npos);
  const TensorData h = parse_tensor_bytes("[[[1, 2], [3, 4], [5, 6]], [[7, 8], [9, 10], [11, 12]]]", "t.json", "", "actual");
  EXPECT_EQ(h.shape, (std::vector<int64_t>{2, 3, 2}));
  int heads = 0;
  const Matrix m = tensor_matrix(h, "actual", &heads);
  EXPECT_EQ(heads, 2);
  EXPECT_EQ(m.rows(), 6);
  EXPECT_EQ(m(5, 1), 12.0);
  EXPECT_NE(error_of("[[1, \"x\"]]", "t.json").find("string"), std::string::npos);
  // Rows end at ';' in the request's text, not in a file's.
  EXPECT_EQ(parse_tensor_text("1 2; 3 4", "actual", true).shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(parse_tensor_text("1 2; 3 4", "actual").shape, (std::vector<int64_t>{4}));
}

TEST(TensorFileBounds, PytorchFilesAreRefusedWithAdvice) {
  for (const auto& [bytes, name] : {std::pair<std::string, std::string>{"PK\x03\x04zip...", "cos.pt"},
                                    {"PK\x03\x04zip...", "cos.bin"},
                                    {"\x80\x02pickle", "cos.pth"}}) {
    const std::string what = error_of(bytes, name);
    EXPECT_NE(what.find("PyTorch"), std::string::npos) << what;
    EXPECT_NE(what.find(".npy"), std::string::npos);
    EXPECT_NE(what.find(".safetensors"), std::string::npos);
  }
}
