#include "app/input.h"

#include <imgui_internal.h>

#include <algorithm>
#include <cmath>

#include "app/ui_state.h"

namespace posenc::app {

void set_touch_frame(const TouchFrame& touch) { current_ui().touch = touch; }
const TouchFrame& touch_frame() { return current_ui().touch; }

void set_coarse_pointer(bool coarse) { current_ui().coarse_pointer = coarse; }

bool finger_pointer() { return current_ui().coarse_pointer || touch_frame().touch; }
float finger_frame_padding() {
  return std::max(ImGui::GetStyle().FramePadding.y, std::ceil((kFingerTarget - ImGui::GetFontSize()) / 2.0f));
}

bool readout_allowed() { return !touch_frame().touch || touch_frame().long_press; }

void begin_readout() {
  if (touch_frame().touch) {
    // Clear of the finger (a tooltip beside the pointer would be under the hand): above it in the lower
    // half of the frame, below it in the upper half; across, the finger's place in the frame is the
    // anchor's place in the tooltip, so a tooltip no wider than the frame stays inside it.
    const ImVec2 at = ImGui::GetIO().MousePos;
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const float fx = std::clamp((at.x - vp->Pos.x) / std::max(1.0f, vp->Size.x), 0.0f, 1.0f);
    const bool above = at.y - vp->Pos.y > 0.5f * vp->Size.y;
    ImGui::SetNextWindowPos(ImVec2(at.x, above ? at.y - 40.0f : at.y + 40.0f), ImGuiCond_Always, ImVec2(fx, above ? 1.0f : 0.0f));
  }
  ImGui::BeginTooltip();
  // Lines wrap at the frame's width (a phone is narrower than a line of 17-digit values).
  const float frame_w = ImGui::GetMainViewport()->Size.x;
  ImGui::PushTextWrapPos(std::max(120.0f, frame_w - 2 * ImGui::GetStyle().WindowPadding.x - 8));
  // ImGui's log captures the text drawn from here on (one line per text line).
  if (!ImGui::GetCurrentContext()->LogEnabled) {
    ImGui::LogToBuffer();
    current_ui().logging_readout = true;
  }
}

void end_readout() {
  UiState& ui = current_ui();
  if (ui.logging_readout) {
    ImGuiContext& g = *ImGui::GetCurrentContext();
    std::string text = g.LogBuffer.c_str();
    ImGui::LogFinish();
    ui.logging_readout = false;
    // Words only: one line per text line, no separator rules ("----"), no blank lines, single spaces.
    std::string line;
    auto flush = [&] {
      while (!line.empty() && line.back() == ' ') line.pop_back();
      if (line.find_first_not_of("- ") != std::string::npos) ui.readout += (ui.readout.empty() ? "" : "\n") + line;
      line.clear();
    };
    for (char c : text) {
      if (c == '\n' || c == '\r') flush();
      else if (c == ' ' || c == '\t') {
        if (!line.empty() && line.back() != ' ') line += ' ';
      } else line += c;
    }
    flush();
  }
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

const std::string& last_readout() { return current_ui().readout; }

void add_zoomable(ImVec2 min, ImVec2 max) { current_ui().zoomable.emplace_back(min, max); }

bool zoomable_at(ImVec2 point) {
  for (const auto& [min, max] : current_ui().zoomable)
    if (ImRect(min, max).Contains(point)) return true;
  return false;
}

const std::vector<std::pair<ImVec2, ImVec2>>& zoomable_areas() { return current_ui().zoomable; }

void set_zoom_window(const std::string& name, ImVec4 window) { current_ui().zoom[name] = window; }

bool find_zoom_window(const std::string& name, ImVec4* window) {
  const auto& zoom = current_ui().zoom;
  auto it = zoom.find(name);
  if (it == zoom.end()) return false;
  *window = it->second;
  return true;
}

void map_enter_in_menus() {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  ImGuiIO& io = g.IO;
  if (!(io.ConfigFlags & ImGuiConfigFlags_NavEnableKeyboard) || g.ActiveId != 0 || !g.NavWindow) return;
  auto down = [&](ImGuiKey key) { return io.KeyMap[key] >= 0 && ImGui::IsKeyDown(io.KeyMap[key]); };
  if (!down(ImGuiKey_Enter) && !down(ImGuiKey_KeyPadEnter)) return;
  const bool in_menu =
      g.NavLayer == ImGuiNavLayer_Menu || (g.NavWindow->Flags & (ImGuiWindowFlags_ChildMenu | ImGuiWindowFlags_Popup));
  if (in_menu) io.NavInputs[ImGuiNavInput_Activate] = 1.0f;
}

void begin_input_frame() {
  UiState& ui = current_ui();
  ui.readout.clear();
  ui.zoomable.clear();
  ui.zoom.clear();
}

}  // namespace posenc::app
