// The small plotting layer shared by all views: nice axis ticks, number formatting, axes drawn
// around a plot rectangle with ImDrawList.
#pragma once

#include <imgui.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/noncopyable.h"

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

// The same on an index axis: integer ticks only (a step of at least 1).
std::vector<double> integer_ticks(double lo, double hi, int max_ticks);

// Draws tick marks and labels left of (y) or below (x) the rectangle [min, max], and the axis title.
// `integer`: an index axis, ticked on integers only. The y title sits above the axis, never left of
// `left_limit` (the plot's own left edge: a long title never reaches into the plot beside it).
void draw_axis_x(ImDrawList* dl, ImVec2 min, ImVec2 max, const AxisMap& ax, const char* title, bool integer = false);
void draw_axis_y(ImDrawList* dl, ImVec2 min, ImVec2 max, const AxisMap& ax, const char* title, bool integer = false,
                 float left_limit = -1e30f);

}  // namespace posenc::app

namespace posenc::app {

// One curve of a line plot. x and y have the same length; non-finite points break the line.
struct Series {
  std::string label;
  std::vector<double> x, y;
  ImU32 color = 0;       // 0 = next colour of the palette
  bool markers = false;  // draw a dot at every point
  bool steps = false;    // draw as a staircase (value held until the next x)
};

struct LinePlotOptions {
  const char* x_title = "";
  const char* y_title = "";
  bool log_y = false;                 // log10 y axis (non-positive values are skipped)
  double y_min = NAN, y_max = NAN;    // fixed y range; NaN = fit the data
  double x_min = NAN, x_max = NAN;    // fixed x range; NaN = fit the data
  const char* hover_format = "%.6g";  // printf format of values in the hover readout
};

struct PlotHover {
  bool active = false;
  double x = 0;  // data x under the mouse
};

// Categorical palette (colour-blind-friendly, Okabe-Ito order).
ImU32 palette_color(int i);
// A curve colour as drawn on the current theme: on a light background the palette's light colours (its
// yellow, its grey) are darkened until they read; every other colour, and every colour on a dark
// background, is unchanged.
ImU32 readable_color(ImU32 color);

// Draws curves with axes, ticks, a legend and a hover readout (nearest point of every series).
// `probe_name` records the plot rectangle for tests.
PlotHover line_plot(const char* probe_name, ImVec2 size, const std::vector<Series>& series, const LinePlotOptions& options);
// line_plot on a log10 y axis with these axis titles (translated by the caller) and the other options' defaults.
PlotHover log_plot(const char* probe_name, ImVec2 size, const std::vector<Series>& series, const char* x_title,
                   const char* y_title);

// While it lives, the series' labels (English, as the exports keep them) are the interface language's
// texts (tr_message: an entry or a template's instance, e.g. "component {0}"); the English return after.
class TranslatedLabels : NonCopyable {
 public:
  explicit TranslatedLabels(std::vector<Series>& series);
  ~TranslatedLabels();

 private:
  std::vector<Series>& series_;
  std::vector<std::string> english_;
};

}  // namespace posenc::app
