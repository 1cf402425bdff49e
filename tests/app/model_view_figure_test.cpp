// The Model view's figures drawn alone (an embed's figure=): with a second model (compare=), a panel figure
// shows both models' panels, each named, not only the first model's. The cards' text as drawn (ImGui's log).
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

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

// The text one frame of `app` draws in its first top-level window (ImGui logs it to the clipboard when that
// window ends: End() calls LogFinish).
std::string g_clipboard;
std::string drawn_text(App& app) {
  ImGuiIO& io = ImGui::GetIO();
  io.SetClipboardTextFn = [](void*, const char* text) { g_clipboard += text; };
  g_clipboard.clear();
  ImGui::NewFrame();
  ImGui::LogToClipboard();
  app.frame();
  ImGui::LogFinish();
  ImGui::Render();
  return g_clipboard;
}

// Gemma-4-31B-it's card: each layer type's rotary dims are "of" its own head width. The full layers are
// global_head_dim 512 wide (huggingface/transformers@c308a309e651a7e033f683353f3f75aa66d29502
// models/gemma4/modeling_gemma4.py, Gemma4TextAttention), with proportional RoPE (partial_rotary_factor 0.25): 64
// of 256 pairs rotate; the sliding layers are head_dim 256 wide at base 1e4.
TEST(ModelViewCard, Gemma4LayerTypesSayTheirOwnHeadWidth) {
  ImGuiFrames imgui;
  App app;
  app.load_state_query("view=model&model=gemma-4-31b");
  imgui.frame(app);
  imgui.frame(app);
  const std::string text = drawn_text(app);
  EXPECT_NE(text.find("rotary dims 512 of 512 (256 pairs: 64 rotating, 192 at frequency 0; half layout), base 1e+06"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("rotary dims 256 of 256 (128 pairs, half layout), base 10000"), std::string::npos) << text;
  EXPECT_EQ(text.find("of 256 (256 pairs"), std::string::npos) << text;
  // A model without a layer type of its own width reads as before.
  App llama;
  llama.load_state_query("view=model&model=llama-3.1-8b");
  imgui.frame(llama);
  imgui.frame(llama);
  const std::string plain = drawn_text(llama);
  EXPECT_NE(plain.find("rotary dims 128 of 128 (64 pairs, half layout)"), std::string::npos) << plain;
}

}  // namespace
