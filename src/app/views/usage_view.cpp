// Frequency usage: which rotary frequencies a trained model's layers and heads use, from its own q/k
// weights. A weights report (what `posenc weights --json` writes, read by model_io/usage_json.h) comes from a
// model folder or files the page reads (web/page/weights.js), a dropped JSON, or the URL key `usage=` naming
// a same-origin JSON the page fetches (so an embed shows a real model's figure). Drawn: the layers x pairs
// map of qk_share (one head's or the mean over heads), the pairs ordered by frequency with the trained
// length's full-turn boundary (turns = 1) drawn per layer, and the layers x heads map of semantic_share.
// What it computes is usage_model.cpp; what the numbers mean is docs/weights.md.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "app/controls.h"
#include "app/heatmap.h"
#include "app/i18n.h"
#include "app/input.h"
#include "app/params.h"
#include "app/plot.h"
#include "app/probe.h"
#include "app/state_params.h"
#include "app/theme.h"
#include "app/ui_state.h"
#include "app/views/usage_model.h"
#include "app/views/views.h"
#include "core/bounds.h"
#include "model_io/usage_json.h"

namespace posenc::app {
namespace {

constexpr std::size_t kMaxUrlBytes = 2048;

// Why `url` is not a same-origin relative URL ("" when it is one): the page fetches it from the page's own
// site, so an embed cannot be made to fetch from elsewhere.
std::string relative_url_problem(const std::string& url) {
  if (url.size() > kMaxUrlBytes) return "longer than 2048 characters";
  for (unsigned char ch : url)
    if (ch < 0x20 || ch == 0x7f || ch == '\\') return "holds a control character or a backslash";
  if (url.empty()) return "";
  if (url.rfind("//", 0) == 0) return "names another site (//host): only a relative URL on this site is fetched";
  // A report is a .json file: its path (before any ?query or #fragment) says so.
  const std::string path = url.substr(0, url.find_first_of("?#"));
  if (path.size() < 5 || path.compare(path.size() - 5, 5, ".json") != 0)
    return "does not name a .json file (a report written by posenc weights --json)";
  const std::size_t colon = url.find(':');
  if (colon != std::string::npos && url.find_first_of("/?#") > colon)
    return "names a scheme (" + url.substr(0, colon) + ":): only a relative URL on this site is fetched";
  return "";
}

// As the JSON writes a number (shortest round trip); "null" where it writes null (an infinite wavelength,
// the shares of a head whose q.k norms are all 0).
std::string number_text(double v) { return std::isfinite(v) ? format_number(v) : std::string("null"); }

class UsageView final : public View {
 public:
  explicit UsageView(ViewText text) : View(std::move(text)) {}

  void params(ParamList& p) override {
    p.text(
        "usage",
        [this](const std::string& s) {
          if (std::string why = relative_url_problem(s); !why.empty()) return why;
          usage_ = s;
          return std::string();
        },
        [this] { return usage_; },
        {.label = "Weights JSON URL (relative)",
         .help = "a .json written by posenc weights --json, on the same site as the page (fetched, 32 MiB at most; "
                 "posenc export and render read it as a file)"});
    p.integer("head", head_, kUsageMeanHead, kMaxHeads - 1,
              {.label = "Head (-1 = mean over heads)",
               .format = "head = %d",
               .help = "the q head drawn; -1 = the mean over the layer's heads"});
  }

  std::string formula_words() const override { return text_words_; }
  std::string formula_words_shown() const override {
    return tr(View::formula_words()) + (report_ && current() && !failed() ? " " + summary(true) : std::string());
  }
  void numbers(std::vector<DescribedNumber>& out) const override {
    if (failed() || !report_ || !current()) return;
    out.push_back({"layers", double(report_->layers.size())});
    out.push_back({"rope layers", double(picture_.rope_layers)});
    out.push_back({"pairs", double(report_->pairs.size())});
    out.push_back({"heads", double(picture_.max_heads)});
    if (std::isfinite(picture_.mean_semantic)) out.push_back({"mean semantic share", picture_.mean_semantic});
  }
  void notes(Notices& out) const override {
    if (!report_ || !current()) return;
    auto joined = [](const std::vector<std::string>& items) {
      std::string s;
      for (size_t i = 0; i < items.size() && i < 12; ++i) s += (i ? ", " : "") + items[i];
      if (items.size() > 12) s += ", ... (" + std::to_string(items.size()) + " in all)";
      return s;
    };
    if (!report_->unknown_keys.empty())
      out.push_back({"usage", "keys of the weights JSON posenc does not read: " + joined(report_->unknown_keys)});
    for (const std::string& a : report_->assumptions) out.push_back({"usage", "assumed: " + a});
    if (!report_->unread_keys.empty())
      out.push_back({"usage", "config keys the weights reading did not read: " + joined(report_->unread_keys)});
  }
  void export_data(std::vector<ExportTable>& tables) const override;

