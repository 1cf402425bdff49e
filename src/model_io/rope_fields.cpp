#include "model_io/rope_fields.h"

#include <string>

#include "core/names.h"

namespace posenc::model_io {

RopeScaling read_scaling(const Fields& parent, const char* key) {
  RopeScaling s;
  if (!parent.has(key)) return s;
  const Fields f = parent.object(key, {"type", "factor", "original_max_position_embeddings", "seq_len", "beta_fast", "beta_slow",
                                       "low_freq_factor", "high_freq_factor", "attention_factor", "mscale", "mscale_all_dim",
                                       "truncate", "short_factor", "long_factor", "partial_rotary_factor"});
  const std::string type = f.string("type");
  const auto t = rope_scaling_type_from_name(type);
  if (!t) {
    std::string names;
    for (const char* name : names_of<RopeScalingType>()) names += (names.empty() ? "" : ", ") + std::string(name);
    throw InvalidArgument(f.path("type"), f.path("type") + " must be one of " + names);
  }
  s.type = *t;
  const std::string what = "a '" + type + "' scaling";
  const bool yarn = s.type == RopeScalingType::Yarn, longrope = s.type == RopeScalingType::Longrope;
  if (s.type != RopeScalingType::Dynamic && !longrope) f.forbid("seq_len", what);
  if (!yarn) {
    for (const char* k : {"beta_fast", "beta_slow", "mscale", "mscale_all_dim", "truncate"}) f.forbid(k, what);
  }
  if (!yarn && !longrope) f.forbid("attention_factor", what);
  if (!longrope) {
    f.forbid("short_factor", what);
    f.forbid("long_factor", what);
  }
  if (s.type != RopeScalingType::Llama3) {
    f.forbid("low_freq_factor", what);
    f.forbid("high_freq_factor", what);
  }
  if (s.type != RopeScalingType::Proportional) f.forbid("partial_rotary_factor", what);
  if (s.type == RopeScalingType::Proportional) {
    // Gemma 4 p-RoPE: factor defaults to 1 (rope_parameters.get("factor", 1.0)).
    s.factor = f.opt_number("factor").value_or(1.0);
    s.partial_rotary_factor = f.opt_number("partial_rotary_factor").value_or(1.0);
    return s;
  }
  // factor and original_max_position_embeddings are common to every type; read (and type-check) them
  // when present, require them where the type uses them (longrope's factor defaults to 1).
  const bool needs_factor = s.type != RopeScalingType::None && !longrope;
  const bool needs_length = s.type == RopeScalingType::Dynamic || yarn || longrope || s.type == RopeScalingType::Llama3;
  if (needs_factor || f.has("factor")) s.factor = f.number("factor");
  if (needs_length || f.has("original_max_position_embeddings"))
    s.original_max_position_embeddings = f.integer("original_max_position_embeddings");
  if (s.type == RopeScalingType::Dynamic || longrope) s.seq_len = f.opt_integer("seq_len");
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
