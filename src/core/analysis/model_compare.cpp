#include "core/analysis/model_compare.h"

#include <algorithm>

#include "core/analysis/rope_analysis.h"
#include "core/models/rope_assembly.h"
#include "core/number_text.h"

namespace posenc {
namespace {

DiffValue diff_num(double x) { return {significant(x, 10), x}; }
DiffValue text(std::string s) { return {std::move(s), std::nullopt}; }

struct Differ {
  std::vector<ModelDifference> out;
  void add(const std::string& what, const DiffValue& a, const DiffValue& b) {
    if (a.text != b.text) out.push_back({what, a, b, {}});
  }
};

// The assumptions (Assumption::what) a difference's value rests on: its own field's, and for the layer list and
// the pair counts the fields they are made of.
std::vector<std::string> assumption_fields(const std::string& what) {
  const size_t dot = what.rfind('.');
  const std::string leaf = dot == std::string::npos ? what : what.substr(dot + 1);
  if (what == "per_layer" || what == "num_hidden_layers")
    return {"layers", "causal", "no_rope_layers", "layer_rope_theta", "rope_layers"};
  if (leaf.rfind("extrapolated_at_", 0) == 0) return {"base", "max_position_embeddings", "rope_type", "head_dim"};
  if (leaf == "rotary_dim") return {"rotary_dim", "head_dim"};
  return {leaf};
}

bool rests_on(const ModelPosition& m, const std::vector<std::string>& fields) {
  for (const Assumption& a : m.assumptions)
    if (std::find(fields.begin(), fields.end(), a.what) != fields.end()) return true;
  return false;
}

int64_t trained_length(const ModelPosition& m) {
  if (m.rope) return m.rope->max_position_embeddings;
  if (m.position == PositionKind::Learned) return m.learned_max_position_embeddings;
  return 0;
}

std::string value_text(const DiffValue& v, bool assumed) { return v.text + (assumed ? " (assumed)" : ""); }

// One layer in a few words: "sliding 1024 rope", "linear mamba2", "compressed 4 rope".
std::string layer_word(const LayerSpec& l) {
  std::string w = layer_attention_name(l.attention);
  if (l.attention == LayerAttention::Sliding || l.attention == LayerAttention::Chunked) w += " " + std::to_string(l.window);
  if (l.attention == LayerAttention::Compressed) w += " " + std::to_string(l.ratio);
  if (!l.mixer.empty()) w += " " + l.mixer;
  if (l.attention != LayerAttention::Linear && l.attention != LayerAttention::None)
    w += l.scheme == PositionKind::Rope || l.scheme == PositionKind::None ? (l.rope ? " rope" : " nope")
                                                                          : std::string(" ") + position_kind_name(l.scheme);
  if (!l.parallel_mixer.empty()) w += " + " + l.parallel_mixer;
  if (l.attention == LayerAttention::None && !l.reason.empty()) w += " (" + l.reason + ")";
  if (l.attention != LayerAttention::Linear && l.attention != LayerAttention::None && !l.causal) w += " bidirectional";
  if (!l.key_selection.kind.empty()) w += " " + l.key_selection.kind + " " + std::to_string(l.key_selection.top_k);
  if (!l.stack.empty()) w = l.stack + " " + w;
  return w;
}

struct Run {
  std::string word;
  int count = 0;
  bool operator==(const Run& o) const { return word == o.word && count == o.count; }
};

std::string runs_text(const std::vector<Run>& runs, size_t from, size_t to) {
  std::string out;
  for (size_t i = from; i < to; ++i)
    out += (i > from ? ", " : "") + runs[i].word + (runs[i].count > 1 ? " x" + std::to_string(runs[i].count) : "");
  return out;
}

void rope_fields(Differ& d, const std::string& prefix, const ModelRope& a, const ModelRope& b) {
  d.add(prefix + "layout", text(rope_layout_name(a.layout)), text(rope_layout_name(b.layout)));
  d.add(prefix + "rotary_dim", diff_num(a.rotary_dim), diff_num(b.rotary_dim));
  d.add(prefix + "base", diff_num(a.base), diff_num(b.base));
  d.add(prefix + "rope_type", text(rope_type_name(a.scaling.type)), text(rope_type_name(b.scaling.type)));
  d.add(prefix + "factor", diff_num(a.scaling.type == RopeScalingType::None ? 1.0 : a.scaling.factor),
        diff_num(b.scaling.type == RopeScalingType::None ? 1.0 : b.scaling.factor));
  d.add(prefix + "original_max_position_embeddings", diff_num(double(a.original_max_position_embeddings)),
        diff_num(double(b.original_max_position_embeddings)));
  d.add(prefix + "max_position_embeddings", diff_num(double(a.max_position_embeddings)),
        diff_num(double(b.max_position_embeddings)));
  d.add(prefix + "attention_scaling", diff_num(a.frequencies.attention_scaling), diff_num(b.frequencies.attention_scaling));
  d.add(prefix + "softmax_scale", diff_num(a.softmax_scale), diff_num(b.softmax_scale));
}

std::string layer_type_names(const ModelPosition& m) {
  std::string out;
  for (const auto& [name, r] : m.layers) out += (out.empty() ? "" : ", ") + name;
  return out.empty() ? "one RoPE" : out;
}

}  // namespace

std::string layer_pattern_text(const std::vector<LayerSpec>& layers) {
  std::vector<Run> runs;
  for (const LayerSpec& l : layers) {
    const std::string w = layer_word(l);
    if (!runs.empty() && runs.back().word == w) ++runs.back().count;
    else runs.push_back({w, 1});
  }
  if (runs.empty()) return "";
  // A block of runs that repeats from the start (possibly cut short at the end): written once with its count.
  for (size_t period = 1; period * 2 <= runs.size(); ++period) {
    size_t whole = 0;
    while ((whole + 1) * period <= runs.size() && std::equal(runs.begin(), runs.begin() + period, runs.begin() + whole * period))
      ++whole;
    if (whole < 2) continue;
    const size_t rest = whole * period;
    std::string out = "[" + runs_text(runs, 0, period) + "] x" + std::to_string(whole);
    if (rest < runs.size()) out += ", " + runs_text(runs, rest, runs.size());
    return out;
  }
  return runs_text(runs, 0, runs.size());
}

int64_t compare_length(const ModelPosition& a, const ModelPosition& b) {
  return std::max<int64_t>({trained_length(a), trained_length(b), 1});
}

std::vector<ModelDifference> compare_models(const ModelPosition& a, const ModelPosition& b, std::optional<int64_t> target) {
  const int64_t target_length = target.value_or(compare_length(a, b));
  Differ d;
  d.add("model_type", text(a.model_type), text(b.model_type));
  d.add("position", text(position_kind_name(a.position)), text(position_kind_name(b.position)));
  d.add("head_dim", diff_num(a.head_dim), diff_num(b.head_dim));
  d.add("num_attention_heads", diff_num(a.num_attention_heads), diff_num(b.num_attention_heads));
  if (a.rope && b.rope) {
    rope_fields(d, "rope.", *a.rope, *b.rope);
    d.add("layers", text(layer_type_names(a)), text(layer_type_names(b)));
    for (const auto& [name, ra] : a.layers)
      for (const auto& [other, rb] : b.layers)
        if (name == other) rope_fields(d, "layers." + name + ".", ra, rb);
  }
  const auto extrapolated = [&](const ModelPosition& m) -> DiffValue {
    if (!m.rope) return text("no RoPE");
    return diff_num(rope_pair_counts(*m.rope, target_length)[static_cast<size_t>(PairBehaviour::Extrapolated)]);
  };
  if (a.rope || b.rope) d.add("rope.extrapolated_at_" + std::to_string(target_length), extrapolated(a), extrapolated(b));
  d.add("num_hidden_layers", diff_num(a.num_hidden_layers), diff_num(b.num_hidden_layers));
  d.add("per_layer", text(layer_pattern_text(a.per_layer)), text(layer_pattern_text(b.per_layer)));
  for (ModelDifference& x : d.out) {
    const std::vector<std::string> fields = assumption_fields(x.what);
    if (rests_on(a, fields)) x.assumed.push_back("a");
    if (rests_on(b, fields)) x.assumed.push_back("b");
  }
  return d.out;
}

bool difference_assumed(const ModelDifference& d, const char* side) {
  return std::find(d.assumed.begin(), d.assumed.end(), side) != d.assumed.end();
}

std::string differences_text(const std::vector<ModelDifference>& diffs) {
  std::string out;
  for (const ModelDifference& x : diffs)
    out +=
        x.what + ": " + value_text(x.a, difference_assumed(x, "a")) + " vs " + value_text(x.b, difference_assumed(x, "b")) + "\n";
  return out;
}

}  // namespace posenc