  // A report loaded (or its failure): from the usage= URL (`from_url`, source = the URL) or a file.
  std::string load(const unsigned char* data, std::size_t size, const std::string& source, bool from_url,
                   const std::string& failure) {
    error_.reset();
    source_ = source;
    from_url_ = from_url;
    if (!from_url) usage_.clear();  // a link cannot carry a dropped file
    try {
      if (!failure.empty()) throw InvalidArgument("usage", failure);
      if (!data)
        throw InvalidArgument("usage", "the JSON is " + std::to_string(size) + " bytes; the limit is " +
                                           std::to_string(model_io::kMaxUsageJsonBytes >> 20) + " MiB");
      report_ = model_io::read_usage_json(std::string_view(reinterpret_cast<const char*>(data), size), "usage");
    } catch (const InvalidArgument& e) {
      report_.reset();
      error_ = Notice{"usage", source + ": " + e.what()};
    }
    invalidate();
    StateMap m;
    save_state(m);
    m["view"] = id();
    return to_query(m);
  }
  // The URL whose JSON the view waits for ("" when it waits for nothing): the page fetches it.
  std::string wanted_url() const { return !usage_.empty() && !(from_url_ && source_ == usage_) ? usage_ : std::string(); }

 private:
  void controls(Controls& c) override;
  void recompute() override;
  void upload() override;
  void draw_figure(ImVec2 size) override;
  void draw_empty(ImVec2 size);
  void draw_share(ImVec2 size);
  void draw_semantic(ImVec2 size);
  void hover_share(int row, int col) const;
  void hover_semantic(int row, int col) const;
  // Whether the report shown is the one the state names (a usage= URL not fetched yet is not).
  bool current() const { return report_ && (usage_.empty() ? !from_url_ : from_url_ && source_ == usage_); }
  // "llama: 32 layers (32 with RoPE), 64 pairs (half), 32 heads; mean semantic share 0.41." (shown: in
  // the interface's language).
  std::string summary(bool shown = false) const;

  // Parameters.
  std::string usage_;
  int head_ = kUsageMeanHead;

  // The loaded report and where it came from; a failed load's notice.
  std::optional<model_io::UsageReport> report_;
  std::string source_;
  bool from_url_ = false;
  std::optional<Notice> error_;

