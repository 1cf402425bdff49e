// SVG export (app/svg_export.h) of a frame drawn without GL: the frequencies view's plots (no heatmap
// textures). Text is written as <text> with the words as drawn (spaces put back), each curve as one path
// through every data point, on the same axes as the picture.
#include "app/svg_export.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <regex>
#include <string>
#include <vector>

#include "app/app.h"
#include "app/export.h"
#include "app/fonts.h"
#include "app_test_util.h"

using posenc::app::App;

namespace {

struct Svg {
  std::string text;
  posenc::app::ExportData data;
};

Svg frequencies_svg(const std::string& state) {
  posenc::test::ImGuiFrames frames;
  posenc::app::load_fonts(1.0f);
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  App app;
  app.load_state_query(state);
  for (int f = 0; f < 3; ++f) frames.frame(app);
  app.request_svg(false);
  frames.frame(app);
  EXPECT_TRUE(app.take_svg_frame());
  Svg out;
  out.text = posenc::app::frame_svg(*ImGui::GetDrawData(), 1280, 800, app.svg_options());
  out.data = app.export_data();
  return out;
}

// The points of the path of series `label` ("M x y L x y ...").
std::vector<std::pair<double, double>> path_points(const std::string& svg, const std::string& label) {
  const std::regex re("<path class=\"curve\" data-series=\"" + label + "\" d=\"([^\"]*)\"");
  std::smatch m;
  if (!std::regex_search(svg, m, re)) return {};
  std::vector<std::pair<double, double>> out;
  const std::string d = m[1];
  const std::regex pt("[ML](-?[0-9.]+) (-?[0-9.]+)");
  for (auto it = std::sregex_iterator(d.begin(), d.end(), pt); it != std::sregex_iterator(); ++it)
    out.emplace_back(std::atof((*it)[1].str().c_str()), std::atof((*it)[2].str().c_str()));
  return out;
}

}  // namespace

TEST(SvgExport, AxisTitlesAndTicksAreTextWithTheirSpaces) {
  const Svg svg = frequencies_svg("view=frequencies&d=16&embed=1&controls=0");
  EXPECT_EQ(svg.text.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.text.find("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1280\" height=\"800\""), std::string::npos);
  EXPECT_NE(svg.text.find(">pair k</text>"), std::string::npos);
  EXPECT_NE(svg.text.find(">frequency ωₖ (rad / position)</text>"), std::string::npos);
  EXPECT_NE(svg.text.find(">wavelength 2π / ωₖ (positions)</text>"), std::string::npos);
  // Tick labels in the numbers' face; the legend's entries.
  EXPECT_NE(svg.text.find("font-family=\"'DejaVu Sans Mono', monospace\""), std::string::npos);
  EXPECT_NE(svg.text.find(">geometric</text>"), std::string::npos);
  EXPECT_NE(svg.text.find("<title>posenc: Frequencies</title>"), std::string::npos);
  EXPECT_EQ(svg.text.find("<image"), std::string::npos);  // no heatmap in this view
  EXPECT_EQ(svg.text.rfind("</svg>\n"), svg.text.size() - 7);
}

TEST(SvgExport, EachCurveIsAPathThroughEveryExportedPointOnTheFiguresAxes) {
  const Svg svg = frequencies_svg("view=frequencies&d=16&embed=1&controls=0");
  const posenc::app::ExportTable* freq = nullptr;
  for (const auto& t : svg.data.tables)
    if (t.name == "frequency") freq = &t;
  ASSERT_NE(freq, nullptr);
  int checked = 0;
  for (size_t s = 1; s < freq->columns.size(); ++s) {
    // The frequency plot is drawn first: its path of this series is the first one so labelled.
    const auto pts = path_points(svg.text, freq->columns[s]);
    ASSERT_EQ(pts.size(), freq->rows.size()) << freq->columns[s];
    // x is affine in k, y affine in log10(w) (a log axis): fitted on the ends, every point within 0.01 px
    // (the path is written to 2 decimals).
    const auto& first = freq->rows.front();
    const auto& last = freq->rows.back();
    const double ax = (pts.back().first - pts.front().first) / (last[0] - first[0]);
    const double ay = (pts.back().second - pts.front().second) / (std::log10(last[s]) - std::log10(first[s]));
    for (size_t i = 0; i < pts.size(); ++i) {
      const auto& row = freq->rows[i];
      EXPECT_NEAR(pts[i].first, pts.front().first + ax * (row[0] - first[0]), 0.011) << i;
      EXPECT_NEAR(pts[i].second, pts.front().second + ay * (std::log10(row[s]) - std::log10(first[s])), 0.011) << i;
    }
    EXPECT_GT(ax, 0);
    EXPECT_LT(ay, 0);  // screen y grows downwards
    ++checked;
  }
  EXPECT_EQ(checked, 3);  // geometric, linear, increasing
}

TEST(SvgExport, TransparentLeavesTheBackgroundOut) {
  posenc::test::ImGuiFrames frames;
  posenc::app::load_fonts(1.0f);
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  App app;
  app.load_state_query("view=frequencies&d=16&embed=1&controls=0&theme=light");
  for (int f = 0; f < 3; ++f) frames.frame(app);
  app.request_svg(false, false);
  frames.frame(app);
  app.take_svg_frame();
  const std::string opaque = posenc::app::frame_svg(*ImGui::GetDrawData(), 1280, 800, app.svg_options());
  app.request_svg(false, true);
  frames.frame(app);
  app.take_svg_frame();
  const std::string clear = posenc::app::frame_svg(*ImGui::GetDrawData(), 1280, 800, app.svg_options());
  // The window's fill covers the display: "M0 0L1280 0L1280 800Z" style triangles in the opaque one only.
  const std::regex bg("<path d=\"M0 0L1280 0L1280 800Z");
  EXPECT_TRUE(std::regex_search(opaque, bg));
  EXPECT_FALSE(std::regex_search(clear, bg));
  EXPECT_NE(clear.find(">pair k</text>"), std::string::npos);
}
