// The weights report (posenc weights --json's contract, docs/weights.md) read back for the Frequency usage
// view: every number of a generated report comes back as written, whatever the layers (GQA, layers without
// positions, layers with their own frequencies); every malformed value is an error naming its path; a key
// the reader does not know is kept by name.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "usage_reports.h"
#include "core/types.h"
#include "model_io/usage_json.h"

using namespace posenc;
using namespace posenc::model_io;
using nlohmann::json;

namespace {

std::string field_of(const json& j) {
  try {
    read_usage_json(j.dump(), "usage");
  } catch (const InvalidArgument& e) { return e.field(); }
  return "(no error)";
}

const test::UsageReportSpec kSpecs[] = {
    {},
    {.layers = 6, .heads = 8, .kv_heads = 8, .rotary_dim = 32, .none_layers = {1, 4}, .seed = 2},
    {.layers = 3,
     .heads = 6,
     .kv_heads = 1,
     .rotary_dim = 64,
     .base = 500000,
     .trained = 8192,
     .own_pair_layers = {0},
     .seed = 3},
    {.layers = 2, .heads = 2, .kv_heads = 2, .rotary_dim = 2, .seed = 4, .layout = "interleaved"},
};

}  // namespace

TEST(UsageJson, EveryNumberOfAGeneratedReportReadsBackAsWritten) {
  for (const test::UsageReportSpec& spec : kSpecs) {
    const json j = test::usage_report_json(spec);
    const UsageReport r = read_usage_json(j.dump(), "usage");
    EXPECT_EQ(r.model_type, "llama");
    EXPECT_EQ(r.layout, spec.layout);
    EXPECT_EQ(r.rotary_dim, spec.rotary_dim);
    ASSERT_EQ(r.pairs.size(), size_t(spec.rotary_dim / 2));
    for (size_t p = 0; p < r.pairs.size(); ++p) {
      EXPECT_EQ(r.pairs.inv_freq[p], j["pairs"]["inv_freq"][p].get<double>());
      EXPECT_EQ(r.pairs.turns[p], j["pairs"]["turns"][p].get<double>());
    }
    ASSERT_EQ(r.layers.size(), size_t(spec.layers));
    for (size_t l = 0; l < r.layers.size(); ++l) {
      const json& jl = j["layers"][l];
      EXPECT_EQ(r.layers[l].rope, !spec.none_layers.count(int(l)));
      EXPECT_EQ(r.layers[l].kind, jl["kind"].get<std::string>());
      EXPECT_EQ(r.layers[l].own_pairs, jl.contains("pairs"));
      if (!r.layers[l].rope) {
        EXPECT_TRUE(r.layers[l].heads.empty());
        continue;
      }
      const json& pj = jl.contains("pairs") ? jl["pairs"] : j["pairs"];
      for (size_t p = 0; p < r.pairs.size(); ++p) EXPECT_EQ(r.layers[l].pairs.inv_freq[p], pj["inv_freq"][p].get<double>());
      ASSERT_EQ(r.layers[l].heads.size(), size_t(spec.heads));
      for (size_t h = 0; h < r.layers[l].heads.size(); ++h) {
        const UsageHead& head = r.layers[l].heads[h];
        const json& jh = jl["heads"][h];
        EXPECT_EQ(head.kv_head, jh["kv_head"].get<int>());
        EXPECT_EQ(head.semantic_share, jh["semantic_share"].get<double>());
        EXPECT_EQ(head.top_pairs, jh["top_pairs"].get<std::vector<int>>());
        for (size_t p = 0; p < r.pairs.size(); ++p) {
          EXPECT_EQ(head.q_norm[p], jh["q_norm"][p].get<double>());
          EXPECT_EQ(head.k_norm[p], jh["k_norm"][p].get<double>());
          EXPECT_EQ(head.qk[p], jh["qk"][p].get<double>());
          EXPECT_EQ(head.qk_share[p], jh["qk_share"][p].get<double>());
        }
      }
    }
    EXPECT_EQ(r.read_tensors, j["read"]["tensors"].get<int64_t>());
    EXPECT_EQ(r.read_bytes, 123456);
    EXPECT_TRUE(r.unknown_keys.empty());
  }
}

TEST(UsageJson, AFrequencyZeroPairHasAnInfiniteWavelengthWrittenAsNull) {
  json j = test::usage_report_json({});
  j["pairs"]["inv_freq"][7] = 0.0;
  j["pairs"]["wavelength"][7] = nullptr;
  j["pairs"]["turns"][7] = 0.0;
  const UsageReport r = read_usage_json(j.dump(), "usage");
  EXPECT_TRUE(std::isinf(r.pairs.wavelength[7]));
  // null only there: a null beside a frequency that turns is an error naming it.
  j["pairs"]["wavelength"][6] = nullptr;
  EXPECT_EQ(field_of(j), "usage.pairs.wavelength[6]");
}

TEST(UsageJson, AKeyTheReaderDoesNotKnowIsKeptByItsPath) {
  json j = test::usage_report_json({});
  j["mrope_section"] = {16, 24, 24};
  j["layers"][1]["heads"][0]["bias"] = 1;
  const UsageReport r = read_usage_json(j.dump(), "usage");
  EXPECT_EQ(r.unknown_keys, (std::vector<std::string>{"mrope_section", "layers[1].heads[0].bias"}));
}

