#include "app/views/model_layers.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "app/input.h"
#include "app/params.h"
#include "app/i18n.h"
#include "app/plot.h"
#include "app/probe.h"

namespace posenc::app {

namespace {

// Each attention kind: a letter (the cell reads without colour) and a palette colour (Okabe-Ito).
struct KindStyle {
  const char* letter;
  int palette;
  const char* legend;
};
KindStyle kind_style(LayerAttention a) {
  switch (a) {
    case LayerAttention::Full: return {"F", 6, "F full attention"};
    case LayerAttention::Sliding: return {"S", 1, "S sliding window"};
    case LayerAttention::Chunked: return {"C", 2, "C chunked"};
    case LayerAttention::Linear: return {"L", 4, "L linear (no softmax, no position)"};
    case LayerAttention::Compressed: return {"P", 5, "P compressed (a window plus pooled keys)"};
    case LayerAttention::None: return {"-", 7, "- no token mixing"};
  }
  return {"?", 7, "?"};
}

std::string ordinal(int n) {
  const char* suffix = (n % 100 >= 11 && n % 100 <= 13) ? "th"
                       : n % 10 == 1                    ? "st"
                       : n % 10 == 2                    ? "nd"
                       : n % 10 == 3                    ? "rd"
                                                        : "th";
  return std::to_string(n) + suffix;
}

constexpr float kCellMin = 18.0f, kCellMax = 34.0f, kCellH = 22.0f, kGap = 2.0f;

struct Grid {
  float label_w = 0, cell_w = 0;
  int per_row = 1, rows = 0;
};
Grid grid_for(int n, float width) {
  Grid g;
  g.label_w = ImGui::CalcTextSize("000").x + 6.0f;
  const float room = std::max(kCellMin, width - g.label_w);
  g.cell_w = std::clamp(room / float(std::max(1, n)), kCellMin, kCellMax);
  g.per_row = std::max(1, int(room / g.cell_w));
  // Rows of a round size when wrapping (8, 16, ...: the layer index at a row's start reads easily).
  if (g.per_row < n) {
    int round = 1;
    while (round * 2 <= g.per_row) round *= 2;
    if (round >= 4) g.per_row = round;
    g.cell_w = std::min(kCellMax, room / float(g.per_row));
  }
  g.rows = (n + g.per_row - 1) / g.per_row;
  return g;
}

ImU32 ink_on(ImU32 fill) {
  const ImVec4 c = ImGui::ColorConvertU32ToFloat4(fill);
  return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z > 0.45f ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255);
}

bool mixes(const LayerSpec& l) { return l.attention != LayerAttention::Linear && l.attention != LayerAttention::None; }

// Whether the layer's attention carries a position (RoPE that rotates, or the model's bias or table).
bool positioned(const LayerSpec& l) {
  return l.rope || (mixes(l) && l.scheme != PositionKind::Rope && l.scheme != PositionKind::None);
}

// A cell: fill, letter, hatch for no position encoding, a dot for sinks, a corner triangle for a query scale, a
// two-headed bar along the bottom for a bidirectional layer, a notch at the bottom right for key selection.
void draw_cell(ImDrawList* dl, ImVec2 a, ImVec2 b, const LayerSpec& l) {
  const KindStyle k = kind_style(l.attention);
  const ImU32 fill = readable_color(palette_color(k.palette));
  if (positioned(l)) {
    dl->AddRectFilled(a, b, fill);
  } else {
    // No position encoding: the kind's colour as an outline with diagonal hatching (a pattern, not a hue).
    ImVec4 f = ImGui::ColorConvertU32ToFloat4(fill);
    f.w = 0.35f;
    dl->AddRectFilled(a, b, ImGui::ColorConvertFloat4ToU32(f));
    dl->PushClipRect(a, b, true);
    const float h = b.y - a.y;
    for (float x = a.x - h; x < b.x; x += 5.0f) dl->AddLine(ImVec2(x, b.y), ImVec2(x + h, a.y), fill, 1.0f);
    dl->PopClipRect();
    dl->AddRect(a, b, fill, 0.0f, 0, 1.5f);
  }
  const ImU32 ink = positioned(l) ? ink_on(fill) : ImGui::GetColorU32(ImGuiCol_Text);
  const ImVec2 ts = ImGui::CalcTextSize(k.letter);
  dl->AddText(ImVec2(std::floor((a.x + b.x - ts.x) / 2), std::floor((a.y + b.y - ts.y) / 2)), ink, k.letter);
  if (l.sinks) dl->AddCircleFilled(ImVec2(b.x - 4.0f, a.y + 4.0f), 2.5f, ink);
  if (l.query_scale.rule != QueryScale::Rule::None)
    dl->AddTriangleFilled(ImVec2(a.x, a.y), ImVec2(a.x + 7.0f, a.y), ImVec2(a.x, a.y + 7.0f), ink);
  if (mixes(l) && !l.causal) {
    // Bidirectional: a bar with a head at each end along the bottom (keys on both sides of the query).
    const float y = b.y - 3.0f, x0 = a.x + 2.0f, x1 = b.x - 2.0f;
    dl->AddLine(ImVec2(x0 + 2.0f, y), ImVec2(x1 - 2.0f, y), ink, 1.0f);
    dl->AddTriangleFilled(ImVec2(x0, y), ImVec2(x0 + 3.0f, y - 2.5f), ImVec2(x0 + 3.0f, y + 2.5f), ink);
    dl->AddTriangleFilled(ImVec2(x1, y), ImVec2(x1 - 3.0f, y - 2.5f), ImVec2(x1 - 3.0f, y + 2.5f), ink);
  }
  if (!l.key_selection.kind.empty())
    dl->AddTriangleFilled(ImVec2(b.x, b.y), ImVec2(b.x - 7.0f, b.y), ImVec2(b.x, b.y - 7.0f), ink);
}

}  // namespace

