#include "model_io/rope_fields.h"

#include <string>
#include <string_view>
#include <vector>

#include "core/names.h"

namespace posenc::model_io {
namespace {

bool accepted_on_every_type(std::string_view key) { return key == "factor" || key == "original_max_position_embeddings"; }

}  // namespace

RopeScaling read_scaling(const Fields& parent, const char* key) {
  RopeScaling s;
  if (!parent.has(key)) return s;
  static const std::vector<const char*> allowed = [] {
    std::vector<const char*> keys = {"type"};
    for (const RopeScalingKey& k : kRopeScalingKeys) keys.push_back(k.name);
    return keys;
  }();
  const Fields f = parent.object(key, allowed);
  const std::string type = f.string("type");
  const auto t = rope_scaling_type_from_name(type);
  if (!t) {
    std::string names;
    for (const char* name : names_of<RopeScalingType>()) names += (names.empty() ? "" : ", ") + std::string(name);
    throw InvalidArgument(f.path("type"), f.path("type") + " must be one of " + names);
  }
  s.type = *t;
  // A key only other types take is refused (kRopeScalingKeys says which type takes which). The factor and the
  // original length are accepted, and validated, on every type (docs/cli.md, "Types and strictness").
  const std::string what = "a '" + type + "' scaling";
  for (const RopeScalingKey& k : kRopeScalingKeys)
    if (!rope_scaling_takes(s.type, k.name) && !accepted_on_every_type(k.name)) f.forbid(k.name, what);
  const bool yarn = s.type == RopeScalingType::Yarn, longrope = s.type == RopeScalingType::Longrope;
  if (s.type == RopeScalingType::Proportional) {
    // Gemma 4 p-RoPE: factor defaults to 1 (rope_parameters.get("factor", 1.0)).
    s.factor = f.opt_number("factor").value_or(1.0);
    s.partial_rotary_factor = f.opt_number("partial_rotary_factor").value_or(1.0);
    return s;
  }
  // factor and original_max_position_embeddings: read (and type-checked) when present, required where the
  // table says the type needs them (longrope's factor defaults to 1).
  auto needs = [&](const char* name) { return (rope_scaling_key(name)->needs & rope_scaling_bits({s.type})) != 0; };
  if (needs("factor") || f.has("factor")) s.factor = f.number("factor");
  if (needs("original_max_position_embeddings") || f.has("original_max_position_embeddings"))
    s.original_max_position_embeddings = f.integer("original_max_position_embeddings");
  if (rope_scaling_takes(s.type, "seq_len")) s.seq_len = f.opt_integer("seq_len");
  if (yarn) {
    s.beta_fast = f.opt_number("beta_fast").value_or(32.0);
    s.beta_slow = f.opt_number("beta_slow").value_or(1.0);
    s.mscale = f.opt_number("mscale");
    s.mscale_all_dim = f.opt_number("mscale_all_dim");
    if (f.has("truncate")) s.truncate = f.boolean("truncate");
  }
  if (yarn || longrope) s.attention_factor = f.opt_number("attention_factor");
  if (longrope) {
    s.short_factor = f.number_array("short_factor");
    s.long_factor = f.number_array("long_factor");
  }
  if (s.type == RopeScalingType::Llama3) {
    s.low_freq_factor = f.number("low_freq_factor");
    s.high_freq_factor = f.number("high_freq_factor");
  }
  return s;
}

RopeLayout read_layout(const Fields& f) {
  if (auto layout = from_name<RopeLayout>(f.string("layout"))) return *layout;
  throw InvalidArgument(f.path("layout"), f.path("layout") + " must be \"half\" or \"interleaved\"");
}

}  // namespace posenc::model_io
