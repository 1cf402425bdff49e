// Every cause of the tensor check, old and new (tests/common/check_cases.h: each built the way its thread
// built it), through the posenc binary: `posenc eval` op check, and `posenc check` reading the tensors from
// .npy and from .safetensors files written here; the heads cases as (H, n, d) files. The same top cause and
// fitted value as the core's unit test.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <variant>
#include <vector>

#include "../common/check_cases.h"
#include "../common/json_rows.h"
#include "../common/tensor_files.h"
#include "process.h"

using nlohmann::json;
using namespace posenc;
using posenc::test::CauseCase;
using posenc::test::Proc;

namespace {

using Check = posenc::test::PosencBinary;
using posenc::test::json_rows;

using posenc::test::run_posenc;

std::string causes_temp(const std::string& name) {
  return testing::TempDir() + "posenc_causes_" + std::to_string(getpid()) + "_" + name;
}

json reference_json(const RopeCheckReference& r) {
  json j = {{"dim", r.dim}, {"base", r.base}};
  if (r.rotary_dim) j["rotary_dim"] = r.rotary_dim;
  if (r.rotary_offset) j["rotary_offset"] = r.rotary_offset;
  if (r.layout != RopeLayout::Half) j["layout"] = "interleaved";
  if (r.softmax_scale) j["softmax_scale"] = *r.softmax_scale;
  const RopeScaling& s = r.scaling;
  if (s.type == RopeScalingType::None) return j;
  json sc = {{"type", rope_scaling_type_name(s.type)}};
  if (s.type == RopeScalingType::Proportional) {
    sc["factor"] = s.factor;
    sc["partial_rotary_factor"] = s.partial_rotary_factor;
  } else {
    if (s.type != RopeScalingType::Longrope) sc["factor"] = s.factor;
    if (s.original_max_position_embeddings > 0) sc["original_max_position_embeddings"] = s.original_max_position_embeddings;
  }
  if (s.type == RopeScalingType::Yarn) {
    sc["truncate"] = s.truncate;
    if (s.mscale) sc["mscale"] = *s.mscale;
    if (s.mscale_all_dim) sc["mscale_all_dim"] = *s.mscale_all_dim;
  }
  if (s.type == RopeScalingType::Longrope) {
    sc["factor"] = s.factor;
    sc["short_factor"] = s.short_factor;
    sc["long_factor"] = s.long_factor;
  }
  j["scaling"] = sc;
  return j;
}

// A tensor as the request writes it: a flat array (inv_freq), rows, or heads of rows.
json tensor_json(const Matrix& m, int heads, bool vector) {
  if (vector) return json_rows(m)[0];
  if (heads == 0) return json_rows(m);
  json a = json::array();
  const Eigen::Index n = m.rows() / heads;
  for (int h = 0; h < heads; ++h) a.push_back(json_rows(m.middleRows(h * n, n)));
  return a;
}

json request_of(const CauseCase& c) {
  const bool vec = c.kind == CheckKind::InvFreq;
  json r = {{"op", "check"}, {"reference", reference_json(c.ref)}, {"kind", check_kind_name(c.kind)}};
  r["actual"] = tensor_json(c.actual, c.heads, vec);
  if (!c.positions.empty()) r["positions"] = c.positions;
  if (c.x.size()) r["x"] = tensor_json(c.x, c.heads, false);
  if (c.q.size()) r["q"] = json_rows(c.q);
  if (c.k.size()) r["k"] = json_rows(c.k);
  return r;
}

void expect_fit(const json& d, const CauseCase& c, const std::string& how) {
  if (c.fit_key.empty()) return;
  ASSERT_TRUE(d["fitted"].contains(c.fit_key)) << c.name << " " << how << ": " << d.dump();
  const json& v = d["fitted"][c.fit_key];
  if (const double* want = std::get_if<double>(&c.fit_value)) {
    EXPECT_NEAR(v.get<double>(), *want, 1e-6 * std::fabs(*want)) << c.name << " " << how;
  } else if (const std::string* s = std::get_if<std::string>(&c.fit_value)) {
    EXPECT_EQ(v, *s) << c.name << " " << how;
  } else if (const bool* b = std::get_if<bool>(&c.fit_value)) {
    EXPECT_EQ(v, *b) << c.name << " " << how;
  } else {
    if (const auto* names = std::get_if<std::vector<std::string>>(&c.fit_value))
      EXPECT_EQ(v, json(*names)) << c.name << " " << how;
    else EXPECT_EQ(v, json(std::get<std::vector<int64_t>>(c.fit_value))) << c.name << " " << how;
  }
}

std::string positions_arg(const std::vector<int64_t>& pos) {
  std::string s;
  for (int64_t p : pos) s += (s.empty() ? "" : ",") + std::to_string(p);
  return s;
}

}  // namespace

