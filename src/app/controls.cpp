#include "app/controls.h"

#include <imgui.h>

#include <algorithm>

#include "app/probe.h"
#include "app/state_params.h"

namespace posenc::app {

bool even_width_slider(const char* label, int& d, int max_d) {
  ImGui::TextUnformatted(label);
  int value = d;
  if (!ImGui::SliderInt("##d", &value, 2, max_d, "d = %d", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp)) {
    probe_last_item("slider.d");
    return false;
  }
  probe_last_item("slider.d");
  value = std::max(2, value - value % 2);
  const bool changed = value != d;
  d = value;
  return changed;
}

bool base_slider(double& base) {
  ImGui::TextUnformatted("Base");
  const bool changed = ImGui::SliderScalar("##base", ImGuiDataType_Double, &base, &kBaseMin, &kBaseMax, "base = %.0f",
                                           ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  probe_last_item("slider.base");
  return changed;
}

void error_text(const std::string& message) {
  if (message.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
  ImGui::TextWrapped("%s", message.c_str());
  ImGui::PopStyleColor();
}

}  // namespace posenc::app
