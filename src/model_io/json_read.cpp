#include "model_io/json_read.h"

#include <cmath>

#include "core/types.h"

namespace posenc::model_io {

nlohmann::json parse_json_within_depth(std::string_view text, int max_depth, const std::string& field,
                                       const std::string& malformed, const std::string& too_deep) {
  bool deep = false;
  const auto cb = [&](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
    if (depth > max_depth) deep = true;
    return !deep;
  };
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text.begin(), text.end(), cb, /*allow_exceptions=*/true);
  } catch (const nlohmann::json::exception&) { throw InvalidArgument(field, malformed); }
  if (deep) throw InvalidArgument(field, too_deep);
  return j;
}

double json_number(const nlohmann::json& j, const std::string& field) {
  // nlohmann rejects NaN/Infinity literals and overflowing literals at parse time; checked anyway.
  if (!j.is_number()) throw InvalidArgument(field, field + " must be a number");
  const double v = j.get<double>();
  if (!std::isfinite(v)) throw InvalidArgument(field, field + " must be finite");
  return v;
}

}  // namespace posenc::model_io
