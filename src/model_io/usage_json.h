// The JSON `posenc weights --json` writes (docs/weights.md), read back for the Frequency usage view: from a
// file the user drops, from the URL key `usage=` (the page fetches it) or from the page's own weights reader.
// Strict where a wrong value would draw a wrong figure (types, lengths that must agree, finite numbers,
// shares in [0, 1], indices in range: an error naming the field's path, "layers[3].heads[2].qk_share"),
// bounded before anything is built (the text's size, nesting depth, counts); a key this reader does not know
// is kept by name (UsageReport::unknown_keys) for the view to name, never dropped in silence.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace posenc::model_io {

// Largest weights JSON read: Llama-3.1-70B's (80 layers, 64 heads, 64 pairs) is about 26 MB; a larger
// report is refused naming its size (posenc weights --layers writes a part of the layers).
inline constexpr std::size_t kMaxUsageJsonBytes = std::size_t{32} << 20;
inline constexpr int kMaxUsageLayers = 4096;

// Per pair j of the rotary dims: the model's own inv_freq (scaling applied), 2 pi / inv_freq (infinite for
// a frequency-0 pair: null in the JSON), and turns = trained length x inv_freq / 2 pi.
struct UsagePairs {
  std::vector<double> inv_freq, wavelength, turns;
  std::vector<std::string> mrope_axis;  // M-RoPE: each pair's position axis ("t", "h", "w"); empty without
  std::size_t size() const { return inv_freq.size(); }
};

struct UsageHead {
  int head = 0, kv_head = 0;
  std::vector<double> q_norm, k_norm, qk;  // per pair
  // qk / sum qk per pair, and its sum over the pairs with turns < 1; NaN (null in the JSON) for a head
  // whose q.k norms are all 0 (no share of nothing).
  std::vector<double> qk_share;
  double semantic_share = 0;
  std::vector<int> top_pairs;  // largest qk_share first
};

struct UsageLayer {
  int layer = 0;
  bool rope = true;  // "position": "rope" | "none"
  std::string kind;  // the layer's attention kind ("full_attention", "linear_attention", ...)
  bool own_pairs = false;
  UsagePairs pairs;  // own_pairs: this layer's frequencies (Gemma's local / global); else the model's
  std::vector<UsageHead> heads;
};

struct UsageReport {
  std::string model_type, layout;
  int rotary_dim = 0;
  UsagePairs pairs;
  std::vector<UsageLayer> layers;
  int64_t read_tensors = 0, read_bytes = 0;
  // "what = value (why)" per assumption (the JSON's {what, value, why} objects, or strings).
  std::vector<std::string> assumptions, unread_keys;
  std::vector<std::string> unknown_keys;  // paths of keys this reader does not know ("layers[0].foo")
};

// `text` (at most kMaxUsageJsonBytes) as a weights report. Throws InvalidArgument whose field is the path of
// the offending value, prefixed by `field` ("usage" gives "usage.layers[3].heads[2].qk_share"), and whose
// message names it too.
UsageReport read_usage_json(std::string_view text, const std::string& field);

}  // namespace posenc::model_io
