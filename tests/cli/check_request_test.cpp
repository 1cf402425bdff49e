// window.posenc.check's request reader (model_io/check_request.h) against posenc eval's `check` op: the
// same request gives the same response (keys, order, values) through both, and bad requests name the field.
// A cli test: the eval side is posenc eval in-process (cli/eval.h).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/eval.h"
#include "core/analysis/rope_check.h"
#include "core/types.h"
#include "model_io/check_request.h"

using posenc::InvalidArgument;
using posenc::Matrix;
namespace mio = posenc::model_io;

namespace {

std::string field_of(auto&& f) {
  try {
    f();
  } catch (const InvalidArgument& e) { return e.field() + ": " + e.what(); }
  return "(no error)";
}

}  // namespace

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
  return {{"op", "check"},
          {"reference", {{"dim", 8}, {"base", 10000}, {"layout", "half"}}},
          {"kind", "cos"},
          {"positions", in.positions},
          {"actual", actual}};
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
  EXPECT_NE(field_of([] { mio::check_response_text(std::string(100000, '[')); }).find("deeper than 64"), std::string::npos);
}

// The page's answer and posenc eval's are the same JSON, key order included, for every kind and both
// tolerance forms (window.posenc.check promises exactly the op's response).
TEST(CheckJson, SameResponseAsPosencEval) {
  std::vector<nlohmann::json> requests;
  requests.push_back(layout_swapped_request());
  nlohmann::json r = layout_swapped_request();
  r["reference"]["layout"] = "interleaved";
  requests.push_back(r);  // a match
  r = layout_swapped_request();
  r["tolerance"] = {{"abs", 1e-3}, {"rel", 0}};
  requests.push_back(r);
  r = layout_swapped_request();
  r["positions"] = {1, 2, 3, 4, 5, 6, 7, 8};  // off by one against the interleaved rows: several causes
  requests.push_back(r);
  r = {{"op", "check"},
       {"reference", {{"dim", 8}, {"base", 10000}}},
       {"kind", "inv_freq"},
       {"actual", {1.0, 0.1, 0.01, 0.001}}};  // base 10 000 vs 10^4 fits, rounded: a base / precision fit
  requests.push_back(r);
  r = {{"op", "check"},
       {"reference", {{"dim", 4}, {"base", 10000}, {"scaling", {{"type", "linear"}, {"factor", 2}}}}},
       {"kind", "sin"},
       {"positions", {0, 1, 2, 3}},
       {"actual", {{0, 0, 0, 0}, {0.841, 0.01, 0.841, 0.01}, {0.909, 0.02, 0.909, 0.02}, {0.141, 0.03, 0.141, 0.03}}}};
  requests.push_back(r);  // the scaling not applied
  r = {{"op", "check"},
       {"reference", {{"dim", 4}, {"base", 10000}}},
       {"kind", "logits"},
       {"positions", {0, 1}},
       {"q", {{1, 0, 0, 1}, {0, 1, 1, 0}}},
       {"k", {{1, 1, 0, 0}, {0, 0, 1, 1}}},
       {"actual", {{1.5, 0.5}, {1.5, 0.5}}}};
  requests.push_back(r);  // logits: equivalent_under_softmax present
  for (const nlohmann::json& req : requests) {
    const std::string text = req.dump();
    const auto page = nlohmann::ordered_json::parse(mio::check_response_text(text));
    const auto eval = nlohmann::ordered_json::parse(posenc::cli::evaluate_request(text));
    EXPECT_EQ(page, eval) << text << "\npage: " << page.dump() << "\neval: " << eval.dump();
  }
}

// A tensor as a string reads the same in each of the text forms the readers take (model_io/tensor_file.h):
// rows of numbers (newlines or ';', commas or blanks, '#' comment lines) and JSON written as text, which is
// what a user pastes into the Check view; a heads axis in JSON text is kept as a JSON array's is.
TEST(CheckJson, EveryTextFormOfATensorGivesTheSameResponse) {
  const nlohmann::json base = layout_swapped_request();
  std::string rows, semicolons;
  for (const nlohmann::json& row : base["actual"]) {
    std::string line;
    for (const nlohmann::json& v : row) line += (line.empty() ? "" : ", ") + nlohmann::json(v.get<double>()).dump();
    rows += line + "\n";
    semicolons += (semicolons.empty() ? "" : "; ") + line;
  }
  const std::string expected = mio::check_response_text(base.dump());
  for (const std::string& text :
       {rows, "# cos, interleaved\n" + rows, semicolons, base["actual"].dump(), "\n " + base["actual"].dump(2)}) {
    nlohmann::json req = base;
    req["actual"] = text;
    EXPECT_EQ(mio::check_response_text(req.dump()), expected) << text;
  }
  nlohmann::json heads = base;
  heads["actual"] = nlohmann::json::array({base["actual"], base["actual"]}).dump();
  const auto two = nlohmann::json::parse(mio::check_response_text(heads.dump()));
  EXPECT_EQ(two["worst"]["index"].size(), 3u) << two.dump();  // [head, row, column]
  nlohmann::json bad = base;
  bad["actual"] = "[[1, 2], [3]]";
  EXPECT_EQ(field_of([&] { mio::check_response_text(bad.dump()); }),
            "actual: actual: the JSON tensor has rows (or heads) of different lengths");
}
