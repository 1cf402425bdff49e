// posenc export and render as a user runs them: the exported numbers against `posenc eval`, errors,
// output files, and the rendered PNG's structure against the view's probes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "app/app.h"
#include "app/export.h"
#include "app/state_params.h"
#include "platform/headless_runner.h"
#include "process.h"

#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>

using nlohmann::json;
using posenc::app::App;
using posenc::app::StateMap;

namespace {

using posenc::test::Proc;
using posenc::test::run_posenc;
using posenc::test::shell_quote;
using posenc::test::slurp;
std::string quote(const std::string& s) { return shell_quote(s); }

json eval(const std::string& request) {
  const Proc r = run_posenc("eval -", request);
  EXPECT_EQ(r.exit_code, 0) << request << " -> " << r.err;
  return json::parse(r.out);
}

json export_json(const std::string& state) {
  const Proc r = run_posenc("export --format json --state " + quote(state));
  EXPECT_EQ(r.exit_code, 0) << state << " -> " << r.err;
  EXPECT_EQ(r.err, "");
  return json::parse(r.out);
}

const json& table(const json& data, const std::string& name) {
  for (const json& t : data["tables"])
    if (t["name"] == name) return t;
  ADD_FAILURE() << "no table " << name << " in " << data["view"];
  static const json empty;
  return empty;
}

size_t column(const json& t, const std::string& header) {
  for (size_t c = 0; c < t["columns"].size(); ++c)
    if (t["columns"][c] == header) return c;
  ADD_FAILURE() << "no column " << header << " in " << t["name"];
  return 0;
}

using ExportCli = posenc::test::PosencBinary;

}  // namespace

// ---------------------------------------------------------------- posenc export vs posenc eval

TEST_F(ExportCli, WavesSinusoidalMatrixEqualsEval) {
  const json data = export_json("view=waves&scheme=sinusoidal&n=50&d=16&base=10000&dims=0,5");
  EXPECT_EQ(data["view"], "waves");
  const json& P = table(data, "P");
  ASSERT_EQ(P["rows"].size(), 50u);
  ASSERT_EQ(P["columns"].size(), 17u);  // p, then dimensions 0..15
  EXPECT_EQ(P["columns"][0], "p");
  EXPECT_EQ(P["columns"][16], "15");
  json positions = json::array();
  for (int p = 0; p < 50; ++p) positions.push_back(p);
  const json ref = eval(json{{"op", "sinusoidal"}, {"positions", positions}, {"dim", 16}, {"base", 10000}}.dump());
  for (int p = 0; p < 50; ++p) {
    EXPECT_EQ(P["rows"][p][0].get<double>(), p);
    for (int i = 0; i < 16; ++i)
      EXPECT_EQ(P["rows"][p][i + 1].get<double>(), ref["values"][p][i].get<double>()) << "p=" << p << " i=" << i;
  }
  // The curves are columns of the same matrix.
  const json& curves = table(data, "curves");
  const size_t dim5 = column(curves, "dim 5");
  for (int p = 0; p < 50; ++p) EXPECT_EQ(curves["rows"][p][dim5], ref["values"][p][5]);
}

TEST_F(ExportCli, T5BucketCurveEqualsEval) {
  for (const char* bidirectional : {"1", "0"}) {
    const json data =
        export_json(std::string("view=buckets&scheme=t5&n=300&num_buckets=16&max_distance=100&bidirectional=") + bidirectional);
    const json& curve = table(data, "bucket_curve");
    ASSERT_EQ(curve["rows"].size(), 599u);  // j - i = -299..299
    json rel = json::array();
    for (const json& row : curve["rows"]) rel.push_back(row[0].get<int>());
    const json ref = eval(json{
        {"op", "t5_bucket"},
        {"relative_positions", rel},
        {"bidirectional", std::string(bidirectional) == "1"},
        {"num_buckets", 16},
        {"max_distance", 100}}.dump());
    for (size_t r = 0; r < rel.size(); ++r)
      EXPECT_EQ(curve["rows"][r][1].get<double>(), ref["buckets"][r].get<double>()) << "j-i=" << rel[r];
    // The n x n matrix is the curve laid out by j - i.
    const json& m = table(data, "bucket_matrix");
    ASSERT_EQ(m["rows"].size(), 300u);
    for (int i : {0, 17, 299})
      for (int j : {0, 5, 150, 299}) EXPECT_EQ(m["rows"][i][j + 1], ref["buckets"][size_t(j - i + 299)]) << i << "," << j;
  }
}

