// A real model's positional encoding from its configuration: Hugging Face config.json (as a ConfigValue)
// read by transformers' rules, or a GGUF header (gguf.h) read by llama.cpp's. docs/models.md lists every
// rule and the file it comes from.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/models/config_value.h"
#include "core/encodings/rope.h"

namespace posenc {

enum class PositionKind { Rope, Alibi, T5, Deberta, Learned, None };
const char* position_kind_name(PositionKind k);

// One RoPE setting (the whole model's, or one layer type's).
struct ModelRope {
  int rotary_dim = 0;  // dims that rotate (<= head_dim); the rest pass through
  RopeLayout layout = RopeLayout::Half;
  double base = 10000.0;
  RopeScaling scaling;  // type None = transformers' rope_type "default"
  RopeFrequencies frequencies;  // rotary_dim/2 inv_freq and the cos/sin magnitude (attention_scaling)
  double softmax_scale = 0.0;   // what multiplies q.k: 1/sqrt(head_dim) times any model-level factor
  int64_t max_position_embeddings = 0;
  int64_t original_max_position_embeddings = 0;
};

struct ModelPosition {
  std::string model_type;
  PositionKind position = PositionKind::None;
  int head_dim = 0;
  int num_attention_heads = 0;
  std::optional<ModelRope> rope;                        // position == Rope (the full-attention layers')
  std::vector<std::pair<std::string, ModelRope>> layers;  // per layer type, when layer types differ
  std::vector<double> alibi_slopes;                     // position == Alibi: one per head
  int t5_num_buckets = 0;                               // position == T5
  int64_t t5_max_distance = 0;
  bool t5_bidirectional = true;                         // encoder self-attention
  int64_t deberta_bucket_size = 0, deberta_max_position = 0;  // position == Deberta
  int64_t learned_max_position_embeddings = 0;          // position == Learned
};

// Reads a Hugging Face config.json object. Unknown keys are ignored; a wrong type or value of a key that is
// used throws InvalidArgument naming its key path ("rope_scaling.factor", "text_config.head_dim").
// seq_len: the current sequence length for dynamic NTK and LongRoPE (long factors iff seq_len > original).
ModelPosition read_hf_config(const ConfigValue& config, std::optional<int64_t> seq_len = std::nullopt);

// Layout of RoPE pairs for a transformers model_type: interleaved for gptj / codegen / deepseek_v2 / v3
// (rotate_every_two or view_as_complex), half for the rotate_half family.
RopeLayout hf_rope_layout(const std::string& model_type);

}  // namespace posenc
