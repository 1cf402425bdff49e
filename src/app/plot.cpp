// The plotting layer shared by all views (plot.h). Sections, top to bottom:
//   ticks and labels     nice_ticks, integer_ticks, format_tick
//   axes                 draw_axis_x, draw_axis_y
//   colours              palette_color, readable_color
//   screen geometry      segments against a rectangle, plot_y, nearest_index, screen_runs (decimation)
//   line_plot's phases   fit, axes, items, legend, hover; line_plot runs them in that order
#include "app/plot.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "app/fonts.h"
#include "app/i18n.h"

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

std::vector<double> integer_ticks(double lo, double hi, int max_ticks) {
  std::vector<double> ticks;
  if (!(hi >= lo) || !std::isfinite(lo) || !std::isfinite(hi)) return ticks;
  const double first = std::ceil(lo - 1e-9), last = std::floor(hi + 1e-9);
  if (last < first) return ticks;
  // The step nice_ticks would take (also when only one of its ticks falls inside [lo, hi]), at least 1.
  const double raw = (hi - lo) / std::max(1, max_ticks);
  double step = 1.0;
  if (raw > 0 && std::isfinite(raw)) {
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
      step = m * mag;
      if (step >= raw) break;
    }
  }
  step = std::max(1.0, std::round(step));
  for (double v = std::ceil(first / step) * step; v <= last; v += step) ticks.push_back(v == 0 ? 0.0 : v);  // no "-0"
  if (ticks.empty()) ticks.push_back(first);
  return ticks;
}

std::string format_tick(double v) {
  char buf[32];
  if (std::abs(v - std::round(v)) < 1e-9 && std::abs(v) < 1e9)
    std::snprintf(buf, sizeof buf, "%.0f", std::round(v) + 0.0);  // + 0.0: never "-0"
  else std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

namespace {
ImU32 axis_color() { return ImGui::GetColorU32(ImGuiCol_Text); }
ImU32 tick_color() { return ImGui::GetColorU32(ImGuiCol_TextDisabled); }
}  // namespace

void draw_axis_x(ImDrawList* dl, ImVec2 min, ImVec2 max, const AxisMap& ax, const char* title, bool integer) {
  const float width = max.x - min.x;
  const int max_ticks = std::max(3, int(width / 70.0f));  // at least two labelled ticks on a small plot
  const double lo = std::min(ax.lo, ax.hi), hi = std::max(ax.lo, ax.hi);
  {
    const NumberFontScope numbers;
    for (double t : integer ? integer_ticks(lo, hi, max_ticks) : nice_ticks(lo, hi, max_ticks)) {
      const float x = ax.to_px(t);
      if (x < min.x - 0.5f || x > max.x + 0.5f) continue;
      dl->AddLine(ImVec2(x, max.y), ImVec2(x, max.y + 4), tick_color());
      const std::string s = format_tick(t);
      const ImVec2 sz = ImGui::CalcTextSize(s.c_str());
      dl->AddText(ImVec2(x - sz.x * 0.5f, max.y + 5), axis_color(), s.c_str());
    }
  }
  if (title && *title) {
    const ImVec2 sz = ImGui::CalcTextSize(title);
    dl->AddText(ImVec2((min.x + max.x - sz.x) * 0.5f, max.y + 6 + ImGui::GetTextLineHeight()), axis_color(), title);
  }
}

void draw_axis_y(ImDrawList* dl, ImVec2 min, ImVec2 max, const AxisMap& ax, const char* title, bool integer, float left_limit) {
  const float height = max.y - min.y;
  const int max_ticks = std::max(3, int(height / 40.0f));
  float widest = 0;
  const double lo = std::min(ax.lo, ax.hi), hi = std::max(ax.lo, ax.hi);
  {
    const NumberFontScope numbers;
    for (double t : integer ? integer_ticks(lo, hi, max_ticks) : nice_ticks(lo, hi, max_ticks)) {
      const float y = ax.to_px(t);
      if (y < min.y - 0.5f || y > max.y + 0.5f) continue;
      dl->AddLine(ImVec2(min.x - 4, y), ImVec2(min.x, y), tick_color());
      const std::string s = format_tick(t);
      const ImVec2 sz = ImGui::CalcTextSize(s.c_str());
      widest = std::max(widest, sz.x);
      dl->AddText(ImVec2(min.x - 6 - sz.x, y - sz.y * 0.5f), axis_color(), s.c_str());
    }
  }
  if (title && *title) {
    // ImGui has no rotated text: stack the title above the axis instead.
    const ImVec2 sz = ImGui::CalcTextSize(title);
    // Never left of the visible area (a long title over a narrow tick column would be cut).
    const float x = std::max({min.x - 6 - std::max(widest, sz.x * 0.5f), dl->GetClipRectMin().x + 2, left_limit});
    dl->AddText(ImVec2(x, min.y - sz.y - 4), axis_color(), title);
  }
}

}  // namespace posenc::app

