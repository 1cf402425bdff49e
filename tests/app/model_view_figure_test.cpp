// The Model view's figures drawn alone (an embed's figure=): with a second model (compare=), a panel figure
// shows both models' panels, each named, not only the first model's.
#include <gtest/gtest.h>
#include <imgui.h>

#include <string>

#include "app/app.h"
#include "app/probe.h"
#include "app_test_util.h"

using posenc::app::App;
using posenc::test::ImGuiFrames;

namespace {

// Qwen2-7B has 28 layers, Llama-3.1-8B 32: strip.layer.31 is drawn only by the compared model's strip.
TEST(ModelViewFigure, LayersAloneWithACompareDrawBothStrips) {
  ImGuiFrames imgui;
  ImGui::GetIO().DisplaySize = ImVec2(400, 300);
  App app;
  app.load_state_query("view=model&model=qwen2-7b&compare=llama-3.1-8b&embed=1&figure=layers");
  imgui.frame(app);
  imgui.frame(app);
  ImVec2 min, max;
  EXPECT_TRUE(posenc::app::find_probe("strip.layer.27", &min, &max)) << posenc::app::probe_names();
  EXPECT_TRUE(posenc::app::find_probe("strip.layer.31", &min, &max)) << posenc::app::probe_names();
  // Without the second model the strip ends at layer 27.
  App alone;
  alone.load_state_query("view=model&model=qwen2-7b&embed=1&figure=layers");
  imgui.frame(alone);
  imgui.frame(alone);
  EXPECT_TRUE(posenc::app::find_probe("strip.layer.27", &min, &max)) << posenc::app::probe_names();
  EXPECT_FALSE(posenc::app::find_probe("strip.layer.31", &min, &max)) << posenc::app::probe_names();
}

}  // namespace
