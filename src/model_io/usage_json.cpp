#include "model_io/usage_json.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/bounds.h"
#include "core/types.h"
#include "model_io/json_read.h"

namespace posenc::model_io {
namespace {

using json = nlohmann::json;

// An object's reader: every read names the value's path; keys not listed are noted by path.
class Reader {
 public:
  Reader(const json& j, std::string path, std::initializer_list<const char*> known, std::vector<std::string>& unknown)
      : j_(j), path_(std::move(path)) {
    if (!j.is_object()) throw InvalidArgument(path_, path_ + " must be an object");
    for (const auto& item : j.items()) {
      if (std::find_if(known.begin(), known.end(), [&](const char* k) { return item.key() == k; }) == known.end() &&
          unknown.size() < 64)
        unknown.push_back(at_path(item.key()));
    }
  }
  std::string at_path(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }
  bool has(const char* key) const { return j_.contains(key); }
  const json& get(const char* key) const {
    if (!j_.contains(key)) throw InvalidArgument(at_path(key), at_path(key) + " is missing");
    return j_.at(key);
  }
  std::string string(const char* key) const {
    const json& v = get(key);
    if (!v.is_string()) throw InvalidArgument(at_path(key), at_path(key) + " must be a string");
    const std::string s = v.get<std::string>();
    if (s.size() > 4096) throw InvalidArgument(at_path(key), at_path(key) + " is longer than 4096 bytes");
    return s;
  }
  int64_t integer(const char* key, int64_t lo, int64_t hi) const {
    const json& v = get(key);
    if (!v.is_number_integer()) throw InvalidArgument(at_path(key), at_path(key) + " must be an integer");
    const int64_t x = v.is_number_unsigned() && v.get<uint64_t>() > uint64_t(hi) ? hi + 1 : v.get<int64_t>();
    if (x < lo || x > hi)
      throw InvalidArgument(at_path(key),
                            at_path(key) + " = " + v.dump() + " is outside " + std::to_string(lo) + ".." + std::to_string(hi));
    return x;
  }
  double number(const char* key, double lo, double hi) const {
    const double x = json_number(get(key), at_path(key));
    if (x < lo || x > hi)
      throw InvalidArgument(at_path(key), at_path(key) + " = " + get(key).dump() + " is outside [" + json(lo).dump() + ", " +
                                              json(hi).dump() + "]");
    return x;
  }
  // An array of `size` numbers (size < 0: any length up to `max`), each in [lo, hi]; `null_as` for a null
  // entry when allowed (NaN: nulls refused).
  std::vector<double> numbers(const char* key, long size, long max, double lo, double hi,
                              double null_as = std::numeric_limits<double>::quiet_NaN()) const {
    const json& v = get(key);
    const std::string p = at_path(key);
    if (!v.is_array()) throw InvalidArgument(p, p + " must be an array of numbers");
    if (size >= 0 && long(v.size()) != size)
      throw InvalidArgument(p, p + " has " + std::to_string(v.size()) + " entries; the pairs are " + std::to_string(size));
    if (long(v.size()) > max) throw InvalidArgument(p, p + " has more than " + std::to_string(max) + " entries");
    std::vector<double> out;
    out.reserve(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
      const std::string pi = p + "[" + std::to_string(i) + "]";
      if (v[i].is_null() && !std::isnan(null_as)) {
        out.push_back(null_as);
        continue;
      }
      const double x = json_number(v[i], pi);
      if (x < lo || x > hi)
        throw InvalidArgument(pi, pi + " = " + v[i].dump() + " is outside [" + json(lo).dump() + ", " + json(hi).dump() + "]");
      out.push_back(x);
    }
    return out;
  }
  std::vector<std::string> strings(const char* key) const {
    const json& v = get(key);
    const std::string p = at_path(key);
    if (!v.is_array()) throw InvalidArgument(p, p + " must be an array of strings");
    if (v.size() > 4096) throw InvalidArgument(p, p + " has more than 4096 entries");
    std::vector<std::string> out;
    for (size_t i = 0; i < v.size(); ++i) {
      if (!v[i].is_string())
        throw InvalidArgument(p + "[" + std::to_string(i) + "]", p + "[" + std::to_string(i) + "] must be a string");
      out.push_back(v[i].get<std::string>().substr(0, 4096));
    }
    return out;
  }
  const json& array(const char* key, size_t max) const {
    const json& v = get(key);
    const std::string p = at_path(key);
    if (!v.is_array()) throw InvalidArgument(p, p + " must be an array");
    if (v.size() > max) throw InvalidArgument(p, p + " has more than " + std::to_string(max) + " entries");
    return v;
  }