TEST(UsageJson, EveryMalformedValueIsAnErrorNamingItsPath) {
  const json good = test::usage_report_json({.none_layers = {2}});
  EXPECT_EQ(field_of(good), "(no error)");
  struct Case {
    const char* pointer;  // JSON pointer of the value replaced
    json value;
    const char* field;
  };
  const Case cases[] = {
      {"/layers", "x", "usage.layers"},
      {"/rotary_dim", 12, "usage.pairs.inv_freq"},
      {"/rotary_dim", -2, "usage.rotary_dim"},
      {"/rotary_dim", 1.5, "usage.rotary_dim"},
      {"/layout", "zigzag", "usage.layout"},
      {"/pairs/turns", json::array({1, 2}), "usage.pairs.turns"},
      {"/pairs/inv_freq/3", -1.0, "usage.pairs.inv_freq[3]"},
      {"/layers/0/layer", 3, "usage.layers[3].layer"},
      {"/layers/1/position", "alibi", "usage.layers[1].position"},
      {"/layers/2/heads", json::array({json::object()}), "usage.layers[2].heads"},
      {"/layers/0/heads", json::array(), "usage.layers[0].heads"},
      {"/layers/0/heads/1/qk_share/0", 1.5, "usage.layers[0].heads[1].qk_share[0]"},
      {"/layers/0/heads/1/q_norm", json::array({1.0}), "usage.layers[0].heads[1].q_norm"},
      {"/layers/3/heads/0/k_norm/2", "1", "usage.layers[3].heads[0].k_norm[2]"},
      {"/layers/3/heads/0/semantic_share", 2.0, "usage.layers[3].heads[0].semantic_share"},
      {"/layers/3/heads/0/top_pairs/0", 8, "usage.layers[3].heads[0].top_pairs[0]"},
      {"/layers/3/heads/0/top_pairs/0", 0.5, "usage.layers[3].heads[0].top_pairs[0]"},
      {"/layers/3/heads/0/kv_head", 5000, "usage.layers[3].heads[0].kv_head"},
      {"/read/bytes", -1, "usage.read.bytes"},
      {"/assumptions", json::array({1}), "usage.assumptions[0]"},
  };
  for (const Case& c : cases) {
    json j = good;
    j[json::json_pointer(c.pointer)] = c.value;
    EXPECT_EQ(field_of(j), c.field) << c.pointer << " = " << c.value.dump();
  }
  for (const char* key : {"model_type", "rotary_dim", "layout", "pairs", "layers"}) {
    json j = good;
    j.erase(key);
    EXPECT_EQ(field_of(j), std::string("usage.") + key) << key;
  }
}

TEST(UsageJson, TextThatIsNotAReportIsRefusedBeforeItIsBuilt) {
  auto field_and_message = [](const std::string& text) -> std::pair<std::string, std::string> {
    try {
      read_usage_json(text, "usage");
    } catch (const InvalidArgument& e) { return {e.field(), e.what()}; }
    return {"(no error)", ""};
  };
  EXPECT_EQ(field_and_message("{not json").first, "usage");
  EXPECT_EQ(field_and_message("[1, 2]").first, "usage");
  EXPECT_EQ(field_and_message(std::string(40, '[') + std::string(40, ']')).first, "usage");
  // Over the size limit: refused naming the size, without parsing.
  const std::string big(kMaxUsageJsonBytes + 1, ' ');
  const auto [field, message] = field_and_message(big);
  EXPECT_EQ(field, "usage");
  EXPECT_NE(message.find(std::to_string(big.size()) + " bytes"), std::string::npos) << message;
}

TEST(UsageJson, AHeadWithNoSharesAssumptionObjectsAndMropeAxesAreRead) {
  json j = test::usage_report_json({.rotary_dim = 4});
  // A head whose q.k norms are all 0: posenc weights writes its shares as null.
  json& head = j["layers"][0]["heads"][1];
  head["q_norm"] = {0.0, 0.0};
  head["qk"] = {0.0, 0.0};
  head["qk_share"] = {nullptr, nullptr};
  head["semantic_share"] = nullptr;
  head["top_pairs"] = json::array();
  j["assumptions"] = {{{"what", "rope_theta"}, {"value", "10000"}, {"why", "the config does not say"}}};
  j["pairs"]["mrope_axis"] = {"t", "h"};
  const UsageReport r = read_usage_json(j.dump(), "usage");
  EXPECT_TRUE(std::isnan(r.layers[0].heads[1].qk_share[0]));
  EXPECT_TRUE(std::isnan(r.layers[0].heads[1].semantic_share));
  EXPECT_EQ(r.assumptions, (std::vector<std::string>{"rope_theta = 10000 (the config does not say)"}));
  EXPECT_EQ(r.pairs.mrope_axis, (std::vector<std::string>{"t", "h"}));
  // Null shares only all together, with a null semantic_share.
  head["qk_share"] = {nullptr, 0.5};
  EXPECT_EQ(field_of(j), "usage.layers[0].heads[1].qk_share[0]");
  head["qk_share"] = {nullptr, nullptr};
  head["semantic_share"] = 0.0;
  EXPECT_EQ(field_of(j), "usage.layers[0].heads[1].semantic_share");
  head["semantic_share"] = nullptr;
  j["pairs"]["mrope_axis"] = {"t", "x"};
  EXPECT_EQ(field_of(j), "usage.pairs.mrope_axis[1]");
}