// A layer in words, in the interface's language (drawn and in the description): one template whose last {N}
// takes the rest, each part already in the language.
std::string layer_text(const LayerSpec& l) {
  const std::string stack = l.stack.empty() ? "" : trf("{0} stack: ", {l.stack});
  if (l.attention == LayerAttention::None)
    return stack + trf("no token mixing ({0}; {1} block)", {l.reason, l.mixer.empty() ? std::string("mlp") : l.mixer});
  std::string rest;
  if (l.attention != LayerAttention::Linear) {
    if (l.scheme == PositionKind::Rope || l.scheme == PositionKind::None) rest += tr(l.rope ? ", RoPE" : ", NoPE");
    else rest += trf(", {0} positions", {position_kind_name(l.scheme)});
    rest += tr(l.causal ? ", causal" : ", bidirectional");
  }
  if (!l.key_selection.kind.empty())
    rest += l.key_selection.kind == "block_topk"
                ? trf(", keys: {0}", {trf("the top {0} blocks of {1} per query",
                                          {std::to_string(l.key_selection.top_k), std::to_string(l.key_selection.block)})})
                : trf(", keys: {0}", {trf("the top {0} per query by an indexer", {std::to_string(l.key_selection.top_k)})});
  if (!l.parallel_mixer.empty()) rest += trf(", with a parallel {0}", {l.parallel_mixer});
  if (l.rope && !l.rope_key.empty()) rest += " layers." + l.rope_key;
  if (l.sinks) rest += tr(", sinks");
  const QueryScale& q = l.query_scale;
  switch (q.rule) {
    case QueryScale::Rule::None: break;
    case QueryScale::Rule::Llama4Temperature:
      rest += trf(", query scale {0} (floor_scale {1}, attn_scale {2})",
                  {query_scale_rule_name(q.rule), format_number(q.floor_scale), format_number(q.attn_scale)});
      break;
    case QueryScale::Rule::Llama4ScalingBeta:
      rest += trf(", query scale {0} (beta {1}, original {2})",
                  {query_scale_rule_name(q.rule), format_number(q.beta), std::to_string(q.original_max_position_embeddings)});
      break;
  }
  const std::string window = std::to_string(l.window);
  switch (l.attention) {
    case LayerAttention::Full: return stack + trf("full attention{0}", {rest});
    case LayerAttention::Sliding:
      return stack + (l.causal ? trf("sliding attention (window {0}){1}", {window, rest})
                               : trf("sliding attention (|i - j| <= {0}){1}", {window, rest}));
    case LayerAttention::Chunked: return stack + trf("chunked attention (chunk {0}){1}", {window, rest});
    case LayerAttention::Compressed:
      return stack +
             trf("compressed attention (window {0} plus one pooled key per {1}){2}", {window, std::to_string(l.ratio), rest});
    case LayerAttention::Linear:
      return stack + (l.mixer.empty() ? trf("linear attention, no position encoding{0}", {rest})
                                      : trf("linear {0}, no position encoding{1}", {l.mixer, rest}));
    case LayerAttention::None: break;
  }
  return rest;
}

