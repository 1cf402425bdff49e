// What the Model view computes for one model, without ImGui or GL: the per-layer-type RoPE panels (pair
// classes at the lengths the card names, LongRoPE's two factor sets), M-RoPE's example, the context extension,
// and the export tables. The view draws them; `posenc export` and the tests read them headless. A compared
// second model is one more of the same.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/export.h"
#include "app/views/model_extension.h"
#include "app/views/model_mrope.h"
#include "core/analysis/rope_analysis.h"
#include "core/analysis/model_compare.h"
#include "core/models/model_config.h"

namespace posenc::app {

// What the pairs do at one length, with the frequencies in force there (the core's pair_behaviour).
struct PairCounts {
  int64_t length = 0;
  const char* factors = "";  // LongRoPE: "short factors" / "long factors"
  PairBehaviourCounts count{};
};

// One RoPE entry as the view shows it: the model's, or one layer type's.
struct RopePanel {
  std::string name;  // "rope" or "layers.<type>"
  ModelRope rope;
  std::vector<double> unscaled;             // rope_unscaled_inv_freq(rotary_dim, base, scaling)
  std::vector<double> at_max;               // inv_freq in force at max_position_embeddings (LongRoPE: long factors)
  std::vector<int> classes;                 // per pair at max_position_embeddings: the core's PairBehaviour
  PairBehaviourCounts counts{};             // of those classes
  std::vector<PairCounts> said;             // what the card says: at the original length (LongRoPE's short factors), at max
  std::vector<double> short_inv, long_inv;  // longrope: both factor sets
};

// Everything shown of one model.
struct ModelShown {
  ModelPosition pos;
  std::vector<RopePanel> panels;            // RoPE models: "rope" alone, or one per layer type
  std::optional<MropeExample> mrope;        // M-RoPE models
  std::optional<ExtensionPanel> extension;  // RoPE models, at the target length
};

RopePanel rope_panel(const std::string& name, const ModelRope& r);
// Throws InvalidArgument (field "target_length") when the target cannot be analysed.
ModelShown compute_model_shown(const ModelPosition& m, int64_t target_len, bool mrope_image);

// The export tables of one model, every name led by `prefix` ("" for the model, "compare " for the second):
// "model: <model_type> (<position>)", "<panel>: summary (<rope_type>, <layout>)", "<panel>: pairs", "layers
// (...)", M-RoPE's, the context extension, the other schemes' numbers.
void model_tables(const ModelShown& s, const std::string& prefix, std::vector<ExportTable>& tables);

// The differences as a table: one column per numeric difference (its `what`), rows a and b.
ExportTable differences_table(const std::vector<ModelDifference>& d);

}  // namespace posenc::app
