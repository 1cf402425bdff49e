// Two Apps in one process share no UI state (app/ui_state.h): each App's frames record their own probes,
// a loaded model reaches only the App it is loaded into, touch and the file picker are set per App; and
// the layout width classes (layout_mode) and the URL grammar of the app-level keys (app/url_state.h).
#include <gtest/gtest.h>
#include <imgui.h>

#include <string>

#include "app/app.h"
#include "app/input.h"
#include "app/model_link.h"
#include "app/probe.h"
#include "app/state_params.h"
#include "app/url_state.h"
#include "app/views/views.h"
#include "app_test_util.h"

using posenc::app::App;
using posenc::test::ImGuiFrames;
using posenc::test::state_value;

namespace {

TEST(AppState, EachAppRecordsItsOwnProbes) {
  ImGuiFrames imgui;
  App with_menu, embed;
  with_menu.load_state_query("view=frequencies");
  embed.load_state_query("view=frequencies&embed=1");
  imgui.frame(with_menu);
  imgui.frame(embed);
  // The embed has no menu bar; the other App's menu is still its last frame's (not the embed's).
  with_menu.make_current();
  EXPECT_NE(posenc::app::probe_names().find("menu.view"), std::string::npos) << posenc::app::probe_names();
  ImVec2 min, max;
  EXPECT_TRUE(posenc::app::find_probe("menu.share", &min, &max));
  embed.make_current();
  EXPECT_EQ(posenc::app::probe_names().find("menu.view"), std::string::npos) << posenc::app::probe_names();
  EXPECT_NE(posenc::app::probe_names().find("text.caption"), std::string::npos) << posenc::app::probe_names();
  EXPECT_EQ(with_menu.ui().probes.count("menu.view"), 1u);
  EXPECT_EQ(embed.ui().probes.count("menu.view"), 0u);
}

TEST(AppState, ALoadedModelReachesOnlyTheAppItIsLoadedInto) {
  const std::string config = R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
                                 "max_position_embeddings": 8192, "rope_theta": 500000.0,
                                 "rope_scaling": {"rope_type": "linear", "factor": 2.0}})";
  const auto* bytes = reinterpret_cast<const unsigned char*>(config.data());
  App loaded, other;
  loaded.load_state_query("view=rope");
  other.load_state_query("view=rope");
  const std::string before = other.state_query();
  const std::string query = loaded.load_model(bytes, config.size(), "rope");
  EXPECT_NE(query.find("model=custom"), std::string::npos) << query;
  loaded.load_state_query(query);
  EXPECT_EQ(loaded.notices(), "");
  EXPECT_EQ(state_value(loaded, "model"), "custom");
  EXPECT_EQ(state_value(loaded, "scaling"), "linear");
  // The other App's views received nothing.
  EXPECT_EQ(other.state_query(), before);
  EXPECT_EQ(state_value(other, "model"), "");
  // The free function loads into the current App (the one made or made current last).
  other.make_current();
  EXPECT_NE(posenc::app::load_model_bytes(bytes, config.size(), "rope").find("model=custom"), std::string::npos);
  EXPECT_EQ(loaded.ui().model_sinks.size(), other.ui().model_sinks.size());
  EXPECT_EQ(loaded.ui().model_sinks.size(), 4u);  // the Model, RoPE, scores and Check views
}

TEST(AppState, TouchAndFilePickerArePerApp) {
  App first, second;
  first.make_current();
  posenc::app::TouchFrame touch;
  touch.touch = true;
  posenc::app::set_touch_frame(touch);
  posenc::app::set_model_file_picker(true);
  second.make_current();
  EXPECT_FALSE(posenc::app::touch_frame().touch);
  EXPECT_FALSE(second.ui().file_picker);
  EXPECT_TRUE(first.ui().touch.touch);
  EXPECT_TRUE(first.ui().file_picker);
  first.make_current();
  EXPECT_TRUE(posenc::app::readout_allowed() == false);  // a finger without a long-press: no readout
}

TEST(AppState, LayoutModeWidthClasses) {
  using posenc::app::layout_mode;
  using posenc::app::LayoutMode;
  EXPECT_EQ(layout_mode(1280), LayoutMode::Wide);
  EXPECT_EQ(layout_mode(1000), LayoutMode::Wide);
  EXPECT_EQ(layout_mode(999.5f), LayoutMode::Medium);
  EXPECT_EQ(layout_mode(720), LayoutMode::Medium);
  EXPECT_EQ(layout_mode(560), LayoutMode::Medium);
  EXPECT_EQ(layout_mode(559), LayoutMode::Narrow);
  EXPECT_EQ(layout_mode(390), LayoutMode::Narrow);
}

TEST(AppState, AppKeysAreWrittenOnlyWhenSet) {
  posenc::app::AppKeys keys;
  EXPECT_TRUE(keys.set_keys().empty());
  keys.controls = posenc::app::ControlsMode::Compact;
  keys.figure = "pe";
  keys.theme = posenc::app::Theme::Dark;
  const std::vector<std::pair<std::string, std::string>> want = {{"controls", "compact"}, {"figure", "pe"}, {"theme", "dark"}};
  EXPECT_EQ(keys.set_keys(), want);
  posenc::app::Notices notices;
  keys.read_theme("sepia", notices);
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_EQ(notices[0].key, "theme");
  EXPECT_EQ(keys.theme, posenc::app::Theme::Dark);  // a rejected value changes nothing
  keys.read_theme("", notices);
  EXPECT_EQ(keys.theme, posenc::app::Theme::Auto);
}

// A model= that is no preset: one notice, naming the id once, with the nearest preset ids (the id's family
// first) and the model the view shows instead (the views that take a model, and the Model view's compare=).
TEST(AppState, AnUnknownPresetIsOneNoticeWithTheNearestIdsAndTheModelShown) {
  const auto count = [](const std::string& text, const std::string& word) {
    size_t n = 0;
    for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) ++n;
    return n;
  };
  for (const std::string view : {"model", "rope", "scores", "check"}) {
    App app;
    app.load_state_query("view=" + view + "&model=llama-3.1-8b");
    app.load_state_query("view=" + view + "&model=llama-3.1-9b");
    const auto notices = app.notice_list();
    ASSERT_EQ(notices.size(), 1u) << view << ": " << app.notices();
    EXPECT_EQ(notices[0].key, "model");
    EXPECT_EQ(count(notices[0].message, "llama-3.1-9b"), 1u) << notices[0].message;
    EXPECT_NE(notices[0].message.find("nearest: llama-3.1-8b, "), std::string::npos) << notices[0].message;
    // The model it names is the one the view shows: the Model view keeps its model; the views whose model
    // is optional read the state afresh and show none.
    std::string shown = state_value(app, "model");
    if (shown == "<absent>") shown.clear();
    EXPECT_EQ(shown, view == "model" ? "llama-3.1-8b" : "") << view;
    const std::string said = shown.empty() ? "showing none)" : "showing " + posenc::app::model_label(shown) + " (" + shown + "))";
    EXPECT_NE(notices[0].message.find(said), std::string::npos) << notices[0].message;
  }
  App app;
  app.load_state_query("view=model&model=llama-3.1-8b&compare=zzzzzz");
  const auto notices = app.notice_list();
  ASSERT_EQ(notices.size(), 1u) << app.notices();
  EXPECT_EQ(notices[0].key, "compare");
  EXPECT_EQ(notices[0].message, "compare=\"zzzzzz\" is not a preset (docs/models.md lists them; showing none): ignored.");
}

}  // namespace