TEST_F(ExportCli, RopeFrequencyRatioEqualsEvalWithScaling) {
  const json data = export_json("view=rope&dim=64&base=500000&scaling=yarn&factor=8&orig=8192&target=65536");
  const json plain = eval(R"({"op":"rope_frequencies","dim":64,"base":500000})");
  const json yarn = eval(
      R"({"op":"rope_frequencies","dim":64,"base":500000,"scaling":{"type":"yarn","factor":8,"original_max_position_embeddings":8192}})");
  const json& pairs = table(data, "pairs");
  ASSERT_EQ(pairs["rows"].size(), 32u);
  const size_t w = column(pairs, "inv_freq"), ws = column(pairs, "inv_freq_scaled");
  const json& ratio = table(data, "frequency_ratio");
  const size_t sel = column(ratio, "yarn (selected)"), lin = column(ratio, "linear");
  for (int k = 0; k < 32; ++k) {
    EXPECT_EQ(pairs["rows"][k][w].get<double>(), plain["inv_freq"][k].get<double>()) << k;
    EXPECT_EQ(pairs["rows"][k][ws].get<double>(), yarn["inv_freq"][k].get<double>()) << k;
    EXPECT_DOUBLE_EQ(ratio["rows"][k][sel].get<double>(), yarn["inv_freq"][k].get<double>() / plain["inv_freq"][k].get<double>())
        << k;
    EXPECT_DOUBLE_EQ(ratio["rows"][k][lin].get<double>(), 1.0 / 8.0) << k;  // position interpolation: w / f
  }
  EXPECT_EQ(ratio["rows"][0][sel].get<double>(), 1.0);  // YaRN keeps the fastest pair
}

// A view that takes a model (view=rope&model=<preset id>) exports the model's numbers; what it cannot show
// of the model (Phi-3's LongRoPE factors) is a note on stderr, not an error.
TEST_F(ExportCli, ModelNotesAreWarningsNotErrors) {
  const json llama = export_json("view=rope&model=llama-3.1-8b");
  const json model = eval(R"({"op":"model","config":{"model_type":"llama","hidden_size":4096,"num_attention_heads":32,
      "max_position_embeddings":131072,"rope_theta":500000.0,"rope_scaling":{"factor":8.0,"low_freq_factor":1.0,
      "high_freq_factor":4.0,"original_max_position_embeddings":8192,"rope_type":"llama3"}}})");
  const json& pairs = table(llama, "pairs");
  const size_t scaled = column(pairs, "inv_freq_scaled");
  ASSERT_EQ(pairs["rows"].size(), model["rope"]["inv_freq"].size());
  for (size_t k = 0; k < pairs["rows"].size(); ++k)
    EXPECT_EQ(pairs["rows"][k][scaled].get<double>(), model["rope"]["inv_freq"][k].get<double>()) << k;
  const Proc phi = run_posenc("export --format json --state " + quote("view=rope&model=phi-3-mini-128k"));
  EXPECT_EQ(phi.exit_code, 0) << phi.err;
  EXPECT_EQ(phi.err.rfind("posenc: note (model): model=phi-3-mini-128k: phi3 uses LongRoPE", 0), 0u) << phi.err;
  EXPECT_EQ(json::parse(phi.out)["view"], "rope");
}

TEST_F(ExportCli, AlibiSlopesEqualEval) {
  const json data = export_json("view=buckets&scheme=alibi&n=10&heads=12");
  const json ref = eval(R"({"op":"alibi_slopes","heads":12})");
  const json& slopes = table(data, "slopes");
  ASSERT_EQ(slopes["rows"].size(), 12u);
  for (int h = 0; h < 12; ++h) EXPECT_EQ(slopes["rows"][h][1], ref["slopes"][h]);
  const json& lines = table(data, "bias_curves");  // row for j - i = -9: bias -m_h * 9
  EXPECT_EQ(lines["rows"][0][0].get<double>(), -9);
  EXPECT_DOUBLE_EQ(lines["rows"][0][column(lines, "h = 3")].get<double>(), -9 * ref["slopes"][3].get<double>());
}

