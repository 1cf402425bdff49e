#include "app/plot.h"

#include <cmath>
#include <cstdio>

namespace posenc::app {

std::vector<double> nice_ticks(double lo, double hi, int max_ticks) {
  std::vector<double> ticks;
  if (!(hi > lo) || max_ticks < 1 || !std::isfinite(lo) || !std::isfinite(hi)) return ticks;
  const double raw = (hi - lo) / max_ticks;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * mag;
    if (step >= raw) break;
  }
  const double first = std::ceil(lo / step - 1e-9) * step;
  for (double v = first; v <= hi + step * 1e-9; v += step) ticks.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
  return ticks;
}

std::string format_tick(double v) {
  char buf[32];
  if (std::abs(v - std::round(v)) < 1e-9 && std::abs(v) < 1e9)
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else
    std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

namespace {
ImU32 axis_color() { return ImGui::GetColorU32(ImGuiCol_Text); }
ImU32 tick_color() { return ImGui::GetColorU32(ImGuiCol_TextDisabled); }
}  // namespace

void draw_axis_x(ImDrawList* dl, ImVec2 min, ImVec2 max, const AxisMap& ax, const char* title) {
  const float width = max.x - min.x;
  const int max_ticks = std::max(2, int(width / 70.0f));
  for (double t : nice_ticks(std::min(ax.lo, ax.hi), std::max(ax.lo, ax.hi), max_ticks)) {
    const float x = ax.to_px(t);
    if (x < min.x - 0.5f || x > max.x + 0.5f) continue;
    dl->AddLine(ImVec2(x, max.y), ImVec2(x, max.y + 4), tick_color());
    const std::string s = format_tick(t);
    const ImVec2 sz = ImGui::CalcTextSize(s.c_str());
    dl->AddText(ImVec2(x - sz.x * 0.5f, max.y + 5), axis_color(), s.c_str());
  }
  if (title && *title) {
    const ImVec2 sz = ImGui::CalcTextSize(title);
    dl->AddText(ImVec2((min.x + max.x - sz.x) * 0.5f, max.y + 6 + ImGui::GetTextLineHeight()), axis_color(), title);
  }
}

void draw_axis_y(ImDrawList* dl, ImVec2 min, ImVec2 max, const AxisMap& ax, const char* title) {
  const float height = max.y - min.y;
  const int max_ticks = std::max(2, int(height / 40.0f));
  float widest = 0;
  for (double t : nice_ticks(std::min(ax.lo, ax.hi), std::max(ax.lo, ax.hi), max_ticks)) {
    const float y = ax.to_px(t);
    if (y < min.y - 0.5f || y > max.y + 0.5f) continue;
    dl->AddLine(ImVec2(min.x - 4, y), ImVec2(min.x, y), tick_color());
    const std::string s = format_tick(t);
    const ImVec2 sz = ImGui::CalcTextSize(s.c_str());
    widest = std::max(widest, sz.x);
    dl->AddText(ImVec2(min.x - 6 - sz.x, y - sz.y * 0.5f), axis_color(), s.c_str());
  }
  if (title && *title) {
    // ImGui has no rotated text: stack the title above the axis instead.
    const ImVec2 sz = ImGui::CalcTextSize(title);
    dl->AddText(ImVec2(min.x - 6 - std::max(widest, sz.x * 0.5f), min.y - sz.y - 4), axis_color(), title);
  }
}

}  // namespace posenc::app
