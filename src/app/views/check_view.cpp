// Check: a user's RoPE tensor (inv_freq, cos, sin, rotated rows or logits; pasted as text or dropped as a
// .npy / .safetensors / text file) against posenc's reference (the scheme keys, or a preset / loaded config
// through `model`), with the verdict, the ranked causes the core fits (core/analysis/rope_check.h), and the
// error drawn: |actual - expected| over (position x pair) with each pair's class, the top cause's residual
// beside it, and the error per pair. It opens on a built-in example (this reference's tensor with the pair
// layout swapped), labelled as such, so it shows a real diagnosis before anything is pasted. What it
// computes (the request read by posenc eval's reader, the check, the pictures' numbers) is check_model.cpp.
//
// Index of this file:
// [SECTION] helpers
// [SECTION] the view
//     params, model link, recompute, export, controls, verdict, figures
// [SECTION] the file drop
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <numbers>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "app/theme.h"
#include "app/controls.h"
#include "app/file_limits.h"
#include "app/i18n.h"
#include "app/heatmap.h"
#include "app/input.h"
#include "app/model_link.h"
#include "app/number_text.h"
#include "app/plot.h"
#include "app/probe.h"
#include "app/views/views.h"
#include "app/views/check_model.h"
#include "core/analysis/rope_analysis.h"
#include "core/analysis/rope_check.h"
#include "core/encodings/rope.h"
#include "core/position_list.h"
#include "model_io/tensor_file.h"

namespace posenc::app {
namespace {

// [SECTION] helpers

constexpr int kMaxDim = 4096;
constexpr int kMaxLength = 1 << 30;
// Pasted text lives in the URL: a link carries it up to this size; larger tensors are dropped as files.
constexpr std::size_t kMaxPastedBytes = std::size_t{1} << 20;

constexpr auto kKindNames = names_of<CheckKind>();
constexpr auto kScalingNames = names_of<RopeScalingType>();
constexpr auto kLayoutNames = names_of<RopeLayout>();
enum class Source { Example, Text, File };
constexpr const char* kSourceNames[] = {"example", "text", "file"};
constexpr const char* kSourceLabels[] = {"built-in example", "pasted text", "dropped file"};
// The pair classes' colours, by PairBehaviour (palette: green, sky blue, orange, vermillion, purple).
constexpr int kClassColor[] = {3, 2, 1, 6, 7};
constexpr int kClassCount = 5;

// Six significant digits: what a reader compares (the export and window.posenc.check carry full precision).
std::string short_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string fitted_text(const RopeCheckDiagnosis& d) {
  std::string out;
  for (const auto& [name, value] : d.fitted) { out += (out.empty() ? "" : ", ") + name + " = " + check_fit_text(value); }
  return out;
}

// A message or fix as one clause (the core's may end with a period; the view adds its own).
std::string clause(std::string s) {
  while (!s.empty() && (s.back() == '.' || s.back() == ' ')) s.pop_back();
  return s;
}

std::string percent(double f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g%%", 100 * f);
  return buf;
}

// [SECTION] the view

class CheckView final : public ModelLinkedView {
 public:
  explicit CheckView(ViewText text) : ModelLinkedView(std::move(text)) {}
  ~CheckView() override = default;

  void params(ParamList& p) override {
    declare_model(p);
    p.choice("kind", kind_, kKindNames, {.label = "Tensor kind", .help = "what the tensor holds"});
    p.integer("dim", dim_, 2, kMaxDim, {.label = "Head dim", .format = "dim = %d", .log = true, .even = true});
    p.integer("rotary_dim", rotary_dim_, 0, dim_, {.label = "Rotary dims (0 = dim)", .format = "rotary_dim = %d", .even = true});
    p.real("base", base_, 1.0, 1e12, {.label = "Base (rope_theta)", .format = "base = %.6g", .log = true});
    p.choice("scaling", scaling_, kScalingNames, {.label = "Scaling (rope_type)"});
    p.real("factor", factor_, 1.0, 1024.0, {.label = "Factor f", .format = "f = %.6g", .log = true});
    p.integer("orig", orig_, 1, kMaxLength,
              {.label = "original_max_position_embeddings", .format = "%d", .help = "trained length", .log = true});
    p.integer("seq_len", seq_len_, 0, kMaxLength,
              {.label = "seq_len (dynamic / longrope; 0 = max position + 1)",
               .format = "%d",
               .help = "the length dynamic NTK and LongRoPE are evaluated at; 0 = max(positions) + 1"});
    extra_.declare(p);
    p.choice("layout", layout_, kLayoutNames, {.label = "Pair layout"});
    p.real("softmax_scale", softmax_scale_, 0.0, 100.0,
           {.label = "Softmax scale (0 = 1/sqrt(dim))", .format = "%.8g", .help = "logits: what multiplies q.k"});
    p.choice("source", source_, kSourceNames,
             {.label = "Tensor from",
              .help = "the built-in example, the pasted text (tensor=) or a dropped file",
              .labels = kSourceLabels});
    text_param(p, "tensor", tensor_, "Tensor (rows of numbers, or JSON arrays)");
    text_param(p, "x", x_text_, "x: the rows that were rotated (kind rotated)");
    text_param(p, "q", q_text_, "q (kind logits)");
    text_param(p, "k", k_text_, "k (kind logits)");
    p.text(
        "positions", [this](const std::string& s) { return set_positions(s); }, [this] { return positions_text_; },
        {.label = "Positions (empty = 0:n)",
         .help = "the row positions: start:stop[:step] (stop excluded), a list, a..b; empty = 0 .. rows - 1"});
    p.real("tol_abs", tol_abs_, 0.0, 1.0,
           {.label = "Tolerance abs (0 and rel 0 = the float32 rule)", .format = "%.3g", .log = false});
    p.real("tol_rel", tol_rel_, 0.0, 1.0, {.label = "Tolerance rel", .format = "%.3g"});
  }