TEST_F(ExportCli, MaskedCellsAreNullInJsonAndEmptyInCsv) {
  const std::string state = "view=scores&scheme=alibi&causal=1&n=6&d=8";
  const json data = export_json(state);
  const json& w = table(data, "weights");
  ASSERT_EQ(w["rows"].size(), 6u);
  EXPECT_TRUE(w["rows"][0][2].is_null());         // i = 0, j = 1: key after query
  EXPECT_EQ(w["rows"][0][1].get<double>(), 1.0);  // the only key row 0 sees
  double sum = 0;
  for (int j = 0; j < 6; ++j) sum += w["rows"][5][j + 1].get<double>();
  EXPECT_NEAR(sum, 1.0, 1e-15);
  const Proc csv = run_posenc("export --format csv --state " + quote(state));
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  const size_t block = csv.out.find("# weights\n");
  ASSERT_NE(block, std::string::npos);
  std::istringstream lines(csv.out.substr(block));
  std::string line;
  std::getline(lines, line);  // # weights
  std::getline(lines, line);  // header
  EXPECT_EQ(line, "i,0,1,2,3,4,5");
  std::getline(lines, line);  // row 0
  EXPECT_EQ(line, "0,1,,,,,");
}

TEST_F(ExportCli, CsvCarriesTheSameDoublesAsJson) {
  const std::string state = "view=similarity&scheme=sinusoidal&n=32&d=16";
  const json data = export_json(state);
  const Proc csv = run_posenc("export --format csv -o - --state " + quote(state));
  ASSERT_EQ(csv.exit_code, 0);
  std::istringstream lines(csv.out.substr(csv.out.find("# similarity\n")));
  std::string line;
  std::getline(lines, line);
  std::getline(lines, line);
  const json& sim = table(data, "similarity");
  for (int a = 0; a < 32; ++a) {
    std::getline(lines, line);
    std::istringstream cells(line);
    std::string cell;
    for (int c = 0; std::getline(cells, cell, ','); ++c)
      EXPECT_EQ(std::strtod(cell.c_str(), nullptr), sim["rows"][a][c].get<double>()) << a << "," << c;
  }
  // Sinusoidal: P_a . P_b = sum_k cos((a - b) w_k), so the diagonal is d/2 and the matrix is Toeplitz.
  EXPECT_DOUBLE_EQ(sim["rows"][7][8].get<double>(), 8.0);
  EXPECT_NEAR(sim["rows"][3][10].get<double>(), sim["rows"][20][27].get<double>(), 1e-12);
}

TEST_F(ExportCli, OutputFileAndErrorsFollowTheEvalContract) {
  const std::string path = testing::TempDir() + "posenc_export.json";
  const Proc ok = run_posenc("export --format json -o " + quote(path) + " --state 'view=toy'");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.out, "");
  const json data = json::parse(slurp(path));
  EXPECT_EQ(data["view"], "toy");
  EXPECT_EQ(data["tables"].size(), 8u);
  // Seed example, no PE: score(I, like) = (1,0).(0,1) = 0, score(apples, apples) = 2.
  EXPECT_EQ(table(data, "scores: none")["rows"][0][2].get<double>(), 0.0);
  EXPECT_EQ(table(data, "scores: none")["rows"][2][3].get<double>(), 2.0);

  for (const auto& [state, field] : std::vector<std::pair<std::string, json>>{
           {"view=waves&n=0", "n"},
           {"view=waves&bogus=1", "bogus"},
           {"view=nope", "view"},
           {"view=rope&scaling=magic", "scaling"},
           {"view=scores&d=7", "d"},
           // Every key in range, but not computable together: the view names the key it blames.
           {"view=waves&scheme=binary&n=64&d=4", "n"},
           {"view=buckets&max_distance=2", "max_distance"},
           {"view=rope&dim=2&scaling=ntk&factor=64", "dim"},
           {"view=waves&dims=0,1,2,3,4,5,6", "dims"},
           {"view=waves&d=16&dims=20", "dims"}}) {
    const Proc r = run_posenc("export --state " + quote(state));
    EXPECT_EQ(r.exit_code, 2) << state;
    EXPECT_EQ(r.out, "") << state;
    json e;
    ASSERT_NO_THROW(e = json::parse(r.err)) << r.err;
    EXPECT_EQ(e.size(), 2u);
    EXPECT_EQ(e["field"], field) << state << " -> " << r.err;
  }
  EXPECT_EQ(run_posenc("export --format xml --state view=toy").exit_code, 2);
}

