// Model: a real model's positional encoding from its configuration (a compiled-in preset, a pasted
// config.json or a GGUF header loaded through window.posenc.loadModel). A summary card (head_dim, rotary
// dims, base, rope type, lengths, YaRN's two magnitude terms), the per-pair frequency ratio against
// unscaled RoPE, the wavelengths against the original and target context with each pair classed,
// per-layer-type panels (Gemma-3 local vs global), LongRoPE's short vs long factors, and for non-RoPE
// models their scheme's numbers (ALiBi slopes, T5 / DeBERTa buckets, learned table). Every layer in a strip
// (attention kind, window, RoPE or NoPE, sinks, query scale: model_layers.h), M-RoPE's split of the pairs
// into t / h / w (model_mrope.h), what to set to extend the context to target_len (model_extension.h), and
// the config keys posenc did not read (a notice each).
//
// State: `model` is a preset id or "custom"; the positional keys after it (base, rotary_dim, rope_type,
// factor, lengths, ...) are always declared, and choosing a preset (or loading a config) fills them. While
// they still hold what the model filled, the view computes from the model itself (exactly, incl. layer types
// and model-level factors); once edited, or from a URL alone, it computes from the keys.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <numbers>
#include <optional>
#include <span>
#include <set>
#include <string>
#include <vector>

#include "app/controls.h"
#include "app/model_link.h"
#include "app/number_text.h"
#include "app/plot.h"
#include "app/probe.h"
#include "app/state_params.h"
#include "app/views/model_extension.h"
#include "app/views/model_layers.h"
#include "app/views/model_mrope.h"
#include "app/views/view_texts.h"
#include "app/views/views.h"
#include "core/text_split.h"
#include "core/analysis/rope_analysis.h"
#include "core/encodings/alibi.h"
#include "core/models/gguf.h"
#include "core/models/model_config.h"
#include "core/encodings/rope.h"
#include "model_io/config_json.h"
#include "model_io/presets.h"

namespace posenc::app {
namespace {

constexpr const char* kCustom = "custom";
constexpr const char* kDefaultModel = "llama-3.1-8b";
constexpr int kMaxLength = 1 << 30;
constexpr int kMaxHeadDim = 4096;
constexpr int kMaxFactors = 2048;  // longrope factor lists (rotary_dim / 2 each)
constexpr double kTwoPi = 2.0 * std::numbers::pi;
// The T5 and DeBERTa keys' defaults (T5-base's and DeBERTa-v3's values), also what a model of another
// scheme leaves them at.
constexpr int kDefaultBuckets = 32, kDefaultMaxDistance = 128, kDefaultBucketSize = 256, kDefaultMaxPosition = 512;

constexpr auto kPositionNames = std::to_array<const char*>({"rope", "alibi", "t5", "deberta", "learned", "none"});
constexpr auto kScalingNames = names_of<RopeScalingType>();
constexpr auto kLayoutNames = names_of<RopeLayout>();
constexpr auto kMropePositionNames = std::to_array<const char*>({"text", "image"});

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

// One RoPE entry as the view shows it: the model's, or one layer type's.
// What the pairs do at one length, with the frequencies in force there (the core's pair_behaviour).
struct PairCounts {
  int64_t length = 0;
  const char* factors = "";  // LongRoPE: "short factors" / "long factors"
  PairBehaviourCounts count{};
};

struct RopePanel {
  std::string name;  // "rope" or "layers.<type>"
  ModelRope rope;
  std::vector<double> unscaled;             // rope_unscaled_inv_freq(rotary_dim, base, scaling)
  std::vector<double> at_max;               // inv_freq in force at max_position_embeddings (LongRoPE: long factors)
  std::vector<int> classes;                 // per pair at max_position_embeddings: the core's PairBehaviour
  PairBehaviourCounts counts{};             // of those classes
  std::vector<PairCounts> said;             // what the card says: at the original length (LongRoPE's short factors), at max
  std::vector<double> short_inv, long_inv;  // longrope: both factor sets
};

class ModelView final : public View, public ModelSink {
 public:
  ModelView() : View(view_texts::kModel) { fill_from_preset(kDefaultModel); }

