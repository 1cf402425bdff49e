// Real models shipped as data: each preset is a published config.json (tests/data/configs, compiled in) plus,
// for recipes the model card gives (Qwen2.5's YaRN), the rope_scaling it says to add. Sources of every
// number: tests/data/configs/SOURCES.md.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "core/config_value.h"

namespace posenc::model_io {

struct ModelPreset {
  const char* id;          // URL key model=<id>
  const char* label;       // what a menu shows
  const char* repo;        // Hugging Face repository the config comes from
  const char* file;        // tests/data/configs/<file>
  const char* overlay;     // JSON object merged over the config's top level ("" for none)
  const char* overlay_source;  // where the overlay is published ("" for none)
};

std::span<const ModelPreset> model_presets();
const ModelPreset* find_model_preset(const std::string& id);

// The preset's config (with its overlay applied). Throws InvalidArgument("model", ...) for an unknown id.
ConfigValue preset_config(const std::string& id);
// The text of one embedded config file, or nullopt.
std::optional<std::string> embedded_config_text(const std::string& file);

}  // namespace posenc::model_io
