// The RoPE view playing: in every frame the position slider and the rotation's text show the same position
// (the animation advances once per frame, before either is drawn), and it moves from frame to frame.
// Frames run through ImGui without a renderer; ImGui's text log records what each frame drew.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "app/app.h"

namespace {

std::string last_log;

// Every "p = <n>" one frame of the app drew (the slider's value text and the rotation's line).
std::vector<std::string> positions_drawn(posenc::app::App& app, float seconds) {
  ImGuiIO& io = ImGui::GetIO();
  io.DeltaTime = seconds;
  // ImGui's log to a file: the end of the app's window finishes a log (and clears a buffer log), while a
  // file keeps what was written.
  const std::string path = testing::TempDir() + "posenc_rope_play_log.txt";
  std::remove(path.c_str());
  ImGui::NewFrame();
  ImGui::LogToFile(-1, path.c_str());
  app.frame();
  ImGui::LogFinish();
  ImGui::Render();
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  last_log = text.substr(0, 3000);
  std::vector<std::string> out;
  static const std::regex position(R"(\bp = (\d+))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), position); it != std::sregex_iterator(); ++it)
    out.push_back((*it)[1]);
  return out;
}

}  // namespace

TEST(RopePlay, SliderAndRotationShowThePositionOfTheSameFrame) {
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(1280, 1600);  // tall enough that the pos slider is on screen beside the plots
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  {
    posenc::app::App app;
    // 256 positions swept in ~12 s: ~21 a second, so each 0.3 s frame moves the position by ~6.
    app.load_state_query("view=rope&play=1&pair=0&dim=64&target=256&orig=128&scaling=none&compare=0");
    for (int i = 0; i < 3; ++i) positions_drawn(app, 0.3f);  // windows appear after their first frames
    std::set<std::string> seen;
    for (int frame = 0; frame < 12; ++frame) {
      const std::vector<std::string> shown = positions_drawn(app, 0.3f);
      ASSERT_GE(shown.size(), 2u) << "frame " << frame << ": the slider and the rotation text in " << last_log;
      for (const std::string& p : shown) EXPECT_EQ(p, shown.front()) << "frame " << frame;
      seen.insert(shown.front());
    }
    EXPECT_GE(seen.size(), 8u) << "the position moves while playing";
    EXPECT_NE(app.state_query().find("pos=0"), std::string::npos) << "playing does not rewrite the state";
  }
  ImGui::DestroyContext();
}