std::string layer_summary_text(const std::vector<LayerSpec>& layers) {
  int attending = 0, bidirectional = 0, none = 0, selecting = 0;
  bool stacks = false;
  const LayerSpec* selection = nullptr;
  for (const LayerSpec& l : layers) {
    stacks |= !l.stack.empty();
    if (l.attention == LayerAttention::None) ++none;
    if (!mixes(l)) continue;
    ++attending;
    bidirectional += !l.causal;
    if (!l.key_selection.kind.empty()) ++selecting, selection = &l;
  }
  std::string out;
  if (attending == 0) out = tr("attention: none (no layer attends)");
  else if (stacks) out = tr("attention: the encoder stack bidirectional, the decoder stack causal");
  else if (bidirectional == attending) out = tr("attention: bidirectional (an encoder: every query sees keys on both sides)");
  else if (bidirectional == 0) out = tr("attention: causal (query i sees keys j <= i)");
  else
    out = trf("attention: bidirectional on {0} of {1} layers, causal on the rest",
              {std::to_string(bidirectional), std::to_string(attending)});
  const std::string count = std::to_string(layers.size());
  if (none > 0) out += trf("; {0} of {1} layers mix no tokens", {std::to_string(none), count});
  if (selection) {
    const KeySelection& k = selection->key_selection;
    const std::string how = k.kind == "block_topk"
                                ? trf("the top {0} blocks of {1} per query", {std::to_string(k.top_k), std::to_string(k.block)})
                                : trf("the top {0} per query by an indexer", {std::to_string(k.top_k)});
    out += trf("; {0} of {1} layers attend only to selected keys ({2})", {std::to_string(selecting), count, how});
  }
  return out;
}

std::string layer_index_text(const std::vector<int>& v) {
  if (v.empty()) return "";
  if (v.size() == 1) return std::to_string(v[0]);
  const int step = v[1] - v[0];
  bool arithmetic = v.size() >= 3 && step > 1;
  for (size_t i = 1; arithmetic && i < v.size(); ++i) arithmetic = v[i] - v[i - 1] == step;
  if (arithmetic)
    return trf("{0}, {1}, ..., {2} (every {3} from {4})",
               {std::to_string(v[0]), std::to_string(v[1]), std::to_string(v.back()),
                ui_lang() == Lang::En ? ordinal(step) : std::to_string(step), std::to_string(v[0])});
  std::string out;
  for (size_t i = 0; i < v.size();) {
    size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    out += (out.empty() ? "" : tr(", ")) + std::to_string(v[i]) + (j > i ? "-" + std::to_string(v[j]) : "");
    i = j + 1;
  }
  return out;
}

std::string layer_strip_text(const std::vector<LayerSpec>& layers) {
  if (layers.empty()) return "";
  // Groups in order of first appearance.
  std::vector<std::pair<std::string, std::vector<int>>> groups;
  for (int i = 0; i < int(layers.size()); ++i) {
    const std::string t = layer_text(layers[size_t(i)]);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == t; });
    if (it == groups.end()) groups.push_back({t, {i}});
    else it->second.push_back(i);
  }
  const std::string count = std::to_string(layers.size());
  if (groups.size() == 1) return trf("{0} layers. Every layer: {1}.", {count, groups[0].first});
  std::string list;
  for (const auto& [text, idx] : groups)
    list += trf(idx.size() > 1 ? " Layers {0}: {1}." : " Layer {0}: {1}.", {layer_index_text(idx), text});
  return trf("{0} layers.{1}", {count, list});
}

float layer_strip_height(const std::vector<LayerSpec>& layers, float width) {
  if (layers.empty()) return 0;
  const Grid g = grid_for(int(layers.size()), width);
  const float line = ImGui::GetTextLineHeightWithSpacing();
  return float(g.rows) * (kCellH + kGap) + 2 * line + ImGui::GetStyle().ItemSpacing.y;
}

