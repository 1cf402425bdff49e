#include "presets.h"

#include <stdexcept>
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