  void params(ParamList& p) override {
    p.text(
        "model", [this](const std::string& s) { return parse_model(s); }, [this] { return model_; },
        {.label = "Model", .help = "a preset id (posenc inspect, docs/models.md) or custom"});
    p.choice("position", position_, kPositionNames, {.label = "Position scheme"});
    p.integer("head_dim", head_dim_, 1, kMaxHeadDim, {.label = "Head width head_dim", .format = "head_dim = %d", .log = true});
    p.integer("heads", heads_, 1, 1024, {.label = "Attention heads", .format = "heads = %d", .log = true});
    p.integer("rotary_dim", rotary_dim_, 2, std::max(2, head_dim_),
              {.label = "Rotary dims", .format = "rotary_dim = %d", .even = true});
    p.real("base", base_, 1.0, 1e12, {.label = "Base (rope_theta)", .format = "base = %.6g", .log = true});
    p.choice("layout", layout_, kLayoutNames, {.label = "Pair layout"});
    p.choice("rope_type", rope_type_, kScalingNames, {.label = "rope_type (none = default)"});
    p.real("factor", factor_, 1.0, 1024.0, {.label = "Factor f", .format = "f = %.6g", .log = true});
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
    // What the view shows of the model (not part of the model: positional_text leaves them out).
    p.integer("target_len", target_len_, 1, kMaxLength,
              {.label = "Target length (context extension)",
               .format = "target = %d",
               .help = "the context length to extend to",
               .log = true});
    p.choice("mrope_positions", mrope_positions_, kMropePositionNames,
             {.label = "M-RoPE positions", .help = "text: t = h = w (1-D RoPE); image: an example image grid"});
  }

  void export_data(std::vector<ExportTable>& tables) const override;
  // RoPE: the wavelengths against the trained and target lengths (main), the frequency ratio; ALiBi: slopes.
  std::vector<std::string> figures() const override {
    if (model_pos_.position == PositionKind::Rope) {
      std::vector<std::string> f{"wavelength", "ratio"};
      if (!model_pos_.per_layer.empty()) f.push_back("layers");
      if (mrope_) f.push_back("mrope");
      f.push_back("extension");
      return f;
    }
    if (model_pos_.position == PositionKind::Alibi) return {"slopes"};
    return {"card"};
  }
  float stacked_height(float width) const override;
  std::string formula_words() const override {
    if (model_pos_.position == PositionKind::Rope) {
      std::string out =
          "This model rotates each pair k of the query and key by position times w'_k, the frequencies its "
          "configuration sets; pairs whose wavelength exceeds the trained length never turned fully in training.";
      if (!failed() && !model_pos_.per_layer.empty()) out += " " + layer_strip_text(model_pos_.per_layer);
      if (!failed() && mrope_) out += " M-RoPE " + mrope_split_text(*model_pos_.rope, *mrope_) + ".";
      return out;
    }
    if (model_pos_.position == PositionKind::Alibi)
      return "This model adds minus a head's slope times the distance to every score (ALiBi).";
    return std::string("This model's positional scheme: ") + position_kind_name(model_pos_.position) + ".";
  }
  void numbers(std::vector<DescribedNumber>& out) const override {
    if (failed()) return;
    out.push_back({"head_dim", double(model_pos_.head_dim)});
    if (model_pos_.position == PositionKind::Rope && !panels_.empty()) {
      const RopePanel& p = panels_.front();
      out.push_back({"rotary dims", double(p.rope.rotary_dim)});
      for (const PairCounts& c : p.said)
        for (size_t b = 0; b < c.count.size(); ++b)
          if (c.count[b] > 0)
            out.push_back({"pairs at " + std::to_string(c.length) + (*c.factors ? std::string(" (") + c.factors + ")" : "") +
                               " that " + pair_behaviour_phrase(PairBehaviour(b)),
                           double(c.count[b])});
      out.push_back({"attention scaling (cos/sin)", p.rope.frequencies.attention_scaling});
      // The 3-6 numbers stay the card's: the layers and the M-RoPE split are said in formula_words, the
      // context extension is in the export.
    } else if (model_pos_.position == PositionKind::Alibi && !model_pos_.alibi_slopes.empty()) {
      out.push_back({"heads", double(model_pos_.alibi_slopes.size())});
      out.push_back({"first slope", model_pos_.alibi_slopes.front()});
    }
  }

