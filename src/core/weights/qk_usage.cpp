// Which rotary frequencies a model's q/k weights use (qk_usage.h).
//
// Index of this file:
// [SECTION] shapes and tensors
//     the q/k projections' shapes from config.json or a GGUF header; the GGUF tensors to read
// [SECTION] per-pair numbers
//     a RoPE's pairs against the trained length, a head's shares, the layer list
// [SECTION] the analysis
//     the plan: a job per tensor, the layers asked for
// [SECTION] feeding and finishing
//     decoded blocks consumed into their slots, the bytes fed, the report
#include "core/weights/qk_usage.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>
#include <string_view>
#include <unordered_map>

#include "core/encodings/rope.h"
#include "core/models/model_families.h"

namespace posenc {
// [SECTION] shapes and tensors

namespace {

constexpr int kMaxShape = 1 << 20;                      // heads, widths, ranks: far beyond any model
constexpr uint64_t kMaxGainValues = uint64_t{1} << 22;  // a norm gain vector (hidden widths are < 2^16)
constexpr int kTopPairs = 8;

std::string shape_text(const std::vector<int64_t>& s) {
  std::string t = "[";
  for (std::size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
  return t + "]";
}

// A positive integer key of a config object, or nullopt when absent / null.
std::optional<int> config_int(const ConfigValue& obj, const std::string& prefix, const char* key) {
  const ConfigValue* v = obj.find(key);
  if (!v || v->is_null()) return std::nullopt;
  const std::string path = prefix + key;
  if (!v->is_int()) throw InvalidArgument(path, path + " must be an integer, not " + ConfigValue::kind_name(v->kind()));
  if (v->as_int() < 1 || v->as_int() > kMaxShape)
    throw InvalidArgument(path, path + " must be in [1, " + std::to_string(kMaxShape) + "], not " + std::to_string(v->as_int()));
  return static_cast<int>(v->as_int());
}

int required(std::optional<int> v, const std::string& path, const std::string& why) {
  if (!v) throw InvalidArgument(path, "missing " + path + " (" + why + ")");
  return *v;
}

}  // namespace

WeightShapes weight_shapes_from_config(const ConfigValue& config, const ModelPosition& m) {
  const ConfigValue* obj = &config;
  std::string prefix;
  if (const ConfigValue* tc = config.find("text_config"); tc && tc->is_object()) {
    obj = tc;
    prefix = "text_config.";
  }
  WeightShapes s;
  std::optional<int> heads = config_int(*obj, prefix, "num_attention_heads");
  if (!heads) heads = config_int(*obj, prefix, "n_head");
  s.heads = required(heads, prefix + "num_attention_heads", "the q projection's head count");
  s.kv_heads = config_int(*obj, prefix, "num_key_value_heads").value_or(s.heads);
  std::optional<int> hidden = config_int(*obj, prefix, "hidden_size");
  if (!hidden) hidden = config_int(*obj, prefix, "n_embd");
  s.hidden = required(hidden, prefix + "hidden_size", "the q/k projections' input width");
  // Gemma 4 (transformers Gemma4TextAttention): with attention_k_eq_v, a full layer has
  // num_global_key_value_heads KV heads and no v_proj (its values are its keys); k_proj is read as always.
  if (const ConfigValue* kv = obj->find("attention_k_eq_v"); kv && !kv->is_null()) {
    if (!kv->is_bool())
      throw InvalidArgument(prefix + "attention_k_eq_v",
                            prefix + "attention_k_eq_v must be true or false, not " + ConfigValue::kind_name(kv->kind()));
    if (kv->as_bool()) s.global_kv_heads = config_int(*obj, prefix, "num_global_key_value_heads").value_or(0);
  }
  const ModelFamily* fam = find_model_family(m.model_type);
  if ((fam && fam->has(kFamilyMla)) || obj->find("kv_lora_rank")) {
    s.mla = true;
    s.q_lora_rank = config_int(*obj, prefix, "q_lora_rank").value_or(0);
    s.kv_lora_rank = required(config_int(*obj, prefix, "kv_lora_rank"), prefix + "kv_lora_rank", "MLA's compressed KV width");
    s.qk_rope_head_dim =
        required(config_int(*obj, prefix, "qk_rope_head_dim"), prefix + "qk_rope_head_dim", "MLA's rotary part of a head");
    s.qk_nope_head_dim =
        required(config_int(*obj, prefix, "qk_nope_head_dim"), prefix + "qk_nope_head_dim", "MLA's unrotated part of a head");
    s.kv_heads = 1;  // k's rope part is shared by every head
  }
  if (s.heads % s.kv_heads != 0)
    throw InvalidArgument(prefix + "num_key_value_heads", prefix + "num_attention_heads (" + std::to_string(s.heads) +
                                                              ") is not a multiple of num_key_value_heads (" +
                                                              std::to_string(s.kv_heads) + ")");
  return s;
}

namespace {

std::optional<int> gguf_int(const GgufHeader& h, const std::string& key) {
  const ConfigValue* v = h.metadata.find(key);
  if (!v || v->is_null()) return std::nullopt;
  const ConfigValue* one = v;
  if (v->is_array()) {  // llama.cpp get_key_or_arr: one value per layer; the attention layers' value
    std::optional<int64_t> seen;
    for (const ConfigValue& e : v->as_array()) {
      if (!e.is_int()) throw InvalidArgument(key, "GGUF key '" + key + "' must hold integers");
      if (e.as_int() == 0) continue;  // layers without attention (hybrids)
      if (seen && *seen != e.as_int())
        throw InvalidArgument(key, "GGUF key '" + key + "' differs between layers; posenc weights reads one value");
      seen = e.as_int();
    }
    if (!seen) return std::nullopt;
    if (*seen < 1 || *seen > kMaxShape) throw InvalidArgument(key, "GGUF key '" + key + "' is out of range");
    return static_cast<int>(*seen);
  }
  if (!one->is_int() || one->as_int() < 0 || one->as_int() > kMaxShape)
    throw InvalidArgument(key, "GGUF key '" + key + "' must be an integer in [0, " + std::to_string(kMaxShape) + "]");
  if (one->as_int() == 0) return std::nullopt;
  return static_cast<int>(one->as_int());
}

}  // namespace

WeightShapes weight_shapes_from_gguf(const GgufHeader& h, const ModelPosition& m) {
  const std::string a = m.model_type + ".";
  WeightShapes s;
  s.heads = required(gguf_int(h, a + "attention.head_count"), a + "attention.head_count", "the q projection's head count");
  s.kv_heads = gguf_int(h, a + "attention.head_count_kv").value_or(s.heads);
  s.hidden = required(gguf_int(h, a + "embedding_length"), a + "embedding_length", "the q/k projections' input width");
  if (const auto kv_lora = gguf_int(h, a + "attention.kv_lora_rank")) {
    s.mla = true;
    s.kv_lora_rank = *kv_lora;
    s.q_lora_rank = gguf_int(h, a + "attention.q_lora_rank").value_or(0);
    s.qk_rope_head_dim =
        required(gguf_int(h, a + "rope.dimension_count"), a + "rope.dimension_count", "MLA's rotary part of a head");
    // llama.cpp's converter writes MLA as MQA over the latent (attn_kv_b split into attn_k_b and attn_v_b):
    // key_length is then kv_lora_rank + the rotary part (gguf_model.cpp refuses it without key_length_mla), and
    // key_length_mla the q/k head (nope + rope). The rotary rows posenc reads (attn_q_b or attn_q,
    // attn_kv_a_mqa) are the same either way.
    std::optional<int> key_length = gguf_int(h, a + "attention.key_length_mla");
    if (!key_length) key_length = gguf_int(h, a + "attention.key_length");
    const int kl = required(key_length, a + "attention.key_length", "MLA's q/k head width");
    if (kl <= s.qk_rope_head_dim)
      throw InvalidArgument(a + "attention.key_length", "GGUF MLA key length " + std::to_string(kl) +
                                                            " is not larger than the rotary part " +
                                                            std::to_string(s.qk_rope_head_dim));
    s.qk_nope_head_dim = kl - s.qk_rope_head_dim;
    s.kv_heads = 1;
  }
  if (s.heads % s.kv_heads != 0)
    throw InvalidArgument(a + "attention.head_count_kv", "GGUF head_count (" + std::to_string(s.heads) +
                                                             ") is not a multiple of head_count_kv (" +
                                                             std::to_string(s.kv_heads) + ")");
  return s;
}

std::vector<WeightTensor> gguf_weight_tensors(const GgufHeader& h, uint64_t file_size, int file) {
  uint64_t alignment = 32;  // GGUF_DEFAULT_ALIGNMENT
  if (const ConfigValue* v = h.metadata.find("general.alignment")) {
    if (!v->is_int() || v->as_int() < 1 || v->as_int() > (1 << 20) || (v->as_int() & (v->as_int() - 1)) != 0)
      throw InvalidArgument("general.alignment", "GGUF general.alignment must be a power of two up to 2^20");
    alignment = static_cast<uint64_t>(v->as_int());
  }
  const uint64_t data_start = (h.header_bytes + alignment - 1) / alignment * alignment;
  std::vector<WeightTensor> out;
  out.reserve(h.tensors.size());
  for (const GgufTensorInfo& t : h.tensors) {
    WeightTensor w;
    w.name = t.name;
    w.file = file;
    w.dtype = ggml_dtype(t.type);
    w.dtype_name = ggml_type_name(t.type);
    for (auto it = t.ne.rbegin(); it != t.ne.rend(); ++it) w.shape.push_back(static_cast<int64_t>(*it));
    if (t.offset > file_size || data_start > file_size - t.offset)
      throw InvalidArgument(t.name, "GGUF tensor '" + t.name + "' starts at byte " + std::to_string(data_start) + " + " +
                                        std::to_string(t.offset) + ", past the end of the " + std::to_string(file_size) +
                                        "-byte file");
    w.offset = data_start + t.offset;
    w.file_size = file_size;
    if (w.dtype) {
      const WeightBlock b = weight_block(*w.dtype);
      uint64_t n = 1;
      for (uint64_t d : t.ne) n = d == 0 || n <= (uint64_t{1} << 62) / d ? n * d : (uint64_t{1} << 62);
      if (t.ne.empty() || t.ne[0] % static_cast<uint64_t>(b.values) != 0)
        throw InvalidArgument(t.name, "GGUF tensor '" + t.name + "' of type " + w.dtype_name + ": its row of " +
                                          std::to_string(t.ne.empty() ? 0 : t.ne[0]) + " values is not a whole number of " +
                                          std::to_string(b.values) + "-value blocks");
      w.bytes = n / static_cast<uint64_t>(b.values) * static_cast<uint64_t>(b.bytes);
    }
    out.push_back(std::move(w));
  }
  return out;
}

// [SECTION] per-pair numbers

QkPairs qk_pairs(const ModelRope& r, int64_t trained_length) {
  QkPairs p;
  p.inv_freq = r.frequencies.inv_freq;
  for (double f : p.inv_freq) {
    p.wavelength.push_back(f > 0 ? 2 * std::numbers::pi / f : INFINITY);
    p.turns.push_back(static_cast<double>(trained_length) * f / (2 * std::numbers::pi));
  }
  if (!r.mrope_section.empty())
    p.mrope_axis = rope_mrope_axes(r.mrope_section, static_cast<int>(p.inv_freq.size()), r.mrope_interleaved);
  return p;
}

void qk_head_numbers(QkHeadUsage& h, const QkPairs& pairs) {
  const std::size_t n = h.q_norm.size();
  h.qk.resize(n);
  double sum = 0;
  for (std::size_t j = 0; j < n; ++j) sum += h.qk[j] = h.q_norm[j] * h.k_norm[j];
  h.qk_share.clear();
  h.top_pairs.clear();
  h.semantic_share.reset();
  if (!(sum > 0)) return;  // all-zero rows: no share is defined
  h.qk_share.resize(n);
  double semantic = 0;
  for (std::size_t j = 0; j < n; ++j) {
    h.qk_share[j] = h.qk[j] / sum;
    if (pairs.turns[j] < 1) semantic += h.qk_share[j];
  }
  h.semantic_share = semantic;
  std::vector<int> order(n);
  for (std::size_t j = 0; j < n; ++j) order[j] = static_cast<int>(j);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return h.qk_share[a] > h.qk_share[b]; });
  order.resize(std::min<std::size_t>(n, kTopPairs));
  h.top_pairs = order;
}