#include <algorithm>
#include <limits>

#include "app/input.h"
#include "app/probe.h"
#include "app/svg_export.h"
#include "app/theme.h"

namespace posenc::app {

ImU32 palette_color(int i) {
  static const ImU32 colors[] = {
      IM_COL32(86, 180, 233, 255),  IM_COL32(230, 159, 0, 255), IM_COL32(0, 158, 115, 255), IM_COL32(240, 228, 66, 255),
      IM_COL32(204, 121, 167, 255), IM_COL32(213, 94, 0, 255),  IM_COL32(0, 114, 178, 255), IM_COL32(200, 200, 200, 255),
  };
  return colors[((i % 8) + 8) % 8];
}

ImU32 readable_color(ImU32 color) {
  if (!ImGui::GetCurrentContext()) return color;
  const ImVec4 bg = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
  if (bg.x + bg.y + bg.z < 1.5f) return color;  // a dark theme: every palette colour reads
  ImVec4 c = ImGui::ColorConvertU32ToFloat4(color);
  // Only the palette's light colours (yellow, grey: luma above 0.7) fade into a light background; they
  // are darkened to luma 0.5, the others stay exactly as the palette says.
  const float lum = 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z;
  if (lum > 0.7f) {
    const float k = 0.5f / lum;
    c.x *= k, c.y *= k, c.z *= k;
  }
  return ImGui::ColorConvertFloat4ToU32(c);
}

namespace {

// Whether segment a-b meets the rectangle [lo, hi] (Liang-Barsky clipping).
bool segment_meets_rect(ImVec2 a, ImVec2 b, ImVec2 lo, ImVec2 hi) {
  float t0 = 0, t1 = 1;
  const float dx = b.x - a.x, dy = b.y - a.y;
  const float p[4] = {-dx, dx, -dy, dy}, q[4] = {a.x - lo.x, hi.x - a.x, a.y - lo.y, hi.y - a.y};
  for (int i = 0; i < 4; ++i) {
    if (p[i] == 0) {
      if (q[i] < 0) return false;
    } else {
      const float t = q[i] / p[i];
      if (p[i] < 0) t0 = std::max(t0, t);
      else t1 = std::min(t1, t);
      if (t0 > t1) return false;
    }
  }
  return true;
}

// How many segments (or lone points) of the polylines meet the rectangle [lo, hi].
size_t segments_through(const std::vector<std::vector<ImVec2>>& lines, ImVec2 lo, ImVec2 hi) {
  size_t n = 0;
  for (const std::vector<ImVec2>& line : lines) {
    if (line.size() == 1) n += segment_meets_rect(line[0], line[0], lo, hi);
    for (size_t i = 1; i < line.size(); ++i) n += segment_meets_rect(line[i - 1], line[i], lo, hi);
  }
  return n;
}

// The y value as drawn (log10 on a log axis); NaN when it cannot be drawn.
double plot_y(double y, bool log_y) {
  if (!std::isfinite(y)) return NAN;
  if (log_y) return y > 0 ? std::log10(y) : NAN;
  return y;
}

// Index of the point with x nearest to `x` (x sorted ascending).
size_t nearest_index(const std::vector<double>& xs, double x) {
  auto it = std::lower_bound(xs.begin(), xs.end(), x);
  if (it == xs.end()) return xs.size() - 1;
  if (it == xs.begin()) return 0;
  const size_t i = size_t(it - xs.begin());
  return (x - xs[i - 1] < xs[i] - x) ? i - 1 : i;
}

// A series in screen space, split into runs of finite points. With more points than 2 per pixel column,
// each column keeps only its lowest and highest point (in their original order): the picture looks the
// same, spikes included, and a plot of many long series stays within ImGui's 16-bit vertex budget per
// window (WebGL2 has no base-vertex draw, so the backend cannot offset past 65536 vertices).
bool is_decimated(const Series& s, float width_px) {
  return std::min(s.x.size(), s.y.size()) > size_t(2 * std::max(1.0f, width_px));
}

std::vector<std::vector<ImVec2>> screen_runs(const Series& s, const AxisMap& ax, const AxisMap& ay, bool log_y, float width_px) {
  std::vector<std::vector<ImVec2>> runs(1);
  const size_t count = std::min(s.x.size(), s.y.size());
  const bool decimate = is_decimated(s, width_px);
  // The current pixel column's lowest [0] and highest [1] point (decimating only).
  struct Column {
    bool open = false;
    int x = 0;
    size_t idx[2] = {0, 0};
    ImVec2 pt[2];
  } col;
  auto flush = [&] {
    if (!col.open) return;
    const int first = col.idx[0] <= col.idx[1] ? 0 : 1;
    runs.back().push_back(col.pt[first]);
    if (col.idx[0] != col.idx[1]) runs.back().push_back(col.pt[1 - first]);
    col.open = false;
  };
  for (size_t i = 0; i < count; ++i) {
    const double y = plot_y(s.y[i], log_y);
    if (!std::isfinite(y) || !std::isfinite(s.x[i])) {
      flush();
      if (!runs.back().empty()) runs.emplace_back();
      continue;
    }
    const ImVec2 p(ax.to_px(s.x[i]), ay.to_px(y));
    if (!decimate) {
      runs.back().push_back(p);
      continue;
    }
    const int x = int(std::floor(p.x));
    if (!col.open || x != col.x) {
      flush();
      col.open = true;
      col.x = x;
      for (int k = 0; k < 2; ++k) col.idx[k] = i, col.pt[k] = p;
      continue;
    }
    if (p.y > col.pt[0].y) col.idx[0] = i, col.pt[0] = p;  // screen y grows downwards: the lowest value
    if (p.y < col.pt[1].y) col.idx[1] = i, col.pt[1] = p;  // the highest value
  }
  flush();
  if (runs.back().empty()) runs.pop_back();
  return runs;
}

// line_plot's phases, in the order ImPlot runs its own (SetupAxes ... PlotLine ... legend, hover): fit
// (the layout and the data bounds -> the axis maps), axes (background, grid, ticks, titles), items (the
// curves, returned as drawn), legend (placed where it covers the fewest curves), hover (the readout).
struct LinePlotFrame {
  ImVec2 origin;      // the plot's top-left corner, titles and ticks included
  float line = 0;     // the text line height
  ImVec2 pmin, pmax;  // the data rectangle
  AxisMap ax, ay;     // data -> pixels (ay on log10 values on a log axis)
};

LinePlotFrame fit_line_plot(ImVec2 size, const std::vector<Series>& series, const LinePlotOptions& opt) {
  LinePlotFrame f;
  f.origin = ImGui::GetCursorScreenPos();
  f.line = ImGui::GetTextLineHeight();
  float left = 0;
  {
    const NumberFontScope numbers;  // the tick labels' face
    left = ImGui::CalcTextSize("-0.0000").x + 12;
  }
  const float right = 12;
  const float top = f.line + 10, bottom = 2 * f.line + 14;
  f.pmin = ImVec2(f.origin.x + left, f.origin.y + top);
  f.pmax = ImVec2(f.origin.x + std::max(left + 40, size.x - right), f.origin.y + std::max(top + 40, size.y - bottom));

  // Data bounds.
  double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
  for (const Series& s : series) {
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      const double y = plot_y(s.y[i], opt.log_y);
      if (!std::isfinite(s.x[i]) || !std::isfinite(y)) continue;
      x0 = std::min(x0, s.x[i]);
      x1 = std::max(x1, s.x[i]);
      y0 = std::min(y0, y);
      y1 = std::max(y1, y);
    }
  }
  if (std::isfinite(opt.x_min)) x0 = opt.x_min;
  if (std::isfinite(opt.x_max)) x1 = opt.x_max;
  if (std::isfinite(opt.y_min)) y0 = plot_y(opt.y_min, opt.log_y);
  if (std::isfinite(opt.y_max)) y1 = plot_y(opt.y_max, opt.log_y);
  if (!std::isfinite(x0) || !std::isfinite(x1)) x0 = 0, x1 = 1;
  if (!std::isfinite(y0) || !std::isfinite(y1)) y0 = 0, y1 = 1;
  if (x1 <= x0) x1 = x0 + 1;
  if (y1 <= y0) {
    const double pad = std::max(std::abs(y0) * 0.05, 0.5);
    y0 -= pad;
    y1 += pad;
  } else if (!std::isfinite(opt.y_min) || !std::isfinite(opt.y_max)) {
    const double pad = (y1 - y0) * 0.05;
    if (!std::isfinite(opt.y_min)) y0 -= pad;
    if (!std::isfinite(opt.y_max)) y1 += pad;
  }
  f.ax = AxisMap{x0, x1, f.pmin.x, f.pmax.x};
  f.ay = AxisMap{y0, y1, f.pmax.y, f.pmin.y};
  return f;
}

// A log10 y axis: 1, 2, 5 x 10^k over less than two decades, else decade ticks 1e<k>; the title above.
void draw_log_axis_y(ImDrawList* dl, const LinePlotFrame& f, const char* title) {
  const double y0 = f.ay.lo, y1 = f.ay.hi;
  auto tick = [&](double k, const std::string& label) {
    const NumberFontScope numbers;
    const float y = f.ay.to_px(k);
    const ImVec2 sz = ImGui::CalcTextSize(label.c_str());
    dl->AddLine(ImVec2(f.pmin.x - 4, y), ImVec2(f.pmin.x, y), ImGui::GetColorU32(ImGuiCol_TextDisabled));
    dl->AddText(ImVec2(f.pmin.x - 6 - sz.x, y - sz.y * 0.5f), ImGui::GetColorU32(ImGuiCol_Text), label.c_str());
  };
  if (y1 - y0 < 2.0) {
    // Less than two decades: 1, 2, 5 x 10^k, written as plain numbers (0.2, 0.5, 1, 2, ...).
    for (double k = std::floor(y0); k <= std::ceil(y1); ++k)
      for (double m : {1.0, 2.0, 5.0}) {
        const double v = k + std::log10(m);
        if (v >= y0 - 1e-9 && v <= y1 + 1e-9) tick(v, format_tick(m * std::pow(10.0, k)));
      }
  } else {
    // Decade ticks labelled 1e<k>.
    for (double k = std::ceil(y0); k <= y1 + 1e-9; k += std::max(1.0, std::floor((y1 - y0) / 6))) {
      char buf[16];
      std::snprintf(buf, sizeof buf, "1e%g", k + 0.0);  // + 0.0: never "1e-0"
      tick(k, buf);
    }
  }
  if (title && *title) dl->AddText(ImVec2(f.origin.x, f.pmin.y - f.line - 4), ImGui::GetColorU32(ImGuiCol_Text), title);
}

void draw_line_plot_axes(ImDrawList* dl, const LinePlotFrame& f, const std::vector<Series>& series, const LinePlotOptions& opt) {
  dl->AddRectFilled(f.pmin, f.pmax, ImGui::GetColorU32(ImGuiCol_FrameBg));
  // Grid at the y ticks.
  for (double t : nice_ticks(f.ay.lo, f.ay.hi, std::max(2, int((f.pmax.y - f.pmin.y) / 40))))
    dl->AddLine(ImVec2(f.pmin.x, f.ay.to_px(t)), ImVec2(f.pmax.x, f.ay.to_px(t)), IM_COL32(128, 128, 128, 40));
  // An index axis (every x an integer: positions, pairs, heads) is ticked on integers only.
  bool integer_x = true;
  for (const Series& s : series)
    for (double x : s.x)
      if (std::isfinite(x) && x != std::round(x)) integer_x = false;
  draw_axis_x(dl, f.pmin, f.pmax, f.ax, opt.x_title, integer_x);
  if (opt.log_y) draw_log_axis_y(dl, f, opt.y_title);
  else draw_axis_y(dl, f.pmin, f.pmax, f.ay, opt.y_title, false, f.origin.x);
}

ImU32 series_color(const std::vector<Series>& series, size_t si) {
  return readable_color(series[si].color ? series[si].color : palette_color(int(si)));
}

// The curves, clipped to the data rectangle; returns every polyline as drawn (for the legend to avoid).
std::vector<std::vector<ImVec2>> draw_line_plot_items(ImDrawList* dl, const LinePlotFrame& f, const std::vector<Series>& series,
                                                      const LinePlotOptions& opt) {
  dl->PushClipRect(f.pmin, f.pmax, true);
  std::vector<std::vector<ImVec2>> drawn;
  for (size_t si = 0; si < series.size(); ++si) {
    const Series& s = series[si];
    const ImU32 color = series_color(series, si);
    const int idx_begin = dl->IdxBuffer.Size;
    const std::vector<std::vector<ImVec2>> runs = screen_runs(s, f.ax, f.ay, opt.log_y, f.pmax.x - f.pmin.x);
    // Decimated runs zigzag within a pixel column: anti-aliased joins would fold over (and cost more
    // vertices), so draw them as plain quads.
    const ImDrawListFlags saved_flags = dl->Flags;
    if (is_decimated(s, f.pmax.x - f.pmin.x)) dl->Flags &= ~ImDrawListFlags_AntiAliasedLines;
    for (const std::vector<ImVec2>& run : runs) {
      if (s.steps) {
        std::vector<ImVec2> stairs;
        stairs.reserve(2 * run.size());
        for (size_t i = 0; i < run.size(); ++i) {
          if (i) stairs.push_back(ImVec2(run[i].x, run[i - 1].y));
          stairs.push_back(run[i]);
        }
        dl->AddPolyline(stairs.data(), int(stairs.size()), color, ImDrawFlags_None, 2.0f);
        drawn.push_back(std::move(stairs));
      } else {
        dl->AddPolyline(run.data(), int(run.size()), color, ImDrawFlags_None, 2.0f);
        drawn.push_back(run);
      }
      if (s.markers && run.size() <= 256)
        for (const ImVec2& p : run) dl->AddCircleFilled(p, 2.5f, color);
    }
    dl->Flags = saved_flags;
    // An SVG export writes the curve through every point (the screen's polyline may be decimated).
    if (svg_recording())
      record_svg_curve({dl, idx_begin, dl->IdxBuffer.Size,
                        screen_runs(s, f.ax, f.ay, opt.log_y, std::numeric_limits<float>::infinity()), color, 2.0f, s.steps,
                        s.markers, s.label});
  }
  dl->PopClipRect();
  dl->AddRect(f.pmin, f.pmax, ImGui::GetColorU32(ImGuiCol_Border));
  return drawn;
}

// Legend: inside the plot where it covers no drawn curve (a corner first, then along the edges and
// through the middle); when every place covers some, on one line above the plot, right of the y title,
// if it fits there; else where it covers the fewest segments.
void draw_line_plot_legend(ImDrawList* dl, const LinePlotFrame& f, const std::vector<Series>& series, const LinePlotOptions& opt,
                           const std::vector<std::vector<ImVec2>>& drawn) {
  float legend_w = 0, legend_h = 0, legend_line_w = 0;
  for (const Series& s : series) {
    if (s.label.empty()) continue;
    const ImVec2 sz = ImGui::CalcTextSize(s.label.c_str());
    legend_w = std::max(legend_w, sz.x + 30);
    legend_h += sz.y + 2;
    legend_line_w += sz.x + 34;
  }
  if (legend_h <= 0) return;
  auto entry = [&](size_t si, ImVec2 at) {
    const ImU32 color = series_color(series, si);
    const ImVec2 sz = ImGui::CalcTextSize(series[si].label.c_str());
    dl->AddLine(ImVec2(at.x + 4, at.y + sz.y * 0.5f), ImVec2(at.x + 20, at.y + sz.y * 0.5f), color, 2.0f);
    dl->AddText(ImVec2(at.x + 24, at.y), ImGui::GetColorU32(ImGuiCol_Text), series[si].label.c_str());
    return sz;
  };
  const float inset = 3;
  const float x_lo = f.pmin.x + inset, x_hi = f.pmax.x - inset - legend_w;
  const float y_lo = f.pmin.y + inset, y_hi = f.pmax.y - inset - legend_h;
  std::vector<ImVec2> places = {ImVec2(x_hi, y_lo), ImVec2(x_lo, y_lo), ImVec2(x_hi, y_hi), ImVec2(x_lo, y_hi)};
  for (int row : {0, 8, 1, 7, 2, 6, 3, 5, 4})  // the top and bottom edges first, then inwards
    for (int col = 0; col <= 8; ++col)
      places.push_back(ImVec2(x_lo + (x_hi - x_lo) * float(col) / 8, y_lo + (y_hi - y_lo) * float(row) / 8));
  ImVec2 at = places[0];
  size_t fewest = SIZE_MAX;
  if (x_hi >= x_lo && y_hi >= y_lo)
    for (const ImVec2& c : places) {
      const size_t n = segments_through(drawn, c, ImVec2(c.x + legend_w, c.y + legend_h));
      if (n < fewest) fewest = n, at = c;
      if (n == 0) break;
    }
  const float title_end = f.pmin.x + (opt.y_title ? ImGui::CalcTextSize(opt.y_title).x : 0.0f);
  if (fewest > 0 && f.pmax.x - legend_line_w > title_end + 12) {
    ImVec2 pos(f.pmax.x - legend_line_w, f.pmin.y - f.line - 4);
    for (size_t si = 0; si < series.size(); ++si)
      if (!series[si].label.empty()) pos.x += entry(si, pos).x + 34;
  } else {
    dl->AddRectFilled(at, ImVec2(at.x + legend_w, at.y + legend_h), ImGui::GetColorU32(ImGuiCol_WindowBg, 0.75f));
    float ly = at.y + 1;
    for (size_t si = 0; si < series.size(); ++si)
      if (!series[si].label.empty()) ly += entry(si, ImVec2(at.x, ly)).y + 2;
  }
}

// The plot rectangle as an item (probe, hover); under the mouse: a cursor line, the nearest point of every
// series ringed, and their values in the readout.
PlotHover line_plot_hover(ImDrawList* dl, const LinePlotFrame& f, const char* probe_name, const std::vector<Series>& series,
                          const LinePlotOptions& opt) {
  PlotHover hover;
  probe_rect(probe_name, f.pmin, f.pmax);
  ImGui::SetCursorScreenPos(f.pmin);
  ImGui::InvisibleButton(probe_name, ImVec2(f.pmax.x - f.pmin.x, f.pmax.y - f.pmin.y));
  if (!ImGui::IsItemHovered() || !readout_allowed()) return hover;
  hover.active = true;
  hover.x = f.ax.to_value(ImGui::GetIO().MousePos.x);
  dl->AddLine(ImVec2(ImGui::GetIO().MousePos.x, f.pmin.y), ImVec2(ImGui::GetIO().MousePos.x, f.pmax.y),
              IM_COL32(255, 255, 255, 90));
  begin_readout();
  for (size_t si = 0; si < series.size(); ++si) {
    const Series& s = series[si];
    if (s.x.empty()) continue;
    const size_t i = nearest_index(s.x, hover.x);
    const ImU32 color = series_color(series, si);
    ImGui::PushStyleColor(ImGuiCol_Text, readable_text(color));
    char value[64];
    std::snprintf(value, sizeof value, opt.hover_format, s.y[i]);
    ImGui::Text("%s  x = %s: %s", s.label.empty() ? "·" : s.label.c_str(), format_tick(s.x[i]).c_str(), value);
    ImGui::PopStyleColor();
    const ImVec2 p(f.ax.to_px(s.x[i]), f.ay.to_px(plot_y(s.y[i], opt.log_y)));
    if (std::isfinite(p.y)) dl->AddCircle(p, 4.0f, color);
  }
  end_readout();
  return hover;
}

}  // namespace

