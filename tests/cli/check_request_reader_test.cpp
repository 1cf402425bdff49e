// The one reader of the check request (model_io/check_request.h), as posenc eval and the page call it: Gemma
// 4's proportional reference (partial_rotary_factor, no factor) is read by both; positions as the position
// grammar; heads of rows; a tensor's field named without an element index.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli/eval.h"
#include "model_io/check_json.h"
#include "model_io/check_request.h"

using namespace posenc;
namespace mio = posenc::model_io;
using json = nlohmann::json;

namespace {

std::string field_of(const std::string& text) {
  try {
    mio::check_response_text(text);
  } catch (const InvalidArgument& e) { return e.field(); }
  return "(no error)";
}

json gemma4_cos_request() {
  // Gemma 4's full layers: rope_parameters {"rope_type": "proportional", "partial_rotary_factor": 0.25}.
  RopeCheckReference ref;
  ref.dim = 16;
  ref.base = 1e6;
  ref.scaling.type = RopeScalingType::Proportional;
  ref.scaling.partial_rotary_factor = 0.25;
  RopeCheckInput in;
  in.kind = CheckKind::Cos;
  in.positions = {0, 1, 2, 3};
  in.actual = Matrix::Zero(4, 16);
  const Matrix cos = rope_check_expected(ref, in);
  json rows = json::array();
  for (Eigen::Index r = 0; r < cos.rows(); ++r) {
    json row = json::array();
    for (Eigen::Index c = 0; c < cos.cols(); ++c) row.push_back(cos(r, c));
    rows.push_back(row);
  }
  return {{"op", "check"},
          {"reference", {{"dim", 16}, {"base", 1e6}, {"scaling", {{"type", "proportional"}, {"partial_rotary_factor", 0.25}}}}},
          {"kind", "cos"},
          {"positions", "0:4"},
          {"actual", rows}};
}

}  // namespace

TEST(CheckRequestReader, ProportionalReferenceReadByEvalAndThePage) {
  const std::string text = gemma4_cos_request().dump();
  const json page = json::parse(mio::check_response_text(text));
  const json eval = json::parse(cli::evaluate_request(text));
  EXPECT_TRUE(page["match"].get<bool>()) << page.dump();
  EXPECT_EQ(page, eval);
  EXPECT_EQ(page["tolerance"]["rule"], "float32");
  EXPECT_TRUE(page["tolerance"]["max"].is_number());  // never null
}

TEST(CheckRequestReader, ReferenceJsonReadsBackToTheSameReference) {
  RopeCheckReference r;
  r.dim = 64;
  r.base = 5e5;
  r.rotary_dim = 32;
  r.layout = RopeLayout::Interleaved;
  r.softmax_scale = 0.1;
  r.scaling.type = RopeScalingType::Yarn;
  r.scaling.factor = 8;
  r.scaling.original_max_position_embeddings = 4096;
  r.scaling.truncate = false;
  r.scaling.mscale = 0.707;
  const RopeCheckReference back = mio::read_check_reference(mio::check_reference_json(r));
  EXPECT_EQ(back.dim, 64);
  EXPECT_EQ(back.rotary_dim, 32);
  EXPECT_EQ(back.layout, RopeLayout::Interleaved);
  EXPECT_EQ(*back.softmax_scale, 0.1);
  EXPECT_EQ(back.scaling.type, RopeScalingType::Yarn);
  EXPECT_FALSE(back.scaling.truncate);
  EXPECT_EQ(*back.scaling.mscale, 0.707);
}

TEST(CheckRequestReader, HeadsOfRowsAndTextTensors) {
  json req = gemma4_cos_request();
  const json rows = req["actual"];
  req["actual"] = json::array({rows, rows, rows});  // 3 heads, each the reference's cos
  const json out = json::parse(mio::check_response_text(req.dump()));
  EXPECT_TRUE(out["match"].get<bool>()) << out.dump();
  EXPECT_EQ(out["worst"]["index"].size(), 3u);
  // The same rows as text: numbers by spaces, rows by ';' or newlines.
  std::string text;
  for (const json& row : rows) {
    for (const json& v : row) text += nlohmann::json(v.get<double>()).dump() + " ";
    text += ";\n";
  }
  req["actual"] = text;
  EXPECT_TRUE(json::parse(mio::check_response_text(req.dump()))["match"].get<bool>());
  // Heads with different row counts.
  req["actual"] = json::array({rows, json::array({rows[0]})});
  EXPECT_EQ(field_of(req.dump()), "actual");
}

TEST(CheckRequestReader, FieldsAreNamedWithoutAnIndex) {
  json req = gemma4_cos_request();
  req["actual"][1][3] = "x";
  EXPECT_EQ(field_of(req.dump()), "actual");
  req = gemma4_cos_request();
  req["positions"] = json::array({0, 1, 2.5, 3});
  EXPECT_EQ(field_of(req.dump()), "positions");
  req["positions"] = "0:4:0";
  EXPECT_EQ(field_of(req.dump()), "positions");
  req = gemma4_cos_request();
  req["reference"]["scaling"]["partial_rotary_factor"] = 2;
  EXPECT_EQ(field_of(req.dump()), "reference.scaling.partial_rotary_factor");
  // A duplicated key is refused (the parser would keep the last one), by the page as by eval.
  const std::string dup = R"({"op":"check","kind":"cos","kind":"sin"})";
  EXPECT_EQ(field_of(dup), "kind");
}