std::vector<int> parse_layer_list(const std::string& text, int layer_count, const std::string& field) {
  std::vector<int> out;
  std::vector<bool> seen(static_cast<std::size_t>(std::max(layer_count, 0)), false);
  auto number = [&](const std::string& s) {
    if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
      throw InvalidArgument(field, field + ": '" + s + "' is not a layer index (a list like 0,3,5-7)");
    const int v = std::stoi(s);
    if (v >= layer_count)
      throw InvalidArgument(
          field, field + ": layer " + s + " does not exist (the model has " + std::to_string(layer_count) + " layers, 0-based)");
    return v;
  };
  if (text.size() > 4096) throw InvalidArgument(field, field + " is longer than 4096 characters");
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, comma - at);
    const std::size_t dash = item.find('-');
    const int a = number(item.substr(0, dash));
    const int b = dash == std::string::npos ? a : number(item.substr(dash + 1));
    if (b < a) throw InvalidArgument(field, field + ": range '" + item + "' runs backwards");
    for (int i = a; i <= b; ++i)
      if (!seen[static_cast<std::size_t>(i)]) {
        seen[static_cast<std::size_t>(i)] = true;
        out.push_back(i);
      }
    at = comma + 1;
  }
  std::sort(out.begin(), out.end());
  return out;
}

