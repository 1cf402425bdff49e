// JSON reading shared by the CLI and model_io: a parse bounded in depth and a finite number, each error
// naming the field it reads.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace posenc::model_io {

// `text` parsed, nesting deeper than `max_depth` refused while parsing (a deep document is never built).
// Throws InvalidArgument(field, malformed) for text that is not JSON, else InvalidArgument(field, too_deep)
// for one nested too deep.
nlohmann::json parse_json_within_depth(std::string_view text, int max_depth, const std::string& field,
                                       const std::string& malformed, const std::string& too_deep);

// j as a finite number; else InvalidArgument(field, "<field> must be a number" / "<field> must be finite").
double json_number(const nlohmann::json& j, const std::string& field);

}  // namespace posenc::model_io
