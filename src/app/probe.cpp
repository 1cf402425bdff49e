#include "app/probe.h"

#include <imgui_internal.h>

#include <algorithm>
#include <map>

#include "app/input.h"
#include "app/ui_state.h"

namespace posenc::app {
namespace {
std::map<std::string, std::pair<ImVec2, ImVec2>>& probes() { return current_ui().probes; }
}  // namespace

void probe_last_item(const char* name) { probe_rect(name, ImGui::GetItemRectMin(), ImGui::GetItemRectMax()); }

void probe_rect(const char* name, ImVec2 min, ImVec2 max) {
  if (current_ui().census) return;  // controls laid out unseen are nowhere to reach
  // Only what is visible: the part inside the current window's clip rectangle (a control scrolled out of
  // its panel, or a plot below the fold, is not where a test or a reader can reach it).
  if (ImGui::GetCurrentContext() && ImGui::GetCurrentContext()->WithinFrameScope) {
    const ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 cmin = dl->GetClipRectMin(), cmax = dl->GetClipRectMax();
    min = ImVec2(std::max(min.x, cmin.x), std::max(min.y, cmin.y));
    max = ImVec2(std::min(max.x, cmax.x), std::min(max.y, cmax.y));
    if (max.x <= min.x || max.y <= min.y) return;
  }
  probes()[name] = {min, max};
}

void probe_plot(const std::string& figure, const char* existing) {
  ImVec2 mn, mx;
  if (find_probe(existing, &mn, &mx)) probe_rect(("plot." + figure).c_str(), mn, mx);
  ImVec4 window;
  if (find_zoom_window(existing, &window)) set_zoom_window("plot." + figure, window);
}

std::string probe_names() {
  std::string out;
  for (const auto& [name, rect] : probes()) out += (out.empty() ? "" : ",") + name;
  return out;
}

bool find_probe(const std::string& name, ImVec2* min, ImVec2* max) {
  auto it = probes().find(name);
  if (it == probes().end()) return false;
  *min = it->second.first;
  *max = it->second.second;
  return true;
}

std::vector<NamedRect> all_probes() {
  std::vector<NamedRect> out;
  for (const auto& [name, rect] : probes()) out.push_back({name, rect.first, rect.second});
  return out;
}

void clear_probes() {
  probes().clear();
  current_ui().wheel_requested = false;
}

void request_wheel() { current_ui().wheel_requested = true; }
bool wheel_requested() { return current_ui().wheel_requested; }

}  // namespace posenc::app