// [SECTION] the analysis

namespace {

// One read: a gain vector decoded whole, or rows of a matrix summed as squares.
struct Job {
  enum class Kind { Gain, Rows } kind = Kind::Rows;
  const WeightTensor* tensor = nullptr;
  WeightDType dtype = WeightDType::F32;
  uint64_t cols = 0;  // Rows: values per row; Gain: values in all
  int dest = -1;      // slot written (Gain: values; Rows: one sum per row)
  uint64_t dest_row = 0, rows = 0;
  int gain = -1;          // Rows: the column-gain slot (-1: none)
  bool one_plus = false;  // Gain: store 1 + w
};

// Where one layer's numbers come from.
struct LayerPlan {
  int layer = 0;
  const LayerSpec* spec = nullptr;
  const ModelRope* rope = nullptr;
  int head_dim = 0, rotary_dim = 0, offset = 0, kv_heads = 0;
  int q_rows = -1, k_rows = -1;  // slots: heads * rotary_dim and kv_heads * rotary_dim row sums
  int q_gain = -1, k_gain = -1;  // slots of the per-dim q/k norm gains (-1: none)
  bool mla_k_shared = false;
};

}  // namespace

struct QkUsageAnalysis::Impl {
  const ModelPosition& model;
  WeightShapes shapes;
  QkTensorNames names;
  WeightFormat format;
  std::vector<std::vector<double>> slots;
  std::vector<Job> jobs;
  std::vector<LayerPlan> layers;
  std::vector<const WeightTensor*> used;
  std::vector<int> missing_qk_norm;  // layers of a QK-norm model read without their q or k norm gain
  // Streaming state of the current job.
  uint64_t element = 0;  // values of the current job consumed
  double acc = 0;
  std::vector<double> gain_sq;  // the current Rows job's squared column gain
  uint8_t carry[kMaxWeightBlockBytes];
  int carry_len = 0;
  std::vector<float> decoded = std::vector<float>(4096);

  Impl(const ModelPosition& m, const WeightShapes& s, const QkTensorNames& n, WeightFormat f)
      : model(m), shapes(s), names(n), format(f) {}

  int new_slot(std::size_t n) {
    slots.emplace_back(n, 0.0);
    return static_cast<int>(slots.size()) - 1;
  }
};

namespace {

std::string join_names(const std::vector<std::string>& v, int layer) {
  std::string out;
  for (const std::string& p : v) {
    std::string n = p;
    if (const std::size_t at = n.find("{i}"); at != std::string::npos) n.replace(at, 3, std::to_string(layer));
    out += (out.empty() ? "'" : ", '") + n + "'";
  }
  return out;
}

}  // namespace

