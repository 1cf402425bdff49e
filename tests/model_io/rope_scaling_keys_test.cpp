// The one table of the keys each RoPE scaling type takes (kRopeScalingKeys in core/encodings/rope.h), held
// against its readers for every type: posenc's request reader (model_io/rope_fields: eval's and check's
// "scaling") takes exactly the type's keys and refuses any other naming it (the factor and the original length
// excepted: accepted on every type, as docs/cli.md says); the config reader (read_hf_config,
// transformers' rope_scaling) reads exactly the type's config keys and names any other in unread_keys; check's
// JSON writes no key the type does not take.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/analysis/rope_check.h"
#include "core/encodings/rope.h"
#include "core/models/model_config.h"
#include "model_io/check_json.h"
#include "model_io/config_json.h"
#include "model_io/json_fields.h"
#include "model_io/rope_fields.h"

using namespace posenc;
using nlohmann::json;

namespace {

constexpr int kDim = 8;  // head_dim of the configs below: longrope's factors have kDim / 2 entries

// A value each key accepts for any type that takes it.
json value_of(const std::string& key) {
  if (key == "original_max_position_embeddings") return 2048;
  if (key == "seq_len") return 4096;
  if (key == "truncate") return true;
  if (key == "short_factor" || key == "long_factor") return json::array({1.0, 1.5, 2.0, 4.0});
  if (key == "partial_rotary_factor") return 0.5;
  if (key == "beta_fast") return 32.0;
  if (key == "low_freq_factor") return 1.0;
  if (key == "high_freq_factor") return 4.0;
  return 2.0;  // factor, beta_slow, attention_factor, mscale, mscale_all_dim
}

std::vector<RopeScalingType> every_type() {
  std::vector<RopeScalingType> out;
  for (size_t i = 0; i < names_of<RopeScalingType>().size(); ++i) out.push_back(static_cast<RopeScalingType>(i));
  return out;
}

bool in(const std::vector<const char*>& keys, const char* key) {
  return std::any_of(keys.begin(), keys.end(), [&](const char* k) { return std::string(k) == key; });
}

// The request's "scaling" object of `type` with all its keys, plus `extra` when given.
json request_scaling(RopeScalingType type, const char* extra = nullptr) {
  json s = {{"type", rope_scaling_type_name(type)}};
  for (const char* k : rope_scaling_keys(type)) s[k] = value_of(k);
  if (extra) s[extra] = value_of(extra);
  return s;
}

RopeScaling read_request(const json& scaling) {
  const json parent = {{"scaling", scaling}};
  const model_io::Fields f(parent, "", {"scaling"});
  return model_io::read_scaling(f, "scaling");
}

// A llama config whose rope_scaling is `type` (transformers' rope_type) with all its config keys, plus `extra`.
json hf_config(RopeScalingType type, const char* extra = nullptr) {
  json rs = {{"rope_type", rope_type_name(type)}};
  for (const char* k : rope_scaling_keys(type))
    if (rope_scaling_key(k)->config) rs[k] = value_of(k);
  if (extra) rs[extra] = value_of(extra);
  return {{"model_type", "llama"},           {"hidden_size", 2 * kDim}, {"num_attention_heads", 2},
          {"max_position_embeddings", 8192}, {"rope_theta", 10000.0},   {"rope_scaling", rs}};
}

bool is_unread(const ModelPosition& m, const std::string& key) {
  return std::find(m.unread_keys.begin(), m.unread_keys.end(), key) != m.unread_keys.end();
}

}  // namespace

TEST(RopeScalingKeys, TheTableNamesEachKeyOnceAndEveryTypeTakesItsNeeds) {
  for (size_t i = 0; i < std::size(kRopeScalingKeys); ++i) {
    const RopeScalingKey& k = kRopeScalingKeys[i];
    EXPECT_EQ(rope_scaling_key(k.name), &k) << k.name;
    EXPECT_EQ(k.needs & ~k.takes, 0u) << k.name << " is needed by a type that does not take it";
  }
  EXPECT_EQ(rope_scaling_key("type"), nullptr);
  EXPECT_FALSE(rope_scaling_takes(RopeScalingType::Yarn, "rope_theta"));
  // Reference points (transformers modeling_rope_utils.py _compute_*_parameters @ef468064): YaRN's betas,
  // Llama 3's band factors, LongRoPE's factor lists.
  EXPECT_TRUE(rope_scaling_takes(RopeScalingType::Yarn, "beta_fast"));
  EXPECT_FALSE(rope_scaling_takes(RopeScalingType::Linear, "beta_fast"));
  EXPECT_TRUE(rope_scaling_takes(RopeScalingType::Llama3, "high_freq_factor"));
  EXPECT_TRUE(rope_scaling_takes(RopeScalingType::Longrope, "long_factor"));
  EXPECT_FALSE(rope_scaling_takes(RopeScalingType::None, "factor"));
}