  float stacked_height(float width) const override {
    // The verdict and the causes above the figures take about ten lines.
    return View::stacked_height(width) + (alone() ? 0.0f : 10 * ImGui::GetTextLineHeightWithSpacing());
  }
  std::string formula_words() const override;
  std::string formula_words_shown() const override;
  void numbers(std::vector<DescribedNumber>& out) const override {
    if (failed()) return;
    out.push_back({"match", result_.match ? 1.0 : 0.0});
    out.push_back({"max abs error", result_.max_abs_error});
    out.push_back({"max rel error", result_.max_rel_error});
    if (!result_.diagnosis.empty()) out.push_back({"top cause explains", result_.diagnosis.front().explains});
  }
  void export_data(std::vector<ExportTable>& tables) const override;

  // A dropped tensor file: held by the view (a link does not carry it), source=file.
  void set_file(CheckFile file) {
    file_ = std::move(file);
    source_ = int(Source::File);
    invalidate();
  }

 private:
  void controls(Controls& c) override;
  void recompute() override;
  void upload() override;
  void draw_figure(ImVec2 size) override;
  std::string key_for_field(const std::string& field) const override;
  ModelFill fill_from_model(const ModelPosition& m) override;

  void text_param(ParamList& p, const char* key, std::string& member, const char* label) {
    p.text(
        key,
        [&member](const std::string& s) -> std::string {
          if (s.size() > kMaxPastedBytes) return "longer than 1 MiB: drop it as a file instead";
          // Every text form the tensor readers take is kept (rows, '#' comments, nan / inf / infinity in any
          // case, JSON); a character no form holds outside a comment is refused here, naming it. A token the
          // reader refuses, rows of different lengths and a wrong shape are the check's errors naming the
          // key and the token, so a half-typed tensor still round-trips through the URL. (A control
          // character never gets here: the state's reader refuses it, parse_clean_query.)
          bool comment = false;
          for (char ch : s) {
            if (ch == '\n') comment = false;
            if (ch == '#') comment = true;
            if (!comment && !std::strchr("0123456789+-.eE \t\r\n,;[]#aAfFiInNtTyY", ch))
              return std::string("\"") + ch + "\" is not part of a number (rows of numbers, or JSON arrays)";
          }
          // A URL value holds no control character: rows travel as "a b; c d" and come back as lines.
          member.clear();
          for (std::size_t i = 0; i < s.size(); ++i) {
            if (s[i] != ';') {
              member += s[i];
              continue;
            }
            member += '\n';
            while (i + 1 < s.size() && s[i + 1] == ' ') ++i;
          }
          return "";
        },
        [&member] {
          std::string url;
          for (char ch : member)
            if (ch == '\n') url += "; ";
            else if (ch == '\t') url += ' ';
            else if (ch != '\r') url += ch;
          while (!url.empty() && (url.back() == ' ' || url.back() == ';')) url.pop_back();
          return url;
        },
        {.label = label,
         .help = "rows of numbers (a row ends at a newline or ';'), or JSON arrays",
         .multiline = true,
         .selects = {"source", "text"}});
  }
  std::string set_positions(const std::string& s) {
    try {
      parse_position_list(s, "positions");  // the one grammar (start:stop[:step], lists, a..b)
    } catch (const InvalidArgument& e) { return e.what(); }
    positions_text_ = s;
    return "";
  }
  RopeCheckReference reference() const;
  void multiline(const char* key, std::string& text, float height);
  void draw_verdict();
  // "MATCH: cos tensor 32 x 64, within tolerance (worst element at 0.62 of it), float32 rule, at [r, c]" /
  // "MISMATCH: ... at [h, r, c]".
  // `words`: "match, cos tensor ..." for the description (the live region), else "MATCH: cos tensor ...".
  std::string verdict_line(bool words = false) const;
  void draw_heatmap(const char* figure, HeatmapWidget& w, const Matrix& m, ImVec2 size, const char* title);
  void draw_pairs(ImVec2 size);
  void hover(const char* figure, int row, int col) const;
  bool logits() const { return CheckKind(kind_) == CheckKind::Logits; }