QkUsageAnalysis::QkUsageAnalysis(const ModelPosition& model, const WeightShapes& shapes, const QkTensorNames& names,
                                 std::span<const WeightTensor> tensors, WeightFormat format, std::vector<int> layer_list)
    : impl_(new Impl(model, shapes, names, format)) {
  try {
    Impl& im = *impl_;
    if (model.position != PositionKind::Rope || !model.rope)
      throw InvalidArgument("model_type", "model_type '" + model.model_type + "' places positions by " +
                                              position_kind_name(model.position) +
                                              ", not RoPE: posenc weights reads the q/k weights of rotary models");
    const int layer_count = model.num_hidden_layers;
    if (layer_count < 1)
      throw InvalidArgument("num_hidden_layers",
                            "the configuration does not say how many layers the model has "
                            "(num_hidden_layers / block_count)");
    if (layer_list.empty())
      for (int i = 0; i < layer_count; ++i) layer_list.push_back(i);

    // By name: a large MoE checkpoint declares ~10^5 tensors, looked up a few times per layer.
    std::unordered_map<std::string_view, const WeightTensor*> by_name;
    by_name.reserve(tensors.size());
    for (const WeightTensor& t : tensors) by_name.emplace(t.name, &t);
    auto find = [&](const std::vector<std::string>& patterns, int layer) -> const WeightTensor* {
      for (const std::string& p : patterns) {
        std::string n = p;
        if (const std::size_t at = n.find("{i}"); at != std::string::npos) n.replace(at, 3, std::to_string(layer));
        if (const auto it = by_name.find(n); it != by_name.end()) return it->second;
      }
      return nullptr;
    };
    auto check_tensor = [&](const WeightTensor& t) {
      if (!t.dtype)
        throw InvalidArgument(t.name, "tensor '" + t.name + "' is " + t.dtype_name + ": posenc reads " +
                                          (format == WeightFormat::Gguf ? "F32, F16, BF16, Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, Q4_K, "
                                                                          "Q5_K and Q6_K"
                                                                        : "F32, F16 and BF16") +
                                          " weights");
      if (std::find(im.used.begin(), im.used.end(), &t) == im.used.end()) im.used.push_back(&t);
    };
    auto check_shape = [&](const WeightTensor& t, std::vector<int64_t> want, const std::string& why) {
      if (t.shape != want)
        throw InvalidArgument(t.name, "tensor '" + t.name + "' has shape " + shape_text(t.shape) + "; the configuration says " +
                                          shape_text(want) + " (" + why + ")");
    };
    auto gain_job = [&](const WeightTensor& t, std::size_t len, bool one_plus, const std::string& why) {
      check_tensor(t);
      if (len > kMaxGainValues)
        throw InvalidArgument(t.name, "tensor '" + t.name + "': a norm gain of " + std::to_string(len) + " values (limit 2^22)");
      check_shape(t, {static_cast<int64_t>(len)}, why);
      Job j;
      j.kind = Job::Kind::Gain;
      j.tensor = &t;
      j.dtype = *t.dtype;
      j.cols = len;
      j.dest = im.new_slot(len);
      j.one_plus = one_plus;
      im.jobs.push_back(j);
      return j.dest;
    };
    // A gain whose length says how it applies: one per dim of a head (shared), or one per row.
    auto qk_gain_job = [&](const WeightTensor& t, int hd, int heads, const std::string& what) {
      check_tensor(t);
      if (t.shape.size() != 1 || (t.shape[0] != hd && t.shape[0] != static_cast<int64_t>(hd) * heads))
        throw InvalidArgument(t.name, "tensor '" + t.name + "' has shape " + shape_text(t.shape) + "; " + what +
                                          " norm gains are [head_dim] = [" + std::to_string(hd) + "] or [heads x head_dim] = [" +
                                          std::to_string(static_cast<int64_t>(hd) * heads) + "]");
      return gain_job(t, static_cast<std::size_t>(t.shape[0]), names.qk_norm_one_plus, what + " norm gain");
    };
    auto rows_job = [&](const WeightTensor& t, int dest, uint64_t dest_row, uint64_t n, int gain) {
      Job j;
      j.kind = Job::Kind::Rows;
      j.tensor = &t;
      j.dtype = *t.dtype;
      j.cols = static_cast<uint64_t>(t.shape[1]);
      j.dest = dest;
      j.dest_row = dest_row;
      j.rows = n;
      j.gain = gain;
      im.jobs.push_back(j);
    };
    std::vector<uint64_t> job_src_row;  // parallel to jobs: the first source row of a Rows job

    for (int li : layer_list) {
      static const LayerSpec full_layer{};
      if (!model.per_layer.empty() && static_cast<std::size_t>(li) >= model.per_layer.size())
        throw InvalidArgument("layers", "layer " + std::to_string(li) + " is not among the configuration's " +
                                            std::to_string(model.per_layer.size()) + " layers");
      const LayerSpec& spec = model.per_layer.empty() ? full_layer : model.per_layer[static_cast<std::size_t>(li)];
      LayerPlan lp;
      lp.layer = li;
      lp.spec = &spec;
      if (!spec.rope) {
        im.layers.push_back(lp);
        continue;
      }
      const ModelRope* r = &*model.rope;
      if (!spec.rope_key.empty())
        for (const auto& [key, lr] : model.layers)
          if (key == spec.rope_key) r = &lr;
      lp.rope = r;
      lp.head_dim = rope_head_dim(model, *r);
      lp.rotary_dim = r->rotary_dim;
      const int H = shapes.heads;
      if (shapes.mla) {
        if (lp.rotary_dim != shapes.qk_rope_head_dim || lp.head_dim != shapes.qk_nope_head_dim + shapes.qk_rope_head_dim)
          throw InvalidArgument("qk_rope_head_dim", "MLA's rotary part (" + std::to_string(shapes.qk_rope_head_dim) +
                                                        ") disagrees with the RoPE read from the configuration (" +
                                                        std::to_string(lp.rotary_dim) + " of " + std::to_string(lp.head_dim) +
                                                        ")");
        lp.offset = shapes.qk_nope_head_dim;  // the rope part sits at the back of each q head
        lp.kv_heads = 1;
        lp.mla_k_shared = true;
      } else {
        lp.offset = 0;  // partial rotary rotates the head's first rotary_dim dims
        lp.kv_heads =
            spec.attention != LayerAttention::Sliding && shapes.global_kv_heads ? shapes.global_kv_heads : shapes.kv_heads;
      }
      const int hd = lp.head_dim, rd = lp.rotary_dim, KV = lp.kv_heads;
      if (H % KV != 0) throw InvalidArgument("num_key_value_heads", "the head count is not a multiple of the KV head count");
      lp.q_rows = im.new_slot(static_cast<std::size_t>(H) * rd);
      lp.k_rows = im.new_slot(static_cast<std::size_t>(KV) * rd);

      int input_gain = -1;
      if (const WeightTensor* t = find(names.input_norm, li))
        input_gain = gain_job(*t, static_cast<std::size_t>(shapes.hidden), names.norm_one_plus, "hidden_size: the input norm");
      else if (names.input_norm_required && !names.input_norm.empty())
        throw InvalidArgument("tensors", "layer " + std::to_string(li) + ": no input norm gain among the tensors (looked for " +
                                             join_names(names.input_norm, li) + ")");
      auto add_rows = [&](const WeightTensor& t, uint64_t src_row, uint64_t n, int dest, uint64_t dest_row, int gain) {
        rows_job(t, dest, dest_row, n, gain);
        job_src_row.resize(im.jobs.size(), 0);
        job_src_row.back() = src_row;
      };
      auto pad_src = [&]() { job_src_row.resize(im.jobs.size(), 0); };

      if (shapes.mla) {
        const WeightTensor* qb = find(names.mla_q_b, li);
        const WeightTensor* q = qb ? nullptr : find(names.q, li);
        const WeightTensor* kva = find(names.mla_kv_a, li);
        if (!qb && !q)
          throw InvalidArgument("tensors", "layer " + std::to_string(li) + ": no MLA q projection (looked for " +
                                               join_names(names.mla_q_b, li) + " and " + join_names(names.q, li) + ")");
        if (!kva)
          throw InvalidArgument("tensors", "layer " + std::to_string(li) + ": no MLA kv_a projection (looked for " +
                                               join_names(names.mla_kv_a, li) + ")");
        int q_col_gain = input_gain;
        if (qb) {
          if (shapes.q_lora_rank < 1)
            throw InvalidArgument("q_lora_rank",
                                  "tensor '" + qb->name + "' is a low-rank q but the configuration has no q_lora_rank");
          const WeightTensor* qa_norm = find(names.mla_q_a_norm, li);
          if (!qa_norm)
            throw InvalidArgument("tensors", "layer " + std::to_string(li) + ": no q_a_layernorm gain (looked for " +
                                                 join_names(names.mla_q_a_norm, li) + ")");
          q_col_gain =
              gain_job(*qa_norm, static_cast<std::size_t>(shapes.q_lora_rank), names.norm_one_plus, "q_lora_rank: q_a_layernorm");
          pad_src();
        }
        pad_src();
        const WeightTensor& qt = qb ? *qb : *q;
        check_tensor(qt);
        check_shape(qt, {static_cast<int64_t>(H) * hd, qb ? shapes.q_lora_rank : shapes.hidden},
                    qb ? "num_attention_heads x (qk_nope_head_dim + qk_rope_head_dim), q_lora_rank"
                       : "num_attention_heads x (qk_nope_head_dim + qk_rope_head_dim), hidden_size");
        check_tensor(*kva);
        check_shape(*kva, {shapes.kv_lora_rank + shapes.qk_rope_head_dim, shapes.hidden},
                    "kv_lora_rank + qk_rope_head_dim, hidden_size");
        for (int h = 0; h < H; ++h)
          add_rows(qt, static_cast<uint64_t>(h) * hd + lp.offset, static_cast<uint64_t>(rd), lp.q_rows,
                   static_cast<uint64_t>(h) * rd, q_col_gain);
        add_rows(*kva, static_cast<uint64_t>(shapes.kv_lora_rank), static_cast<uint64_t>(rd), lp.k_rows, 0, input_gain);
      } else {
        if (const WeightTensor* t = find(names.q_norm, li)) {
          lp.q_gain = qk_gain_job(*t, hd, H, "q");
          pad_src();
        }
        if (const WeightTensor* t = find(names.k_norm, li)) {
          lp.k_gain = qk_gain_job(*t, hd, KV, "k");
          pad_src();
        }
        if (names.qk_norm_expected && (lp.q_gain < 0 || lp.k_gain < 0)) im.missing_qk_norm.push_back(li);
        pad_src();
        const WeightTensor* q = find(names.q, li);
        const WeightTensor* k = find(names.k, li);
        const WeightTensor* qkv = q && k ? nullptr : find(names.qkv, li);
        const std::string heads_why = "num_attention_heads x head_dim, hidden_size";
        const std::string kv_why = "num_key_value_heads x head_dim, hidden_size";
        if (q && k) {
          check_tensor(*q);
          check_tensor(*k);
          check_shape(*q, {static_cast<int64_t>(H) * hd, shapes.hidden}, heads_why);
          check_shape(*k, {static_cast<int64_t>(KV) * hd, shapes.hidden}, kv_why);
          for (int h = 0; h < H; ++h)
            add_rows(*q, static_cast<uint64_t>(h) * hd, static_cast<uint64_t>(rd), lp.q_rows, static_cast<uint64_t>(h) * rd,
                     input_gain);
          for (int h = 0; h < KV; ++h)
            add_rows(*k, static_cast<uint64_t>(h) * hd, static_cast<uint64_t>(rd), lp.k_rows, static_cast<uint64_t>(h) * rd,
                     input_gain);
        } else if (qkv) {
          check_tensor(*qkv);
          if (names.qkv_split == QkTensorNames::Fused::PerHead) {
            if (KV != H)
              throw InvalidArgument(qkv->name,
                                    "tensor '" + qkv->name + "' fuses q, k, v per head, which needs as many KV heads as heads");
            check_shape(*qkv, {static_cast<int64_t>(H) * 3 * hd, shapes.hidden},
                        "num_attention_heads x 3 x head_dim, hidden_size");
            for (int h = 0; h < H; ++h) {
              add_rows(*qkv, static_cast<uint64_t>(h) * 3 * hd, static_cast<uint64_t>(rd), lp.q_rows,
                       static_cast<uint64_t>(h) * rd, input_gain);
              add_rows(*qkv, static_cast<uint64_t>(h) * 3 * hd + hd, static_cast<uint64_t>(rd), lp.k_rows,
                       static_cast<uint64_t>(h) * rd, input_gain);
            }
          } else if (names.qkv_split == QkTensorNames::Fused::MpQvk) {
            // transformers CodeGenAttention.forward: qkv reshaped to (mp_num, -1), each block split into
            // query, value, key of local_dim = H / mp_num heads; _split_heads numbers block m's local head l
            // as head m * (H / mp_num) + l.
            const int mp = names.qkv_mp_num;
            if (KV != H || H % mp != 0)
              throw InvalidArgument(qkv->name, "tensor '" + qkv->name + "' fuses q, v, k in " + std::to_string(mp) +
                                                   " blocks of heads, which needs as many KV heads as heads and a head "
                                                   "count divisible by " +
                                                   std::to_string(mp));
            check_shape(*qkv, {static_cast<int64_t>(H) * 3 * hd, shapes.hidden},
                        "3 x num_attention_heads x head_dim, hidden_size");
            const uint64_t local_heads = static_cast<uint64_t>(H / mp), local = local_heads * static_cast<uint64_t>(hd);
            for (int h = 0; h < H; ++h) {
              const uint64_t block = static_cast<uint64_t>(h) / local_heads * 3 * local;
              const uint64_t in_block = static_cast<uint64_t>(h) % local_heads * static_cast<uint64_t>(hd);
              add_rows(*qkv, block + in_block, static_cast<uint64_t>(rd), lp.q_rows, static_cast<uint64_t>(h) * rd, input_gain);
            }
            for (int h = 0; h < H; ++h) {
              const uint64_t block = static_cast<uint64_t>(h) / local_heads * 3 * local;
              const uint64_t in_block = static_cast<uint64_t>(h) % local_heads * static_cast<uint64_t>(hd);
              add_rows(*qkv, block + 2 * local + in_block, static_cast<uint64_t>(rd), lp.k_rows, static_cast<uint64_t>(h) * rd,
                       input_gain);
            }
          } else {
            check_shape(*qkv, {static_cast<int64_t>(H + 2 * KV) * hd, shapes.hidden},
                        "(num_attention_heads + 2 x num_key_value_heads) x head_dim, hidden_size");
            for (int h = 0; h < H; ++h)
              add_rows(*qkv, static_cast<uint64_t>(h) * hd, static_cast<uint64_t>(rd), lp.q_rows, static_cast<uint64_t>(h) * rd,
                       input_gain);
            for (int h = 0; h < KV; ++h)
              add_rows(*qkv, static_cast<uint64_t>(H + h) * hd, static_cast<uint64_t>(rd), lp.k_rows,
                       static_cast<uint64_t>(h) * rd, input_gain);
          }
        } else {
          throw InvalidArgument("tensors", "layer " + std::to_string(li) + ": no q/k projections among the tensors (looked for " +
                                               join_names(names.q, li) + " with " + join_names(names.k, li) +
                                               (names.qkv.empty() ? std::string() : ", or fused " + join_names(names.qkv, li)) +
                                               ")");
        }
      }
      im.layers.push_back(lp);
    }
    job_src_row.resize(im.jobs.size(), 0);

    // Every used tensor: its declared bytes agree with dtype and shape, and lie inside its file.
    for (const WeightTensor* t : im.used) {
      const WeightBlock b = weight_block(*t->dtype);
      uint64_t n = 1;
      for (int64_t d : t->shape) {
        if (d < 0 || (d > 0 && n > (uint64_t{1} << 50) / static_cast<uint64_t>(d)))
          throw InvalidArgument(t->name, "tensor '" + t->name + "' has an absurd shape " + shape_text(t->shape));
        n *= static_cast<uint64_t>(d);
      }
      const uint64_t cols = t->shape.empty() ? 1 : static_cast<uint64_t>(t->shape.back());
      if (cols % static_cast<uint64_t>(b.values) != 0)
        throw InvalidArgument(t->name, "tensor '" + t->name + "': rows of " + std::to_string(cols) + " values are not whole " +
                                           t->dtype_name + " blocks of " + std::to_string(b.values));
      const uint64_t want = n / static_cast<uint64_t>(b.values) * static_cast<uint64_t>(b.bytes);
      if (t->bytes != want)
        throw InvalidArgument(t->name, "tensor '" + t->name + "' declares " + std::to_string(t->bytes) + " bytes; " +
                                           t->dtype_name + " " + shape_text(t->shape) + " takes " + std::to_string(want));
      if (t->offset > t->file_size || t->bytes > t->file_size - t->offset)
        throw InvalidArgument(t->name, "tensor '" + t->name + "' declares bytes " + std::to_string(t->offset) + " to " +
                                           std::to_string(t->offset + t->bytes) + ", past the end of its " +
                                           std::to_string(t->file_size) + "-byte file");
    }

    // The plan: one range per job, contiguous row jobs of one tensor merged into one read.
    std::vector<Job> merged;
    for (std::size_t i = 0; i < im.jobs.size(); ++i) {
      const Job& j = im.jobs[i];
      const WeightBlock b = weight_block(j.dtype);
      const uint64_t row_bytes = j.kind == Job::Kind::Rows ? j.cols / static_cast<uint64_t>(b.values) * b.bytes : 0;
      const uint64_t offset = j.kind == Job::Kind::Gain ? j.tensor->offset : j.tensor->offset + job_src_row[i] * row_bytes;
      const uint64_t length = j.kind == Job::Kind::Gain ? j.tensor->bytes : j.rows * row_bytes;
      if (!merged.empty() && j.kind == Job::Kind::Rows) {
        Job& last = merged.back();
        WeightRange& lr = plan_.back();
        if (last.kind == Job::Kind::Rows && last.tensor == j.tensor && last.dest == j.dest && last.gain == j.gain &&
            last.dest_row + last.rows == j.dest_row && lr.offset + lr.length == offset) {
          last.rows += j.rows;
          lr.length += length;
          continue;
        }
      }
      merged.push_back(j);
      plan_.push_back({j.tensor->file, offset, length, j.tensor->name});
    }
    im.jobs = std::move(merged);
    for (const WeightRange& r : plan_) total_bytes_ += r.length;
  } catch (...) {
    delete impl_;
    throw;
  }
}

