// Model: a real model's positional encoding from its configuration (a compiled-in preset, a pasted
// config.json or a GGUF header loaded through window.posenc.loadModel). A summary card per RoPE (every
// layer type's), the per-pair frequency ratio against unscaled RoPE, the wavelengths against the original and
// target context with each pair classed, every layer in a strip (model_layers.h), M-RoPE's split
// (model_mrope.h), what to set to extend the context (model_extension.h), what posenc assumed and did not read;
// and, with compare=, a second model beside it (both cards and strips, the plots overlaid, the differences).
// What is computed lives in model_model.h (no ImGui); this file holds the parameters, the state and the drawing.
//
// Index of this file:
// [SECTION] the state
//     model, edits, recompute, export
// [SECTION] description and notes
// [SECTION] controls
// [SECTION] cards
// [SECTION] plots and panels
//
// State: `model` is a preset id or "custom" (a loaded config); the view renders that model. The positional
// keys after it (base, rotary_dim, rope_type, ...) are filled from it and are edits on top of it: a key whose
// text differs from what the model filled is edited (head_dim, heads and max apply to the whole model, the other
// RoPE keys to its main RoPE: the full-attention layers'), and only then does the view say "edited". A URL of
// keys alone (model=custom without a loaded config) computes from the keys. `compare` is a second model: a
// preset id, or "custom" for a second loaded config (which a link cannot carry).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <numbers>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/controls.h"
#include "app/i18n.h"
#include "app/input.h"
#include "app/model_link.h"
#include "app/number_text.h"
#include "app/plot.h"
#include "app/probe.h"
#include "app/state_params.h"
#include "app/views/model_cards.h"
#include "app/views/model_layers.h"
#include "app/views/model_model.h"
#include "app/views/views.h"
#include "core/encodings/alibi.h"
#include "core/models/rope_assembly.h"
#include "core/text_split.h"
#include "model_io/presets.h"

namespace posenc::app {
namespace {

constexpr const char* kCustom = "custom";
constexpr const char* kDefaultModel = "llama-3.1-8b";
constexpr int kMaxLength = 1 << 30;
constexpr int kMaxHeadDim = 4096;
constexpr int kMaxFactors = 2048;  // longrope factor lists (rotary_dim / 2 each)
// The T5 and DeBERTa keys' defaults (T5-base's and DeBERTa-v3's values), also what a model of another
// scheme leaves them at.
constexpr int kDefaultBuckets = 32, kDefaultMaxDistance = 128, kDefaultBucketSize = 256, kDefaultMaxPosition = 512;

constexpr auto kPositionNames = names_of<PositionKind>();
constexpr auto kScalingNames = names_of<RopeScalingType>();
constexpr auto kLayoutNames = names_of<RopeLayout>();
constexpr auto kMropePositionNames = std::to_array<const char*>({"text", "image"});
// Keys that are not the model's: what the view shows of it.
constexpr auto kViewKeys = std::to_array<const char*>({"model", "compare", "target_len", "mrope_positions"});
// Keys of the main RoPE's scaling (edited together: a scaling is rebuilt from all of them): its type, its
// original length (the view's "orig") and every key of kRopeScalingKeys.
bool is_scaling_key(std::string_view key) { return key == "rope_type" || key == "orig" || rope_scaling_key(key) != nullptr; }

std::string join_numbers(const std::vector<double>& v) {
  std::string out;
  for (double x : v) out += (out.empty() ? "" : ",") + format_number(x);
  return out;
}

std::string parse_numbers(const std::string& text, std::vector<double>& out) {
  std::vector<double> v;
  std::vector<std::string> items = split_list(text, ',');
  if (!text.empty() && text.back() == ',') items.emplace_back();  // split_list drops a trailing empty entry
  for (const std::string& item : items) {
    double x = 0;
    if (item.empty()) return "has an empty entry";
    // Plain decimal only: "0x10" or "010" is refused, not read as 16 or 10.
    if (!parse_decimal(item, x) || x <= 0) return "\"" + item + "\" is not a positive number";
    v.push_back(x);
    if (v.size() > size_t(kMaxFactors)) return "more than 2048 factors";
  }
  out = std::move(v);
  return "";
}

bool contains(const auto& list, const std::string& key) { return std::find(list.begin(), list.end(), key) != list.end(); }

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// The label a model is shown by: its preset's, else its model_type.
std::string shown_label(const std::string& id, const ModelPosition& m) {
  if (const auto* p = model_io::find_model_preset(id)) return p->label;
  return m.model_type.empty() ? std::string(kCustom) : m.model_type + " (loaded)";
}

class ModelView final : public View, public ModelSink {
 public:
  // The default preset is read when the view is first used (params()), not here: every App makes every
  // view at its start, and reading a config (the presets' list, the family table, the RoPE) before the
  // page's first frame of another view would only delay it.
  explicit ModelView(ViewText text) : View(std::move(text)) {}