PlotHover line_plot(const char* probe_name, ImVec2 size, const std::vector<Series>& series, const LinePlotOptions& opt) {
  const LinePlotFrame frame = fit_line_plot(size, series, opt);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  draw_line_plot_axes(dl, frame, series, opt);
  const std::vector<std::vector<ImVec2>> drawn = draw_line_plot_items(dl, frame, series, opt);
  draw_line_plot_legend(dl, frame, series, opt, drawn);
  const PlotHover hover = line_plot_hover(dl, frame, probe_name, series, opt);
  ImGui::SetCursorScreenPos(ImVec2(frame.origin.x, frame.origin.y + size.y));
  ImGui::Dummy(ImVec2(size.x, 0));
  return hover;
}

PlotHover log_plot(const char* probe_name, ImVec2 size, const std::vector<Series>& series, const char* x_title,
                   const char* y_title) {
  return line_plot(probe_name, size, series, {.x_title = x_title, .y_title = y_title, .log_y = true});
}

TranslatedLabels::TranslatedLabels(std::vector<Series>& series) : series_(series) {
  if (ui_lang() == Lang::En) return;
  english_.reserve(series.size());
  for (Series& s : series) {
    english_.push_back(s.label);
    if (!s.label.empty()) s.label = tr_message(s.label);
  }
}

TranslatedLabels::~TranslatedLabels() {
  for (size_t i = 0; i < english_.size() && i < series_.size(); ++i) series_[i].label = std::move(english_[i]);
}

}  // namespace posenc::app