QkUsageAnalysis::~QkUsageAnalysis() { delete impl_; }

int QkUsageAnalysis::total_tensors() const { return static_cast<int>(impl_->used.size()); }

namespace {

// [SECTION] feeding and finishing

// Consumes `n` decoded values of job `j` into its slot.
void consume(QkUsageAnalysis::Impl& im, const Job& j, const float* v, std::size_t n) {
  std::vector<double>& dest = im.slots[static_cast<std::size_t>(j.dest)];
  if (j.kind == Job::Kind::Gain) {
    for (std::size_t i = 0; i < n; ++i) {
      const double w = v[i];
      dest[im.element + i] = j.one_plus ? 1.0 + w : w;
    }
    im.element += n;
    return;
  }
  const double* g2 = im.gain_sq.empty() ? nullptr : im.gain_sq.data();
  std::size_t k = 0;
  while (k < n) {
    const uint64_t col = im.element % j.cols;
    const std::size_t run = static_cast<std::size_t>(std::min<uint64_t>(n - k, j.cols - col));
    double acc = im.acc;
    if (g2) {
      for (std::size_t t = 0; t < run; ++t) {
        const double x = v[k + t];
        acc += x * x * g2[col + t];
      }
    } else {
      for (std::size_t t = 0; t < run; ++t) {
        const double x = v[k + t];
        acc += x * x;
      }
    }
    im.acc = acc;
    k += run;
    im.element += run;
    if (im.element % j.cols == 0) {
      dest[j.dest_row + im.element / j.cols - 1] = im.acc;
      im.acc = 0;
    }
  }
}

// Decodes whole blocks and consumes them in batches.
void decode_blocks(QkUsageAnalysis::Impl& im, const Job& j, const uint8_t* src, std::size_t blocks) {
  const WeightBlock b = weight_block(j.dtype);
  const std::size_t per_batch = im.decoded.size() / static_cast<std::size_t>(b.values);
  while (blocks > 0) {
    const std::size_t nb = std::min(blocks, per_batch);
    decode_weight_blocks(j.dtype, src, nb, im.decoded.data());
    for (std::size_t i = 0; i < nb * static_cast<std::size_t>(b.values); ++i)
      if (!std::isfinite(im.decoded[i]))
        throw InvalidArgument(j.tensor->name, "tensor '" + j.tensor->name + "' holds a non-finite value (inf or NaN)");
    consume(im, j, im.decoded.data(), nb * static_cast<std::size_t>(b.values));
    src += nb * static_cast<std::size_t>(b.bytes);
    blocks -= nb;
  }
}

}  // namespace