  // A config loaded by the page (window.posenc.loadModel, file picker, drop, paste): becomes the source,
  // model=custom.
  void set_loaded_model(const ModelPosition& m) override {
    load_error_.reset();
    fill_from(m);
    model_ = kCustom;
    source_ = m;
    snapshot_ = positional_text();
    invalidate();
  }
  // A failed load changes nothing: the model shown stays (and stays labelled as it was); the error is a
  // note while the state is the one it failed in.
  void set_model_load_error(const Notice& n) override {
    load_error_ = n;
    load_error_state_ = model_ + "|" + positional_text();
  }
  void notes(Notices& out) const override {
    if (load_error_ && load_error_state_ == model_ + "|" + positional_text()) out.push_back(*load_error_);
    // Never silently misread: each positional key of the config that posenc does not read is named.
    if (!failed())
      for (const std::string& k : model_pos_.unread_keys)
        out.push_back({k, "config key " + k + " is not read by posenc: what it changes is not shown."});
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

  std::string parse_model(const std::string& s) {
    if (s == kCustom) {
      model_ = kCustom;
      return "";
    }
    if (!model_io::find_model_preset(s)) return "\"" + s + "\" is not a preset (posenc inspect lists them in docs/models.md)";
    if (s == model_ && source_ && snapshot_ == positional_text()) return "";
    try {
      fill_from_preset(s);
    } catch (const InvalidArgument& e) { return std::string("preset \"") + s + "\" cannot be read: " + e.what(); }
    return "";
  }
  void fill_from_preset(const std::string& id) {
    const ModelPosition m = read_hf_config(model_io::preset_config(id));
    fill_from(m);
    model_ = id;
    source_ = m;
    snapshot_ = positional_text();
  }
  // Every key from the model; a key the model does not set takes its default, so a model chosen after
  // another holds exactly what a fresh view with that model holds.
  void fill_from(const ModelPosition& m);
  std::string positional_text() const {
    std::string out;
    const ParamList list = param_list();  // alive through the loop
    for (const Param& p : list.items())
      if (p.key != "model" && p.key != "target_len" && p.key != "mrope_positions") out += p.key + '=' + p.text() + '&';
    return out;
  }
  ModelPosition from_keys() const;
  void draw_card(const RopePanel& r) const;
  void draw_panels(float width, bool layers, bool mrope, bool extension);

  // Parameters.
  std::string model_ = kDefaultModel;
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

  // What the keys were filled from (preset or loaded config), and the keys' text right after filling.
  std::optional<ModelPosition> source_;
  std::string snapshot_;
  std::optional<Notice> load_error_;
  std::string load_error_state_;

  // Computed.
  ModelPosition model_pos_;
  bool exact_ = false;  // computed from the source itself
  std::vector<RopePanel> panels_;
  std::optional<MropeExample> mrope_;        // M-RoPE models
  std::optional<ExtensionPanel> extension_;  // RoPE models
};

void ModelView::fill_from(const ModelPosition& m) {
  position_ = int(m.position);
  head_dim_ = std::clamp(m.head_dim, 1, kMaxHeadDim);
  heads_ = std::clamp(m.num_attention_heads, 1, 1024);
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
  if (m.position == PositionKind::Alibi) heads_ = std::clamp(int(m.alibi_slopes.size()), 1, 1024);
  num_buckets_ = kDefaultBuckets;
  max_distance_ = kDefaultMaxDistance;
  bidirectional_ = true;
  bucket_size_ = kDefaultBucketSize;
  max_position_ = kDefaultMaxPosition;
  if (m.position == PositionKind::T5) {
    num_buckets_ = std::clamp(m.t5_num_buckets, 1, 4096);
    max_distance_ = int(std::clamp<int64_t>(m.t5_max_distance, 1, kMaxLength));
    bidirectional_ = m.t5_bidirectional;
  }
  if (m.position == PositionKind::Deberta) {
    bucket_size_ = int(std::clamp<int64_t>(m.deberta_bucket_size, 1, kMaxLength));
    max_position_ = int(std::clamp<int64_t>(m.deberta_max_position, 1, kMaxLength));
  }
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
      ModelRope r;
      r.rotary_dim = rotary_dim_;
      r.layout = RopeLayout(layout_);
      r.base = base_;
      RopeScaling& s = r.scaling;
      s.type = RopeScalingType(rope_type_);
      s.factor = factor_;
      s.original_max_position_embeddings = orig_;
      extra_.apply(s);
      s.short_factor = short_factor_;
      s.long_factor = long_factor_;
      r.frequencies = rope_frequencies(rotary_dim_, base_, s);
      r.softmax_scale = softmax_scale_;
      r.max_position_embeddings = max_;
      r.original_max_position_embeddings = orig_;
      m.rope = r;
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
  // on the keys), its M-RoPE split while it still fits the rotary dims, and the keys it left unread.
  if (source_) {
    if (m.position == PositionKind::Rope && source_->position == PositionKind::Rope) {
      m.num_hidden_layers = source_->num_hidden_layers;
      m.per_layer = source_->per_layer;
      if (source_->rope) {
        const auto& sec = source_->rope->mrope_section;
        if (sec.size() == 3 && sec[0] + sec[1] + sec[2] == rotary_dim_ / 2) {
          m.rope->mrope_section = sec;
          m.rope->mrope_interleaved = source_->rope->mrope_interleaved;
        }
      }
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
  panels_.clear();
  exact_ = false;
  exact_ = source_ && snapshot_ == positional_text() && (model_ == kCustom || model_io::find_model_preset(model_));
  model_pos_ = exact_ ? *source_ : from_keys();
  auto add_panel = [&](const std::string& name, const ModelRope& r) {
    RopePanel p;
    p.name = name;
    p.rope = r;
    p.unscaled = rope_unscaled_inv_freq(r.rotary_dim, r.base, r.scaling);
    const int64_t trained = r.original_max_position_embeddings, max = r.max_position_embeddings;
    // Each length with the frequencies in force there: LongRoPE's short factors up to the original
    // length, its long ones past it (and dynamic NTK's base rescaled at max).
    auto in_force = [&](int64_t length) {
      return inv_freq_at_length(r.rotary_dim, r.base, r.scaling, length, r.frequencies.inv_freq);
    };
    auto said_at = [&](int64_t length, const std::vector<double>& inv, const char* factors) {
      PairCounts c;
      c.length = length;
      c.factors = factors;
      c.count = count_pair_behaviours(p.unscaled, inv, trained, length);
      p.said.push_back(c);
    };
    p.at_max = in_force(max);
    for (size_t i = 0; i < p.unscaled.size(); ++i) {
      const int c = static_cast<int>(pair_behaviour(p.unscaled[i], p.at_max[i], trained, max));
      p.classes.push_back(c);
      ++p.counts[size_t(c)];
    }
    const bool longrope = r.scaling.type == RopeScalingType::Longrope;
    if (longrope) {
      p.short_inv = in_force(r.scaling.original_max_position_embeddings);
      p.long_inv = in_force(r.scaling.original_max_position_embeddings + 1);
    }
    // LongRoPE past its original length: both factor sets matter, each at the length it is used for.
    if (longrope && max > r.scaling.original_max_position_embeddings) {
      said_at(std::min(trained, r.scaling.original_max_position_embeddings), p.short_inv, "short factors");
      said_at(max, p.at_max, "long factors");
    } else {
      said_at(max, p.at_max, "");
    }
    panels_.push_back(std::move(p));
  };
  mrope_.reset();
  extension_.reset();
  if (model_pos_.position == PositionKind::Rope) {
    if (model_pos_.layers.empty()) add_panel("rope", *model_pos_.rope);
    for (const auto& [name, r] : model_pos_.layers) add_panel("layers." + name, r);
    const ModelRope& r = *model_pos_.rope;
    if (!r.mrope_section.empty()) mrope_ = mrope_example(r, mrope_positions_ == 1);
    try {
      extension_ = extension_panel(r, target_len_);
    } catch (const InvalidArgument& e) { throw CannotCompute{"target_len", e.what()}; }
  }
}

float ModelView::stacked_height(float width) const {
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float plot = std::max(220.0f, std::min(width * 0.8f, 520.0f));
  if (alone()) return plot;
  float h = 2 * plot + 8 * line;  // the card and the two plots
  if (model_pos_.position != PositionKind::Rope) return std::max(h, View::stacked_height(width));
  h += layer_strip_height(model_pos_.per_layer, width);
  if (mrope_) h += 5 * line + 18.0f + plot;
  if (extension_) h += (2 + 2 * 7) * line;  // the lines wrap to about two rows on a phone
  return h;
}

void ModelView::draw_panels(float width, bool layers, bool mrope, bool extension) {
  const float line = ImGui::GetTextLineHeightWithSpacing();
  if (layers && !model_pos_.per_layer.empty()) {
    if (!alone()) ImGui::TextUnformatted("Layers (hover a cell):");
    draw_layer_strip(model_pos_.per_layer, width);
  }
  if (layers && !alone() && !model_pos_.unread_keys.empty()) {
    std::string keys;
    for (const std::string& k : model_pos_.unread_keys) keys += (keys.empty() ? "" : ", ") + k;
    ImGui::PushStyleColor(ImGuiCol_Text, warning_color());
    ImGui::TextWrapped("Not read by posenc (their effect is not shown): %s", keys.c_str());
    ImGui::PopStyleColor();
    probe_last_item("text.model.unread");
  }
  if (mrope && mrope_) {
    if (!alone()) ImGui::Separator();
    draw_mrope_panel(*model_pos_.rope, *mrope_, width,
                     alone() ? std::max(150.0f, ImGui::GetContentRegionAvail().y - 4 * line) : std::max(200.0f, width * 0.3f));
  }
  if (extension && extension_) {
    if (!alone()) ImGui::Separator();
    draw_extension_panel(*extension_);
  }
  if (!alone()) ImGui::Separator();
}

void ModelView::export_data(std::vector<ExportTable>& tables) const {
  if (failed()) return;
  const ModelPosition& m = model_pos_;
  tables.push_back(ExportTable{"model: " + m.model_type + " (" + position_kind_name(m.position) + ")",
                               "",
                               "",
                               {"head_dim", "num_attention_heads"},
                               {{double(m.head_dim), double(m.num_attention_heads)}}});
  for (const RopePanel& p : panels_) {
    const ModelRope& r = p.rope;
    const RopeScaling& s = r.scaling;
    const double mscale = s.mscale.value_or(NAN), mscale_all_dim = s.mscale_all_dim.value_or(NAN);
    tables.push_back(
        ExportTable{p.name + ": summary (" + rope_type_name(s.type) + ", " + rope_layout_name(r.layout) + ")",
                    "",
                    "",
                    {"rotary_dim", "base", "factor", "attention_scaling", "mscale", "mscale_all_dim", "softmax_scale",
                     "max_position_embeddings", "original_max_position_embeddings", "full_turns", "interpolated", "extrapolated",
                     "long_factors", "less_than_once", "no_rotation"},
                    {{double(r.rotary_dim), r.base, s.factor, r.frequencies.attention_scaling, mscale, mscale_all_dim,
                      r.softmax_scale, double(r.max_position_embeddings), double(r.original_max_position_embeddings),
                      double(p.counts[size_t(PairBehaviour::FullTurn)]), double(p.counts[size_t(PairBehaviour::Interpolated)]),
                      double(p.counts[size_t(PairBehaviour::Extrapolated)]), r.frequencies.long_factors ? 1.0 : 0.0,
                      double(p.counts[size_t(PairBehaviour::LessThanOnce)]), double(p.counts[size_t(PairBehaviour::NoRotation)])}}});
    // class: what the pair does at max_position_embeddings (the core's PairBehaviour, as the card says it).
    ExportTable pairs{p.name + ": pairs",
                      "pair k",
                      "class: 0 full turn, 1 less than once, 2 interpolated, 3 extrapolated, 4 no rotation",
                      {"pair", "inv_freq", "inv_freq_unscaled", "ratio", "wavelength", "wavelength_unscaled", "class"},
                      {}};
    if (!p.short_inv.empty()) {
      pairs.columns.push_back("inv_freq_short");
      pairs.columns.push_back("inv_freq_long");
    }
    for (size_t i = 0; i < p.unscaled.size(); ++i) {
      const double w = r.frequencies.inv_freq[i], u = p.unscaled[i];
      std::vector<double> row{double(i), w, u, w / u, kTwoPi / w, kTwoPi / u, double(p.classes[i])};
      if (!p.short_inv.empty()) {
        row.push_back(p.short_inv[i]);
        row.push_back(p.long_inv[i]);
      }
      pairs.rows.push_back(std::move(row));
    }
    tables.push_back(std::move(pairs));
  }
  if (!m.per_layer.empty()) {
    ExportTable t{
        "layers (attention: 0 full, 1 sliding, 2 chunked, 3 linear; query_scale: 0 none, 1 llama4_temperature, "
        "2 llama4_scaling_beta)",
        "layer",
        "",
        {"layer", "attention", "window", "rope", "sinks", "query_scale"},
        {}};
    for (size_t i = 0; i < m.per_layer.size(); ++i) {
      const LayerSpec& l = m.per_layer[i];
      t.rows.push_back({double(i), double(int(l.attention)), double(l.window), l.rope ? 1.0 : 0.0, l.sinks ? 1.0 : 0.0,
                        double(int(l.query_scale.rule))});
    }
    tables.push_back(std::move(t));
  }
  if (mrope_) {
    ExportTable t{"mrope: axis per pair (0 t, 1 h, 2 w)", "pair k", "", {"pair", "axis"}, {}};
    for (size_t k = 0; k < mrope_->axes.size(); ++k) t.rows.push_back({double(k), double(mrope_->axes[k])});
    tables.push_back(std::move(t));
    ExportTable pos{std::string("mrope: example positions (") + (mrope_->image ? "image" : "text") + ")",
                    "token",
                    "",
                    {"token", "t", "h", "w"},
                    {}};
    for (size_t i = 0; i < mrope_->rows[0].size(); ++i)
      pos.rows.push_back({double(i), double(mrope_->rows[0][i]), double(mrope_->rows[1][i]), double(mrope_->rows[2][i])});
    tables.push_back(std::move(pos));
  }
  if (extension_) {
    const ExtensionPanel& e = *extension_;
    ExportTable t{"context extension to " + std::to_string(e.target) + " from " + std::to_string(e.trained) +
                      " (method: 0 none, 1 linear, 2 dynamic, 4 yarn, 5 llama3, 6 longrope; counted 0 = factors unknown)",
                  "method",
                  "",
                  {"method", "factor", "original_max_position_embeddings", "max_position_embeddings", "counted", "full_turn",
                   "interpolated", "extrapolated", "kept", "divided", "blended", "attention_scaling"},
                  {}};
    for (const ExtensionRecipe& r : e.recipes) {
      const bool c = r.counted;
      t.rows.push_back({double(int(r.scaling.type)), r.scaling.type == RopeScalingType::None ? 1.0 : r.scaling.factor,
                        r.sets_original ? double(r.scaling.original_max_position_embeddings) : NAN,
                        double(r.max_position_embeddings), c ? 1.0 : 0.0, c ? double(r.full_turn) : NAN,
                        c ? double(r.interpolated) : NAN, c ? double(r.extrapolated) : NAN, c ? double(r.kept) : NAN,
                        c ? double(r.divided) : NAN, c ? double(r.blended) : NAN, c ? r.attention_scaling : NAN});
    }
    tables.push_back(std::move(t));
  }
  switch (m.position) {
    case PositionKind::Alibi: {
      ExportTable t{"alibi: slopes", "head h", "slope", {"head", "slope"}, {}};
      for (size_t h = 0; h < m.alibi_slopes.size(); ++h) t.rows.push_back({double(h), m.alibi_slopes[h]});
      tables.push_back(std::move(t));
      break;
    }
    case PositionKind::T5:
      tables.push_back(ExportTable{"t5",
                                   "",
                                   "",
                                   {"num_buckets", "max_distance", "bidirectional"},
                                   {{double(m.t5_num_buckets), double(m.t5_max_distance), m.t5_bidirectional ? 1.0 : 0.0}}});
      break;
    case PositionKind::Deberta:
      tables.push_back(ExportTable{
          "deberta", "", "", {"bucket_size", "max_position"}, {{double(m.deberta_bucket_size), double(m.deberta_max_position)}}});
      break;
    case PositionKind::Learned:
      tables.push_back(
          ExportTable{"learned", "", "", {"max_position_embeddings"}, {{double(m.learned_max_position_embeddings)}}});
      break;
    default: break;
  }
}

void ModelView::controls(Controls& c) {
  const char* shown = model_ == kCustom ? "custom (loaded or edited)" : model_.c_str();
  if (const auto* preset = model_io::find_model_preset(model_)) shown = preset->label.c_str();
  note_shown_param("model");
  ImGui::TextUnformatted("Model");
  if (ImGui::BeginCombo("##model", shown)) {
    for (const auto& preset : model_io::model_presets())
      if (ImGui::Selectable(preset.label.c_str(), model_ == preset.id)) fill_from_preset(preset.id), load_error_.reset();
    if (ImGui::Selectable("custom", model_ == kCustom)) model_ = kCustom;
    ImGui::EndCombo();
  }
  probe_last_item("combo.model");
  if (model_ != kCustom && !exact_) {
    ImGui::TextDisabled("(edited: computed from the keys below)");
    probe_last_item("text.model.edited");
  }
  draw_model_file_button();
  ImGui::Separator();
  c.draw("position");
  c.draw("head_dim");
  c.draw("heads");
  switch (PositionKind(position_)) {
    case PositionKind::Rope:
      for (const char* k : {"rotary_dim", "base", "layout", "rope_type", "factor", "orig", "max", "softmax_scale"}) c.draw(k);
      if (RopeScalingType(rope_type_) == RopeScalingType::Yarn)
        for (const char* k : RopeExtraKeys::kYarnKeys) c.draw(k);
      if (RopeScalingType(rope_type_) == RopeScalingType::Llama3)
        for (const char* k : RopeExtraKeys::kLlama3Keys) c.draw(k);
      if (RopeScalingType(rope_type_) == RopeScalingType::Longrope)
        for (const char* k : {"attention_factor", "short_factor", "long_factor"}) c.draw(k);
      c.draw("target_len");
      if (mrope_) c.draw("mrope_positions");
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

void ModelView::draw_card(const RopePanel& p) const {
  const ModelRope& r = p.rope;
  const RopeScaling& s = r.scaling;
  const bool scaled = s.type != RopeScalingType::None;
  ImGui::TextWrapped("rotary dims %d of %d (%d pairs, %s layout), base %s", r.rotary_dim, model_pos_.head_dim, r.rotary_dim / 2,
                     rope_layout_name(r.layout), format_number(r.base).c_str());
  const long long trained = r.original_max_position_embeddings, max = r.max_position_embeddings;
  if (scaled)
    ImGui::TextWrapped("rope_type %s, factor %s; lengths: original %lld, max %lld", rope_type_name(s.type),
                       format_number(s.factor).c_str(), trained, max);
  else if (trained == max) ImGui::TextWrapped("rope_type default (no scaling); trained length %lld", max);
  else ImGui::TextWrapped("rope_type default (no scaling); lengths: trained %lld, max %lld", trained, max);
  // Only what applies: the cos/sin magnitude where a scaling sets one, a softmax scale that is not the
  // plain 1/sqrt(head_dim).
  const double plain_softmax = 1.0 / std::sqrt(double(model_pos_.head_dim));
  if (s.type == RopeScalingType::Yarn || s.type == RopeScalingType::Longrope || r.frequencies.attention_scaling != 1.0)
    ImGui::TextWrapped("%s magnitude: attention_factor on cos/sin = %s",
                       s.type == RopeScalingType::Longrope ? "LongRoPE" : "YaRN",
                       format_number(r.frequencies.attention_scaling).c_str());
  if (std::abs(r.softmax_scale - plain_softmax) > 1e-12 * plain_softmax)
    ImGui::TextWrapped("softmax scale on q·k = %s (not 1/√head_dim = %s)", format_number(r.softmax_scale).c_str(),
                       format_number(plain_softmax).c_str());
  if (s.mscale || s.mscale_all_dim)
    ImGui::TextWrapped("mscale %s, mscale_all_dim %s", s.mscale ? format_number(*s.mscale).c_str() : "unset",
                       s.mscale_all_dim ? format_number(*s.mscale_all_dim).c_str() : "unset");
  for (const PairCounts& c : p.said) {
    const std::string line = "pairs at " + std::to_string(c.length) + (*c.factors ? std::string(" (") + c.factors + ")" : "") +
                             ": " + pair_behaviour_counts_text(c.count, c.length, trained);
    ImGui::TextWrapped("%s", line.c_str());
    probe_last_item(("text.model.pairs." + std::to_string(c.length)).c_str());
  }
  if (s.type == RopeScalingType::Longrope)
    ImGui::TextWrapped("LongRoPE: short factors up to seq_len %lld, long factors beyond (switch point)",
                       (long long)s.original_max_position_embeddings);
}

void ModelView::draw_figure(ImVec2 size) {
  const ModelPosition& m = model_pos_;
  const auto* preset = model_io::find_model_preset(model_);
  if (!alone() || m.position != PositionKind::Rope) {
    ImGui::TextWrapped("%s: model_type %s, position %s, head_dim %d, %d heads%s", preset ? preset->label.c_str() : "custom",
                       m.model_type.c_str(), position_kind_name(m.position), m.head_dim, m.num_attention_heads,
                       exact_ ? "" : " (from the keys)");
    probe_last_item("card.model");
  }
  if (m.position != PositionKind::Rope) {
    switch (m.position) {
      case PositionKind::Alibi: {
        ImGui::TextWrapped("ALiBi: score + slope_h * -(i - j), slopes by Press et al. for %zu heads (first %s, last %s)",
                           m.alibi_slopes.size(), format_number(m.alibi_slopes.front()).c_str(),
                           format_number(m.alibi_slopes.back()).c_str());
        std::vector<Series> series(1);
        series[0].label = "slope";
        series[0].markers = true;
        for (size_t h = 0; h < m.alibi_slopes.size(); ++h) {
          series[0].x.push_back(double(h));
          series[0].y.push_back(m.alibi_slopes[h]);
        }
        LinePlotOptions o;
        o.x_title = "head h";
        o.y_title = "slope (log)";
        o.log_y = true;
        line_plot("plot.slopes", ImVec2(size.x, std::max(160.0f, size.y - 3 * ImGui::GetTextLineHeightWithSpacing())), series, o);
        break;
      }
      case PositionKind::T5:
        ImGui::TextWrapped("T5 relative buckets: num_buckets %d, max_distance %lld, %s", m.t5_num_buckets,
                           (long long)m.t5_max_distance, m.t5_bidirectional ? "bidirectional (encoder)" : "causal");
        ImGui::TextWrapped("Half the buckets are exact offsets, the rest log-spaced up to max_distance (Buckets view).");
        break;
      case PositionKind::Deberta:
        ImGui::TextWrapped("DeBERTa disentangled attention: bucket_size %lld, max_position %lld",
                           (long long)m.deberta_bucket_size, (long long)m.deberta_max_position);
        break;
      case PositionKind::Learned:
        ImGui::TextWrapped("Learned absolute positions: a table of %lld position vectors",
                           (long long)m.learned_max_position_embeddings);
        break;
      default: ImGui::TextWrapped("No positional encoding."); break;
    }
    return;
  }

  if (!alone())
    for (const RopePanel& p : panels_) {
      if (panels_.size() > 1) ImGui::TextUnformatted(p.name.c_str());
      ImGui::Indent();
      draw_card(p);
      ImGui::Unindent();
    }
  if (!alone()) draw_panels(size.x, true, false, false);
  else if (shows("layers") || shows("mrope") || shows("extension")) {
    draw_panels(size.x, shows("layers"), shows("mrope"), shows("extension"));
    return;
  }
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float plot_h =
      alone() ? ImGui::GetContentRegionAvail().y : std::max(220.0f, (ImGui::GetContentRegionAvail().y - 2 * line) / 2);

  std::vector<Series> ratio;
  int color = 1;
  for (const RopePanel& p : panels_) {
    auto add = [&](const std::string& label, const std::vector<double>& inv) {
      Series s;
      s.label = label;
      s.color = palette_color(color++);
      s.markers = inv.size() <= 64;
      for (size_t i = 0; i < inv.size(); ++i) {
        s.x.push_back(double(i));
        s.y.push_back(inv[i] / p.unscaled[i]);
      }
      ratio.push_back(std::move(s));
    };
    const std::string prefix = panels_.size() > 1 ? p.name + ": " : "";
    if (!p.short_inv.empty()) {
      add(prefix + "short factors (seq_len ≤ " + std::to_string(p.rope.scaling.original_max_position_embeddings) + ")",
          p.short_inv);
      add(prefix + "long factors", p.long_inv);
    } else {
      add(prefix + "ω′ₖ / ωₖ", p.rope.frequencies.inv_freq);
    }
  }
  LinePlotOptions ro;
  ro.x_title = "pair k";
  ro.y_title = "ω′ₖ / ωₖ (log)";
  ro.log_y = true;
  if (shows("ratio")) line_plot("plot.ratio", ImVec2(size.x, plot_h), ratio, ro);

  std::vector<Series> wl;
  color = 1;
  double x_end = 1;
  for (const RopePanel& p : panels_) {
    const std::string prefix = panels_.size() > 1 ? p.name + ": " : "";
    const ModelRope& r = p.rope;
    auto wavelengths = [&](const std::string& label, const std::vector<double>& inv) {
      Series s;
      s.label = prefix + label;
      s.color = palette_color(color++);
      for (size_t i = 0; i < inv.size(); ++i) {
        s.x.push_back(double(i));
        s.y.push_back(kTwoPi / inv[i]);
      }
      wl.push_back(std::move(s));
    };
    // The wavelengths in force at the lengths drawn: LongRoPE's short factors up to its original length
    // and its long ones past it; otherwise those at the max length (dynamic NTK: rescaled there).
    const int64_t switch_at = r.scaling.original_max_position_embeddings;
    if (!p.short_inv.empty() && r.max_position_embeddings > switch_at) {
      wavelengths("short factors (≤ " + std::to_string(switch_at) + ")", p.short_inv);
      wavelengths("long factors (> " + std::to_string(switch_at) + ")", p.long_inv);
    } else if (r.scaling.type == RopeScalingType::None) {
      wavelengths("wavelength 2π / ωₖ", p.at_max);
    } else {
      wavelengths(r.scaling.type == RopeScalingType::Dynamic ? "2π / ω′ₖ at " + std::to_string(r.max_position_embeddings)
                                                             : std::string("wavelength 2π / ω′ₖ"),
                  p.at_max);
    }
    if (panels_.size() == 1 && r.scaling.type != RopeScalingType::None) {
      Series u;
      u.label = "unscaled";
      u.color = palette_color(0);
      for (size_t i = 0; i < p.unscaled.size(); ++i) {
        u.x.push_back(double(i));
        u.y.push_back(kTwoPi / p.unscaled[i]);
      }
      wl.push_back(std::move(u));
    }
    x_end = std::max(x_end, double(p.unscaled.size()) - 1);
  }
  const ModelRope& r0 = panels_.front().rope;
  const double trained_len = double(r0.original_max_position_embeddings), max_len = double(r0.max_position_embeddings);
  if (trained_len == max_len) {
    wl.push_back(
        Series{"trained length " + std::to_string(r0.max_position_embeddings), {0, x_end}, {max_len, max_len}, palette_color(5)});
  } else {
    wl.push_back(Series{"original length " + std::to_string(r0.original_max_position_embeddings),
                        {0, x_end},
                        {trained_len, trained_len},
                        palette_color(5)});
    wl.push_back(
        Series{"max length " + std::to_string(r0.max_position_embeddings), {0, x_end}, {max_len, max_len}, palette_color(6)});
  }
  LinePlotOptions wo;
  wo.x_title = "pair k";
  wo.y_title = "positions per turn (log)";
  wo.log_y = true;
  if (shows("wavelength")) line_plot("plot.wavelength", ImVec2(size.x, plot_h), wl, wo);
  // Below the plots (a plot stays in the first screen): M-RoPE's split and the context extension.
  if (!alone()) draw_panels(size.x, false, true, true);
}

}  // namespace

std::unique_ptr<View> make_model_view() { return std::make_unique<ModelView>(); }

}  // namespace posenc::app
