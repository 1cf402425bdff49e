// The keys about positions posenc did not read (ModelPosition::unread_keys): every key of the config, at any
// depth, whose name says it is about positions or about which layers attend or rotate, and every key inside a
// RoPE parameter object, that no reader looked at. docs/models.md lists the words.
#include <algorithm>
#include <cctype>
#include <string_view>

#include "core/models/hf_reading.h"

namespace posenc {
namespace {

// Words of a key about positions (rope, window, chunk, ...).
constexpr const char* kPositionWords[] = {
    "rope",
    "rotary",
    "position",
    "nope",
    "chunk",
    "window",
    "sink",
    "temperature",
    "attn_scale",
    "floor_scale",
    "theta",
    "alibi",
    "layer_types",
    "swa",
    "mscale",
    "yarn",
    "rope_freq",
    "freq_base",
    "base_freq",
    "inv_freq",
    "freq_scale",
    "relative_attention",
    "bucket",
    "context",
    "max_seq",
    "seq_len",
    "seq_length",
    "n_positions",
    "n_ctx",
    "partial_rotary",
    "query_pre_attn_scalar",
    "sliding",
    "attention_interval",
    "layer_interval",
    "attention_type",
    "layers_block_type",
    "interleaved_layers",
    "hybrid_override_pattern",
    "attn_type",
    "global_attn",
    "local_attn",
    "layer_switch",
    "global_head_dim",
    "index_",
    "bidirectional",
    // A layer type's own head width beside head_dim (Gemma 4's global_head_dim is read; others are named).
    "local_head_dim",
    "full_head_dim",
    // Key selection before the softmax (DSA's indexer, MiniMax-M3's block top-k) and extra logit scales.
    "indexer",
    "sparse_attention",
    "sparse_attn",
    "sparse_topk",
    "sparse_block",
    "sparse_local",
    "sparse_index",
    "sparse_num_index",
    "sparse_disable",
    "topk_blocks",
    "block_topk",
    "qk_scale",
    "key_multiplier",
    "local_attention",
};

// Words of a key that can change which layers attend or rotate (hybrid patterns, per-layer lists, compress
// ratios): the family table's rules read such keys, and an unread one is named.
constexpr const char* kLayerWords[] = {"pattern",     "ratios",          "hybrid",      "layer_type", "block_type",
                                       "linear_attn", "full_attn",       "fullatt",     "kda",        "compress_rat",
                                       "attn_layer",  "attention_layer", "block_config"};
// Words of attention itself: a list of layer indices or a per-layer key beside one of them shapes the layers.
constexpr const char* kAttentionWords[] = {"attn",   "att_", "attention", "window", "swa",   "global", "local",
                                           "linear", "conv", "mamba",     "ssm",    "mixer", "kind",   "full"};

// Words that make a layer-ish key about something else (experts, MLPs, multi-token prediction, dropout).
constexpr const char* kNotLayerWords[] = {"moe", "expert", "mlp", "dense", "hash", "nextn", "mtp", "ffn", "dropout", "norm"};

bool contains(std::string_view k, std::string_view w) { return k.find(w) != std::string_view::npos; }

// A key about which layers attend how: a layer word, or "layer(s)" beside an attention word.
bool is_layer_shaping_key(std::string_view k) {
  for (const char* w : kNotLayerWords)
    if (contains(k, w)) return false;
  for (const char* w : kLayerWords)
    if (contains(k, w)) return true;
  if (!contains(k, "layer") && !contains(k, "idx") && !contains(k, "index")) return false;
  for (const char* w : kAttentionWords)
    if (contains(k, w)) return true;
  return false;
}

// Names every positional key not looked at: any key matching is_positional_key, and every key inside a
// RoPE parameter object (all of its keys are positional).
void collect_unread(const ConfigValue& v, const std::string& prefix, bool all_positional, const std::set<std::string>& seen,
                    std::vector<std::string>& out) {
  if (!v.is_object()) return;
  for (const auto& [k, child] : v.as_object()) {
    const std::string path = prefix + k;
    const bool rope_object = child.is_object() && (k == "rope_scaling" || k == "rope_parameters" || all_positional);
    if (child.is_object() && !child.as_object().empty()) {
      collect_unread(child, path + ".", rope_object, seen, out);
      if (rope_object || !is_positional_key(k)) continue;
    }
    if ((all_positional || is_positional_key(k)) && !seen.count(path) && !child.is_null()) out.push_back(path);
  }
}

// Equal JSON values (numbers by value, objects whatever their key order).
bool same_value(const ConfigValue& a, const ConfigValue& b) {
  if (a.is_number() && b.is_number()) return a.as_double() == b.as_double();
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case ConfigValue::Kind::Null: return true;
    case ConfigValue::Kind::Bool: return a.as_bool() == b.as_bool();
    case ConfigValue::Kind::String: return a.as_string() == b.as_string();
    case ConfigValue::Kind::Array: {
      const auto &x = a.as_array(), &y = b.as_array();
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i)
        if (!same_value(x[i], y[i])) return false;
      return true;
    }
    case ConfigValue::Kind::Object: {
      if (a.as_object().size() != b.as_object().size()) return false;
      for (const auto& [k, v] : a.as_object()) {
        const ConfigValue* w = b.find(k);
        if (!w || !same_value(v, *w)) return false;
      }
      return true;
    }
    default: return false;
  }
}

const ConfigValue* at_path(const ConfigValue& root, const std::string& path) {
  const ConfigValue* v = &root;
  size_t start = 0;
  while (v && start <= path.size()) {
    const size_t dot = path.find('.', start);
    v = v->find(std::string_view(path).substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return v;
}

// A multimodal wrapper (Qwen2-VL, Qwen2.5-VL) repeats the language model's keys at the top level beside
// text_config, which transformers reads. A top-level copy whose value equals a text_config key posenc read
// is that key, read; one that differs stays named (posenc, like transformers, used text_config's).
void drop_text_config_copies(const ConfigValue& root, const std::set<std::string>& seen, std::vector<std::string>& unread) {
  if (!root.find("text_config")) return;
  std::erase_if(unread, [&](const std::string& p) {
    if (p.starts_with("text_config.") || !seen.count("text_config." + p)) return false;
    const ConfigValue *top = at_path(root, p), *inner = at_path(root, "text_config." + p);
    return top && inner && same_value(*top, *inner);
  });
}

}  // namespace

bool is_positional_key(const std::string& key) {
  std::string k = key;
  std::transform(k.begin(), k.end(), k.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  // PretrainedConfig's feed-forward chunking (a memory setting, written into every sub-config transformers 5 saves
  // whole, e.g. Gemma 4's vision_config): not about positions, though it contains "chunk".
  if (k == "chunk_size_feed_forward") return false;
  // DeepSeek-V4's hyper-connections run Sinkhorn-Knopp iterations: not attention sinks, though it contains "sink".
  if (k.find("sinkhorn") != std::string::npos) return false;
  for (const char* w : kPositionWords)
    if (contains(k, w)) return true;
  return is_layer_shaping_key(k);
}

namespace hf {

std::vector<std::string> unread_keys(const ConfigValue& config, const std::set<std::string>& seen) {
  std::vector<std::string> out;
  collect_unread(config, "", false, seen, out);
  drop_text_config_copies(config, seen, out);
  return out;
}

}  // namespace hf
}  // namespace posenc
