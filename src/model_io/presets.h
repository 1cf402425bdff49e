// Real models shipped as data: each preset is a published config.json (tests/data/configs, compiled in) plus,
// for recipes the model card gives (Qwen2.5's YaRN), the rope_scaling it says to add. The list itself is
// data too (tests/data/configs/presets.json). Sources of every number: tests/data/configs/SOURCES.md.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/models/config_value.h"

namespace posenc::model_io {

struct ModelPreset {
  std::string id;              // URL key model=<id>
  std::string label;           // what a menu shows
  std::string repo;            // Hugging Face repository the config comes from
  std::string file;            // tests/data/configs/<file>
  ConfigValue overlay;         // object merged over the config's top level (null for none)
  std::string overlay_source;  // where the overlay is published ("" for none)
};

std::span<const ModelPreset> model_presets();
const ModelPreset* find_model_preset(const std::string& id);

// Up to `count` preset ids nearest to an id that is not one (a mistyped model=): the presets of its
// family first (the id's leading letters: "llama" of llama-3.1-9b), then any other within a third of its
// length in edits; each group by edit distance (Levenshtein, on the first kNearestPresetChars characters,
// lower-case), then by id. Empty when nothing is near.
inline constexpr size_t kNearestPresetChars = 64;
std::vector<std::string> nearest_model_presets(const std::string& id, size_t count = 3);

// The preset's config (with its overlay applied). Throws InvalidArgument("model", ...) for an unknown id.
ConfigValue preset_config(const std::string& id);
// The text of one embedded config file, or nullopt.
std::optional<std::string> embedded_config_text(const std::string& file);

}  // namespace posenc::model_io