  void params(ParamList& p) override;
  void export_data(std::vector<ExportTable>& tables) const override;
  std::vector<std::string> figures() const override;
  float stacked_height(float width) const override;
  std::string formula_words() const override;
  std::string formula_words_shown() const override;
  void numbers(std::vector<DescribedNumber>& out) const override;
  void notes(Notices& out) const override;

  // A config loaded by the page (window.posenc.loadModel, file picker, drop, paste): the model shown,
  // model=custom.
  void set_loaded_model(const ModelPosition& m) override {
    load_error_.reset();
    model_ = kCustom;
    set_source(m);
  }
  // A second config loaded to compare with: compare=custom.
  void set_compare_model(const ModelPosition& m) override {
    load_error_.reset();
    compare_ = kCustom;
    compare_source_ = m;
    invalidate();
  }
  // A failed load changes nothing: the model shown stays (and stays labelled as it was); the error is a
  // note while the state is the one it failed in.
  void set_model_load_error(const Notice& n) override {
    load_error_ = n;
    load_error_state_ = state_text();
  }
  const char* sink_view_id() const override { return id(); }
  std::string sink_query() const override {
    StateMap s;
    s["view"] = id();
    save_state(s);
    return to_query(s);
  }

 private:
  void controls(Controls& c) override;
  void recompute() override;
  void draw_figure(ImVec2 size) override;
  std::string key_for_field(const std::string& field) const override;

  // ---- the state
  std::string parse_model(const std::string& s);
  std::string parse_compare(const std::string& s);
  void choose_preset(const std::string& id) {
    model_ = id;
    set_source(read_hf_config(model_io::preset_config(id)));
  }
  void set_source(const ModelPosition& m);
  void fill_from(const ModelPosition& m);
  std::string state_text() const {
    StateMap s;
    save_state(s);
    return to_query(s);
  }
  // Every model key's text now (all declared keys but kViewKeys).
  std::map<std::string, std::string> model_key_texts() const;
  std::vector<std::string> edited_keys() const;
  ModelPosition from_keys() const;
  ModelPosition with_edits(const ModelPosition& source, const std::vector<std::string>& edited) const;
  ModelRope rope_from_keys(const ModelRope& base, const std::vector<std::string>& edited) const;

  // ---- drawing
  void draw_model_combo(const char* label, const char* id, std::string& value, bool compare);
  void draw_cards(float width);
  void draw_panels(const ModelShown& s, float width, bool layers, bool mrope, bool extension, const std::string& who);

  // Parameters.
  std::string model_ = kDefaultModel;
  std::string compare_;  // "" none, a preset id, or "custom" (a second loaded config)
  int position_ = 0;
  int head_dim_ = 128, heads_ = 32, rotary_dim_ = 128;
  double base_ = 10000.0;
  int layout_ = 0, rope_type_ = 0;
  double factor_ = 1.0;
  int orig_ = 4096, max_ = 4096;
  RopeExtraKeys extra_;  // YaRN's and Llama 3's keys, as the RoPE and scores views declare them
  std::vector<double> short_factor_, long_factor_;
  double softmax_scale_ = 0;
  int num_buckets_ = kDefaultBuckets, max_distance_ = kDefaultMaxDistance;
  bool bidirectional_ = true;
  int bucket_size_ = kDefaultBucketSize, max_position_ = kDefaultMaxPosition;
  int target_len_ = 2 * 4096;
  int mrope_positions_ = 0;  // kMropePositionNames

  // The model shown (preset or loaded config) and what its keys said right after filling them.
  std::optional<ModelPosition> source_;
  std::map<std::string, std::string> filled_;
  std::optional<ModelPosition> compare_source_;
  std::optional<Notice> load_error_;
  std::string load_error_state_;

