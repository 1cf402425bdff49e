#include "core/analysis/context_extension.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/analysis/rope_analysis.h"
#include "core/bounds.h"
#include "core/types.h"

namespace posenc {

namespace {

void require_length(int64_t length, const char* field) {
  require(length >= 1 && length <= kMaxLength, field, std::string(field) + " must be an integer in [1, 2^30]");
}

}  // namespace

int pairs_below_full_turn(int rotary_dim, double base, int64_t trained_length) {
  require_length(trained_length, "trained_length");
  int n = 0;
  for (double w : rope_default_inv_freq(rotary_dim, base))
    if (double(trained_length) * w < 2.0 * std::numbers::pi) ++n;
  return n;
}

std::vector<ExtensionRecipe> context_extension_recipes(int rotary_dim, double base, int64_t trained_length, int64_t target_length,
                                                       const std::vector<double>& longrope_long_factor) {
  require_length(trained_length, "trained_length");
  require_length(target_length, "target_length");
  const std::vector<double> unscaled = rope_default_inv_freq(rotary_dim, base);
  const double f = std::max(1.0, double(target_length) / double(trained_length));
  std::vector<ExtensionRecipe> out;
  auto add = [&](RopeScaling s, int64_t max_len, bool sets_original, bool counted) {
    ExtensionRecipe r;
    r.max_position_embeddings = max_len;
    r.sets_original = sets_original;
    r.counted = counted;
    if (counted) {
      const RopeFrequencies fr = rope_frequencies(rotary_dim, base, s);
      r.attention_scaling = fr.attention_scaling;
      // The frequencies in force at T (dynamic NTK and LongRoPE depend on the running length).
      const std::vector<double> at = inv_freq_at_length(rotary_dim, base, s, target_length, fr.inv_freq);
      for (size_t k = 0; k < unscaled.size(); ++k) switch (classify_pair(unscaled[k], at[k], trained_length, target_length)) {
          case PairCoverage::FullTurn: ++r.full_turn; break;
          case PairCoverage::Interpolated: ++r.interpolated; break;
          case PairCoverage::Extrapolated: ++r.extrapolated; break;
        }
      const double fs = s.type == RopeScalingType::None ? 1.0 : s.factor;
      for (size_t k = 0; k < unscaled.size(); ++k) {
        const double w = unscaled[k], x = at[k];
        if (std::abs(x - w) <= 1e-12 * w) ++r.kept;
        else if (std::abs(x - w / fs) <= 1e-12 * w / fs) ++r.divided;
        else ++r.blended;
      }
    }
    r.scaling = std::move(s);
    out.push_back(std::move(r));
  };
  RopeScaling s;
  s.factor = f;
  s.original_max_position_embeddings = trained_length;

  add(RopeScaling{}, target_length, false, true);  // unscaled: what running at T without a change does

  s.type = RopeScalingType::Linear;
  add(s, target_length, false, true);

  // transformers' dynamic NTK takes L from max_position_embeddings: it must stay the trained length.
  s.type = RopeScalingType::Dynamic;
  add(s, trained_length, false, true);

  s.type = RopeScalingType::Yarn;
  add(s, target_length, true, true);

  s.type = RopeScalingType::Llama3;
  s.low_freq_factor = 1.0;
  s.high_freq_factor = 4.0;
  add(s, target_length, true, true);

  RopeScaling lr;
  lr.type = RopeScalingType::Longrope;
  lr.factor = f;
  lr.original_max_position_embeddings = trained_length;
  const bool have = static_cast<int>(longrope_long_factor.size()) == rotary_dim / 2;
  if (have) {
    lr.long_factor = longrope_long_factor;
    // Only the long factors matter past L; the short ones are those below L (any valid list).
    lr.short_factor.assign(longrope_long_factor.size(), 1.0);
  }
  add(lr, target_length, true, have);
  return out;
}

}  // namespace posenc
