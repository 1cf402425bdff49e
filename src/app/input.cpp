#include "app/input.h"

#include <imgui_internal.h>

#include <algorithm>

namespace posenc::app {
namespace {

std::string g_readout;
bool g_logging = false;  // between begin_readout and end_readout

}  // namespace

void begin_readout() {
  ImGui::BeginTooltip();
  // Lines wrap at the frame's width (a phone is narrower than a line of 17-digit values).
  const float frame_w = ImGui::GetMainViewport()->Size.x;
  ImGui::PushTextWrapPos(std::max(120.0f, frame_w - 2 * ImGui::GetStyle().WindowPadding.x - 8));
  // ImGui's log captures the text drawn from here on (one line per text line).
  if (!ImGui::GetCurrentContext()->LogEnabled) {
    ImGui::LogToBuffer();
    g_logging = true;
  }
}

void end_readout() {
  if (g_logging) {
    ImGuiContext& g = *ImGui::GetCurrentContext();
    std::string text = g.LogBuffer.c_str();
    ImGui::LogFinish();
    g_logging = false;
    // Words only: one line per text line, no separator rules ("----"), no blank lines, single spaces.
    std::string line;
    auto flush = [&] {
      while (!line.empty() && line.back() == ' ') line.pop_back();
      if (line.find_first_not_of("- ") != std::string::npos) g_readout += (g_readout.empty() ? "" : "\n") + line;
      line.clear();
    };
    for (char c : text) {
      if (c == '\n' || c == '\r') flush();
      else if (c == ' ' || c == '\t') { if (!line.empty() && line.back() != ' ') line += ' '; }
      else line += c;
    }
    flush();
  }
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

const std::string& last_readout() { return g_readout; }

void begin_input_frame() {
  g_readout.clear();
}

}  // namespace posenc::app
