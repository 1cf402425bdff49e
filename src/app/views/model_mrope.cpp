#include "app/views/model_mrope.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/i18n.h"
#include "app/plot.h"
#include "app/probe.h"
#include "core/encodings/rope.h"

namespace posenc::app {

namespace {
constexpr const char* kAxisNames[3] = {"t", "h", "w"};
constexpr int kAxisPalette[3] = {0, 1, 4};  // sky blue, orange, reddish purple (Okabe-Ito)
}  // namespace

MropeExample mrope_example(const ModelRope& rope, bool image) {
  MropeExample ex;
  ex.image = image;
  const int pairs = int(rope.frequencies.inv_freq.size());
  ex.axes = rope_mrope_axes(rope.mrope_section, pairs, rope.mrope_interleaved);
  for (int a : ex.axes) ++ex.pairs_on[a];
  auto push = [&](int64_t t, int64_t h, int64_t w, std::string kind) {
    ex.rows[0].push_back(t), ex.rows[1].push_back(h), ex.rows[2].push_back(w);
    ex.token_kind.push_back(std::move(kind));
  };
  const int tokens = kMropeTextBefore + kMropeGridH * kMropeGridW + kMropeTextAfter;
  if (!image) {
    for (int i = 0; i < tokens; ++i) push(i, i, i, "text");
    return ex;
  }
  // Qwen2-VL get_rope_index (modeling_qwen2_vl.py): text tokens count up on all three rows; an image's
  // patches start at the next index s with t = s (one frame), h = s + row, w = s + column; the text after it
  // continues at the largest index so far + 1.
  for (int i = 0; i < kMropeTextBefore; ++i) push(i, i, i, "text");
  const int64_t s = kMropeTextBefore;
  for (int r = 0; r < kMropeGridH; ++r)
    for (int c = 0; c < kMropeGridW; ++c) push(s, s + r, s + c, "image " + std::to_string(r) + "," + std::to_string(c));
  const int64_t next = s + std::max(kMropeGridH, kMropeGridW);
  for (int i = 0; i < kMropeTextAfter; ++i) push(next + i, next + i, next + i, "text");
  return ex;
}

// Drawn (and in the description): in the interface's language.
std::string mrope_split_text(const ModelRope& rope, const MropeExample& ex) {
  const auto& sec = rope.mrope_section;
  const std::string counts = trf("t {0}, h {1}, w {2} pairs", {std::to_string(ex.pairs_on[0]), std::to_string(ex.pairs_on[1]),
                                                               std::to_string(ex.pairs_on[2])});
  if (sec.size() != 3) return counts;
  const std::string section = std::to_string(sec[0]) + ", " + std::to_string(sec[1]) + ", " + std::to_string(sec[2]);
  if (!rope.mrope_interleaved) {
    const int a = sec[0], b = sec[1], n = int(ex.axes.size());
    return trf("mrope_section [{0}], contiguous: pairs 0-{1} t, {2}-{3} h, {4}-{5} w ({6})",
               {section, std::to_string(a - 1), std::to_string(a), std::to_string(a + b - 1), std::to_string(a + b),
                std::to_string(n - 1), counts});
  }
  return trf(
      "mrope_section [{0}], interleaved: pair i is h when i % 3 = 1 and i < {1}, w when i % 3 = 2 and i < {2}, else t ({3})",
      {section, std::to_string(3 * sec[1]), std::to_string(3 * sec[2]), counts});
}

void draw_mrope_panel(const ModelRope& rope, const MropeExample& ex, float width, float plot_height) {
  ImGui::TextWrapped("%s", mrope_split_text(rope, ex).c_str());
  probe_last_item("text.mrope.split");
  // The bar: one cell per pair, coloured and lettered by axis.
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const int n = int(ex.axes.size());
  const ImVec2 a0 = ImGui::GetCursorScreenPos();
  const float cell = width / float(std::max(1, n)), h = 18.0f;
  const bool letters = cell >= ImGui::CalcTextSize("w").x + 2.0f;
  for (int i = 0; i < n; ++i) {
    const int axis = ex.axes[size_t(i)];
    const ImVec2 a(a0.x + float(i) * cell, a0.y), b(a0.x + float(i + 1) * cell - (cell > 4 ? 1.0f : 0.0f), a0.y + h);
    const ImU32 fill = readable_color(palette_color(kAxisPalette[axis]));
    dl->AddRectFilled(a, b, fill);
    if (letters) {
      const ImVec2 ts = ImGui::CalcTextSize(kAxisNames[axis]);
      dl->AddText(ImVec2(std::floor((a.x + b.x - ts.x) / 2), a.y + (h - ts.y) / 2), IM_COL32(0, 0, 0, 255), kAxisNames[axis]);
    } else if (axis != 0) {
      // Too narrow for a letter: h pairs get a line along the top, w pairs one along the bottom.
      dl->AddLine(ImVec2(a.x, axis == 1 ? a.y + 1 : b.y - 1), ImVec2(b.x, axis == 1 ? a.y + 1 : b.y - 1), IM_COL32(0, 0, 0, 255),
                  2.0f);
    }
  }
  ImGui::Dummy(ImVec2(width, h));
  probe_rect("mrope.bar", a0, ImVec2(a0.x + width, a0.y + h));
  if (ImGui::IsItemHovered()) {
    const int i = std::clamp(int((ImGui::GetIO().MousePos.x - a0.x) / cell), 0, n - 1);
    ImGui::SetTooltip(tr("pair %d: %s position"), i, kAxisNames[ex.axes[size_t(i)]]);
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped(tr("pair 0 (fastest) ... pair %d (slowest); t time, h row, w column"), n - 1);
  ImGui::PopStyleColor();

  // The example's positions.
  const int s = kMropeTextBefore;
  const int last = s + kMropeGridH * kMropeGridW - 1;
  if (ex.image)
    ImGui::TextWrapped(tr("Example (positions=image): %d text tokens at t=h=w=0..%d; a %dx%d image grid at t=%lld, h=%lld..%lld, "
                          "w=%lld..%lld; text after it from %lld (Qwen2-VL get_rope_index)."),
                       s, s - 1, kMropeGridH, kMropeGridW, (long long)ex.rows[0][size_t(s)], (long long)ex.rows[1][size_t(s)],
                       (long long)ex.rows[1][size_t(last)], (long long)ex.rows[2][size_t(s)], (long long)ex.rows[2][size_t(last)],
                       (long long)ex.rows[0][size_t(last + 1)]);
  else
    ImGui::TextWrapped("%s", tr("Example (positions=text): every token at t = h = w = its index, so every pair turns by index x "
                                "w_k: M-RoPE is 1-D RoPE."));
  probe_last_item("text.mrope.positions");

  // Angles theta_k = position_axis(k) * w_k at the first and the last patch of the grid, against 1-D RoPE at
  // the same sequence index.
  const auto& inv = rope.frequencies.inv_freq;
  std::vector<Series> series;
  int color = 1;
  for (int token : {s, last}) {
    Series m, one;
    m.label = trf("token {0} ({1:tr}): M-RoPE", {std::to_string(token), ex.token_kind[size_t(token)]});
    one.label = trf("token {0}: 1-D RoPE at {1}", {std::to_string(token), std::to_string(token)});
    m.color = palette_color(color++);
    one.color = palette_color(color++);
    m.markers = n <= 64;
    for (int k = 0; k < n; ++k) {
      m.x.push_back(k), one.x.push_back(k);
      m.y.push_back(double(ex.rows[size_t(ex.axes[size_t(k)])][size_t(token)]) * inv[size_t(k)]);
      one.y.push_back(double(token) * inv[size_t(k)]);
    }
    series.push_back(std::move(m));
    series.push_back(std::move(one));
  }
  log_plot("plot.mrope", ImVec2(width, plot_height), series, tr("pair k"), tr("angle position x w_k (rad, log)"));
}

}  // namespace posenc::app