void draw_layer_strip(const std::vector<LayerSpec>& layers, float width) {
  if (layers.empty()) return;
  const int n = int(layers.size());
  const Grid g = grid_for(n, width);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 strip_min(origin.x + g.label_w, origin.y);
  const ImVec2 strip_max(strip_min.x + float(std::min(n, g.per_row)) * g.cell_w, origin.y + float(g.rows) * (kCellH + kGap));
  ImGui::InvisibleButton("##layer_strip", ImVec2(std::max(1.0f, strip_max.x - origin.x), std::max(1.0f, strip_max.y - origin.y)));
  const bool hovered = ImGui::IsItemHovered() && readout_allowed();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  probe_rect("strip.layers", strip_min, strip_max);
  for (int r = 0; r < g.rows; ++r) {
    const std::string label = std::to_string(r * g.per_row);
    const float y = origin.y + float(r) * (kCellH + kGap);
    const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
    dl->AddText(ImVec2(strip_min.x - 4.0f - ts.x, y + (kCellH - ts.y) / 2), ImGui::GetColorU32(ImGuiCol_TextDisabled),
                label.c_str());
  }
  int hovered_cell = -1;
  for (int i = 0; i < n; ++i) {
    const int r = i / g.per_row, c = i % g.per_row;
    const ImVec2 a(strip_min.x + float(c) * g.cell_w, origin.y + float(r) * (kCellH + kGap));
    const ImVec2 b(a.x + g.cell_w - kGap, a.y + kCellH);
    draw_cell(dl, a, b, layers[size_t(i)]);
    probe_rect(("strip.layer." + std::to_string(i)).c_str(), a, b);
    if (hovered && mouse.x >= a.x && mouse.x < b.x + kGap && mouse.y >= a.y && mouse.y < b.y + kGap) hovered_cell = i;
  }
  if (hovered_cell >= 0) {
    const int r = hovered_cell / g.per_row, c = hovered_cell % g.per_row;
    const ImVec2 a(strip_min.x + float(c) * g.cell_w, origin.y + float(r) * (kCellH + kGap));
    dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(a.x + g.cell_w - kGap + 1, a.y + kCellH + 1), ImGui::GetColorU32(ImGuiCol_Text),
                0.0f, 0, 2.0f);
    begin_readout();
    ImGui::Text(tr("layer %d: %s"), hovered_cell, layer_text(layers[size_t(hovered_cell)]).c_str());
    end_readout();
  }
  // The legend: only what occurs.
  constexpr int kKinds = 6;
  bool kinds[kKinds] = {}, nope = false, sinks = false, qscale = false, bidirectional = false, selects = false;
  std::string mixers;
  for (const LayerSpec& l : layers) {
    kinds[int(l.attention)] = true;
    if (l.attention == LayerAttention::Linear && mixers.find(l.mixer) == std::string::npos)
      mixers += (mixers.empty() ? "" : ", ") + l.mixer;
    nope |= !positioned(l) && mixes(l);
    bidirectional |= mixes(l) && !l.causal;
    selects |= !l.key_selection.kind.empty();
    sinks |= l.sinks;
    qscale |= l.query_scale.rule != QueryScale::Rule::None;
  }
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 legend_min = ImGui::GetCursorScreenPos();
  float x = legend_min.x, y = legend_min.y;
  const float right = legend_min.x + width;
  auto item = [&](const LayerSpec& sample, const std::string& text) {
    const float w = line + 6.0f + ImGui::CalcTextSize(text.c_str()).x + 14.0f;
    if (x > legend_min.x && x + w > right) x = legend_min.x, y += line + 4.0f;
    draw_cell(dl, ImVec2(x, y), ImVec2(x + line + 2.0f, y + line), sample);
    dl->AddText(ImVec2(x + line + 6.0f, y), ImGui::GetColorU32(ImGuiCol_Text), text.c_str());
    x += w;
  };
  for (int a = 0; a < kKinds; ++a)
    if (kinds[a]) {
      LayerSpec s;
      s.attention = LayerAttention(a);
      s.rope = mixes(s);
      std::string legend = tr(kind_style(s.attention).legend);
      if (s.attention == LayerAttention::Linear && !mixers.empty())
        legend = trf("L linear: {0} (no softmax, no position)", {mixers});
      item(s, legend);
    }
  // The marks a layer can wear: whether any shown layer wears it, a sample layer wearing it, what it says.
  auto wearing = [](auto mark) {
    LayerSpec s;
    mark(s);
    return s;
  };
  const struct {
    bool shown;
    LayerSpec sample;
    const char* text;
  } marks[] = {
      {nope, wearing([](LayerSpec& s) { s.rope = false; }), "hatched: NoPE (no position encoding)"},
      {sinks, wearing([](LayerSpec& s) { s.sinks = true; }), "dot: sinks"},
      {qscale, wearing([](LayerSpec& s) { s.query_scale.rule = QueryScale::Rule::Llama4Temperature; }),
       "corner: query scale by position"},
      {bidirectional, wearing([](LayerSpec& s) { s.causal = false; }), "bar: bidirectional (keys on both sides)"},
      {selects, wearing([](LayerSpec& s) { s.key_selection.kind = "indexer_topk"; }), "bottom corner: top-k key selection"},
  };
  for (const auto& m : marks)
    if (m.shown) item(m.sample, tr(m.text));
  const ImVec2 legend_max(right, y + line);
  ImGui::Dummy(ImVec2(width, legend_max.y - legend_min.y + 2.0f));
  probe_rect("strip.legend", legend_min, legend_max);
}

}  // namespace posenc::app
