// "A new view or model starts fresh", the app's one rule (app/url_state.h's merged_state, which the page's
// setState asks through posenc_merged_state): every view switch keeps exactly the app-level keys, a switch to
// another preset model keeps the view and the app-level keys, and none, custom or the same model keep every
// key. Properties over every view, every preset and every app-level key.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "app/app.h"
#include "app/state_params.h"
#include "app/url_state.h"
#include "model_io/presets.h"

namespace {

using posenc::app::App;
using posenc::app::kKeysKeptAcrossViews;
using posenc::app::merged_state;
using posenc::app::parse_query;
using posenc::app::StateMap;

// Every app-level key away from its default (figure: the view's main figure).
const char* const kAppKeys = "&embed=1&controls=compact&theme=dark&lang=zh";

std::set<std::string> keys_of(const StateMap& state) {
  std::set<std::string> out;
  for (const auto& [key, value] : state) out.insert(key);
  return out;
}

std::set<std::string> kept_keys() { return {std::begin(kKeysKeptAcrossViews), std::end(kKeysKeptAcrossViews)}; }

// The state App reaches for `query`, as a map.
StateMap app_state(const std::string& query) {
  App a;
  a.load_state_query(query);
  return parse_query(a.state_query());
}

// The kept keys are the app's own: what an App with every app-level key set writes beyond its view's keys,
// less view and figure (a plot of one view).
TEST(FreshState, KeptKeysAreTheAppLevelKeysButFigure) {
  for (const std::string& view : App::view_ids()) {
    App a;
    a.load_state_query("view=" + view + kAppKeys);
    const StateMap state = parse_query(a.state_query());
    std::set<std::string> app_level;
    const posenc::app::ParamList declared = a.current_view()->param_list();
    for (const auto& [key, value] : state)
      if (!declared.find(key) && key != "view" && key != "figure") app_level.insert(key);
    EXPECT_EQ(app_level, kept_keys()) << view;
  }
}

TEST(FreshState, EveryViewSwitchKeepsExactlyTheAppLevelKeys) {
  const std::vector<std::string> views = App::view_ids();
  for (const std::string& from : views) {
    const StateMap current = app_state("view=" + from + kAppKeys);
    for (const std::string& to : views) {
      const StateMap merged = merged_state(current, {{"view", to}});
      if (to == from) {
        EXPECT_EQ(merged, current) << from;  // the same view keeps everything
        continue;
      }
      std::set<std::string> want = kept_keys();
      want.insert("view");
      EXPECT_EQ(keys_of(merged), want) << from << " -> " << to;
      EXPECT_EQ(merged.at("view"), to);
      for (const char* key : kKeysKeptAcrossViews) EXPECT_EQ(merged.at(key), current.at(key)) << key;
    }
  }
}

// For every view that takes a model and every preset: another preset starts fresh (view and app-level keys
// kept, and the App then reaches exactly what a fresh ?model=<id> gives); none, custom, "" and the same
// model keep every key.
TEST(FreshState, AnotherModelKeepsTheViewAndAppLevelKeys) {
  int views_with_models = 0;
  for (const std::string& view : App::view_ids()) {
    const StateMap current = app_state("view=" + view + kAppKeys);
    if (!current.count("model")) {
      // A view without a model key has none to replace: the partial's model goes on top of every key.
      StateMap want = current;
      want["model"] = "qwen2-7b";
      EXPECT_EQ(merged_state(current, {{"model", "qwen2-7b"}}), want) << view;
      continue;
    }
    ++views_with_models;
    for (const auto& preset : posenc::model_io::model_presets()) {
      const StateMap merged = merged_state(current, {{"model", preset.id}});
      if (preset.id == current.at("model")) {
        EXPECT_EQ(merged, current) << view << " " << preset.id;
        continue;
      }
      std::set<std::string> want = kept_keys();
      want.insert({"view", "model"});
      EXPECT_EQ(keys_of(merged), want) << view << " -> " << preset.id;
    }
    for (const char* same : {"none", "custom", ""}) {
      StateMap want = current;
      want["model"] = same;
      EXPECT_EQ(merged_state(current, {{"model", same}}), want) << view << " model=" << same;
    }
    // The App reaches the fresh state: the old model's keys changed first, then another preset.
    const std::string other = posenc::model_io::model_presets().back().id;
    ASSERT_NE(other, current.at("model"));
    App a;
    a.load_state_query("view=" + view + kAppKeys);
    StateMap changed = current;
    changed["target"] = "12345";
    a.load_state_query(posenc::app::to_query(changed));
    a.load_state_query(posenc::app::to_query(merged_state(parse_query(a.state_query()), {{"model", other}})));
    EXPECT_EQ(parse_query(a.state_query()), app_state("view=" + view + "&model=" + other + kAppKeys)) << view;
  }
  EXPECT_GE(views_with_models, 2);
}

// The partial's keys always win, and a view switch with other keys takes them into the new view.
TEST(FreshState, ThePartialGoesOnTop) {
  const StateMap current = app_state(std::string("view=scores&n=20") + kAppKeys);
  const StateMap merged = merged_state(current, {{"view", "waves"}, {"n", "64"}, {"theme", "light"}});
  EXPECT_EQ(merged.at("n"), "64");
  EXPECT_EQ(merged.at("theme"), "light");
  EXPECT_EQ(merged.at("lang"), "zh");
  EXPECT_EQ(merged_state(current, {{"n", "33"}}).at("n"), "33");
  EXPECT_EQ(merged_state(current, {}), current);
}

}  // namespace
