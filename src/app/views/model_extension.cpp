#include "app/views/model_extension.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/i18n.h"
#include "app/params.h"
#include "app/probe.h"
#include "core/analysis/rope_analysis.h"

namespace posenc::app {

ExtensionPanel extension_panel(const ModelRope& rope, int64_t target) {
  ExtensionPanel p;
  p.target = target;
  p.trained = trained_length(rope.original_max_position_embeddings, rope.max_position_embeddings);
  p.factor = std::max(1.0, double(target) / double(p.trained));
  const RopeScaling& s = rope.scaling;
  p.model_long_factors = s.type == RopeScalingType::Longrope && int(s.long_factor.size()) == rope.rotary_dim / 2;
  p.recipes = context_extension_recipes(rope.rotary_dim, rope.base, p.trained, target,
                                        p.model_long_factors ? s.long_factor : std::vector<double>{});
  p.need_long_factor = pairs_below_full_turn(rope.rotary_dim, rope.base, p.trained);
  // The model as it is configured, run at T (dynamic NTK and LongRoPE evaluated at T).
  const std::vector<double> unscaled = rope_unscaled_inv_freq(rope.rotary_dim, rope.base, s);
  const std::vector<double> now = inv_freq_at_length(rope.rotary_dim, rope.base, s, target, rope.frequencies.inv_freq);
  p.pairs = int(std::min(unscaled.size(), now.size()));
  for (int k = 0; k < p.pairs; ++k) switch (classify_pair(unscaled[size_t(k)], now[size_t(k)], p.trained, target)) {
      case PairCoverage::FullTurn: ++p.now_full_turn; break;
      case PairCoverage::Interpolated: ++p.now_interpolated; break;
      case PairCoverage::Extrapolated: ++p.now_extrapolated; break;
    }
  p.now_type = rope_type_name(s.type);
  return p;
}

// Drawn only: in the interface's language, each line one template (its first {N} the recipe's head).
std::vector<std::pair<std::string, std::string>> extension_lines(const ExtensionPanel& p) {
  std::vector<std::pair<std::string, std::string>> out;
  const std::string pairs = std::to_string(p.pairs), target = std::to_string(p.target);
  out.push_back({"configured", trf("as configured ({0}): {1} of {2} pairs extrapolate at {3}",
                                   {p.now_type, std::to_string(p.now_extrapolated), pairs, target})});
  const std::string f = format_number(p.factor);
  for (const ExtensionRecipe& r : p.recipes) {
    const std::string name = rope_type_name(r.scaling.type);
    std::string head;
    if (r.scaling.type == RopeScalingType::None) {
      head = trf("unscaled RoPE (no rope_scaling), max_position_embeddings {0}", {std::to_string(r.max_position_embeddings)});
    } else {
      head = name + ": rope_scaling {\"rope_type\": \"" + name + "\", \"factor\": " + f;
      if (r.sets_original)
        head += ", \"original_max_position_embeddings\": " + std::to_string(r.scaling.original_max_position_embeddings);
      if (r.scaling.type == RopeScalingType::Llama3) head += ", \"low_freq_factor\": 1, \"high_freq_factor\": 4";
      if (r.scaling.type == RopeScalingType::Longrope) head += ", \"short_factor\": [...], \"long_factor\": [...]";
      head += "}, max_position_embeddings " + std::to_string(r.max_position_embeddings);
      if (r.scaling.type == RopeScalingType::Dynamic) head += tr(" (dynamic NTK reads the trained length there)");
    }
    std::string line;
    if (r.counted) {
      std::string tail;
      if (r.attention_scaling != 1.0) {
        char mag[32];
        std::snprintf(mag, sizeof mag, "%.4g", r.attention_scaling);
        tail += trf(", cos/sin x {0}", {mag});
      }
      if (r.scaling.type == RopeScalingType::Longrope) tail += tr(" with the model's own long_factor");
      line = trf("{0}: {1} of {2} pairs extrapolate at {3} ({4} kept, {5} divided by f, {6} blended){7}",
                 {head, std::to_string(r.extrapolated), pairs, target, std::to_string(r.kept), std::to_string(r.divided),
                  std::to_string(r.blended), tail});
    } else {
      line =
          trf("{0}: the factors come from a per-model search; a pair stays within the trained angles at {1} iff its "
              "long_factor >= f = {2} ({3} of {4} pairs need it)",
              {head, target, f, std::to_string(p.need_long_factor), pairs});
    }
    out.push_back({name, line});
  }
  return out;
}

void draw_extension_panel(const ExtensionPanel& p) {
  ImGui::TextWrapped(tr("Context extension to %lld from the trained length %lld: f = T / L = %s"), (long long)p.target,
                     (long long)p.trained, format_number(p.factor).c_str());
  probe_last_item("text.extension");
  ImGui::Indent();
  for (const auto& [name, line] : extension_lines(p)) {
    ImGui::TextWrapped("%s", line.c_str());
    probe_last_item(("text.extension." + name).c_str());
  }
  ImGui::Unindent();
}

}  // namespace posenc::app
