// Round trips through the posenc binary: exit code, stdout and stderr exactly as the eval contract says.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>

#include "posenc_version.h"
#include "process.h"

using nlohmann::json;

namespace {

using posenc::test::Proc;
using posenc::test::run_posenc;

// Asserts the bad-input contract: exit 2, nothing on stdout, one JSON object on stderr naming `field`.
void expect_bad(const std::string& request, const json& field) {
  const Proc r = run_posenc("eval -", request);
  EXPECT_EQ(r.exit_code, 2) << request;
  EXPECT_EQ(r.out, "") << request;
  json e;
  ASSERT_NO_THROW(e = json::parse(r.err)) << r.err;
  ASSERT_TRUE(e.is_object());
  EXPECT_EQ(e.size(), 2u) << r.err;
  EXPECT_TRUE(e["error"].is_string() && !e["error"].get<std::string>().empty()) << r.err;
  EXPECT_EQ(e["field"], field) << request << " -> " << r.err;
}

using Cli = posenc::test::PosencBinary;

}  // namespace

TEST_F(Cli, VersionAndUsage) {
  const Proc v = run_posenc("--version");
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_TRUE(std::regex_match(POSENC_VERSION, std::regex(R"(\d+\.\d+\.\d+)"))) << POSENC_VERSION;
  EXPECT_EQ(v.out, "posenc " POSENC_VERSION "\n");  // from project(VERSION) in CMakeLists.txt
  const Proc u = run_posenc("eval");                // FILE missing
  EXPECT_EQ(u.exit_code, 2);
  EXPECT_EQ(u.out, "");
  EXPECT_EQ(json::parse(u.err)["field"], nullptr);
  EXPECT_EQ(run_posenc("").exit_code, 2);  // no subcommand
}

TEST_F(Cli, GoodRequestFromStdinAndFile) {
  const std::string req = R"({"op":"rope_frequencies","dim":4,"base":10000,"scaling":{"type":"linear","factor":4}})";
  const Proc r = run_posenc("eval -", req);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.err, "");
  const json j = json::parse(r.out);
  EXPECT_EQ(j["inv_freq"][0].get<double>(), 0.25);
  EXPECT_EQ(j["attention_scaling"].get<double>(), 1.0);
  // Same request from a file argument.
  const std::string path = testing::TempDir() + "posenc_cli_req.json";
  std::ofstream(path) << req;
  const Proc f = run_posenc("eval '" + path + "'");
  EXPECT_EQ(f.exit_code, 0);
  EXPECT_EQ(f.out, r.out);
}

TEST_F(Cli, FloatsRoundTripAndOneObjectPerResponse) {
  const Proc r = run_posenc("eval -", R"({"op":"sinusoidal","positions":[1,12345,999999],"dim":8,"base":10000})");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.back(), '\n');
  EXPECT_EQ(r.out.find('\n'), r.out.size() - 1);  // exactly one line, one object
  EXPECT_EQ(r.out.find("NaN"), std::string::npos);
  const json j = json::parse(r.out);
  EXPECT_EQ(j["values"][0][0].get<double>(), std::sin(1.0));  // printed digits parse back to the same double
  EXPECT_EQ(j["values"][2][1].get<double>(), std::cos(999999.0));
}

TEST_F(Cli, AttentionRoundTrip) {
  const Proc r =
      run_posenc("eval -", R"({"op":"attention","q":[[1,0],[0,1]],"k":[[1,0],[0,1]],"v":[[1,2],[3,4]],"query_positions":[0,1],)"
                           R"("key_positions":[0,1],"causal":true,"position":{"scheme":"alibi","slope":0.5}})");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_TRUE(j["logits"][0][1].is_null());
  EXPECT_EQ(j["weights"][0][1].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(j["logits"][1][0].get<double>(), -0.5);
  EXPECT_EQ(j["output"].size(), 2u);
}

TEST_F(Cli, EveryBadInputClass) {
  expect_bad("{\"op\":", nullptr);                                                                       // malformed
  expect_bad(R"({"op":"sinusoidal","positions":[0],"dim":2,"base":NaN})", nullptr);                      // NaN literal
  expect_bad(R"({"op":"sinusoidal","positions":[0],"dim":2,"base":Infinity})", nullptr);                 // Infinity
  expect_bad(R"({"op":"sinusoidal","positions":[0],"dim":2,"base":1e999})", nullptr);                    // overflow
  expect_bad(R"({"op":"nope"})", "op");                                                                  // unknown op
  expect_bad(R"({"op":"rope_apply","x":[[1,2]],"positions":[0],"base":10000,"layout":"half"})", "dim");  // missing
  expect_bad(R"({"op":"alibi_slopes","heads":"8"})", "heads");                                           // ill-typed
  expect_bad(R"({"op":"alibi_slopes","heads":8,"head":8})", "head");                                     // unknown extra
  expect_bad(
      R"({"op":"rope_frequencies","dim":8,"base":1e4,"scaling":{"type":"yarn","factor":2,"original_max_position_embeddings":64,"beta_fats":3}})",
      "scaling.beta_fats");                                             // nested unknown
  expect_bad(R"({"op":"sinusoidal","positions":[0],"dim":5})", "dim");  // odd dim
  expect_bad(R"({"op":"t5_bucket","relative_positions":[1],"bidirectional":false,"num_buckets":0,"max_distance":9})",
             "num_buckets");                                  // num_buckets < 1
  expect_bad(R"({"op":"alibi_slopes","heads":0})", "heads");  // heads < 1
  expect_bad(
      R"({"op":"attention","q":[[1,0]],"k":[[1]],"query_positions":[0],"key_positions":[0],"causal":false,"position":{"scheme":"none"}})",
      "k");  // mismatched shapes
  expect_bad(
      R"({"op":"attention","q":[[1,0]],"k":[[1,0]],"query_positions":[0],"key_positions":[0],"causal":false,"position":{"scheme":"t5","bidirectional":true,"num_buckets":8,"max_distance":16,"bias":[0]}})",
      "position.bias");
  expect_bad(R"({"op":"sinusoidal","positions":[0],"dim":4098})", "dim");  // past the limits
  expect_bad(R"({"op":"deberta_relative_positions","query_size":4097,"key_size":4097,"bucket_size":-1,"max_position":-1})",
             "key_size");
  const Proc missing = run_posenc("eval /nonexistent/request.json");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.out, "");
  EXPECT_EQ(json::parse(missing.err)["field"], nullptr);
}
