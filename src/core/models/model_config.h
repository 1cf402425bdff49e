// A real model's positional encoding from its configuration: Hugging Face config.json (as a ConfigValue)
// read by transformers' rules, or a GGUF header (gguf.h) read by llama.cpp's. docs/models.md lists every
// rule and the file it comes from.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/models/config_value.h"
#include "core/encodings/rope.h"
#include "core/names.h"

namespace posenc {

enum class PositionKind { Rope, Alibi, T5, Deberta, Learned, None };
template <>
struct EnumNames<PositionKind> {
  static constexpr std::array<const char*, 6> names{"rope", "alibi", "t5", "deberta", "learned", "none"};
};
inline const char* position_kind_name(PositionKind k) { return name_of(k); }

// One RoPE setting (the whole model's, or one layer type's).
struct ModelRope {
  // The width of the heads this RoPE rotates (q.k spans it): the model's head_dim, or a layer type's own where
  // the family declares one (Gemma 4's full-attention layers: global_head_dim). 0 = ModelPosition::head_dim.
  int head_dim = 0;
  int rotary_dim = 0;  // dims that rotate (<= head_dim); the rest pass through
  // The first rotating dim of the head: 0, or head_dim - rotary_dim where the rope slice is last (the family
  // table's rope_last: multi-head latent attention's q = [q_nope, q_pe]).
  int rotary_offset = 0;
  RopeLayout layout = RopeLayout::Half;
  double base = 10000.0;
  RopeScaling scaling;          // type None = transformers' rope_type "default"
  RopeFrequencies frequencies;  // rotary_dim/2 inv_freq and the cos/sin magnitude (attention_scaling)
  double softmax_scale = 0.0;   // what multiplies q.k: 1/sqrt(head_dim) times any model-level factor
  // Where each factor of softmax_scale comes from, in order: "head_dim^-0.5", "query_pre_attn_scalar^-0.5", or
  // the config key whose value multiplies q.k ("qk_scale_factor", "rope_scaling.mscale_all_dim", ...); empty: 1.
  std::vector<std::string> softmax_scale_from;
  int64_t max_position_embeddings = 0;
  int64_t original_max_position_embeddings = 0;
  // Multimodal RoPE (Qwen2-VL, Qwen2.5-VL, Qwen3-VL, Qwen3.5): pair i rotates by the t, h or w position.
  // Empty for 1-D RoPE; else three counts summing to rotary_dim / 2 (see rope_mrope_axes in rope.h).
  std::vector<int> mrope_section;
  bool mrope_interleaved = false;  // false: contiguous sections (Qwen2-VL); true: t,h,w,t,h,w,... (Qwen3-VL)
};

// What kind of attention one decoder layer runs (transformers' layer_types names in brackets).
enum class LayerAttention {
  Full,     // full_attention: causal over every earlier key
  Sliding,  // sliding_attention: query i sees keys j with i - window < j <= i (transformers' sliding_window)
  Chunked,  // chunked_attention: query i sees keys j <= i with j / window == i / window (Llama 4)
  Linear,   // any non-softmax token mixer (LayerSpec::mixer: Gated DeltaNet, Mamba, conv, KDA, lightning): no position
  // DeepSeek-V4's compressed layers (compressed_sparse_attention / heavily_compressed_attention): a sliding
  // window of recent keys plus one pooled entry per `ratio` earlier keys (LayerSpec::ratio, ::window).
  Compressed,
  // A block that mixes no tokens (LayerSpec::reason says why: "mlp_only" for Nemotron-H's MoE-only and MLP-only
  // blocks, "no_op" / "replace_with_linear" for a NAS block whose attention is skipped or a per-token linear map).
  None,
};
template <>
struct EnumNames<LayerAttention> {
  static constexpr std::array<const char*, 6> names{"full", "sliding", "chunked", "linear", "compressed", "none"};
};
inline const char* layer_attention_name(LayerAttention a) { return name_of(a); }

// A factor on q that depends on the query's position p (1 everywhere for None).
struct QueryScale {
  enum class Rule {
    None,
    // Llama 4 attn_temperature_tuning (NoPE layers): log1p(floor((p + 1) / floor_scale)) * attn_scale + 1
    // (modeling_llama4.py Llama4TextAttention._get_attn_scale).
    Llama4Temperature,
    // Ministral 3 / Mistral llama_4_scaling_beta (every layer): 1 + beta * ln(1 + floor(p / original))
    // with original = rope_parameters.original_max_position_embeddings (modeling_ministral3.py).
    Llama4ScalingBeta,
  };
  Rule rule = Rule::None;
  double floor_scale = 0.0, attn_scale = 0.0;    // Llama4Temperature
  double beta = 0.0;                             // Llama4ScalingBeta
  int64_t original_max_position_embeddings = 0;  // Llama4ScalingBeta
};
template <>
struct EnumNames<QueryScale::Rule> {
  static constexpr std::array<const char*, 3> names{"none", "llama4_temperature", "llama4_scaling_beta"};
};
inline const char* query_scale_rule_name(QueryScale::Rule r) { return name_of(r); }
// The factor at position p (p >= 0).
double query_scale_at(const QueryScale& s, int64_t position);

// Keys an attention layer selects before its softmax, beyond its mask: DSA's lightning indexer (DeepSeek-V3.2,
// GLM-5: `index_topk` keys per query) or a block top-k (MiniMax-M3: `top_k` blocks of `block` keys per query).
struct KeySelection {
  std::string kind;  // "" (every key the mask allows), "indexer_topk", "block_topk"
  int64_t top_k = 0;
  int64_t block = 0;              // block_topk: keys per block
  std::vector<std::string> keys;  // the config keys it was read from
};

// One layer as the model's modeling file runs it.
struct LayerSpec {
  LayerAttention attention = LayerAttention::Full;
  int64_t window = 0;  // Sliding and Compressed: sliding_window; Chunked: attention_chunk_size; else 0
  int64_t ratio = 0;   // Compressed: keys pooled into one compressed entry (DeepSeek-V4's compress_ratios 4, 128)
  bool rope = true;    // position "rope" (rotary) or "none" (NoPE layer, linear layer)
  // Linear: the token mixer ("mamba2", "conv", "kda", "lightning", "gated_deltanet"); None: the block ("moe", "mlp").
  std::string mixer;
  std::string parallel_mixer;  // a non-attention mixer running beside this layer's attention (Falcon-H1: "mamba2")
  // When ModelPosition::layers is not empty: the key of this layer's RoPE there (e.g. "sliding_attention");
  // empty: ModelPosition::rope applies (or the layer has no RoPE).
  std::string rope_key;
  QueryScale query_scale;
  bool sinks = false;  // gpt-oss: a learned per-head sink logit joins the softmax (an extra column)
  // false: bidirectional (an encoder): query i sees every key, or with a window W the keys |i - j| <= W.
  bool causal = true;
  std::string stack;   // "" (one stack), or an encoder-decoder model's "encoder" / "decoder" (T5)
  std::string reason;  // None: why the block mixes no tokens ("mlp_only", "no_op", "replace_with_linear")
  // The model's position kind as this layer sees it: Rope for RoPE models (`rope` says whether the layer
  // rotates), else the scheme of the model (ALiBi, T5 and DeBERTa biases; a learned table added to the input).
  PositionKind scheme = PositionKind::Rope;
  KeySelection key_selection;
};

// A default posenc took because the configuration did not say, or a rule it applied without a reference for
// this model_type: named to the user ({"what": "layout", "value": "half", "why": "model_type 'x' is not in
// posenc's family table"}).
struct Assumption {
  std::string what, value, why;
};

struct ModelPosition {
  std::string model_type;
  std::string family;  // the family table's row (docs/models.md), "" when the model_type is not in it
  PositionKind position = PositionKind::None;
  int head_dim = 0;
  int num_attention_heads = 0;
  std::optional<ModelRope> rope;                          // position == Rope (the full-attention layers')
  std::vector<std::pair<std::string, ModelRope>> layers;  // per layer type, when layer types differ
  std::vector<double> alibi_slopes;                       // position == Alibi: one per head
  int t5_num_buckets = 0;                                 // position == T5
  int64_t t5_max_distance = 0;
  bool t5_bidirectional = true;                               // encoder self-attention
  int64_t deberta_bucket_size = 0, deberta_max_position = 0;  // position == Deberta
  int64_t learned_max_position_embeddings = 0;                // position == Learned
  int num_hidden_layers = 0;                                  // 0 when the config does not say
  // One entry per layer (num_hidden_layers of them) whenever the config gives a layer count, whatever the
  // position kind; an encoder-decoder model (T5) lists its encoder's layers, then its decoder's (LayerSpec::stack).
  std::vector<LayerSpec> per_layer;
  // What posenc assumed (generic rules for a model_type outside the family table, class defaults it had to
  // guess): each one named.
  std::vector<Assumption> assumptions;
  // Config keys about positions (rope, rotary, position, nope, chunk, window, sink, temperature, ...) that
  // posenc did not read, as dotted paths ("vision_config.window_size", "rope_scaling.foo"): named, never
  // silently dropped.
  std::vector<std::string> unread_keys;
};

// The head width of the layers `r` belongs to: r.head_dim when set, else the model's head_dim.
int rope_head_dim(const ModelPosition& m, const ModelRope& r);

// Proportional RoPE's zero-frequency pairs: the pairs of `r` whose inverse frequency is 0 (Gemma 4's full layers:
// 192 of 256); 0 for every other RoPE.
int rope_frequency_zero_pairs(const ModelRope& r);

// Reads a Hugging Face config.json object. Unknown keys are ignored (positional ones are listed in
// unread_keys); a wrong type or value of a key that is
// used throws InvalidArgument naming its key path ("rope_scaling.factor", "text_config.head_dim").
// seq_len: the current sequence length for dynamic NTK and LongRoPE (long factors iff seq_len > original).
ModelPosition read_hf_config(const ConfigValue& config, std::optional<int64_t> seq_len = std::nullopt);

// A config or GGUF key about positions (rope, rotary, position, nope, chunk, window, sink, temperature,
// theta, swa, ...): the keys unread_keys is made of.
bool is_positional_key(const std::string& key);

// Layout of RoPE pairs for a transformers model_type from the family table (data/model_families.json):
// interleaved for gptj / codegen / deepseek / llama4 / cohere / glm / ernie4_5 ..., half for the rotate_half
// families; nullopt for a model_type the table does not list.
std::optional<RopeLayout> hf_rope_layout(const std::string& model_type);

}  // namespace posenc
