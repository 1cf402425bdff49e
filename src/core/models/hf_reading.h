// The config.json reader's parts (transformers' rules; docs/models.md): the head dimensions, the RoPE of each
// layer type, the per-layer attention kinds and the keys posenc did not read. Internal to src/core/models.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/models/config_reader.h"
#include "core/models/model_config.h"
#include "core/models/model_families.h"

namespace posenc::hf {

struct Dims {
  int head_dim = 0;
  int num_heads = 0;
  int rotary_dim = 0;
  bool mla = false;
  // Cohere configs carry the original Cohere code's rotary_pct, which transformers' Cohere / Cohere2 never read
  // (their rotary embedding takes partial_rotary_factor only): left unread there, so unread_keys names it.
  bool reads_rotary_pct = true;
};

int checked_dim(int64_t v, const std::string& field, const char* what);

// The length a RoPE model that names none is drawn at (an assumption named to the user).
inline constexpr int64_t kAssumedMaxPositions = 8192;

// What the readers below share about one model.
struct Model {
  const Reader& root;      // the whole config
  const Reader& r;         // the language model's keys (text_config when there is one)
  std::string type;        // its model_type
  const ModelFamily* fam;  // its family table row; nullptr: generic rules, each named as an assumption
  std::optional<int64_t> seq_len;
  ModelPosition& out;

  void assume(const std::string& what, const std::string& value, const std::string& why) const {
    out.assumptions.push_back({what, value, why});
  }
  // The reason every generic rule is taken.
  std::string not_in_table() const { return "model_type '" + type + "' is not in posenc's family table"; }
  bool flag(FamilyFlag f) const { return fam && fam->has(f); }
};

// head_dim, heads (MLA: qk_nope + qk_rope); assumes head_dim = hidden / heads for an unknown family.
Dims read_dims(const Model& m);
// max_position_embeddings (or n_positions / max_seq_len / seq_length, or the family's own key), 0 when absent;
// bounded.
int64_t read_max_positions(const Reader& r, const char** which = nullptr, const ModelFamily* fam = nullptr);

// rope_parameters (v5) if present, else rope_scaling (v4), and the path its keys are named by.
struct RopeParams {
  std::optional<Reader> params;
  std::string path;
};
RopeParams find_rope_params(const Reader& r);

// What every RoPE of the model shares.
struct RopeContext {
  Dims dims;
  int64_t max_pos = 0;
  RopeLayout layout = RopeLayout::Half;
  double softmax = 0;                     // what multiplies q.k (before YaRN's mscale^2)
  std::vector<std::string> softmax_from;  // its factors' sources (ModelRope::softmax_scale_from)
};

// out.rope and, for models whose layer types rotate differently, out.layers (Gemma 3 / 4, OLMo 3,
// DeepSeek-V4, v5 nested rope_parameters).
void read_ropes(const Model& m, const RopeContext& c, const RopeParams& p);

// out.per_layer: every layer's attention kind, window, RoPE or not, query scale, sinks, direction and key
// selection. `rope` says whether the model has a position encoding at all (false: every layer's position is none).
void read_layers(const Model& m, const RopeParams& p, bool rope);

// out.per_layer of a model whose position is not RoPE (ALiBi, T5, DeBERTa, learned): every layer full attention
// in the family's direction; T5's encoder layers, then its decoder's.
void read_plain_layers(const Model& m);

// Whether the model's layers attend causally (the family's direction; use_bidirectional_attention read); an
// unknown family's do (read_hf_config names that as an assumption).
bool reads_causal(const Model& m);

// layer_rope_theta (one base per layer, 0 = no RoPE on that layer: Muse Glimmer): the layers' RoPE, after
// read_layers.
void read_layer_rope_theta(const Model& m, const RopeContext& c);

// The keys about positions nobody looked at (every key inside a RoPE parameter object, and any key whose name
// is_positional_key), by dotted path; the root's copies of the text_config keys that were read dropped.
std::vector<std::string> unread_keys(const ConfigValue& config, const std::set<std::string>& seen);

}  // namespace posenc::hf