  // Computed.
  ModelShown shown_;
  std::vector<std::string> edited_;  // the model keys edited (empty: the model as given)
  bool from_keys_ = false;           // computed from the keys alone (no source, or another scheme chosen)
  std::optional<ModelShown> compare_shown_;
  std::vector<ModelDifference> diffs_;
  int64_t diffs_length_ = 0;  // the length the differences count extrapolated pairs at
};

// [SECTION] the state

void ModelView::params(ParamList& p) {
  // First use: the default model's keys (choose_preset declares through here again, with the source set).
  if (!source_) choose_preset(kDefaultModel);
  p.text(
      "model", [this](const std::string& s) { return parse_model(s); }, [this] { return model_; },
      {.label = "Model", .help = "a preset id (posenc inspect, docs/models.md) or custom"});
  p.choice("position", position_, kPositionNames, {.label = "Position scheme"});
  p.integer("head_dim", head_dim_, 1, kMaxHeadDim, {.label = "Head width head_dim", .format = "head_dim = %d", .log = true});
  p.integer("heads", heads_, 1, 1024, {.label = "Attention heads", .format = "heads = %d", .log = true});
  // Up to 4096, not head_dim: Gemma 4's full-attention RoPE spans global_head_dim (512 > head_dim 256).
  p.integer("rotary_dim", rotary_dim_, 2, kMaxHeadDim, {.label = "Rotary dims", .format = "rotary_dim = %d", .even = true});
  p.real("base", base_, 1.0, 1e12, {.label = "Base (rope_theta)", .format = "base = %.6g", .log = true});
  p.choice("layout", layout_, kLayoutNames, {.label = "Pair layout"});
  p.choice("rope_type", rope_type_, kScalingNames, {.label = "rope_type (none = default)"});
  p.real("factor", factor_, 1.0, 1e6, {.label = "Factor f", .format = "f = %.6g", .log = true});
  p.integer("orig", orig_, 1, kMaxLength,
            {.label = "original_max_position_embeddings", .format = "%d", .help = "trained (original) length", .log = true});
  p.integer("max", max_, 1, kMaxLength,
            {.label = "max_position_embeddings", .format = "%d", .help = "target (maximum) length", .log = true});
  extra_.declare(p);
  p.text(
      "short_factor", [this](const std::string& s) { return parse_numbers(s, short_factor_); },
      [this] { return join_numbers(short_factor_); },
      {.label = "LongRoPE short_factor", .help = "rotary_dim/2 comma-separated factors"});
  p.text(
      "long_factor", [this](const std::string& s) { return parse_numbers(s, long_factor_); },
      [this] { return join_numbers(long_factor_); },
      {.label = "LongRoPE long_factor", .help = "rotary_dim/2 comma-separated factors"});
  p.real("softmax_scale", softmax_scale_, 0.0, 100.0,
         {.label = "softmax scale on q.k", .format = "%.8g", .help = "what multiplies q.k"});
  p.integer("num_buckets", num_buckets_, 1, 4096, {.label = "T5 num_buckets", .format = "%d"});
  p.integer("max_distance", max_distance_, 1, kMaxLength, {.label = "T5 max_distance", .format = "%d", .log = true});
  p.flag("bidirectional", bidirectional_, {.label = "T5 bidirectional"});
  p.integer("bucket_size", bucket_size_, 1, kMaxLength, {.label = "DeBERTa bucket_size", .format = "%d", .log = true});
  p.integer("max_position", max_position_, 1, kMaxLength, {.label = "DeBERTa max_position", .format = "%d", .log = true});
  // What the view shows of the model (not part of the model: model_key_texts leaves them out).
  p.integer("target_len", target_len_, 1, kMaxLength,
            {.label = "Target length (context extension)",
             .format = "target = %d",
             .help = "the context length to extend to",
             .log = true});
  p.choice("mrope_positions", mrope_positions_, kMropePositionNames,
           {.label = "M-RoPE positions", .help = "text: t = h = w (1-D RoPE); image: an example image grid"});
  p.text(
      "compare", [this](const std::string& s) { return parse_compare(s); }, [this] { return compare_; },
      {.label = "Compare with", .help = "a preset id to show beside the model (custom: a second loaded config)"});
}

std::string ModelView::parse_model(const std::string& s) {
  if (s == kCustom) {
    model_ = kCustom;
    return "";
  }
  if (!model_io::find_model_preset(s)) return unknown_preset_reason(s, model_);
  // The same preset again (a URL re-read) keeps the keys read after it: they are the edits.
  if (s == model_ && source_) return "";
  try {
    choose_preset(s);
  } catch (const InvalidArgument& e) { return std::string("preset \"") + s + "\" cannot be read: " + e.what(); }
  return "";
}

std::string ModelView::parse_compare(const std::string& s) {
  if (s.empty() || s == "none") {
    compare_.clear();
    compare_source_.reset();
    return "";
  }
  if (s == kCustom) {
    compare_ = kCustom;  // a second loaded config (kept while there is one; none: nothing to compare)
    return "";
  }
  if (!model_io::find_model_preset(s)) return unknown_preset_reason(s, compare_);
  if (s == compare_ && compare_source_) return "";
  try {
    compare_source_ = read_hf_config(model_io::preset_config(s));
  } catch (const InvalidArgument& e) { return std::string("preset \"") + s + "\" cannot be read: " + e.what(); }
  compare_ = s;
  return "";
}

void ModelView::set_source(const ModelPosition& m) {
  fill_from(m);
  source_ = m;
  filled_ = model_key_texts();
  invalidate();
}

std::map<std::string, std::string> ModelView::model_key_texts() const {
  std::map<std::string, std::string> out;
  const ParamList list = param_list();  // alive through the loop
  for (const Param& p : list.items())
    if (!contains(kViewKeys, p.key)) out[p.key] = p.text();
  return out;
}

std::vector<std::string> ModelView::edited_keys() const {
  std::vector<std::string> out;
  if (!source_) return out;
  for (const auto& [key, text] : model_key_texts())
    if (auto it = filled_.find(key); it == filled_.end() || it->second != text) out.push_back(key);
  return out;
}

// Every key from the model; a key the model does not set takes its default, so a model chosen after
// another holds exactly what a fresh view with that model holds.
void ModelView::fill_from(const ModelPosition& m) {
  position_ = int(m.position);
  head_dim_ = std::clamp(m.head_dim, 1, kMaxHeadDim);
  heads_ = std::clamp(m.position == PositionKind::Alibi ? int(m.alibi_slopes.size()) : m.num_attention_heads, 1, 1024);
  const ModelRope r = m.rope ? *m.rope : ModelRope{};
  rotary_dim_ = m.rope ? r.rotary_dim : std::max(2, head_dim_ & ~1);
  base_ = r.base;
  layout_ = int(r.layout);
  rope_type_ = int(r.scaling.type);
  factor_ = r.scaling.factor;
  const int64_t max_len = m.position == PositionKind::Learned ? m.learned_max_position_embeddings
                          : m.rope                            ? r.max_position_embeddings
                                                              : 4096;
  max_ = int(std::clamp<int64_t>(max_len, 1, kMaxLength));
  target_len_ = int(std::min<int64_t>(2 * int64_t(max_), kMaxLength));
  orig_ = int(std::clamp<int64_t>(m.rope ? r.original_max_position_embeddings : max_, 1, kMaxLength));
  // Every scaling's values (not only its type's, as RopeExtraKeys::fill), unclamped: the card shows them.
  extra_.beta_fast = r.scaling.beta_fast;
  extra_.beta_slow = r.scaling.beta_slow;
  extra_.truncate = r.scaling.truncate;
  extra_.attention_factor = r.scaling.attention_factor.value_or(0);
  extra_.mscale = r.scaling.mscale.value_or(0);
  extra_.mscale_all_dim = r.scaling.mscale_all_dim.value_or(0);
  extra_.low_freq_factor = r.scaling.low_freq_factor;
  extra_.high_freq_factor = r.scaling.high_freq_factor;
  short_factor_ = r.scaling.short_factor;
  long_factor_ = r.scaling.long_factor;
  softmax_scale_ = m.rope ? r.softmax_scale : 1.0 / std::sqrt(double(std::max(1, m.head_dim)));
  num_buckets_ = m.position == PositionKind::T5 ? std::clamp(m.t5_num_buckets, 1, 4096) : kDefaultBuckets;
  max_distance_ =
      m.position == PositionKind::T5 ? int(std::clamp<int64_t>(m.t5_max_distance, 1, kMaxLength)) : kDefaultMaxDistance;
  bidirectional_ = m.position == PositionKind::T5 ? m.t5_bidirectional : true;
  bucket_size_ =
      m.position == PositionKind::Deberta ? int(std::clamp<int64_t>(m.deberta_bucket_size, 1, kMaxLength)) : kDefaultBucketSize;
  max_position_ =
      m.position == PositionKind::Deberta ? int(std::clamp<int64_t>(m.deberta_max_position, 1, kMaxLength)) : kDefaultMaxPosition;
}

// The main RoPE with the edited keys applied (a scaling key edited: the whole scaling from the keys).
ModelRope ModelView::rope_from_keys(const ModelRope& base, const std::vector<std::string>& edited) const {
  auto is = [&](const char* k) { return contains(edited, k); };
  RopeParts p{base.rotary_dim,    base.layout, base.base,          base.scaling,           base.max_position_embeddings,
              base.softmax_scale, false,       base.mrope_section, base.mrope_interleaved, base.head_dim};
  if (is("rotary_dim")) p.rotary_dim = rotary_dim_;
  // A rope slice that sits last stays last when the rotary width is edited.
  const int width = base.head_dim > 0 ? base.head_dim : head_dim_;
  p.rotary_offset = base.rotary_offset > 0 ? std::max(0, width - p.rotary_dim) : 0;
  if (is("base")) p.base = base_;
  if (is("layout")) p.layout = RopeLayout(layout_);
  if (is("softmax_scale")) p.softmax_scale = softmax_scale_;
  if (is("max")) p.max_position_embeddings = max_;
  if (std::any_of(edited.begin(), edited.end(), [](const std::string& k) { return is_scaling_key(k); })) {
    RopeScaling& s = p.scaling;
    s.type = RopeScalingType(rope_type_);
    s.factor = factor_;
    s.original_max_position_embeddings = orig_;
    extra_.apply(s);
    s.short_factor = short_factor_;
    s.long_factor = long_factor_;
  }
  // M-RoPE's split only while it still fits the rotary dims.
  const auto& sec = p.mrope_section;
  if (sec.size() == 3 && sec[0] + sec[1] + sec[2] != p.rotary_dim / 2) p.mrope_section.clear();
  return assemble_rope(p, [](const InvalidArgument& e) { return e; });
}

ModelPosition ModelView::with_edits(const ModelPosition& source, const std::vector<std::string>& edited) const {
  ModelPosition m = source;
  if (contains(edited, "head_dim")) m.head_dim = head_dim_;
  if (contains(edited, "heads")) m.num_attention_heads = heads_;
  if (!m.rope) return m;
  const ModelRope before = *m.rope;
  m.rope = rope_from_keys(before, edited);
  for (auto& [name, r] : m.layers) {
    // The main RoPE's entry takes every edit; the other layer types only the model-wide length.
    const bool main = r.base == before.base && r.rotary_dim == before.rotary_dim && r.scaling.type == before.scaling.type &&
                      r.frequencies.inv_freq == before.frequencies.inv_freq;
    if (main) r = *m.rope;
    else if (contains(edited, "max")) r = rope_from_keys(r, {"max"});
  }
  // head_dim edits the model's width: the RoPEs of heads that wide follow it; a layer type with its own width
  // (Gemma 4's full layers: global_head_dim) keeps it.
  if (contains(edited, "head_dim")) {
    auto follow = [&](ModelRope& r) {
      if (r.head_dim == 0 || r.head_dim == source.head_dim) r.head_dim = head_dim_;
    };
    follow(*m.rope);
    for (auto& [name, r] : m.layers) follow(r);
  }
  return m;
}

ModelPosition ModelView::from_keys() const {
  ModelPosition m;
  m.model_type = kCustom;
  m.position = PositionKind(position_);
  m.head_dim = head_dim_;
  m.num_attention_heads = heads_;
  switch (m.position) {
    case PositionKind::Rope: {
      if (rotary_dim_ > head_dim_) throw CannotCompute{"rotary_dim", "rotary_dim must be at most head_dim"};
      ModelRope none;
      none.rotary_dim = rotary_dim_;
      none.max_position_embeddings = max_;
      const std::vector<std::string> every = {"rope_type", "rotary_dim", "base", "layout", "softmax_scale", "max"};
      m.rope = rope_from_keys(none, every);
      break;
    }
    case PositionKind::Alibi: m.alibi_slopes = alibi_slopes(heads_); break;
    case PositionKind::T5:
      m.t5_num_buckets = num_buckets_;
      m.t5_max_distance = max_distance_;
      m.t5_bidirectional = bidirectional_;
      break;
    case PositionKind::Deberta:
      m.deberta_bucket_size = bucket_size_;
      m.deberta_max_position = max_position_;
      break;
    case PositionKind::Learned: m.learned_max_position_embeddings = max_; break;
    case PositionKind::None: break;
  }
  // What the keys do not hold comes from the model they were filled from: its layers (kinds do not depend
  // on the keys) and the keys it left unread.
  if (source_) {
    if (source_->position == m.position) {
      m.num_hidden_layers = source_->num_hidden_layers;
      m.per_layer = source_->per_layer;
    }
    m.unread_keys = source_->unread_keys;
  }
  return m;
}

std::string ModelView::key_for_field(const std::string& field) const {
  const std::string key = renamed_key(field, {{"dim", "rotary_dim"}, {"scaling.original_max_position_embeddings", "orig"}});
  return key.empty() ? scaling_key(field, "scaling.", "rope_type") : key;
}

void ModelView::recompute() {
  edited_ = edited_keys();
  from_keys_ = !source_ || contains(edited_, "position");
  const ModelPosition m = from_keys_ ? from_keys() : edited_.empty() ? *source_ : with_edits(*source_, edited_);
  try {
    shown_ = compute_model_shown(m, target_len_, mrope_positions_ == 1);
  } catch (const InvalidArgument& e) { throw CannotCompute{"target_len", e.what()}; }
  compare_shown_.reset();
  diffs_.clear();
  if (!compare_.empty() && compare_source_) {
    try {
      compare_shown_ = compute_model_shown(*compare_source_, target_len_, mrope_positions_ == 1);
    } catch (const InvalidArgument& e) { throw CannotCompute{"target_len", e.what()}; }
    // The differences at the length posenc inspect A B uses (compare_length), whatever target_len draws.
    diffs_ = compare_models(m, *compare_source_);
    diffs_length_ = compare_length(m, *compare_source_);
  }
}

void ModelView::export_data(std::vector<ExportTable>& tables) const {
  if (failed()) return;
  model_tables(shown_, "", tables);
  if (compare_shown_) {
    model_tables(*compare_shown_, "compare ", tables);
    tables.push_back(differences_table(diffs_));
  }
}

// [SECTION] description and notes

// RoPE: the wavelengths against the trained and target lengths (main), the frequency ratio; ALiBi: slopes.
std::vector<std::string> ModelView::figures() const {
  const ModelPosition& m = shown_.pos;
  if (m.position == PositionKind::Rope) {
    std::vector<std::string> f{"wavelength", "ratio"};
    if (!m.per_layer.empty()) f.push_back("layers");
    if (shown_.mrope) f.push_back("mrope");
    f.push_back("extension");
    return f;
  }
  if (m.position == PositionKind::Alibi) return {"slopes"};
  if (!m.per_layer.empty()) return {"layers", "card"};
  return {"card"};
}

std::string ModelView::formula_words() const {
  const ModelPosition& m = shown_.pos;
  std::string out;
  if (m.position == PositionKind::Rope) {
    out =
        "This model rotates each pair k of the query and key by position times w'_k, the frequencies its "
        "configuration sets; pairs whose wavelength exceeds the trained length never turned fully in training.";
    if (!failed() && shown_.mrope) out += " M-RoPE " + mrope_split_text(*m.rope, *shown_.mrope) + ".";
  } else if (m.position == PositionKind::Alibi) {
    out = "This model adds minus a head's slope times the distance to every score (ALiBi).";
  } else {
    out = std::string("This model's positional scheme: ") + position_kind_name(m.position) + ".";
  }
  if (!failed() && !m.per_layer.empty()) out += " " + layer_strip_text(m.per_layer);
  if (!failed() && compare_shown_) {
    out += " Compared with " + shown_label(compare_, compare_shown_->pos) + ": ";
    std::string d;
    for (const ModelDifference& x : diffs_)
      d += (d.empty() ? "" : "; ") + x.what + " " + x.a.text + (difference_assumed(x, "a") ? " (assumed)" : "") + " vs " +
           x.b.text + (difference_assumed(x, "b") ? " (assumed)" : "");
    out += d.empty() ? std::string("no differences in how they place positions.") : "differences: " + d + ".";
  }
  return out;
}

// The same in the interface's language: one template per first sentence, its {N} the rest (the layers, the
// comparison), each part composed in the language (mrope_split_text and layer_strip_text are).
std::string ModelView::formula_words_shown() const {
  if (ui_lang() == Lang::En) return formula_words();
  const ModelPosition& m = shown_.pos;
  std::string rest;
  if (!failed() && m.position == PositionKind::Rope && shown_.mrope)
    rest += trf(" M-RoPE {0}.", {mrope_split_text(*m.rope, *shown_.mrope)});
  if (!failed() && !m.per_layer.empty()) rest += " " + layer_strip_text(m.per_layer);
  if (!failed() && compare_shown_) {
    std::string d;
    for (const ModelDifference& x : diffs_)
      d += (d.empty() ? "" : tr("; ")) +
           trf("{0:tr} {1} vs {2}",
               {x.what, tr_message(x.a.text) + (difference_assumed(x, "a") ? std::string(" ") + tr("(assumed)") : ""),
                tr_message(x.b.text) + (difference_assumed(x, "b") ? std::string(" ") + tr("(assumed)") : "")});
    const std::string label = shown_label(compare_, compare_shown_->pos);
    rest += d.empty() ? trf(" Compared with {0}: no differences in how they place positions.", {label})
                      : trf(" Compared with {0}: differences: {1}.", {label, d});
  }
  if (m.position == PositionKind::Rope)
    return trf(
        "This model rotates each pair k of the query and key by position times w'_k, the frequencies its "
        "configuration sets; pairs whose wavelength exceeds the trained length never turned fully in training.{0}",
        {rest});
  if (m.position == PositionKind::Alibi)
    return trf("This model adds minus a head's slope times the distance to every score (ALiBi).{0}", {rest});
  return trf("This model's positional scheme: {0}.{1}", {position_kind_name(m.position), rest});
}

void ModelView::numbers(std::vector<DescribedNumber>& out) const {
  if (failed()) return;
  const ModelPosition& m = shown_.pos;
  out.push_back({"head_dim", double(m.head_dim)});
  if (m.position == PositionKind::Rope && !shown_.panels.empty()) {
    const RopePanel& p = shown_.panels.front();
    out.push_back({"rotary dims", double(p.rope.rotary_dim)});
    for (const PairCounts& c : p.said)
      for (size_t b = 0; b < c.count.size(); ++b)
        if (c.count[b] > 0)
          out.push_back({"pairs at " + std::to_string(c.length) + (*c.factors ? std::string(" (") + c.factors + ")" : "") +
                             " that " + pair_behaviour_phrase(PairBehaviour(b)),
                         double(c.count[b])});
    out.push_back({"attention scaling (cos/sin)", p.rope.frequencies.attention_scaling});
  } else if (m.position == PositionKind::Alibi && !m.alibi_slopes.empty()) {
    out.push_back({"heads", double(m.alibi_slopes.size())});
    out.push_back({"first slope", m.alibi_slopes.front()});
  }
  if (compare_shown_) {
    out.push_back({"compared model's head_dim", double(compare_shown_->pos.head_dim)});
    if (!compare_shown_->panels.empty())
      out.push_back({"compared model's rotary dims", double(compare_shown_->panels.front().rope.rotary_dim)});
    out.push_back({"differences", double(diffs_.size())});
  }
}

void ModelView::notes(Notices& out) const {
  if (load_error_ && load_error_state_ == state_text()) out.push_back(*load_error_);
  if (failed()) return;
  // Never silently misread: each positional key posenc does not read, each default it assumed, is named.
  for (const std::string& k : shown_.pos.unread_keys)
    out.push_back({k, "config key " + k + " is not read by posenc: what it changes is not shown."});
  for (const Assumption& a : shown_.pos.assumptions)
    out.push_back({"model", "assumed " + a.what + " = " + a.value + " (" + a.why + ")"});
  if (compare_ == kCustom && compare_source_)
    out.push_back({"compare", "the compared model was loaded from a file: a link carries compare=custom, not the file."});
  if (compare_ == kCustom && !compare_source_)
    out.push_back({"compare", "compare=custom names a second loaded config, and none is loaded: load one to compare."});
}

// [SECTION] controls

// A model combo: the presets, "custom" (a loaded config), and for the second model "none".
void ModelView::draw_model_combo(const char* label, const char* id, std::string& value, bool compare) {
  const ModelPosition* loaded = compare ? (compare_source_ ? &*compare_source_ : nullptr) : (source_ ? &*source_ : nullptr);
  std::string shown = value.empty()      ? std::string(tr("none"))
                      : value == kCustom ? (loaded ? shown_label(value, *loaded) : std::string(tr("custom (loaded or edited)")))
                                         : model_label(value);
  note_shown_param(compare ? "compare" : "model");
  ImGui::TextUnformatted(tr(label));
  if (ImGui::BeginCombo(id, shown.c_str())) {
    if (compare && ImGui::Selectable(tr_id("none").c_str(), value.empty())) parse_compare("");
    for (const auto& preset : model_io::model_presets())
      if (ImGui::Selectable(preset.label.c_str(), value == preset.id)) {
        if (compare) parse_compare(preset.id);
        else choose_preset(preset.id), load_error_.reset();
      }
    if (!compare && ImGui::Selectable("custom", value == kCustom)) value = kCustom;
    if (compare && compare_source_ && compare_ == kCustom) ImGui::Selectable(shown.c_str(), true);
    ImGui::EndCombo();
  }
  probe_last_item(compare ? "combo.compare" : "combo.model");
}

void ModelView::controls(Controls& c) {
  draw_model_combo("Model", "##model", model_, false);
  if (!edited_.empty() && !from_keys_) {
    ImGui::TextDisabled(tr("(edited: %s)"), join(edited_).c_str());
    probe_last_item("text.model.edited");
  } else if (from_keys_ && model_ != kCustom) {
    ImGui::TextDisabled("%s", tr("(computed from the keys below: another position scheme)"));
    probe_last_item("text.model.edited");
  }
  draw_model_file_button();
  draw_model_combo("Compare with", "##compare", compare_, true);
  draw_compare_file_button();
  ImGui::Separator();
  c.draw("position");
  c.draw("head_dim");
  c.draw("heads");
  switch (PositionKind(position_)) {
    case PositionKind::Rope:
      for (const char* k : {"rotary_dim", "base", "layout", "rope_type", "factor", "orig", "max", "softmax_scale"}) c.draw(k);
      // The scaling type's own keys (kRopeScalingKeys) that the view holds.
      for (const char* k : rope_scaling_keys(RopeScalingType(rope_type_)))
        if (std::string_view(k) != "factor" && c.has(k)) c.draw(k);
      c.draw("target_len");
      if (shown_.mrope) c.draw("mrope_positions");
      break;
    case PositionKind::T5:
      for (const char* k : {"num_buckets", "max_distance", "bidirectional"}) c.draw(k);
      break;
    case PositionKind::Deberta:
      for (const char* k : {"bucket_size", "max_position"}) c.draw(k);
      break;
    case PositionKind::Learned: c.draw("max"); break;
    default: break;
  }
}

// [SECTION] cards

// The cards of the model (and of the compared one: side by side when there is room, else one after the other).
void ModelView::draw_cards(float width) {
  const bool two = compare_shown_.has_value();
  auto one = [&](const ModelShown& s, const std::string& label, const std::string& tail, const char* probe,
                 const std::string& prefix) {
    draw_model_header(s, label, tail, probe);
    for (const RopePanel& p : s.panels) {
      if (s.panels.size() > 1) ImGui::TextUnformatted(p.name.c_str());
      ImGui::Indent();
      draw_rope_card(p, rope_head_dim(s.pos, p.rope), prefix);
      ImGui::Unindent();
    }
  };
  std::string tail;
  if (!edited_.empty() && !from_keys_) tail = trf(" (edited: {0})", {join(edited_)});
  if (from_keys_) tail = tr(" (from the keys)");
  const std::string a = (two ? "A " : "") + shown_label(model_, shown_.pos);
  if (two && width >= 760.0f && ImGui::BeginTable("##cards", 2, ImGuiTableFlags_SizingStretchSame)) {
    ImGui::TableNextColumn();
    one(shown_, a, tail, "card.model", "text.model.");
    ImGui::TableNextColumn();
    one(*compare_shown_, "B " + shown_label(compare_, compare_shown_->pos), "", "card.compare", "text.compare.");
    ImGui::EndTable();
  } else {
    one(shown_, a, tail, "card.model", "text.model.");
    if (two) {
      ImGui::Separator();
      one(*compare_shown_, "B " + shown_label(compare_, compare_shown_->pos), "", "card.compare", "text.compare.");
    }
  }
  if (two) draw_model_differences(diffs_, diffs_length_);
}

// [SECTION] plots and panels

float ModelView::stacked_height(float width) const {
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float plot = std::max(220.0f, std::min(width * 0.8f, 520.0f));
  if (alone()) return plot;
  float h = 2 * plot + 8 * line;  // the card and the two plots
  // The assumptions' lines on the card, wrapped as drawn (the cards are side by side when two fit).
  const float card_width = compare_shown_ && width >= 760.0f ? width / 2 : width;
  auto assumed_height = [&](const ModelShown& s) {
    float a = 0;
    for (const Assumption& x : s.pos.assumptions) {
      const std::string text = tr_message("assumed " + x.what + " = " + x.value + " (" + x.why + ")");
      a += ImGui::CalcTextSize(text.c_str(), nullptr, false, std::max(50.0f, card_width - 2 * line)).y +
           ImGui::GetStyle().ItemSpacing.y;
    }
    return a;
  };
  auto panels = [&](const ModelShown& s) {
    float p = layer_strip_height(s.pos.per_layer, width) + assumed_height(s);
    if (s.mrope) p += 5 * line + 18.0f + plot;
    if (s.extension) p += (2 + 2 * 7) * line;  // the lines wrap to about two rows on a phone
    return p;
  };
  h += panels(shown_);
  if (compare_shown_) h += panels(*compare_shown_) + (10 + 2 * float(diffs_.size())) * line;
  if (shown_.pos.position != PositionKind::Rope) return std::max(h, View::stacked_height(width));
  return h;
}

void ModelView::draw_panels(const ModelShown& s, float width, bool layers, bool mrope, bool extension, const std::string& who) {
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const ModelPosition& m = s.pos;
  if (layers && !m.per_layer.empty()) {
    if (!alone())
      ImGui::TextUnformatted(trf(finger_pointer() ? "{0}Layers (tap a cell):" : "{0}Layers (hover a cell):", {who}).c_str());
    ImGui::PushID(who.c_str());
    draw_layer_strip(m.per_layer, width);
    ImGui::PopID();
  }
  if (layers && !alone() && !m.unread_keys.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, warning_color());
    ImGui::TextWrapped(tr("%sNot read by posenc (their effect is not shown): %s"), who.c_str(), join(m.unread_keys).c_str());
    ImGui::PopStyleColor();
    probe_last_item(who.empty() ? "text.model.unread" : "text.compare.unread");
  }
  if (mrope && s.mrope) {
    if (!alone()) ImGui::Separator();
    draw_mrope_panel(*m.rope, *s.mrope, width,
                     alone() ? std::max(150.0f, ImGui::GetContentRegionAvail().y - 4 * line) : std::max(200.0f, width * 0.3f));
  }
  if (extension && s.extension) {
    if (!alone()) ImGui::Separator();
    if (!who.empty()) ImGui::TextUnformatted(trf("{0}context extension", {who}).c_str());
    draw_extension_panel(*s.extension);
  }
  if (!alone()) ImGui::Separator();
}

void ModelView::draw_figure(ImVec2 size) {
  const ModelPosition& m = shown_.pos;
  const bool two = compare_shown_.has_value();
  // A panel figure alone (an embed's figure=layers, mrope or extension): with a second model, both, each named.
  auto alone_panels = [&](bool layers, bool mrope, bool extension) {
    if (!two) return draw_panels(shown_, size.x, layers, mrope, extension, "");
    ImGui::TextUnformatted(("A " + shown_label(model_, m)).c_str());
    draw_panels(shown_, size.x, layers, mrope, extension, "A ");
    ImGui::TextUnformatted(("B " + shown_label(compare_, compare_shown_->pos)).c_str());
    draw_panels(*compare_shown_, size.x, layers, mrope, extension, "B ");
  };
  if (m.position != PositionKind::Rope) {
    if (alone() && shows("layers")) return alone_panels(true, false, false);
    draw_cards(size.x);
    if (!m.per_layer.empty()) draw_panels(shown_, size.x, true, false, false, two ? "A " : "");
    draw_other_scheme(m, size);
    if (two) draw_panels(*compare_shown_, size.x, true, true, true, "B ");
    return;
  }
  if (!alone()) draw_cards(size.x);
  if (!alone()) {
    draw_panels(shown_, size.x, true, false, false, two ? "A " : "");
    if (two) draw_panels(*compare_shown_, size.x, true, false, false, "B ");
  } else if (shows("layers") || shows("mrope") || shows("extension")) {
    return alone_panels(shows("layers"), shows("mrope"), shows("extension"));
  }
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float plot_h =
      alone() ? ImGui::GetContentRegionAvail().y : std::max(220.0f, (ImGui::GetContentRegionAvail().y - 2 * line) / 2);
  ModelPlots plots;
  plots.a = &shown_;
  plots.b = two ? &*compare_shown_ : nullptr;
  plots.ratio = shows("ratio");
  plots.wavelength = shows("wavelength");
  draw_model_plots(plots, size.x, plot_h);
  // Below the plots (a plot stays in the first screen): M-RoPE's split and the context extension.
  if (!alone()) {
    draw_panels(shown_, size.x, false, true, true, two ? "A " : "");
    if (two) draw_panels(*compare_shown_, size.x, false, true, true, "B ");
  }
}

}  // namespace

std::unique_ptr<View> make_model_view(ViewText text) { return std::make_unique<ModelView>(std::move(text)); }

}  // namespace posenc::app
