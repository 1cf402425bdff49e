// JSON <-> the core's ConfigValue, and the `model` response as JSON: shared by the CLI (eval, inspect) and
// the explorer. Depends on nlohmann-json (header-only, Debian) and the core; no UI, no IO.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string_view>

#include "core/models/config_value.h"
#include "core/analysis/model_compare.h"
#include "core/models/model_config.h"

namespace posenc::model_io {

// Largest config.json accepted (real ones are < 100 KB; the check runs before parsing).
inline constexpr std::size_t kMaxConfigBytes = std::size_t{8} << 20;

// Converts parsed JSON. Non-finite numbers cannot occur in JSON text; nesting deeper than 64 levels throws
// InvalidArgument naming `path`.
ConfigValue config_from_json(const nlohmann::json& j, const std::string& path = "");

// Parses config.json text (size checked first; malformed JSON is an InvalidArgument with field "").
ConfigValue parse_config_text(std::string_view text);

// The `model` response: model_type, position, head_dim, num_attention_heads and the scheme's fields.
// Non-finite numbers throw InvalidArgument (they never reach output).
nlohmann::ordered_json model_position_json(const ModelPosition& m);

// Two models' differences: [{"what", "a", "b", "assumed"?}], a and b numbers where the value is one, else strings;
// "assumed": ["a"|"b", ...] when a side's value is one posenc assumed.
nlohmann::ordered_json differences_json(const std::vector<ModelDifference>& d);

}  // namespace posenc::model_io