  // Parameters.
  int kind_ = int(CheckKind::Cos);
  int dim_ = 64, rotary_dim_ = 0;
  double base_ = 10000.0;
  int scaling_ = 0;
  double factor_ = 1.0;
  int orig_ = 4096, seq_len_ = 0;
  RopeExtraKeys extra_;
  int layout_ = int(RopeLayout::Half);
  double softmax_scale_ = 0;
  int source_ = int(Source::Example);
  std::string tensor_, x_text_, q_text_, k_text_, positions_text_;
  double tol_abs_ = 0, tol_rel_ = 0;

  // The multiline fields: the text each showed last frame and its widget generation.
  struct FieldGeneration {
    std::string last;
    int generation = 0;
  };
  std::map<std::string, FieldGeneration> field_generation_;

  // A dropped file.
  CheckFile file_;

  // Computed.
  RopeCheckReference ref_;
  RopeCheckInput input_;
  RopeCheckResult result_;
  std::string example_words_;           // what the example is ("" when the tensor is the user's)
  Matrix error_pp_, residual_pp_;       // (position x pair) or (query x key) maxima
  std::vector<int> error_col_;          // the column each error_pp_ cell's maximum is in
  std::vector<PairBehaviour> classes_;  // per pair
  std::vector<double> pair_error_, pair_residual_, pair_tolerance_;
  bool has_pass_ = false;  // a last column of pass-through dims
  bool has_residual_ = false;
  float vmax_ = 1;
  HeatmapWidget error_map_, residual_map_;
};

RopeCheckReference CheckView::reference() const {
  RopeCheckReference r;
  if (model_exact() && model_source() && model_source()->rope) {
    r = rope_check_reference(*model_source());
  } else {
    r.dim = dim_;
    r.rotary_dim = rotary_dim_;
    r.base = base_;
    r.layout = RopeLayout(layout_);
    r.scaling.type = RopeScalingType(scaling_);
    if (r.scaling.type == RopeScalingType::Longrope)
      throw CannotCompute{"scaling",
                          "longrope takes per-pair short and long factors, which have no keys here: "
                          "choose a LongRoPE model (model=) or load its config.json"};
    r.scaling.factor = factor_;
    r.scaling.original_max_position_embeddings = orig_;
    extra_.apply(r.scaling);
    if (softmax_scale_ > 0) r.softmax_scale = softmax_scale_;
    // The model's rope slice sits last (MLA: q = [q_nope, q_pe]): it stays last when the keys are edited.
    const int rotary = r.rotary_dim ? r.rotary_dim : r.dim;
    if (model_source() && model_source()->rope && model_source()->rope->rotary_offset > 0 && rotary < r.dim)
      r.rotary_offset = r.dim - rotary;
  }
  if (seq_len_ > 0) r.scaling.seq_len = seq_len_;
  return r;
}

ModelFill CheckView::fill_from_model(const ModelPosition& m) {
  ModelFill f;
  const std::string name = m.model_type.empty() ? std::string("the model") : m.model_type;
  if (m.position != PositionKind::Rope || !m.rope) {
    f.gap(name + " uses " + position_kind_name(m.position) + " positions, not RoPE: there is no RoPE tensor to check.");
    return f;
  }
  const ModelRope& r = *m.rope;
  const RopeScaling& s = r.scaling;
  // The width of the heads this RoPE rotates (Gemma 4's full layers: global_head_dim 512, not head_dim 256).
  const int width = rope_head_dim(m, r);
  dim_ = std::clamp(width, 2, kMaxDim) & ~1;
  rotary_dim_ = r.rotary_dim == width ? 0 : std::clamp(r.rotary_dim, 0, dim_) & ~1;
  base_ = std::clamp(r.base, 1.0, 1e12);
  scaling_ = int(s.type);
  factor_ = std::clamp(s.factor, 1.0, 1024.0);
  const int64_t trained = trained_length(s.original_max_position_embeddings, r.original_max_position_embeddings);
  orig_ = int(std::clamp<int64_t>(trained, 1, kMaxLength));
  layout_ = int(r.layout);
  softmax_scale_ = std::clamp(r.softmax_scale, 0.0, 100.0);
  f.keys = {"dim", "rotary_dim", "base", "scaling", "factor", "orig", "layout", "softmax_scale"};
  extra_.fill(s, f.keys);
  if (!m.layers.empty())
    f.gap(name + " has layer types with their own RoPE (" + other_layer_ropes(m) +
          "): the check uses the full_attention layers' (posenc check --config takes a layer type).");
  return f;
}

std::string CheckView::key_for_field(const std::string& field) const {
  // The core's fields ("reference.scaling.factor", "actual", "x", ...) to this view's keys.
  std::string f = field;
  if (f.rfind("reference.", 0) == 0) f = f.substr(10);
  if (f == "actual") return "tensor";
  if (f == "scaling.factor") return "factor";
  if (f == "scaling.original_max_position_embeddings") return "orig";
  if (f == "scaling.seq_len") return "seq_len";
  if (f.rfind("tolerance.", 0) == 0) return f == "tolerance.rel" ? "tol_rel" : "tol_abs";
  if (f.rfind("scaling.", 0) == 0) {
    const std::string rest = f.substr(8);
    return rest != "type" && param_list().find(rest) ? rest : "scaling";
  }
  return View::key_for_field(f);
}

void CheckView::recompute() {
  result_ = {};
  example_words_.clear();
  CheckTexts texts{tensor_, x_text_, q_text_, k_text_, positions_text_, tol_abs_, tol_rel_};
  const RopeCheckReference wanted = reference();
  // Pair classes: the core's rule against the trained length (the scaling's original length, else orig).
  const int64_t trained = trained_length(wanted.scaling.original_max_position_embeddings, orig_);
  CheckComputation c = compute_check(wanted, CheckKind(kind_),
                                     Source(source_) == Source::Example ? CheckSource::Example
                                     : Source(source_) == Source::Text  ? CheckSource::Text
                                                                        : CheckSource::File,
                                     texts, file_, trained);
  ref_ = std::move(c.ref);
  input_ = std::move(c.input);
  result_ = std::move(c.result);
  example_words_ = std::move(c.example_words);
  CheckPictures& p = c.pictures;
  error_pp_ = std::move(p.error_pp);
  residual_pp_ = std::move(p.residual_pp);
  error_col_ = std::move(p.error_col);
  classes_ = std::move(p.classes);
  pair_error_ = std::move(p.pair_error);
  pair_residual_ = std::move(p.pair_residual);
  pair_tolerance_ = std::move(p.pair_tolerance);
  has_pass_ = p.has_pass;
  has_residual_ = p.has_residual;
  vmax_ = p.vmax;
}

// The rotary width, and where the slice sits when it does not start the head ("64, dims 128..191").
std::string rotary_text(const RopeCheckReference& r) {
  const int rotary = r.rotary_dim ? r.rotary_dim : r.dim;
  std::string t = std::to_string(rotary);
  if (r.rotary_offset > 0) t += ", dims " + std::to_string(r.rotary_offset) + ".." + std::to_string(r.rotary_offset + rotary - 1);
  return t;
}

std::string CheckView::formula_words() const {
  std::string out = std::string("Checks a ") + check_kind_name(CheckKind(kind_)) +
                    " tensor against posenc's RoPE reference (dim " + std::to_string(ref_.dim) + ", rotary_dim " +
                    rotary_text(ref_) + ", base " + format_number(ref_.base) + ", scaling " + rope_type_name(ref_.scaling.type) +
                    ", layout " + rope_layout_name(ref_.layout) + ").";
  if (failed() || result_.expected.size() == 0) return out + " It cannot be checked yet: see the notice.";
  if (!example_words_.empty()) out += " " + example_words_;
  // The verdict with the tensor's shape, never the tensor (a live region reads this).
  if (result_.match) return out + " Verdict: " + verdict_line(true) + ".";
  out += " Verdict: " + verdict_line(true) + ".";
  const RopeCheckDiagnosis& d = result_.diagnosis.front();
  out += std::string(" Top cause: ") + check_cause_name(d.cause) + ", explains " + percent(d.explains);
  const std::string fit = fitted_text(d);
  if (!fit.empty()) out += " (" + fit + ")";
  out += ": " + clause(d.message) + ". Fix: " + clause(d.fix) + ".";
  return out;
}

// The same in the interface's language: one template for the first sentence, its {6} the rest (the example,
// the verdict, the top cause), each part composed in the language.
std::string CheckView::formula_words_shown() const {
  if (ui_lang() == Lang::En) return formula_words();
  std::string rest;
  if (failed() || result_.expected.size() == 0) {
    rest = tr(" It cannot be checked yet: see the notice.");
  } else {
    if (!example_words_.empty()) rest += " " + tr_message(example_words_);
    rest += trf(" Verdict: {0}.", {verdict_line(true)});
    if (!result_.match) {
      const RopeCheckDiagnosis& d = result_.diagnosis.front();
      const std::string fit = fitted_text(d);
      rest += trf(" Top cause: {0}, explains {1}{2}: {3:tr}. Fix: {4:tr}.",
                  {check_cause_name(d.cause), percent(d.explains), fit.empty() ? std::string() : " (" + fit + ")",
                   clause(d.message), clause(d.fix)});
    }
  }
  return trf(
      "Checks a {0} tensor against posenc's RoPE reference (dim {1}, rotary_dim {2}, base {3}, scaling {4}, layout {5}).{6}",
      {check_kind_name(CheckKind(kind_)), std::to_string(ref_.dim), rotary_text(ref_), format_number(ref_.base),
       rope_type_name(ref_.scaling.type), rope_layout_name(ref_.layout), rest});
}

void CheckView::export_data(std::vector<ExportTable>& tables) const {
  if (failed() || result_.expected.size() == 0) return;
  const char* col = logits() ? "key j" : "pair k";
  tables.push_back(matrix_table("error", logits() ? "query i" : "position row", col, "row", error_pp_));
  if (has_residual_) tables.push_back(matrix_table("residual", logits() ? "query i" : "position row", col, "row", residual_pp_));
  std::vector<double> xs(pair_error_.size());
  for (size_t g = 0; g < xs.size(); ++g) xs[g] = double(g);
  std::vector<ExportSeries> s{{"max |actual - expected|", xs, pair_error_}, {"max tolerance", xs, pair_tolerance_}};
  if (has_residual_) s.push_back({"max |actual - top cause|", xs, pair_residual_});
  tables.push_back(curve_table("per_pair", logits() ? "query row i" : "pair k", "error", logits() ? "i" : "k", s));
  ExportTable summary{
      "summary",
      "",
      "",
      {"match", "max_abs_error", "max_rel_error", "worst_expected", "worst_actual"},
      {{result_.match ? 1.0 : 0.0, result_.max_abs_error, result_.max_rel_error, result_.worst_expected, result_.worst_actual}}};
  tables.push_back(std::move(summary));
  // cause: the index of the cause id in the catalogue's order (core/analysis/rope_check.h, docs/cli.md).
  ExportTable causes{"diagnosis", "", "", {"rank", "cause", "explains"}, {}};
  for (size_t i = 0; i < result_.diagnosis.size(); ++i)
    causes.rows.push_back({double(i + 1), double(int(result_.diagnosis[i].cause)), result_.diagnosis[i].explains});
  tables.push_back(std::move(causes));
}

void CheckView::multiline(const char* key, std::string& text, float height) {
  note_shown_param(key);
  const ParamList list = param_list();  // holds the Param `p` points into
  const Param* p = list.find(key);
  ImGui::TextUnformatted(p ? tr(p->label()) : key);
  // An active ImGui field writes its own buffer back every frame: a value set from outside (URL, setState,
  // a dropped file) gets a fresh widget id, so the old field lets go and the new value shows.
  FieldGeneration& g = field_generation_[key];
  if (text != g.last) ++g.generation, g.last = text;
  std::string edit = text;
  if (ImGui::InputTextMultiline(("##" + std::string(key) + std::to_string(g.generation)).c_str(), &edit, ImVec2(-1, height),
                                ImGuiInputTextFlags_AllowTabInput)) {
    if (edit.size() <= kMaxPastedBytes) {
      text = g.last = edit;
      // The same frame's verdict is the edited tensor's: the view recomputes before it draws the figures.
      if (const Param* s = p && p->opt.selects.key ? list.find(p->opt.selects.key) : nullptr) {
        Notices ignored;  // a declared choice's own name: never refused
        s->read(p->opt.selects.value, ignored);
      }
    }
  }
  probe_last_item((std::string("input.") + key).c_str());
  if (edit.size() > kMaxPastedBytes) error_text("longer than 1 MiB: drop it as a file instead");
}

void CheckView::controls(Controls& c) {
  draw_model_controls();
  ImGui::Separator();
  c.draw("kind");
  c.draw("source");
  if (Source(source_) == Source::File)
    ImGui::TextWrapped("%s", file_.name.empty() ? tr("no file yet: drop a .npy, .safetensors or text file on the page")
                                                : trf("file: {0}", {file_.name}).c_str());
  const float line = ImGui::GetTextLineHeight();
  // An edit selects the pasted text as the source (the declaration's `selects`).
  multiline("tensor", tensor_, line * 6);
  if (CheckKind(kind_) == CheckKind::Rotated) multiline("x", x_text_, line * 4);
  if (CheckKind(kind_) == CheckKind::Logits) {
    multiline("q", q_text_, line * 4);
    multiline("k", k_text_, line * 4);
  }
  c.draw("positions");
  ImGui::Separator();
  ImGui::TextUnformatted(tr("Reference"));
  for (const char* k : {"dim", "rotary_dim", "base", "layout", "scaling"}) c.draw(k);
  const RopeScalingType type = RopeScalingType(scaling_);
  if (type != RopeScalingType::None) {
    c.draw("factor");
    c.draw("orig");
  }
  // The type's own keys (kRopeScalingKeys) that the view holds.
  for (const char* k : rope_scaling_keys(type))
    if (std::string_view(k) != "factor" && c.has(k)) c.draw(k);
  if (CheckKind(kind_) == CheckKind::Logits) c.draw("softmax_scale");
  c.draw("tol_abs");
  c.draw("tol_rel");
}

void CheckView::upload() {
  error_map_.map().set_values(error_pp_.data(), int(error_pp_.rows()), int(error_pp_.cols()));
  if (has_residual_) residual_map_.map().set_values(residual_pp_.data(), int(residual_pp_.rows()), int(residual_pp_.cols()));
}

std::string CheckView::verdict_line(bool words) const {
  const RopeCheckResult& r = result_;
  auto where = [](const std::vector<int64_t>& idx) {
    std::string s = "[";
    for (size_t i = idx.size() == 3 ? 1 : 0; i < idx.size(); ++i) s += (s.back() == '[' ? "" : ", ") + std::to_string(idx[i]);
    s += "]";
    return idx.size() == 3 ? trf("head {0}, {1}", {std::to_string(idx[0]), s}) : s;
  };
  const std::string shape = (r.heads > 0 ? std::to_string(r.heads) + " x " + std::to_string(r.actual.rows() / r.heads)
                                         : std::to_string(r.actual.rows())) +
                            " x " + std::to_string(r.actual.cols());
  // In the interface's language: one template per verdict (the rule "float32" / "given" translated in it).
  const std::string rule = r.default_tolerance ? "float32" : "given";
  const char* kind = check_kind_name(CheckKind(kind_));
  if (r.match)
    // x of "at x of it": the worst element's error over its tolerance, as the check computes it (worst.ratio).
    return trf(words ? "match, {0} tensor {1}, within tolerance (worst element at {2} of it), {3:tr} rule, at {4}"
                     : "MATCH: {0} tensor {1}, within tolerance (worst element at {2} of it), {3:tr} rule, at {4}",
               {kind, shape, short_number(r.worst_ratio), rule, where(r.worst_ratio_index)});
  return trf(words ? "mismatch, {0} tensor {1}, max |actual - expected| = {2} at {3}: expected {4}, actual {5} ({6} x its {7:tr} "
                     "tolerance)"
                   : "MISMATCH: {0} tensor {1}, max |actual - expected| = {2} at {3}: expected {4}, actual {5} ({6} x its {7:tr} "
                     "tolerance)",
             {kind, shape, short_number(r.max_abs_error), where(r.worst_index), short_number(r.worst_expected),
              short_number(r.worst_actual), short_number(r.worst_ratio), rule});
}

void CheckView::draw_verdict() {
  const RopeCheckResult& r = result_;
  if (!example_words_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, warning_color());
    ImGui::TextWrapped("%s", tr_message(example_words_).c_str());
    ImGui::PopStyleColor();
    probe_last_item("text.check.example");
  }
  if (const std::string caption = model_caption(); !caption.empty()) ImGui::TextWrapped("%s", tr_message(caption).c_str());
  ImGui::PushStyleColor(ImGuiCol_Text, r.match ? good_color() : error_color());
  ImGui::TextWrapped("%s", verdict_line().c_str());
  ImGui::PopStyleColor();
  probe_last_item("text.check.verdict");
  if (r.default_tolerance)
    ImGui::TextWrapped(tr("tolerance: the float32 rule (angle coefficient %s; docs/cli.md)"), short_number(r.angle_rel).c_str());
  else
    ImGui::TextWrapped(tr("tolerance: abs %s + rel %s x |expected|"), format_number(r.given_tolerance.abs).c_str(),
                       format_number(r.given_tolerance.rel).c_str());
  if (r.equivalent_under_softmax && *r.equivalent_under_softmax && !r.match)
    ImGui::TextWrapped("%s", tr("equivalent under softmax: the error is a constant per row."));
  // As posenc check's text: a cause after the first that explains under 5% is left out (the export and
  // window.posenc.check keep every one).
  const size_t shown = std::min<size_t>(r.diagnosis.size(), mode() == LayoutMode::Narrow ? 3 : 5);
  for (size_t i = 0; i < shown; ++i) {
    const RopeCheckDiagnosis& d = r.diagnosis[i];
    if (i > 0 && d.cause != CheckCause::Unknown && d.explains < 0.05) continue;
    const std::string fit = fitted_text(d);
    ImGui::TextWrapped("%s", trf("{0}. {1}, explains {2}{3}: {4:tr}. Fix: {5:tr}.",
                                 {std::to_string(i + 1), check_cause_name(d.cause), percent(d.explains),
                                  fit.empty() ? std::string() : tr("; ") + fit, clause(d.message), clause(d.fix)})
                                 .c_str());
    probe_last_item(("text.check.cause" + std::to_string(i)).c_str());
    if (i == 0)
      probe_rect(("cause." + std::string(check_cause_name(d.cause))).c_str(), ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  }
  if (!logits() && !classes_.empty()) {
    // The classes present, in the core's words (pair_behaviour_phrase).
    ImGui::TextUnformatted(tr("pair classes (strip above the error map):"));
    std::vector<int> present;
    for (int k = 0; k < kClassCount; ++k)
      if (std::find(classes_.begin(), classes_.end(), PairBehaviour(k)) != classes_.end()) present.push_back(k);
    for (size_t i = 0; i < present.size(); ++i) {
      const int k = present[i];
      // Narrow: one class a line; else each after the last, no item spacing between them. The "; " ends
      // the class before it, so no line starts with it.
      if (mode() != LayoutMode::Narrow) ImGui::SameLine(0.0f, i == 0 ? -1.0f : 0.0f);
      const char* phrase = tr(pair_behaviour_phrase(PairBehaviour(k)));
      const std::string text = i + 1 < present.size() ? trf("{0}; ", {phrase}) : std::string(phrase);
      ImGui::TextColored(readable_text(palette_color(kClassColor[k])), "%s", text.c_str());
    }
  }
}

void CheckView::hover(const char* figure, int row, int col) const {
  begin_readout();
  const bool res = std::strcmp(figure, "residual") == 0;
  const Matrix& m = res ? residual_pp_ : error_pp_;
  if (row < 0 || col < 0 || row >= m.rows() || col >= m.cols()) {
    end_readout();
    return;
  }
  const int64_t pos = size_t(row) < input_.positions.size() ? input_.positions[size_t(row)] : row;
  if (logits()) {
    ImGui::Text(tr("query i = %d (position %lld), key j = %d"), row, (long long)pos, col);
    ImGui::Text(tr("expected %.10g, actual %.10g"), result_.expected(row, col), result_.actual(row, col));
  } else {
    const int pairs = int(classes_.size());
    if (col < pairs)
      ImGui::Text(tr("position %lld, pair k = %d (%s)"), (long long)pos, col, tr(pair_behaviour_phrase(classes_[size_t(col)])));
    else ImGui::Text(tr("position %lld, pass-through dims"), (long long)pos);
    const int c = error_col_.empty() ? 0 : error_col_[size_t(row * error_pp_.cols() + col)];
    ImGui::Text(tr("column %d: expected %.10g, actual %.10g"), c, result_.expected(row, c), result_.actual(row, c));
  }
  ImGui::Text(tr(res ? "max |actual - top cause| = %.6g" : "max |actual - expected| = %.6g"), m(row, col));
  end_readout();
}

void CheckView::draw_heatmap(const char* figure, HeatmapWidget& w, const Matrix& m, ImVec2 size, const char* title) {
  const ImVec2 at = ImGui::GetCursorScreenPos();
  // Alone (a small embed) the verdict line above says what the map is: no title, more room for the map.
  if (!alone()) ImGui::TextUnformatted(tr_message(title).c_str());
  const float line = alone() ? 0.0f : ImGui::GetTextLineHeightWithSpacing();
  const float strip = logits() ? 0.0f : 7.0f;
  ImGui::SetCursorScreenPos(ImVec2(at.x, at.y + line + strip));
  if (m.size() == 0) {
    ImGui::TextWrapped("%s",
                       tr(result_.match ? "match: nothing to explain" : "no catalogued cause: the residual is the error itself"));
    probe_rect(("plot." + std::string(figure)).c_str(), at, ImVec2(at.x + size.x, at.y + size.y));
    ImGui::SetCursorScreenPos(ImVec2(at.x, at.y + size.y));
    return;
  }
  // English: the heatmap translates its titles.
  const HeatmapAxes axes{logits() ? "key j" : (has_pass_ ? "pair k (last: pass-through)" : "pair k"),
                         logits() ? "query i" : "row (position)", 0, 0};
  const std::string probe = std::string("heatmap.check_") + figure;
  const HeatmapHover h = w.draw(probe.c_str(), ImVec2(size.x, size.y - line - strip), axes, Colormap::Viridis, 0.0f, vmax_);
  probe_plot(figure, probe.c_str());
  if (h.active) hover(figure, h.row, h.col);
  // The pair classes as a strip over the image's columns (following the zoom).
  ImVec2 mn, mx;
  if (!logits() && !classes_.empty() && find_probe(probe, &mn, &mx)) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec4 win = w.zoom_window();
    const int cols = int(m.cols());
    for (int k = 0; k < int(classes_.size()); ++k) {
      const float u0 = (float(k) / cols - win.x) / win.z, u1 = (float(k + 1) / cols - win.x) / win.z;
      if (u1 <= 0 || u0 >= 1) continue;
      const float x0 = mn.x + std::max(0.0f, u0) * (mx.x - mn.x), x1 = mn.x + std::min(1.0f, u1) * (mx.x - mn.x);
      // In the row reserved under the title, above the heatmap's own margin (its y title stays clear).
      dl->AddRectFilled(ImVec2(x0, at.y + line), ImVec2(x1, at.y + line + strip - 1),
                        palette_color(kClassColor[int(classes_[size_t(k)])]));
    }
    probe_rect(("strip.check_" + std::string(figure)).c_str(), ImVec2(mn.x, at.y + line), ImVec2(mx.x, at.y + line + strip - 1));
  }
  ImGui::SetCursorScreenPos(ImVec2(at.x, at.y + size.y));
}

void CheckView::draw_pairs(ImVec2 size) {
  std::vector<double> xs(pair_error_.size());
  for (size_t g = 0; g < xs.size(); ++g) xs[g] = double(g);
  std::vector<Series> s;
  s.push_back(Series{tr("max |actual - expected|"), xs, pair_error_, palette_color(6), xs.size() <= 64, false});
  if (has_residual_)
    s.push_back(Series{trf("after {0}", {check_cause_name(result_.diagnosis.front().cause)}), xs, pair_residual_,
                       palette_color(1), false, false});
  s.push_back(Series{tr("tolerance"), xs, pair_tolerance_, ImGui::GetColorU32(ImGuiCol_Text, 0.6f), false, false});
  log_plot("plot.pairs", size, s, tr(logits() ? "query row i" : "pair k"), tr("max error per pair (log)"));
}

void CheckView::draw_figure(ImVec2 size) {
  const float top = ImGui::GetCursorScreenPos().y;
  if (!alone()) {
    draw_verdict();
  } else {
    // One figure alone (a small embed): the verdict and the top cause in one line above it.
    std::string line = tr(result_.match ? "MATCH" : "MISMATCH");
    if (!result_.diagnosis.empty())
      line = trf("{0}: {1} explains {2}",
                 {line, check_cause_name(result_.diagnosis.front().cause), percent(result_.diagnosis.front().explains)});
    if (!example_words_.empty()) line = trf("{0} (built-in example)", {line});
    const ImVec4 color = result_.match ? good_color() : error_color();
    text_fit(line, &color);
    probe_last_item("text.check.verdict");
  }
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  size.y = std::max(size.y - (origin.y - top), 120.0f);
  const char* map_title = logits() ? "|actual - expected| (query x key)" : "|actual - expected| (position x pair)";
  // English here: draw_heatmap translates its title (a template's instance, "residual after {0}").
  const std::string res_title =
      has_residual_ ? std::string("residual after ") + check_cause_name(result_.diagnosis.front().cause) : "residual";
  if (stacked()) {
    int shown = 0;
    for (const char* f : {"error", "residual", "pairs"}) shown += shows(f) ? 1 : 0;
    const float row_h = std::max(160.0f, size.y / float(std::max(1, shown)));
    if (shows("error")) draw_heatmap("error", error_map_, error_pp_, ImVec2(size.x, row_h - 4), map_title);
    if (shows("residual"))
      draw_heatmap("residual", residual_map_, has_residual_ ? residual_pp_ : Matrix(), ImVec2(size.x, row_h - 4),
                   res_title.c_str());
    if (shows("pairs")) draw_pairs(ImVec2(size.x, row_h - 4));
    return;
  }
  const float top_h = size.y * 0.58f, half_w = size.x * 0.5f;
  draw_heatmap("error", error_map_, error_pp_, ImVec2(half_w - 8, top_h - 4), map_title);
  ImGui::SetCursorScreenPos(ImVec2(origin.x + half_w, origin.y));
  draw_heatmap("residual", residual_map_, has_residual_ ? residual_pp_ : Matrix(), ImVec2(half_w, top_h - 4), res_title.c_str());
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + top_h));
  draw_pairs(ImVec2(size.x, size.y - top_h));
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + size.y));
  ImGui::Dummy(ImVec2(size.x, 0));
}

}  // namespace

std::unique_ptr<View> make_check_view(ViewText text) { return std::make_unique<CheckView>(std::move(text)); }

// [SECTION] the file drop

std::string load_tensor_bytes(View* check, const unsigned char* data, std::size_t size, const std::string& name) {
  auto* view = dynamic_cast<CheckView*>(check);
  if (!view) return "";
  CheckFile file;
  file.name = name;
  try {
    if (!data && size > 0)
      throw InvalidArgument("tensor", "the file is " + std::to_string(size) + " bytes; the limit is " +
                                          limit_bytes_text(file_limit("tensor_file")));
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    file.m = model_io::tensor_matrix(model_io::parse_tensor_bytes(bytes, name, "", "tensor"), "tensor", &file.heads);
  } catch (const InvalidArgument& e) {
    file.error = e.what();
    file.m = Matrix();
    file.heads = 0;
  }
  view->set_file(std::move(file));
  return view->sink_query();
}

}  // namespace posenc::app
