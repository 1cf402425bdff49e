#include "presets.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "config_json.h"
#include "core/types.h"
#include "posenc_model_configs.h"

namespace posenc::model_io {
namespace {

// The preset list (tests/data/configs/presets.json, compiled in with the configs), read once.
std::vector<ModelPreset> read_presets() {
  const auto text = embedded_config_text("presets.json");
  if (!text) throw std::logic_error("presets.json is not compiled in");
  const ConfigValue list = parse_config_text(*text);
  const auto field = [](const ConfigValue& entry, const char* key) {
    const ConfigValue* v = entry.find(key);
    return v && v->is_string() ? v->as_string() : std::string();
  };
  std::vector<ModelPreset> out;
  for (const ConfigValue& entry : list.as_array()) {
    ModelPreset p{field(entry, "id"),
                  field(entry, "label"),
                  field(entry, "repo"),
                  field(entry, "file"),
                  {},
                  field(entry, "overlay_source")};
    if (const ConfigValue* overlay = entry.find("overlay")) p.overlay = *overlay;
    out.push_back(std::move(p));
  }
  return out;
}

const std::vector<ModelPreset>& presets() {
  static const std::vector<ModelPreset> list = read_presets();
  return list;
}

}  // namespace

std::span<const ModelPreset> model_presets() { return presets(); }

const ModelPreset* find_model_preset(const std::string& id) {
  for (const ModelPreset& p : presets())
    if (id == p.id) return &p;
  return nullptr;
}

namespace {

std::string lower_prefix(const std::string& s) {
  std::string out = s.substr(0, kNearestPresetChars);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}
// The family an id names: its leading letters (qwen of qwen2.5-7b, gpt of gpt2 and gpt-j-6b).
std::string id_family(const std::string& id) {
  size_t n = 0;
  while (n < id.size() && std::isalpha(static_cast<unsigned char>(id[n]))) ++n;
  return id.substr(0, n);
}
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::vector<std::string> nearest_model_presets(const std::string& id, size_t count) {
  const std::string typed = lower_prefix(id), family = id_family(typed);
  struct Candidate {
    bool other_family;
    size_t distance;
    std::string id;
  };
  std::vector<Candidate> near;
  for (const ModelPreset& p : presets()) {
    const bool same = !family.empty() && id_family(p.id) == family;
    const size_t d = edit_distance(typed, lower_prefix(p.id));
    if (same || 3 * d <= std::max(typed.size(), size_t(3))) near.push_back({!same, d, p.id});
  }
  std::sort(near.begin(), near.end(), [](const Candidate& a, const Candidate& b) {
    return std::tie(a.other_family, a.distance, a.id) < std::tie(b.other_family, b.distance, b.id);
  });
  std::vector<std::string> out;
  for (size_t k = 0; k < near.size() && k < count; ++k) out.push_back(near[k].id);
  return out;
}

std::optional<std::string> embedded_config_text(const std::string& file) {
  for (const auto& f : embedded::kConfigFiles)
    if (file == f.name) return std::string(f.text);
  return std::nullopt;
}

ConfigValue preset_config(const std::string& id) {
  const ModelPreset* p = find_model_preset(id);
  if (!p) {
    std::string names;
    for (const ModelPreset& q : presets()) names += (names.empty() ? "" : ", ") + q.id;
    throw InvalidArgument("model", "unknown model preset '" + id + "' (one of " + names + ")");
  }
  const auto text = embedded_config_text(p->file);
  if (!text) throw InvalidArgument("model", "preset file " + p->file + " is not compiled in");
  ConfigValue config = parse_config_text(*text);
  if (p->overlay.is_object())
    for (const auto& [k, v] : p->overlay.as_object()) config.set(k, v);
  return config;
}

}  // namespace posenc::model_io