 private:
  const json& j_;
  std::string path_;
};

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kMaxValue = 1e300;
constexpr long kMaxPairs = kMaxDim / 2;

UsagePairs read_pairs(const Reader& r, const char* key, std::vector<std::string>& unknown, long size = -1) {
  const Reader p(r.get(key), r.at_path(key), {"inv_freq", "wavelength", "turns", "mrope_axis"}, unknown);
  UsagePairs out;
  out.inv_freq = p.numbers("inv_freq", size, kMaxPairs, 0, kMaxValue);
  if (p.has("mrope_axis")) {
    out.mrope_axis = p.strings("mrope_axis");
    for (size_t j = 0; j < out.mrope_axis.size(); ++j)
      if (out.mrope_axis[j] != "t" && out.mrope_axis[j] != "h" && out.mrope_axis[j] != "w") {
        const std::string path = p.at_path("mrope_axis") + "[" + std::to_string(j) + "]";
        throw InvalidArgument(path, path + " = \"" + out.mrope_axis[j] + "\" is not t, h or w");
      }
    if (out.mrope_axis.size() != out.inv_freq.size())
      throw InvalidArgument(p.at_path("mrope_axis"), p.at_path("mrope_axis") + " has " + std::to_string(out.mrope_axis.size()) +
                                                         " entries; the pairs are " + std::to_string(out.inv_freq.size()));
  }
  const long n = long(out.inv_freq.size());
  // A frequency-0 pair (Gemma 4's proportional layers) never turns: its wavelength is infinite, null in JSON.
  out.wavelength = p.numbers("wavelength", n, kMaxPairs, 0, kMaxValue, kInf);
  out.turns = p.numbers("turns", n, kMaxPairs, 0, kMaxValue);
  for (long j = 0; j < n; ++j) {
    if (std::isinf(out.wavelength[size_t(j)]) != (out.inv_freq[size_t(j)] == 0)) {
      const std::string path = p.at_path("wavelength") + "[" + std::to_string(j) + "]";
      throw InvalidArgument(path, path + " is null only where inv_freq is 0 (a pair that never turns)");
    }
  }
  return out;
}

UsageHead read_head(const json& j, const std::string& path, long pairs, std::vector<std::string>& unknown) {
  const Reader r(j, path, {"head", "kv_head", "q_norm", "k_norm", "qk", "qk_share", "semantic_share", "top_pairs"}, unknown);
  UsageHead h;
  h.head = int(r.integer("head", 0, kMaxHeads - 1));
  h.kv_head = int(r.integer("kv_head", 0, kMaxHeads - 1));
  h.q_norm = r.numbers("q_norm", pairs, kMaxPairs, 0, kMaxValue);
  h.k_norm = r.numbers("k_norm", pairs, kMaxPairs, 0, kMaxValue);
  h.qk = r.numbers("qk", pairs, kMaxPairs, 0, kMaxValue);
  // A head whose q.k norms are all 0 has no shares: every qk_share and semantic_share null, nothing else.
  const json& shares = r.get("qk_share");
  const bool no_share = shares.is_array() && !shares.empty() &&
                        std::all_of(shares.begin(), shares.end(), [](const json& x) { return x.is_null(); });
  if (no_share) {
    h.qk_share.assign(size_t(pairs), std::numeric_limits<double>::quiet_NaN());
    if (long(shares.size()) != pairs) r.numbers("qk_share", pairs, kMaxPairs, 0, 1);  // names the length
    if (!r.get("semantic_share").is_null())
      throw InvalidArgument(r.at_path("semantic_share"), r.at_path("semantic_share") + " must be null where qk_share is");
    h.semantic_share = std::numeric_limits<double>::quiet_NaN();
  } else {
    h.qk_share = r.numbers("qk_share", pairs, kMaxPairs, 0, 1);
    h.semantic_share = r.number("semantic_share", 0, 1);
  }
  const std::vector<double> top = r.numbers("top_pairs", -1, kMaxPairs, 0, double(std::max<long>(pairs - 1, 0)));
  for (size_t i = 0; i < top.size(); ++i) {
    if (top[i] != std::floor(top[i])) {
      const std::string p = r.at_path("top_pairs") + "[" + std::to_string(i) + "]";
      throw InvalidArgument(p, p + " must be a pair index (an integer)");
    }
    h.top_pairs.push_back(int(top[i]));
  }
  return h;
}

}  // namespace

UsageReport read_usage_json(std::string_view text, const std::string& field) {
  if (text.size() > kMaxUsageJsonBytes)
    throw InvalidArgument(field, field + ": the JSON is " + std::to_string(text.size()) + " bytes; the limit is " +
                                     std::to_string(kMaxUsageJsonBytes >> 20) + " MiB (posenc weights --layers writes a part)");
  const json doc = parse_json_within_depth(text, 8, field, field + ": not JSON (a file written by posenc weights --json)",
                                           field + ": nested deeper than a weights report");
  UsageReport out;
  std::vector<std::string> unknown;
  // Every path below is prefixed with `field` when thrown.
  try {
    if (!doc.is_object()) throw InvalidArgument("", "the document must be an object (a report of posenc weights --json)");
    const Reader top(doc, "", {"model_type", "rotary_dim", "layout", "pairs", "layers", "read", "assumptions", "unread_keys"},
                     unknown);
    out.model_type = top.string("model_type");
    out.rotary_dim = int(top.integer("rotary_dim", 0, kMaxDim));
    out.layout = top.string("layout");
    if (out.layout != "half" && out.layout != "interleaved")
      throw InvalidArgument("layout", "layout = \"" + out.layout + "\" is not half or interleaved");
    out.pairs = read_pairs(top, "pairs", unknown);
    const long pairs = long(out.pairs.size());
    if (out.rotary_dim != 2 * pairs)
      throw InvalidArgument("pairs.inv_freq", "pairs.inv_freq has " + std::to_string(pairs) + " entries; rotary_dim " +
                                                  std::to_string(out.rotary_dim) + " rotates " +
                                                  std::to_string(out.rotary_dim / 2));
    const json& layers = top.array("layers", kMaxUsageLayers);
    for (size_t i = 0; i < layers.size(); ++i) {
      const std::string lp = "layers[" + std::to_string(i) + "]";
      const Reader l(layers[i], lp, {"layer", "position", "kind", "pairs", "heads"}, unknown);
      UsageLayer layer;
      layer.layer = int(l.integer("layer", 0, kMaxUsageLayers - 1));
      for (const UsageLayer& before : out.layers)
        if (before.layer == layer.layer)
          throw InvalidArgument(lp + ".layer", lp + ".layer = " + std::to_string(layer.layer) + " is listed twice");
      const std::string position = l.string("position");
      if (position != "rope" && position != "none")
        throw InvalidArgument(lp + ".position", lp + ".position = \"" + position + "\" is not rope or none");
      layer.rope = position == "rope";
      layer.kind = l.has("kind") ? l.string("kind") : std::string();
      if (!layer.rope) {
        // No numbers for a layer without positions: heads or pairs there would be numbers of nothing.
        for (const char* k : {"heads", "pairs"})
          if (l.has(k) && !(l.get(k).is_array() && l.get(k).empty()))
            throw InvalidArgument(lp + "." + k, lp + "." + k + ": a layer with position none carries no numbers");
        out.layers.push_back(std::move(layer));
        continue;
      }
      if (l.has("pairs")) {
        layer.own_pairs = true;
        layer.pairs = read_pairs(l, "pairs", unknown, pairs);
      } else {
        layer.pairs = out.pairs;
      }
      const json& heads = l.array("heads", size_t(kMaxHeads));
      if (heads.empty()) throw InvalidArgument(lp + ".heads", lp + ".heads is empty for a rope layer");
      for (size_t h = 0; h < heads.size(); ++h)
        layer.heads.push_back(read_head(heads[h], lp + ".heads[" + std::to_string(h) + "]", pairs, unknown));
      out.layers.push_back(std::move(layer));
    }
    if (top.has("read")) {
      const Reader r(top.get("read"), "read", {"tensors", "bytes"}, unknown);
      out.read_tensors = r.integer("tensors", 0, int64_t{1} << 40);
      out.read_bytes = r.integer("bytes", 0, int64_t{1} << 52);
    }
    if (top.has("assumptions")) {
      // {what, value, why} (posenc weights), or plain strings.
      const json& a = top.array("assumptions", 4096);
      for (size_t i = 0; i < a.size(); ++i) {
        const std::string ap = "assumptions[" + std::to_string(i) + "]";
        if (a[i].is_string()) {
          out.assumptions.push_back(a[i].get<std::string>().substr(0, 4096));
          continue;
        }
        const Reader as(a[i], ap, {"what", "value", "why"}, unknown);
        std::string said = as.string("what");
        if (as.has("value")) said += " = " + (as.get("value").is_string() ? as.string("value") : as.get("value").dump());
        if (as.has("why")) said += " (" + as.string("why") + ")";
        out.assumptions.push_back(said);
      }
    }
    if (top.has("unread_keys")) out.unread_keys = top.strings("unread_keys");
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(e.field().empty() ? field : field + "." + e.field(), field + ": " + e.what());
  }
  out.unknown_keys = std::move(unknown);
  return out;
}

}  // namespace posenc::model_io
