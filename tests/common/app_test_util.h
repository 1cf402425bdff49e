// Helpers of the tests that drive a whole App: one key of its URL state, and ImGui frames without a window.
#pragma once

#include <imgui.h>

#include <string>

#include "app/app.h"
#include "app/state_params.h"

namespace posenc::test {

// The value of one URL key in the app's state, "<absent>" when the state does not carry it.
inline std::string state_value(const app::App& app, const std::string& key) {
  const auto s = app::parse_query(app.state_query());
  const auto it = s.find(key);
  return it == s.end() ? std::string("<absent>") : it->second;
}

// An ImGui context with its font atlas built: enough for App::frame without a GL context, for views that
// draw with ImGui's draw lists alone (the frequencies view: plots, no heatmap textures).
class ImGuiFrames {
 public:
  ImGuiFrames() {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(1280, 800);
    io.DeltaTime = 1.0f / 60;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  }
  ~ImGuiFrames() { ImGui::DestroyContext(); }
  ImGuiFrames(const ImGuiFrames&) = delete;
  ImGuiFrames& operator=(const ImGuiFrames&) = delete;
  void frame(app::App& app) {
    ImGui::NewFrame();
    app.frame();
    ImGui::Render();
  }
};

}  // namespace posenc::test
