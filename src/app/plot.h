// The small plotting layer shared by all views: nice axis ticks, number formatting, axes drawn
// around a plot rectangle with ImDrawList.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

namespace posenc::app {

// At most ~max_ticks "nice" values (1, 2, 5 x 10^k steps) inside [lo, hi].
std::vector<double> nice_ticks(double lo, double hi, int max_ticks);

// Short label for a tick value: integers without decimals, otherwise up to 4 significant digits.
std::string format_tick(double v);

// A linear axis: maps the data interval [lo, hi] onto pixels [p0, p1].
struct AxisMap {
  double lo = 0, hi = 1;
  float p0 = 0, p1 = 1;
  float to_px(double v) const { return p0 + float((v - lo) / (hi - lo)) * (p1 - p0); }
  double to_value(float px) const { return lo + (px - p0) / (p1 - p0) * (hi - lo); }
};

// Draws tick marks and labels left of (y) or below (x) the rectangle [min, max], and the axis title.
void draw_axis_x(ImDrawList* dl, ImVec2 min, ImVec2 max, const AxisMap& ax, const char* title);
void draw_axis_y(ImDrawList* dl, ImVec2 min, ImVec2 max, const AxisMap& ax, const char* title);

}  // namespace posenc::app