// ---------------------------------------------------------------- posenc render

#if defined(POSENC_HAVE_RENDER)
namespace {

struct Image {
  int w = 0, h = 0;
  std::vector<unsigned char> rgba;
  double luma(int x, int y) const {
    const unsigned char* p = &rgba[(size_t(y) * w + x) * 4];
    return 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
  }
};

Image load_png(const std::string& path) {
  Image img;
  int channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &img.w, &img.h, &channels, 4);
  if (!data) return img;
  img.rgba.assign(data, data + size_t(img.w) * img.h * 4);
  stbi_image_free(data);
  return img;
}

}  // namespace

TEST_F(ExportCli, RenderedSimilarityHasABrightDiagonal) {
  const std::string png = testing::TempDir() + "posenc_render_similarity.png", probes = png + ".json";
  const int n = 64;
  const Proc r =
      run_posenc("render --state 'view=similarity&scheme=sinusoidal&n=64&d=64' --width 900 --height 560 --theme dark -o " +
                 quote(png) + " --probes " + quote(probes));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Image img = load_png(png);
  ASSERT_EQ(img.w, 900);
  ASSERT_EQ(img.h, 560);
  const json pj = json::parse(slurp(probes));
  EXPECT_EQ(pj["width"], 900);
  EXPECT_FALSE(pj["probes"].contains("menu.share"));  // embed mode: no menu bar
  ASSERT_TRUE(pj["probes"].contains("heatmap.similarity"));
  const json rect = pj["probes"]["heatmap.similarity"];
  const double x0 = rect[0], y0 = rect[1], x1 = rect[2], y1 = rect[3];
  ASSERT_GT(x1 - x0, 2.0 * n);
  ASSERT_GT(y1 - y0, 2.0 * n);
  auto cell = [&](int a, int b) {  // luminance at the centre of cell (row a, column b)
    return img.luma(int(x0 + (b + 0.5) * (x1 - x0) / n), int(y0 + (a + 0.5) * (y1 - y0) / n));
  };
  double diag = 0, off = 0, diag_min = 1e9, off_max = 0;
  int off_count = 0;
  for (int a = 0; a < n; ++a) {
    diag += cell(a, a);
    diag_min = std::min(diag_min, cell(a, a));
    for (int b = 0; b < n; ++b)
      if (std::abs(a - b) >= 8) off += cell(a, b), off_max = std::max(off_max, cell(a, b)), ++off_count;
  }
  diag /= n;
  off /= off_count;
  EXPECT_GT(diag, off + 80) << "diagonal " << diag << " vs off-diagonal " << off;
  EXPECT_GT(diag_min, off_max) << "every diagonal cell is brighter than every far cell";
  // Toeplitz: cells on one diagonal have the same colour (P_a . P_b depends on b - a only).
  for (int k : {5, 20})
    for (int a = 9; a + k < n; a += 9) EXPECT_NEAR(cell(a, a + k), cell(0, k), 3.0) << a << "," << a + k;
  // Dark theme: the page corner is dark.
  EXPECT_LT(img.luma(img.w - 3, img.h - 3), 60);
}

TEST_F(ExportCli, RenderThemeSizeAndBadState) {
  const std::string png = testing::TempDir() + "posenc_render_light.png";
  const Proc r = run_posenc("render --state 'view=buckets&scheme=t5' --width 640 --height 400 -o " + quote(png));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Image img = load_png(png);
  ASSERT_EQ(img.w, 640);
  ASSERT_EQ(img.h, 400);
  EXPECT_GT(img.luma(img.w - 3, img.h - 3), 200);  // light by default
  const Proc bad = run_posenc("render --state 'view=buckets&n=1' -o " + quote(png));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(json::parse(bad.err)["field"], "n");
  EXPECT_EQ(run_posenc("render --state view=toy --width 10 -o " + quote(png)).exit_code, 2);  // below 64 px
}