void QkUsageAnalysis::feed(std::span<const uint8_t> bytes) {
  Impl& im = *impl_;
  std::size_t at = 0;
  while (at < bytes.size()) {
    if (range_ >= plan_.size())
      throw InvalidArgument("weights", "more bytes fed than the plan's " + std::to_string(total_bytes_));
    const Job& j = im.jobs[range_];
    const WeightRange& r = plan_[range_];
    if (im.element == 0 && im.carry_len == 0 && im.acc == 0) {
      // A job starts: its column gain squared (the gain's job came earlier in the plan).
      im.gain_sq.clear();
      if (j.kind == Job::Kind::Rows && j.gain >= 0) {
        const std::vector<double>& g = im.slots[static_cast<std::size_t>(j.gain)];
        im.gain_sq.resize(g.size());
        for (std::size_t c = 0; c < g.size(); ++c) im.gain_sq[c] = g[c] * g[c];
      }
    }
    const WeightBlock b = weight_block(j.dtype);
    const uint64_t range_end = range_start_ + r.length;
    const std::size_t take = static_cast<std::size_t>(std::min<uint64_t>(bytes.size() - at, range_end - bytes_done_));
    const uint8_t* p = bytes.data() + at;
    std::size_t left = take;
    if (im.carry_len > 0) {
      const std::size_t fill = std::min<std::size_t>(left, static_cast<std::size_t>(b.bytes - im.carry_len));
      std::memcpy(im.carry + im.carry_len, p, fill);
      im.carry_len += static_cast<int>(fill);
      p += fill;
      left -= fill;
      if (im.carry_len == b.bytes) {
        decode_blocks(im, j, im.carry, 1);
        im.carry_len = 0;
      }
    }
    const std::size_t whole = left / static_cast<std::size_t>(b.bytes);
    if (whole) decode_blocks(im, j, p, whole);
    p += whole * static_cast<std::size_t>(b.bytes);
    left -= whole * static_cast<std::size_t>(b.bytes);
    if (left) {
      std::memcpy(im.carry, p, left);
      im.carry_len = static_cast<int>(left);
    }
    at += take;
    bytes_done_ += take;
    if (bytes_done_ == range_end) {
      range_start_ = range_end;
      ++range_;
      im.element = 0;
      im.acc = 0;
      im.carry_len = 0;
    }
  }
}

