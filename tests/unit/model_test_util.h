// Helpers of the model tests (model_view_test, model_link_test): a preset's config.json as published and the
// CLI's `model` op on a config, both read independently of the views under test.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

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

}  // namespace posenc::test