// -o *.svg: the same frame as SVG. The heatmap is an embedded PNG under vector axes (titles and ticks as
// <text>); --transparent leaves the background out and is refused for a PNG.
TEST_F(ExportCli, RenderSvgHasTextAxesAndTheHeatmapAsAnImage) {
  const std::string svg = testing::TempDir() + "posenc_render_similarity.svg";
  const Proc r = run_posenc(
      "render --state 'view=similarity&scheme=sinusoidal&n=64&d=64' --width 900 --height 560 --theme light -o " + quote(svg));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string doc = slurp(svg);
  EXPECT_EQ(doc.rfind("<?xml", 0), 0u);
  EXPECT_NE(doc.find("width=\"900\" height=\"560\""), std::string::npos);
  EXPECT_NE(doc.find(">position b</text>"), std::string::npos);
  EXPECT_NE(doc.find(">position a</text>"), std::string::npos);
  EXPECT_NE(doc.find("<image "), std::string::npos);
  EXPECT_NE(doc.find("href=\"data:image/png;base64,iVBORw0KGgo"), std::string::npos);  // a PNG's signature
  EXPECT_NE(doc.find("<desc>posenc "), std::string::npos);
  EXPECT_NE(doc.find("view=similarity"), std::string::npos);
  const std::string clear = testing::TempDir() + "posenc_render_clear.svg";
  ASSERT_EQ(
      run_posenc("render --state 'view=frequencies&figure=wavelength&controls=0' --transparent -o " + quote(clear)).exit_code, 0);
  EXPECT_NE(slurp(clear).find("class=\"curve\""), std::string::npos);
  EXPECT_EQ(slurp(clear).find("<path d=\"M0 0L1200 0L1200 800Z"), std::string::npos);  // no background
  const Proc png = run_posenc("render --state view=waves --transparent -o " + quote(testing::TempDir() + "x.png"));
  EXPECT_EQ(png.exit_code, 2);
  EXPECT_EQ(json::parse(png.err)["field"], "transparent");
}

// Without --controls, render draws what Export PNG draws (App::request_capture: the embed view without its
// controls), pixel for pixel; --controls adds the view's controls beside the same figure.
TEST_F(ExportCli, RenderDrawsWhatExportPngDrawsAndControlsAddTheSidebar) {
  const std::string state = "view=scores&scheme=alibi&n=32&heads=4";
  const std::string png = testing::TempDir() + "posenc_render_figure.png", probes = png + ".json";
  ASSERT_EQ(
      run_posenc("render --state " + quote(state) + " --width 900 --height 560 -o " + quote(png) + " --probes " + quote(probes))
          .exit_code,
      0);
  const Image rendered = load_png(png);
  ASSERT_EQ(rendered.w, 900);
  // The Export PNG frame in-process: every frame is the capture frame.
  auto app = std::make_unique<App>();
  app->set_system_dark(false);
  app->load_state_query(state + "&embed=1");
  ASSERT_EQ(app->notices(), "");
  posenc::platform::HeadlessRunner runner(std::move(app), 900, 560);
  posenc::platform::Image captured;
  for (int frame = 0; frame < 4; ++frame) {
    runner.app().request_capture();
    captured = runner.render(1);
    EXPECT_TRUE(runner.app().take_capture_frame());
  }
  ASSERT_EQ(captured.rgba.size(), rendered.rgba.size());
  size_t differing = 0;
  for (size_t i = 0; i < captured.rgba.size(); ++i) differing += captured.rgba[i] != rendered.rgba[i];
  EXPECT_EQ(differing, 0u) << "render and Export PNG's frame differ in " << differing << " bytes";
  json figure = json::parse(slurp(probes))["probes"];
  EXPECT_FALSE(figure.contains("slider.n")) << figure.dump();
  ASSERT_TRUE(figure.contains("plot.total")) << figure.dump();

  const std::string with = testing::TempDir() + "posenc_render_controls.png", with_probes = with + ".json";
  // At the default 1200 x 800 (a wide frame): the controls beside the plots.
  ASSERT_EQ(run_posenc("render --controls --state " + quote(state + "&controls=0") + " -o " + quote(with) + " --probes " +
                       quote(with_probes))
                .exit_code,
            0);
  const json sidebar = json::parse(slurp(with_probes))["probes"];
  EXPECT_TRUE(sidebar.contains("slider.n")) << sidebar.dump();
  EXPECT_NE(load_png(with).rgba, rendered.rgba);
}
#endif  // POSENC_HAVE_RENDER