QkUsage QkUsageAnalysis::finish() {
  Impl& im = *impl_;
  if (range_ != plan_.size())
    throw InvalidArgument("weights", "finish before every range was read (" + std::to_string(bytes_done_) + " of " +
                                         std::to_string(total_bytes_) + " bytes)");
  const ModelPosition& m = im.model;
  QkUsage u;
  u.model_type = m.model_type;
  u.rotary_dim = m.rope->rotary_dim;
  u.layout = m.rope->layout;
  u.trained_length = m.rope->original_max_position_embeddings;
  u.pairs = qk_pairs(*m.rope, u.trained_length);
  u.tensors_read = im.used.size();
  u.bytes_read = total_bytes_;
  u.assumptions = m.assumptions;
  u.unread_keys = m.unread_keys;
  if (im.format == WeightFormat::Gguf && u.layout == RopeLayout::Interleaved) {
    const ModelFamily* fam = find_gguf_family(m.model_type);
    if (fam && fam->layout == RopeLayout::Half && !im.shapes.mla)
      u.assumptions.push_back(
          {"layout", "interleaved",
           "llama.cpp's converter permuted this " + fam->family +
               " GGUF's q/k rows (convert_hf_to_gguf.py LlamaModel.permute) so that its rope type 'norm' rotates "
               "adjacent rows: pairs are read as rows (2j, 2j + 1), the transformers model's pairs (j, j + rotary_dim/2)"});
  }
  if (!im.missing_qk_norm.empty()) {
    std::string layers;
    for (std::size_t i = 0; i < im.missing_qk_norm.size() && i < 16; ++i)
      layers += (i ? ", " : "") + std::to_string(im.missing_qk_norm[i]);
    if (im.missing_qk_norm.size() > 16) layers += ", ... (" + std::to_string(im.missing_qk_norm.size()) + " layers)";
    const int first = im.missing_qk_norm.front();
    u.assumptions.push_back({"qk_norm", "1",
                             "model_type '" + m.model_type + "' normalises q and k per head (QK-norm), but the files hold no " +
                                 "q or k norm gain for layer " + layers + " (looked for " + join_names(im.names.q_norm, first) +
                                 " and " + join_names(im.names.k_norm, first) + "): the missing gains are taken as 1"});
  }
  for (const LayerPlan& lp : im.layers) {
    QkLayerUsage lu;
    lu.layer = lp.layer;
    lu.kind = layer_attention_name(lp.spec->attention);
    lu.rope = lp.rope != nullptr;
    if (!lu.rope) {
      u.layers.push_back(std::move(lu));
      continue;
    }
    QkPairs pairs = qk_pairs(*lp.rope, u.trained_length);
    const bool own = !(pairs == u.pairs);
    const int rd = lp.rotary_dim, hd = lp.head_dim, H = im.shapes.heads, KV = lp.kv_heads, npairs = rd / 2;
    const std::vector<double>& qr = im.slots[static_cast<std::size_t>(lp.q_rows)];
    const std::vector<double>& kr = im.slots[static_cast<std::size_t>(lp.k_rows)];
    auto gain = [&](int slot, int head, int r) {
      if (slot < 0) return 1.0;
      const std::vector<double>& g = im.slots[static_cast<std::size_t>(slot)];
      const std::size_t dim = static_cast<std::size_t>(lp.offset + r);
      return g.size() == static_cast<std::size_t>(hd) ? g[dim] : g[static_cast<std::size_t>(head) * hd + dim];
    };
    auto pair_rows = [&](int j) {
      return lp.rope->layout == RopeLayout::Half ? std::pair<int, int>{j, j + npairs} : std::pair<int, int>{2 * j, 2 * j + 1};
    };
    for (int h = 0; h < H; ++h) {
      QkHeadUsage hu;
      hu.head = h;
      hu.kv_head = h / (H / KV);
      for (int j = 0; j < npairs; ++j) {
        const auto [a, b] = pair_rows(j);
        const double ga = gain(lp.q_gain, h, a), gb = gain(lp.q_gain, h, b);
        const double q2 = qr[static_cast<std::size_t>(h) * rd + a] * ga * ga + qr[static_cast<std::size_t>(h) * rd + b] * gb * gb;
        const double ka = gain(lp.k_gain, hu.kv_head, a), kb = gain(lp.k_gain, hu.kv_head, b);
        const double k2 = kr[static_cast<std::size_t>(hu.kv_head) * rd + a] * ka * ka +
                          kr[static_cast<std::size_t>(hu.kv_head) * rd + b] * kb * kb;
        hu.q_norm.push_back(std::sqrt(q2));
        hu.k_norm.push_back(std::sqrt(k2));
      }
      qk_head_numbers(hu, pairs);
      lu.heads.push_back(std::move(hu));
    }
    if (own) lu.own_pairs = std::move(pairs);
    u.layers.push_back(std::move(lu));
  }
  return u;
}

}  // namespace posenc