TEST_F(Check, EveryThreadsTensorNamesItsCauseThroughEval) {
  for (const CauseCase& c : posenc::test::all_cause_cases()) {
    const Proc p = run_posenc("eval -", request_of(c).dump());
    ASSERT_EQ(p.exit_code, 0) << c.name << ": " << p.err;
    const json r = json::parse(p.out);
    EXPECT_FALSE(r["match"].get<bool>()) << c.name;
    ASSERT_FALSE(r["diagnosis"].empty()) << c.name;
    EXPECT_EQ(r["diagnosis"][0]["cause"], c.cause) << c.name << ": " << p.out.substr(0, 1500);
    expect_fit(r["diagnosis"][0], c, "eval");
    EXPECT_EQ(r["worst"]["index"].size(), c.kind == CheckKind::InvFreq ? 1u : c.heads ? 3u : 2u) << c.name;
  }
}

TEST_F(Check, EveryThreadsTensorNamesItsCauseFromNpyAndSafetensors) {
  int n = 0;
  for (const CauseCase& c : posenc::test::all_cause_cases()) {
    const bool vec = c.kind == CheckKind::InvFreq;
    const std::string ref = posenc::test::shell_quote(reference_json(c.ref).dump());
    std::string tail = " --kind " + std::string(check_kind_name(c.kind));
    if (!c.positions.empty()) tail += " --positions " + positions_arg(c.positions);
    for (const char* format : {"npy", "safetensors"}) {
      const bool npy = std::string(format) == "npy";
      std::vector<std::string> files;
      auto write = [&](const std::string& what, const Matrix& m, int heads, bool vector) {
        const std::string f = causes_temp(what + std::to_string(n) + "." + format);
        if (npy) posenc::test::write_npy(f, m, "<f8", posenc::test::file_shape(m, heads, vector));
        else posenc::test::write_safetensors(f, {{what, m, posenc::test::file_shape(m, heads, vector)}});
        files.push_back(f);
        return posenc::test::shell_quote(f);
      };
      std::string args = "check --json --reference " + ref + tail + " --actual " + write("actual", c.actual, c.heads, vec);
      if (c.x.size()) args += " --x " + write("x", c.x, c.heads, false);
      if (c.q.size()) args += " --q " + write("q", c.q, 0, false) + " --k " + write("k", c.k, 0, false);
      const Proc p = run_posenc(args);
      EXPECT_EQ(p.exit_code, 1) << c.name << " " << format << ": " << p.err;
      const json r = json::parse(p.out);
      EXPECT_EQ(r["diagnosis"][0]["cause"], c.cause) << c.name << " " << format;
      expect_fit(r["diagnosis"][0], c, format);
      for (const auto& f : files) std::remove(f.c_str());
      ++n;
    }
  }
}

TEST_F(Check, HumanOutputNamesTheHeadAndHidesSmallCauses) {
  for (const CauseCase& c : posenc::test::all_cause_cases()) {
    if (c.name != "unrotated_heads") continue;
    const std::string a = causes_temp("heads_a.npy"), x = causes_temp("heads_x.npy");
    posenc::test::write_npy(a, c.actual, "<f8", posenc::test::file_shape(c.actual, c.heads));
    posenc::test::write_npy(x, c.x, "<f8", posenc::test::file_shape(c.x, c.heads));
    const Proc p = run_posenc("check --reference " + posenc::test::shell_quote(reference_json(c.ref).dump()) +
                              " --kind rotated --positions 37 --actual " + a + " --x " + x);
    EXPECT_EQ(p.exit_code, 1);
    EXPECT_NE(p.out.find("MISMATCH (rotated, 8 x 1 x 64)"), std::string::npos) << p.out;
    EXPECT_NE(p.out.find("(head "), std::string::npos) << p.out;
    EXPECT_NE(p.out.find("1. unrotated_heads"), std::string::npos) << p.out;
    // Every listed cause explains >= 5%.
    const json r = json::parse(run_posenc("check --json --reference " + posenc::test::shell_quote(reference_json(c.ref).dump()) +
                                          " --kind rotated --positions 37 --actual " + a + " --x " + x)
                                   .out);
    for (const json& d : r["diagnosis"]) {
      if (d["explains"].get<double>() < 0.05) {
        EXPECT_EQ(p.out.find(d["cause"].get<std::string>() + " (explains"), std::string::npos) << d["cause"];
      }
    }
    std::remove(a.c_str());
    std::remove(x.c_str());
  }
}
