// `posenc weights` run as a user runs it, on small models tests/data/weights_reference.py generates with planted
// structure (every dtype and ggml quantization type, shards with an index, GQA, MLA, partial rotary at the front
// and the back, interleaved pairs, QK-norm, Gemma's 1 + w gains, a llama GGUF with the converter's permuted rows,
// NoPE layers, bad files). The script computes every expected number independently, in numpy double precision;
// here each one must agree to 1e-9 relative, read.bytes exactly (only headers and the tensors used are read), and
// every bad file must answer exit 2 with one JSON error naming the tensor or field.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "process.h"
#include "test_paths.h"

using nlohmann::json;

namespace {

using posenc::test::Proc;

std::string python() { return std::filesystem::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3"; }

// The generated models and the manifest of cases, once for the suite.
class Weights : public posenc::test::PosencBinary {
 protected:
  static void SetUpTestSuite() {
    dir_ = testing::TempDir() + "posenc_weights_" + std::to_string(getpid());
    const std::string script = std::string(posenc::test::kI18nDir) + "/../tests/data/weights_reference.py";
    const std::string cmd = posenc::test::shell_quote(python()) + " " + posenc::test::shell_quote(script) + " " +
                            posenc::test::shell_quote(dir_) + " 2>&1";
    generated_ = std::system(cmd.c_str()) == 0;
    if (generated_) manifest_ = json::parse(posenc::test::slurp(dir_ + "/manifest.json"));
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(dir_); }
  void SetUp() override {
    PosencBinary::SetUp();
    ASSERT_TRUE(generated_) << "tests/data/weights_reference.py failed (python3-numpy is needed: scripts/bootstrap)";
  }
  static const json& find(const std::string& name) {
    for (const json& c : manifest_)
      if (c["name"] == name) return c;
    throw std::runtime_error("no case " + name);
  }
  static Proc run_case(const json& c) {
    std::string args = "weights";
    for (const json& a : c["args"]) args += " " + posenc::test::shell_quote(a.get<std::string>());
    return posenc::test::run_posenc(args);
  }
  static inline std::string dir_;
  static inline bool generated_ = false;
  static inline json manifest_;
};

// Every key of `want` in `got`, numbers to 1e-9 relative; layers without their own pairs have none.
void expect_matches(const json& want, const json& got, const std::string& path) {
  if (want.is_number()) {
    ASSERT_TRUE(got.is_number()) << path << ": " << got;
    const double a = want.get<double>(), b = got.get<double>();
    EXPECT_LE(std::abs(a - b), 1e-9 * std::max(std::abs(a), 1e-300) + 1e-300) << path << ": want " << a << ", got " << b;
    return;
  }
  if (want.is_null() || want.is_string() || want.is_boolean()) {
    EXPECT_EQ(want, got) << path;
    return;
  }
  if (want.is_array()) {
    ASSERT_TRUE(got.is_array()) << path;
    ASSERT_EQ(want.size(), got.size()) << path;
    for (std::size_t i = 0; i < want.size(); ++i) expect_matches(want[i], got[i], path + "[" + std::to_string(i) + "]");
    return;
  }
  ASSERT_TRUE(got.is_object()) << path;
  for (const auto& [key, value] : want.items()) {
    if (key == "assumption_whats" || key == "assumption_whats_absent") continue;
    ASSERT_TRUE(got.contains(key)) << path << " has no " << key;
    expect_matches(value, got[key], path + "." + key);
  }
  if (want.contains("position") && want["position"] == "rope") {
    EXPECT_EQ(want.contains("pairs"), got.contains("pairs")) << path;
  }
  if (want.contains("position") && want["position"] == "none") { EXPECT_FALSE(got.contains("heads")) << path; }
}

void expect_case(const json& c, const Proc& r) {
  SCOPED_TRACE(c["name"].get<std::string>());
  if (!c["error_field"].is_null()) {
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_EQ(r.out, "");
    json e;
    ASSERT_NO_THROW(e = json::parse(r.err)) << r.err;
    EXPECT_EQ(e.size(), 2u) << r.err;
    EXPECT_EQ(e["field"], c["error_field"]) << r.err;
    EXPECT_NE(e["error"].get<std::string>().find(c["error_text"].get<std::string>()), std::string::npos) << r.err;
    return;
  }
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const json got = json::parse(r.out);
  expect_matches(c["expected"], got, "$");
  for (const char* key : {"model_type", "rotary_dim", "layout", "pairs", "layers", "read", "assumptions", "unread_keys"})
    EXPECT_TRUE(got.contains(key)) << key;
  if (c["expected"].contains("assumption_whats"))
    for (const json& what : c["expected"]["assumption_whats"]) {
      bool found = false;
      for (const json& a : got["assumptions"]) found = found || a["what"] == what;
      EXPECT_TRUE(found) << "no assumption about " << what << " in " << got["assumptions"];
    }
  if (c["expected"].contains("assumption_whats_absent"))
    for (const json& what : c["expected"]["assumption_whats_absent"])
      for (const json& a : got["assumptions"]) { EXPECT_NE(a["what"], what) << "an assumption about " << what << ": " << a; }
}

}  // namespace

TEST_F(Weights, EveryGeneratedModelAgreesWithNumpy) {
  int cases = 0;
  for (const json& c : manifest_)
    if (c["error_field"].is_null()) {
      expect_case(c, run_case(c));
      ++cases;
    }
  EXPECT_GE(cases, 10);
}

TEST_F(Weights, EveryBadFileIsRefusedNamingTheTensorOrField) {
  int cases = 0;
  for (const json& c : manifest_)
    if (!c["error_field"].is_null()) {
      expect_case(c, run_case(c));
      ++cases;
    }
  EXPECT_GE(cases, 8);
}

TEST_F(Weights, ReadBytesCountOnlyHeadersAndTheTensorsUsed) {
  // The llama case's files hold v_proj and o_proj too: what was read is exactly the headers, the norms and the
  // rotary rows of q and k (the expected count, from the script), whatever else the files hold.
  const json& c = find("llama_bf16_gqa");
  const Proc r = run_case(c);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json got = json::parse(r.out);
  EXPECT_EQ(got["read"]["bytes"], c["expected"]["read"]["bytes"]);
  uint64_t file_bytes = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir_ + "/llama_bf16_gqa"))
    if (e.path().extension() == ".safetensors") file_bytes += std::filesystem::file_size(e.path());
  EXPECT_LT(got["read"]["bytes"].get<uint64_t>(), file_bytes);
}

TEST_F(Weights, TheTableNamesEveryLayer) {
  const json& c = find("smollm3_nope_layer");
  const Proc r = posenc::test::run_posenc("weights " + posenc::test::shell_quote(c["args"][0].get<std::string>()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("semantic"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("no RoPE"), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "");  // no progress when standard error is not a terminal
}