  // Computed.
  UsagePicture picture_;
  std::string text_words_;
  MatrixF share_f_, semantic_f_;
  float share_max_ = 1;
  HeatmapWidget share_map_, semantic_map_;
};

void UsageView::recompute() {
  picture_ = {};
  text_words_ = View::formula_words();
  if (error_ && (from_url_ ? source_ == usage_ : usage_.empty())) throw CannotCompute{"usage", error_->message};
  if (!current()) return;
  picture_ = usage_picture(*report_, head_);
  text_words_ += " " + summary();
  // The maps as float textures; a layer without positions (or a head a layer lacks) is a masked cell.
  auto to_float = [](const Matrix& m, float& hi) {
    MatrixF f(m.rows(), m.cols());
    hi = 0;
    for (Eigen::Index i = 0; i < m.size(); ++i) {
      const double v = m.data()[i];
      f.data()[i] = std::isfinite(v) ? float(v) : kMaskedCell;
      if (std::isfinite(v)) hi = std::max(hi, float(v));
    }
    return f;
  };
  share_f_ = to_float(picture_.share, share_max_);
  if (!(share_max_ > 0)) share_max_ = 1;
  float unused = 0;
  semantic_f_ = to_float(picture_.semantic, unused);
}

std::string UsageView::summary(bool shown) const {
  const model_io::UsageReport& r = *report_;
  char mean[32];
  std::snprintf(mean, sizeof mean, "%.4g", picture_.mean_semantic);
  const std::vector<std::string> args = {r.model_type.empty() ? std::string("model") : r.model_type,
                                         std::to_string(r.layers.size()),
                                         std::to_string(picture_.rope_layers),
                                         std::to_string(r.pairs.size()),
                                         r.layout,
                                         std::to_string(picture_.max_heads),
                                         mean};
  const char* tmpl = "{0}: {1} layers ({2} with RoPE), {3} pairs ({4}), {5} heads; mean semantic share {6}.";
  if (shown) return trf(tmpl, {args[0], args[1], args[2], args[3], args[4], args[5], args[6]});
  std::string out = tmpl;
  for (size_t i = 0; i < args.size(); ++i) out.replace(out.find("{" + std::to_string(i) + "}"), 3, args[i]);
  return out;
}

void UsageView::upload() {
  if (!current()) return;
  share_map_.map().set_values(share_f_.data(), int(share_f_.rows()), int(share_f_.cols()));
  semantic_map_.map().set_values(semantic_f_.data(), int(semantic_f_.rows()), int(semantic_f_.cols()));
}

void UsageView::export_data(std::vector<ExportTable>& tables) const {
  if (failed() || !current()) return;
  const model_io::UsageReport& r = *report_;
  const int layers = int(r.layers.size()), pairs = int(r.pairs.size());
  // The maps as drawn (rows: the layers in the report's order, columns: frequency rank), then each rank's
  // pair index per layer, then the model's pairs, then semantic_share per head.
  tables.push_back(matrix_table(head_ == kUsageMeanHead ? "qk_share_mean" : "qk_share_head_" + std::to_string(head_),
                                "layer (row index)", "pair rank by frequency (0 = highest)", "row", layers, pairs,
                                [&](int l, int k) { return picture_.share(l, k); }));
  tables.push_back(
      matrix_table("pair_by_rank", "layer (row index)", "pair rank by frequency", "row", layers, pairs,
                   [&](int l, int k) { return r.layers[size_t(l)].rope ? double(picture_.order[size_t(l)][size_t(k)]) : NAN; }));
  ExportTable layer_table{"layers", "row", "", {"row", "layer", "rope", "boundary_rank"}, {}};
  for (int l = 0; l < layers; ++l)
    layer_table.rows.push_back({double(l), double(r.layers[size_t(l)].layer), r.layers[size_t(l)].rope ? 1.0 : 0.0,
                                double(picture_.boundary[size_t(l)])});
  tables.push_back(std::move(layer_table));
  ExportTable pair_table{"pairs", "pair j", "", {"j", "inv_freq", "wavelength", "turns"}, {}};
  for (int j = 0; j < pairs; ++j)
    pair_table.rows.push_back({double(j), r.pairs.inv_freq[size_t(j)],
                               std::isinf(r.pairs.wavelength[size_t(j)]) ? NAN : r.pairs.wavelength[size_t(j)],
                               r.pairs.turns[size_t(j)]});
  tables.push_back(std::move(pair_table));
  tables.push_back(matrix_table("semantic_share", "layer (row index)", "head", "row", layers, picture_.max_heads,
                                [&](int l, int h) { return picture_.semantic(l, h); }));
}

void UsageView::controls(Controls& c) {
  c.draw("head");
  c.draw("usage");
  if (current_ui().file_picker) {
    if (ImGui::Button(tr_id("Load model folder").c_str())) current_ui().weights_requested = 1;
    probe_last_item("button.load_weights_folder");
    ImGui::SameLine();
    if (ImGui::Button(tr_id("Load files").c_str())) current_ui().weights_requested = 2;
    probe_last_item("button.load_weights_files");
  }
  if (report_ && current()) {
    ImGui::TextDisabled("%s", trf("from {0}", {source_}).c_str());
    if (report_->read_bytes > 0)
      ImGui::TextDisabled(tr("read %lld tensors, %.4g MB"), (long long)report_->read_tensors, double(report_->read_bytes) / 1e6);
  }
}

void UsageView::draw_empty(ImVec2 size) {
  const float wrap = std::min(size.x, 60 * ImGui::GetFontSize());
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
  if (!wanted_url().empty()) {
    // The page fetches usage= (web/page/weights.js); a native program has no page to fetch it.
    ImGui::TextWrapped("%s", current_ui().file_picker
                                 ? trf("Loading {0}…", {usage_}).c_str()
                                 : trf("{0}: the web page fetches this JSON, this program does not", {usage_}).c_str());
    probe_last_item("text.usage.loading");
    ImGui::PopTextWrapPos();
    return;
  }
  ImGui::TextWrapped("%s", tr("Which rotary frequencies does a trained model use? For every layer and head this view "
                              "reads the model's own q and k projection weights and shows each rotary pair's share of "
                              "the head's q·k weight norm, the pairs ordered by frequency. Pairs left of the boundary "
                              "turn at least once within the trained length; the share right of it (the semantic "
                              "share) rotates too slowly to tell positions apart there."));
  probe_last_item("text.usage.intro");
  ImGui::Spacing();
  ImGui::TextWrapped("%s", tr("Load a model: drop its folder (config.json with .safetensors files or an index) or a "
                              ".gguf file on the page, or use Load model folder; or load a JSON written by posenc "
                              "weights --json (drop it, or give its URL in usage=). Nothing is uploaded: only the "
                              "headers and the q/k tensors are read."));
  probe_last_item("text.usage.how");
  if (current_ui().file_picker) {
    ImGui::Spacing();
    if (ImGui::Button(tr_id("Load model folder").c_str())) current_ui().weights_requested = 1;
    probe_last_item("button.usage_folder");
    ImGui::SameLine();
    if (ImGui::Button(tr_id("Load files").c_str())) current_ui().weights_requested = 2;
    probe_last_item("button.usage_files");
  }
  ImGui::PopTextWrapPos();
}

void UsageView::hover_share(int row, int col) const {
  const model_io::UsageReport& r = *report_;
  if (row < 0 || col < 0 || row >= int(r.layers.size()) || col >= int(r.pairs.size())) return;
  const model_io::UsageLayer& l = r.layers[size_t(row)];
  begin_readout();
  if (!l.rope) {
    ImGui::Text(tr("layer %d: no positions (%s)"), l.layer, l.kind.empty() ? "none" : l.kind.c_str());
    end_readout();
    return;
  }
  const int j = picture_.order[size_t(row)][size_t(col)];
  ImGui::Text(tr("layer %d, pair j = %d (rank %d by frequency)"), l.layer, j, col);
  ImGui::Text("inv_freq = %s, wavelength = %s, turns = %s", number_text(l.pairs.inv_freq[size_t(j)]).c_str(),
              number_text(l.pairs.wavelength[size_t(j)]).c_str(), number_text(l.pairs.turns[size_t(j)]).c_str());
  if (!l.pairs.mrope_axis.empty()) ImGui::Text("M-RoPE: %s", l.pairs.mrope_axis[size_t(j)].c_str());
  if (head_ == kUsageMeanHead) {
    ImGui::Text(tr("qk_share = %s (mean over %d heads)"), number_text(picture_.share(row, col)).c_str(), int(l.heads.size()));
  } else if (size_t(head_) < l.heads.size()) {
    const model_io::UsageHead& h = l.heads[size_t(head_)];
    ImGui::Text(tr("head %d (kv_head %d): qk_share = %s"), h.head, h.kv_head, number_text(h.qk_share[size_t(j)]).c_str());
    ImGui::Text("q_norm = %s, k_norm = %s, qk = %s", number_text(h.q_norm[size_t(j)]).c_str(),
                number_text(h.k_norm[size_t(j)]).c_str(), number_text(h.qk[size_t(j)]).c_str());
  } else {
    ImGui::Text(tr("layer %d has %d heads"), l.layer, int(l.heads.size()));
  }
  end_readout();
}

void UsageView::hover_semantic(int row, int col) const {
  const model_io::UsageReport& r = *report_;
  if (row < 0 || col < 0 || row >= int(r.layers.size())) return;
  const model_io::UsageLayer& l = r.layers[size_t(row)];
  begin_readout();
  if (!l.rope) {
    ImGui::Text(tr("layer %d: no positions (%s)"), l.layer, l.kind.empty() ? "none" : l.kind.c_str());
  } else if (size_t(col) < l.heads.size()) {
    const model_io::UsageHead& h = l.heads[size_t(col)];
    ImGui::Text(tr("layer %d, head %d (kv_head %d)"), l.layer, h.head, h.kv_head);
    ImGui::Text("semantic_share = %s", number_text(h.semantic_share).c_str());
    std::string top;
    for (int p : h.top_pairs) top += (top.empty() ? "" : ", ") + std::to_string(p);
    ImGui::Text("top_pairs = [%s]", top.c_str());
  } else {
    ImGui::Text(tr("layer %d has %d heads"), l.layer, int(l.heads.size()));
  }
  end_readout();
}

void UsageView::draw_share(ImVec2 size) {
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float line = alone() ? 0.0f : ImGui::GetTextLineHeightWithSpacing();
  if (!alone())
    text_fit(head_ == kUsageMeanHead
                 ? tr("qk_share per layer and pair (mean over heads), pairs by frequency")
                 : trf("qk_share per layer and pair (head {0}), pairs by frequency", {std::to_string(head_)}));
  ImGui::SetCursorScreenPos(ImVec2(at.x, at.y + line));
  const HeatmapAxes axes{"pair rank (highest frequency first)", "layer", 0, 0};
  const HeatmapHover h =
      share_map_.draw("heatmap.usage_share", ImVec2(size.x, size.y - line), axes, Colormap::Viridis, 0.0f, share_max_);
  probe_plot("share", "heatmap.usage_share");
  // The full-turn boundary (turns = 1) per layer, as a staircase over the image (following the zoom): the
  // pairs left of it turn at least once within the trained length.
  const ImVec2 mn = share_map_.image_min(), mx = share_map_.image_max();
  if (mx.x > mn.x && mx.y > mn.y) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->PushClipRect(mn, mx, true);
    const ImVec4 win = share_map_.zoom_window();
    const int rows = int(picture_.share.rows()), cols = int(picture_.share.cols());
    const ImU32 color = ImGui::GetColorU32(ImGuiCol_Text);
    const ImU32 halo = ImGui::GetColorU32(ImGuiCol_WindowBg);
    auto px = [&](double u) { return mn.x + float((u - win.x) / win.z) * (mx.x - mn.x); };
    auto py = [&](double v) { return mn.y + float((v - win.y) / win.w) * (mx.y - mn.y); };
    float last_x = -1;  // the boundary's x in the row above (-1: none, a row without positions or the first)
    for (int r = 0; r < rows && cols > 0; ++r) {
      if (!report_->layers[size_t(r)].rope) {
        last_x = -1;
        continue;
      }
      const float x = px(double(picture_.boundary[size_t(r)]) / cols);
      const float y0 = py(double(r) / rows), y1 = py(double(r + 1) / rows);
      for (int pass = 0; pass < 2; ++pass) {
        const ImU32 c = pass == 0 ? halo : color;
        const float w = pass == 0 ? 4.0f : 2.0f;
        dl->AddLine(ImVec2(x, y0), ImVec2(x, y1), c, w);
        if (last_x >= 0 && last_x != x) dl->AddLine(ImVec2(last_x, y0), ImVec2(x, y0), c, w);
      }
      last_x = x;
    }
    dl->PopClipRect();
    probe_rect("line.usage_boundary", mn, mx);
  }
  if (h.active) hover_share(h.row, h.col);
  ImGui::SetCursorScreenPos(ImVec2(at.x, at.y + size.y));
}

void UsageView::draw_semantic(ImVec2 size) {
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float line = alone() ? 0.0f : ImGui::GetTextLineHeightWithSpacing();
  if (!alone()) text_fit(tr("semantic_share per layer and head (turns < 1)"));
  ImGui::SetCursorScreenPos(ImVec2(at.x, at.y + line));
  const HeatmapAxes axes{"head", "layer", 0, 0};
  const HeatmapHover h =
      semantic_map_.draw("heatmap.usage_semantic", ImVec2(size.x, size.y - line), axes, Colormap::Viridis, 0.0f, 1.0f);
  probe_plot("semantic", "heatmap.usage_semantic");
  if (h.active) hover_semantic(h.row, h.col);
  ImGui::SetCursorScreenPos(ImVec2(at.x, at.y + size.y));
}

void UsageView::draw_figure(ImVec2 size) {
  if (!current()) {
    draw_empty(size);
    return;
  }
  const float top = ImGui::GetCursorScreenPos().y;
  if (!alone()) {
    ImGui::TextWrapped("%s", summary(true).c_str());  // wrapped, not cut: a phone keeps the mean semantic share
    probe_last_item("text.usage.summary");
  }
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  size.y = std::max(size.y - (origin.y - top), 120.0f);
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  if (stacked()) {
    const int shown = (shows("share") ? 1 : 0) + (shows("semantic") ? 1 : 0);
    const float row_h = std::max(160.0f, size.y / float(std::max(1, shown)));
    if (shows("share")) draw_share(ImVec2(size.x, row_h - 4));
    if (shows("semantic")) draw_semantic(ImVec2(size.x, row_h - 4));
    return;
  }
  const float share_w = size.x * 0.66f;
  draw_share(ImVec2(share_w - gap, size.y));
  ImGui::SetCursorScreenPos(ImVec2(origin.x + share_w, origin.y));
  draw_semantic(ImVec2(size.x - share_w, size.y));
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + size.y));
  ImGui::Dummy(ImVec2(size.x, 0));
}

}  // namespace

std::unique_ptr<View> make_usage_view(ViewText text) { return std::make_unique<UsageView>(std::move(text)); }

std::string load_usage_bytes(View* usage, const unsigned char* data, std::size_t size, const std::string& source, bool from_url,
                             const std::string& failure) {
  auto* view = dynamic_cast<UsageView*>(usage);
  return view ? view->load(data, size, source, from_url, failure) : std::string();
}

std::string usage_wanted_url(const View* usage) {
  const auto* view = dynamic_cast<const UsageView*>(usage);
  return view ? view->wanted_url() : std::string();
}

}  // namespace posenc::app
