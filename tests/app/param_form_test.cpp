// The parameter form's data (app/param_form.h): every declared parameter with its kind, label, range,
// step, choices, value and notice; and App's record of the parameters the current state's controls show
// (the form's rows and the description's parameters), the same whether the controls are drawn or hidden.
#include "app/param_form.h"

#include <gtest/gtest.h>
#include <imgui.h>

#include <array>
#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "app/app.h"
#include "app_test_util.h"

namespace {

using posenc::app::App;
using posenc::app::ParamList;
using posenc::test::ImGuiFrames;

constexpr std::array<const char*, 3> kNames = {"a", "b", "c"};
constexpr std::array<const char*, 3> kLabels = {"Alpha", "Beta", "Gamma"};

TEST(ParamForm, EveryKindWithItsRangeStepAndChoices) {
  int n = 64, even = 8, index = 1;
  double base = 10000, ratio = 0.5;
  bool flag = true;
  std::array<double, 2> pair = {1.5, -2};
  std::string text = "the cat";
  ParamList list;
  list.integer("n", n, 1, 4096, {.label = "Sequence length n", .log = true});
  list.integer("d", even, 2, 1024, {.even = true});
  list.real("base", base, 2, 1e7, {.label = "Base", .log = true});
  list.real("ratio", ratio, 0, 3, {.label = "Ratio"});
  list.choice("pick", index, kNames, {.label = "Pick", .labels = kLabels});
  list.flag("causal", flag, {.label = "causal mask"});
  list.numbers("xy", pair, -10, 10, {.label = "Vector"});
  list.text(
      "sentence", [&](const std::string& s) { return text = s, std::string(); }, [&] { return text; }, {.label = "Sentence"});
  const auto j = nlohmann::json::parse(posenc::app::param_form_json("toy", "Toy", list, {"n", "pick", "sentence"},
                                                                    {{"sentence", "sentence is too long: ignored."}}, true));
  EXPECT_EQ(j["view"], "toy");
  EXPECT_EQ(j["title"], "Toy");
  const auto& p = j["params"];
  ASSERT_EQ(p.size(), 8u);
  EXPECT_EQ(p[0]["key"], "n");
  EXPECT_EQ(p[0]["label"], "Sequence length n");
  EXPECT_EQ(p[0]["kind"], "integer");
  EXPECT_EQ(p[0]["value"], "64");
  EXPECT_EQ(p[0]["min"], 1.0);
  EXPECT_EQ(p[0]["max"], 4096.0);
  EXPECT_EQ(p[0]["step"], 1.0);
  EXPECT_EQ(p[0]["shown"], true);
  EXPECT_EQ(p[1]["label"], "d") << "no label: the key";
  EXPECT_EQ(p[1]["step"], 2.0) << "even integers step by 2";
  EXPECT_EQ(p[1]["shown"], false);
  // A logarithmic real steps by a factor: 100 steps span [lo, hi] as the app's arrow keys do.
  EXPECT_EQ(p[2]["log"], true);
  EXPECT_NEAR(std::pow(p[2]["step"].get<double>(), 100.0), 1e7 / 2, 1e-6 * 1e7 / 2);
  EXPECT_EQ(p[3]["step"], 0.01) << "the power of ten at or below 1/100 of the range 3";
  EXPECT_EQ(p[4]["kind"], "choice");
  EXPECT_EQ(p[4]["value"], "b");
  EXPECT_EQ(p[4]["choices"][2]["name"], "c");
  EXPECT_EQ(p[4]["choices"][2]["label"], "Gamma");
  EXPECT_EQ(p[5]["kind"], "flag");
  EXPECT_EQ(p[5]["value"], "1");
  EXPECT_EQ(p[6]["kind"], "numbers");
  EXPECT_EQ(p[6]["value"], "1.5,-2");
  EXPECT_EQ(p[6]["count"], 2);
  EXPECT_EQ(p[7]["kind"], "text");
  EXPECT_EQ(p[7]["notice"], "sentence is too long: ignored.");
  EXPECT_EQ(p[0]["notice"], "");
  // No record of the shown keys yet (no frame): every parameter is shown.
  const auto all = nlohmann::json::parse(posenc::app::param_form_json("toy", "Toy", list, {}, {}, true));
  for (const auto& e : all["params"]) EXPECT_EQ(e["shown"], true) << e["key"];
}

TEST(ParamForm, ShownKeysAreTheSameWithTheControlsDrawnOrHidden) {
  ImGuiFrames imgui;
  App drawn, hidden;
  drawn.load_state_query("view=frequencies&n=100");
  hidden.load_state_query("view=frequencies&n=100&embed=1&controls=0");
  EXPECT_TRUE(drawn.shown_keys().empty()) << "no frame yet";
  imgui.frame(drawn);
  imgui.frame(hidden);
  const std::vector<std::string> want = {"d", "base", "n", "schedules"};
  EXPECT_EQ(drawn.shown_keys(), want);
  EXPECT_EQ(hidden.shown_keys(), want) << "laid out unseen when the controls are hidden";
  // Nothing of the unseen layout is a probe (a test or the page could aim at it).
  hidden.make_current();
  EXPECT_EQ(hidden.ui().probes.count("slider.n"), 0u);
  drawn.make_current();
  EXPECT_EQ(drawn.ui().probes.count("slider.n"), 1u);
  const auto form = nlohmann::json::parse(hidden.form());
  EXPECT_EQ(form["controls"], false);
  EXPECT_EQ(form["params"][2]["value"], "100");
  const auto words = nlohmann::json::parse(drawn.describe());
  EXPECT_EQ(words["params"]["n"], "100");
}

}  // namespace
