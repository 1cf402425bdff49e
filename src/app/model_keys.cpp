#include "app/model_keys.h"

#include <algorithm>
#include <iterator>
#include <string_view>

namespace posenc::app {

void RopeExtraKeys::declare(ParamList& p) {
  p.real("beta_fast", beta_fast, 0.0, 1024.0, {.label = "YaRN beta_fast", .format = "beta_fast = %.6g"});
  p.real("beta_slow", beta_slow, 0.0, 1024.0, {.label = "YaRN beta_slow", .format = "beta_slow = %.6g"});
  p.flag("truncate", truncate, {.label = "YaRN truncate (floor/ceil the correction range)"});
  // Not YaRN's alone: LongRoPE's cos/sin magnitude too (the Model view).
  p.real("attention_factor", attention_factor, 0.0, 100.0,
         {.label = "attention_factor (0 = derived)", .format = "%.6g", .help = "cos/sin magnitude; 0 = derived"});
  p.real("mscale", mscale, 0.0, 100.0, {.label = "YaRN mscale (0 = unset)", .format = "mscale = %.6g"});
  p.real("mscale_all_dim", mscale_all_dim, 0.0, 100.0,
         {.label = "YaRN mscale_all_dim (0 = unset)", .format = "mscale_all_dim = %.6g"});
  p.real("low_freq_factor", low_freq_factor, 0.0, 1024.0, {.label = "Llama 3 low_freq_factor", .format = "%.6g"});
  p.real("high_freq_factor", high_freq_factor, 0.0, 1024.0, {.label = "Llama 3 high_freq_factor", .format = "%.6g"});
}

void RopeExtraKeys::apply(RopeScaling& s) const {
  s.beta_fast = beta_fast;
  s.beta_slow = beta_slow;
  s.truncate = truncate;
  s.attention_factor.reset();
  s.mscale.reset();
  s.mscale_all_dim.reset();
  if (attention_factor > 0) s.attention_factor = attention_factor;
  if (mscale > 0) s.mscale = mscale;
  if (mscale_all_dim > 0) s.mscale_all_dim = mscale_all_dim;
  s.low_freq_factor = low_freq_factor;
  s.high_freq_factor = high_freq_factor;
}

std::vector<const char*> RopeExtraKeys::keys_of(RopeScalingType type) {
  static constexpr const char* kHeld[] = {"beta_fast", "beta_slow",      "truncate",        "attention_factor",
                                          "mscale",    "mscale_all_dim", "low_freq_factor", "high_freq_factor"};
  std::vector<const char*> out;
  for (const char* k : rope_scaling_keys(type))
    if (std::any_of(std::begin(kHeld), std::end(kHeld), [&](const char* h) { return std::string_view(h) == k; }))
      out.push_back(k);
  return out;
}

void RopeExtraKeys::fill(const RopeScaling& s, std::vector<std::string>& filled) {
  for (const char* k : keys_of(s.type)) {
    const std::string_view key = k;
    if (key == "beta_fast") beta_fast = std::clamp(s.beta_fast, 0.0, 1024.0);
    else if (key == "beta_slow") beta_slow = std::clamp(s.beta_slow, 0.0, 1024.0);
    else if (key == "truncate") truncate = s.truncate;
    else if (key == "attention_factor") attention_factor = std::clamp(s.attention_factor.value_or(0.0), 0.0, 100.0);
    else if (key == "mscale") mscale = std::clamp(s.mscale.value_or(0.0), 0.0, 100.0);
    else if (key == "mscale_all_dim") mscale_all_dim = std::clamp(s.mscale_all_dim.value_or(0.0), 0.0, 100.0);
    else if (key == "low_freq_factor") low_freq_factor = std::clamp(s.low_freq_factor, 0.0, 1024.0);
    else if (key == "high_freq_factor") high_freq_factor = std::clamp(s.high_freq_factor, 0.0, 1024.0);
    filled.push_back(k);
  }
}

}  // namespace posenc::app
