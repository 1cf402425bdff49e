// The tensor readers of the Check view and window.posenc.check (model_io/tensor_file.h, check_json.h):
// .npy bytes written here by the format's rules (numpy/lib/format.py: magic, version, little-endian header
// length, a Python dict literal padded to 64 bytes with '\n', then the data), text in its accepted forms,
// and the check request / response. Native builds only: model_io and nlohmann-json reach the unit tests
// through posenc_cli (POSENC_HAVE_EVAL), not under emcc.
#include <gtest/gtest.h>

#ifdef POSENC_HAVE_EVAL

#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/analysis/rope_check.h"
#include "core/types.h"
#include "model_io/check_json.h"
#include "model_io/tensor_file.h"

using posenc::InvalidArgument;
using posenc::Matrix;
namespace mio = posenc::model_io;

namespace {

// A version-1 .npy file: header dict padded with spaces and '\n' so the data starts at a multiple of 64.
std::vector<uint8_t> npy(const std::string& dict, const std::vector<uint8_t>& data, int version = 1) {
  const std::size_t pre = version == 1 ? 10 : 12;
  std::string header = dict;
  while ((pre + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::vector<uint8_t> out = {0x93, 'N', 'U', 'M', 'P', 'Y', uint8_t(version), 0};
  const std::size_t len = header.size();
  out.push_back(uint8_t(len & 0xff));
  out.push_back(uint8_t(len >> 8));
  if (version != 1) out.push_back(0), out.push_back(0);
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

template <class T>
std::vector<uint8_t> bytes_of(const std::vector<T>& v) {
  std::vector<uint8_t> out(v.size() * sizeof(T));
  std::memcpy(out.data(), v.data(), out.size());  // the test machines are little-endian, as .npy '<'
  return out;
}

std::string field_of(auto&& f) {
  try {
    f();
  } catch (const InvalidArgument& e) {
    return e.field() + ": " + e.what();
  }
  return "(no error)";
}

}  // namespace

TEST(NpyReader, Float32And64InCOrder) {
  const auto f4 = npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
                      bytes_of(std::vector<float>{1, 2, 3, 4, 5, 0.1f}));
  const Matrix a = mio::read_npy(f4, "tensor");
  ASSERT_EQ(a.rows(), 2);
  ASSERT_EQ(a.cols(), 3);
  EXPECT_EQ(a(0, 2), 3.0);
  EXPECT_EQ(a(1, 0), 4.0);
  EXPECT_EQ(a(1, 2), double(0.1f));  // the float32 value exactly, not 0.1
  const auto f8 = npy("{'descr': '<f8', 'fortran_order': False, 'shape': (4,), }",
                      bytes_of(std::vector<double>{0.1, -2, 3e-300, 7}), 2);
  const Matrix b = mio::read_npy(f8, "tensor");
  ASSERT_EQ(b.rows(), 1);
  ASSERT_EQ(b.cols(), 4);
  EXPECT_EQ(b(0, 0), 0.1);
  EXPECT_EQ(b(0, 2), 3e-300);
  // A batch of one in front: (1, 2, 2) is 2 x 2.
  const auto batch = npy("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 2, 2), }",
                         bytes_of(std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(mio::read_npy(batch, "tensor").rows(), 2);
}

TEST(NpyReader, Float16BitPatterns) {
  // IEEE binary16: 0x3c00 = 1, 0xc000 = -2, 0x7bff = 65504 (largest), 0x0001 = 2^-24 (smallest subnormal),
  // 0x3555 = 0.333251953125.
  const auto f2 = npy("{'descr': '<f2', 'fortran_order': False, 'shape': (5,), }",
                      bytes_of(std::vector<uint16_t>{0x3c00, 0xc000, 0x7bff, 0x0001, 0x3555}));
  const Matrix m = mio::read_npy(f2, "tensor");
  EXPECT_EQ(m(0, 0), 1.0);
  EXPECT_EQ(m(0, 1), -2.0);
  EXPECT_EQ(m(0, 2), 65504.0);
  EXPECT_EQ(m(0, 3), std::ldexp(1.0, -24));
  EXPECT_EQ(m(0, 4), 0.333251953125);
}

TEST(NpyReader, BadFilesAreRefusedBeforeAllocating) {
  const auto data = bytes_of(std::vector<float>{1, 2});
  // A shape far larger than the file: refused from the header (no 10^12-element allocation).
  EXPECT_NE(field_of([&] { mio::read_npy(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1000000, 1000000), }", data), "tensor"); })
                .find("more than 2^24 elements"),
            std::string::npos);
  // A shape that disagrees with the data's size.
  EXPECT_NE(field_of([&] { mio::read_npy(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", data), "tensor"); })
                .find("needs 12 data bytes; the file has 8"),
            std::string::npos);
  EXPECT_NE(field_of([&] { mio::read_npy(npy("{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }", data), "tensor"); })
                .find("'<i4' is not little-endian float16"),
            std::string::npos);
  EXPECT_NE(field_of([&] { mio::read_npy(npy("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", data), "tensor"); })
                .find("not little-endian"),
            std::string::npos);
  EXPECT_NE(field_of([&] { mio::read_npy(npy("{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }", data), "tensor"); })
                .find("Fortran order"),
            std::string::npos);
  EXPECT_NE(field_of([&] { mio::read_npy(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 1, 1), }", data), "tensor"); })
                .find("only the last two dimensions"),
            std::string::npos);
  // A header length past the file's end, and a header over 64 KiB.
  auto cut = npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", data);
  cut.resize(40);
  EXPECT_EQ(field_of([&] { mio::read_npy(cut, "tensor"); }).rfind("tensor: ", 0), 0u);
  std::vector<uint8_t> huge = {0x93, 'N', 'U', 'M', 'P', 'Y', 2, 0, 0, 0, 0, 1};  // header_len 2^24
  EXPECT_NE(field_of([&] { mio::read_npy(huge, "tensor"); }).find("the limit is 64 KiB"), std::string::npos);
  EXPECT_NE(field_of([&] { mio::read_npy(std::vector<uint8_t>{'x', 'y'}, "tensor"); }).find("not a .npy file"),
            std::string::npos);
}

TEST(TensorText, RowsCsvAndJsonArrays) {
  const Matrix a = mio::parse_tensor_text("# written by numpy.savetxt\n1 2 3\n4\t5  6\n\n", "tensor");
  ASSERT_EQ(a.rows(), 2);
  ASSERT_EQ(a.cols(), 3);
  EXPECT_EQ(a(1, 1), 5.0);
  const Matrix b = mio::parse_tensor_text("1.5e-3, -2; 3, 4", "tensor");  // ";" ends a row too
  EXPECT_EQ(b(0, 0), 1.5e-3);
  EXPECT_EQ(b(1, 1), 4.0);
  const Matrix c = mio::parse_tensor_text("[[1, 2], [3, 4], [5, 6]]", "tensor");
  EXPECT_EQ(c.rows(), 3);
  EXPECT_EQ(c(2, 1), 6.0);
  const Matrix d = mio::parse_tensor_text("[0.5, 0.25, 0.125]", "tensor");
  EXPECT_EQ(d.rows(), 1);
  EXPECT_EQ(d.cols(), 3);
  // The writer's text reads back to the same doubles.
  EXPECT_EQ(mio::parse_tensor_text(mio::tensor_text(c), "t"), c);
  const Matrix e = (Matrix(1, 2) << 0.1, 1.0 / 3).finished();
  EXPECT_EQ(mio::parse_tensor_text(mio::tensor_text(e), "t"), e);
}

TEST(TensorText, ErrorsNameTheRowAndColumn) {
  EXPECT_EQ(field_of([] { mio::parse_tensor_text("1 2\n3 zz", "tensor"); }),
            "tensor: row 2, column 2: \"zz\" is not a number");
  EXPECT_EQ(field_of([] { mio::parse_tensor_text("1 2\n3", "x"); }), "x: row 2 has 1 numbers; row 1 has 2");
  EXPECT_EQ(field_of([] { mio::parse_tensor_text("[[1, 2]", "tensor"); }), "tensor: a '[' is not closed");
  EXPECT_EQ(field_of([] { mio::parse_tensor_text("1e999", "tensor"); }), "tensor: row 1, column 1: 1e999 is not finite");
  EXPECT_EQ(field_of([] { mio::parse_tensor_text(" \n# nothing\n", "tensor"); }), "tensor: no numbers");
}

namespace {

// cos of a half-layout reference, as the user's code would compute it with the interleaved layout.
nlohmann::json layout_swapped_request() {
  posenc::RopeCheckReference interleaved;
  interleaved.dim = 8;
  interleaved.base = 10000;
  interleaved.layout = posenc::RopeLayout::Interleaved;
  posenc::RopeCheckInput in;
  in.kind = posenc::CheckKind::Cos;
  in.positions = {0, 1, 2, 3, 4, 5, 6, 7};
  in.actual = Matrix::Zero(8, 8);
  const Matrix cos = posenc::rope_check_expected(interleaved, in);
  nlohmann::json actual = nlohmann::json::array();
  for (Eigen::Index r = 0; r < cos.rows(); ++r) {
    nlohmann::json row = nlohmann::json::array();
    for (Eigen::Index c = 0; c < cos.cols(); ++c) row.push_back(cos(r, c));
    actual.push_back(row);
  }
  return {{"op", "check"}, {"reference", {{"dim", 8}, {"base", 10000}, {"layout", "half"}}}, {"kind", "cos"},
          {"positions", in.positions}, {"actual", actual}};
}

}  // namespace

TEST(CheckJson, ALayoutSwapIsDiagnosedAsLayout) {
  const auto out = nlohmann::json::parse(mio::check_response_text(layout_swapped_request().dump()));
  EXPECT_FALSE(out["match"].get<bool>());
  ASSERT_FALSE(out["diagnosis"].empty());
  EXPECT_EQ(out["diagnosis"][0]["cause"], "layout");
  EXPECT_GT(out["diagnosis"][0]["explains"].get<double>(), 0.99);
  for (const char* k : {"match", "max_abs_error", "max_rel_error", "tolerance", "worst", "diagnosis"})
    EXPECT_TRUE(out.contains(k)) << k;
  EXPECT_FALSE(out.contains("equivalent_under_softmax"));  // logits only
}

TEST(CheckJson, TheReferenceItselfMatches) {
  nlohmann::json req = layout_swapped_request();
  req["reference"]["layout"] = "interleaved";
  const auto out = nlohmann::json::parse(mio::check_response_text(req.dump()));
  EXPECT_TRUE(out["match"].get<bool>());
  EXPECT_TRUE(out["diagnosis"].empty());
}

TEST(CheckJson, BadRequestsNameTheField) {
  auto error = [](nlohmann::json req) { return field_of([&] { mio::check_response_text(req.dump()); }); };
  nlohmann::json r = layout_swapped_request();
  r["nope"] = 1;
  EXPECT_EQ(error(r).rfind("nope: ", 0), 0u);
  r = layout_swapped_request();
  r["reference"]["scaling"] = {{"type", "linear"}};
  EXPECT_EQ(error(r).rfind("reference.scaling.factor: ", 0), 0u);
  r = layout_swapped_request();
  r["reference"]["scaling"] = {{"type", "linear"}, {"factor", 2}, {"beta_fast", 3}};
  EXPECT_EQ(error(r).rfind("reference.scaling.beta_fast: ", 0), 0u);
  r = layout_swapped_request();
  r["actual"][3] = {1, 2};
  EXPECT_EQ(error(r).rfind("actual: ", 0), 0u);
  r = layout_swapped_request();
  r["positions"] = {0, 1};
  EXPECT_EQ(error(r).rfind("actual: ", 0), 0u) << error(r);  // n = 2 rows expected, 8 given
  r = layout_swapped_request();
  r["tolerance"] = {{"abs", "x"}};
  EXPECT_EQ(error(r).rfind("tolerance.abs: ", 0), 0u);
  // Nesting is limited while parsing; a 100 000-deep array never gets built.
  EXPECT_NE(field_of([] { mio::check_response_text(std::string(100000, '[')); }).find("deeper than 64"),
            std::string::npos);
}

#endif  // POSENC_HAVE_EVAL
