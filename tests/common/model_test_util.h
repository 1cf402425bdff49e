// Helpers of the model tests (model_view_test, model_link_test): a preset's config.json as published and the
// CLI's `model` op on a config, both read independently of the views under test, and the views' export.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/app.h"
#include "app/export.h"
#include "cli/eval.h"
#include "model_io/presets.h"

namespace posenc::test {

// The preset's config.json as published, with its overlay (tests/data/configs/presets.json) merged at the
// top level, as preset_config does; read here with nlohmann, not through the preset reader.
inline nlohmann::json preset_json(const std::string& id) {
  using nlohmann::json;
  const auto* p = model_io::find_model_preset(id);
  EXPECT_NE(p, nullptr) << id;
  if (!p) return json::object();
  json config = json::parse(*model_io::embedded_config_text(p->file));
  for (const json& entry : json::parse(*model_io::embedded_config_text("presets.json")))
    if (entry["id"] == id && entry.contains("overlay"))
      for (const auto& [k, v] : entry["overlay"].items()) config[k] = v;
  return config;
}

// The `model` op's response for a config (no error expected).
inline nlohmann::json model_op(const nlohmann::json& config) {
  using nlohmann::json;
  const json r = json::parse(cli::evaluate_request(json{{"op", "model"}, {"config", config}}.dump()));
  EXPECT_FALSE(r.contains("error")) << r.dump();
  return r;
}

// The app's export (the double numbers behind the current view's picture) as JSON.
inline nlohmann::json export_of(app::App& app) { return nlohmann::json::parse(app::export_json(app.export_data())); }

// The keys of the notices the app shows, in order.
inline std::vector<std::string> notice_keys(app::App& app) {
  std::vector<std::string> keys;
  for (const auto& n : app.notice_list()) keys.push_back(n.key);
  return keys;
}

// The exported table whose name starts with `prefix`.
inline const nlohmann::json& table(const nlohmann::json& exported, const std::string& prefix) {
  for (const nlohmann::json& t : exported["tables"])
    if (t["name"].get<std::string>().rfind(prefix, 0) == 0) return t;
  ADD_FAILURE() << "no table " << prefix << " in " << exported.dump().substr(0, 400);
  static const nlohmann::json none = nlohmann::json::object();
  return none;
}

// A table's cell by row and column name; null (an undefined value) reads as NaN.
inline double cell(const nlohmann::json& t, int row, const std::string& column) {
  const auto& cols = t["columns"];
  for (size_t c = 0; c < cols.size(); ++c)
    if (cols[c] == column) return t["rows"][row][c].is_null() ? NAN : t["rows"][row][c].get<double>();
  ADD_FAILURE() << "no column " << column << " in " << t["name"];
  return NAN;
}

}  // namespace posenc::test