TEST(RopeScalingKeys, TheRequestReaderTakesExactlyEachTypesKeys) {
  for (RopeScalingType type : every_type()) {
    const std::string name = rope_scaling_type_name(type);
    const std::vector<const char*> keys = rope_scaling_keys(type);
    EXPECT_NO_THROW(read_request(request_scaling(type))) << name;
    // A needed key left out is named.
    for (const char* k : keys) {
      if (!(rope_scaling_key(k)->needs & rope_scaling_bits({type}))) continue;
      json s = request_scaling(type);
      s.erase(k);
      try {
        read_request(s);
        ADD_FAILURE() << name << " without " << k << " was read";
      } catch (const InvalidArgument& e) { EXPECT_EQ(e.field(), std::string("scaling.") + k) << name; }
    }
    // Every key of another type is refused, naming it; the factor and the original length are accepted on
    // every type (docs/cli.md, "Types and strictness").
    for (const RopeScalingKey& other : kRopeScalingKeys) {
      if (in(keys, other.name)) continue;
      const std::string key = other.name;
      if (key == "factor" || key == "original_max_position_embeddings") {
        EXPECT_NO_THROW(read_request(request_scaling(type, other.name))) << name << " " << key;
        continue;
      }
      try {
        read_request(request_scaling(type, other.name));
        ADD_FAILURE() << name << " read " << other.name;
      } catch (const InvalidArgument& e) { EXPECT_EQ(e.field(), std::string("scaling.") + other.name) << name; }
    }
  }
}

TEST(RopeScalingKeys, TheConfigReaderReadsExactlyEachTypesKeysAndNamesTheOthers) {
  for (RopeScalingType type : every_type()) {
    const std::string name = rope_type_name(type);
    if (type == RopeScalingType::Ntk) {
      // transformers has no "ntk" rope_type (static NTK is posenc's own): the reader refuses it, naming the key.
      try {
        read_hf_config(model_io::config_from_json(hf_config(type)));
        ADD_FAILURE() << "rope_type ntk was read";
      } catch (const InvalidArgument& e) { EXPECT_EQ(e.field(), "rope_scaling.rope_type"); }
      continue;
    }
    const ModelPosition m = read_hf_config(model_io::config_from_json(hf_config(type)));
    ASSERT_TRUE(m.rope) << name;
    EXPECT_EQ(m.rope->scaling.type, type) << name;
    for (const char* k : rope_scaling_keys(type))
      if (rope_scaling_key(k)->config) { EXPECT_FALSE(is_unread(m, std::string("rope_scaling.") + k)) << name << " left " << k; }
    for (const RopeScalingKey& other : kRopeScalingKeys) {
      // partial_rotary_factor is also the rotary fraction of every type in v5 rope_parameters (read_rotary_dim).
      if (rope_scaling_takes(type, other.name) || std::string(other.name) == "partial_rotary_factor") continue;
      const ModelPosition with = read_hf_config(model_io::config_from_json(hf_config(type, other.name)));
      EXPECT_TRUE(is_unread(with, std::string("rope_scaling.") + other.name)) << name << " did not name " << other.name;
    }
  }
}

TEST(RopeScalingKeys, ChecksJsonWritesOnlyTheTypesKeys) {
  for (RopeScalingType type : every_type()) {
    RopeCheckReference r;
    r.dim = kDim;
    r.scaling = read_request(request_scaling(type));
    const json j = model_io::check_reference_json(r);
    if (type == RopeScalingType::None) {
      EXPECT_FALSE(j.contains("scaling"));
      continue;
    }
    ASSERT_TRUE(j.contains("scaling")) << rope_scaling_type_name(type);
    for (const auto& [key, value] : j["scaling"].items())
      if (key != "type") { EXPECT_TRUE(rope_scaling_takes(type, key)) << rope_scaling_type_name(type) << " wrote " << key; }
    // What it writes reads back as the same scaling.
    const RopeScaling back = read_request(j["scaling"]);
    EXPECT_EQ(back.type, type);
    EXPECT_EQ(back.factor, r.scaling.factor);
  }
}
