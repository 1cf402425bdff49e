#include "app/probe.h"

#include <map>

namespace posenc::app {
namespace {
std::map<std::string, std::pair<ImVec2, ImVec2>>& probes() {
  static std::map<std::string, std::pair<ImVec2, ImVec2>> map;
  return map;
}
bool g_wheel_requested = false;
}  // namespace

void probe_last_item(const char* name) { probe_rect(name, ImGui::GetItemRectMin(), ImGui::GetItemRectMax()); }

void probe_rect(const char* name, ImVec2 min, ImVec2 max) { probes()[name] = {min, max}; }

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
  g_wheel_requested = false;
}

void request_wheel() { g_wheel_requested = true; }
bool wheel_requested() { return g_wheel_requested; }

}  // namespace posenc::app
