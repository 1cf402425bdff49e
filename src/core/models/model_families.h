// posenc's family table: for each transformers model_type (and the llama.cpp architectures that run the same
// layers), the pair layout, the default base, which layers attend how and which carry RoPE, which keys select
// that, and the reference it comes from. The rows are data (data/model_families.json, compiled in by
// cmake/model_families.cmake); the rules they name are implemented by the config.json reader
// (model_config.cpp, hf_layers.cpp) and the GGUF reader (gguf_model.cpp). docs/models.md's family rows are
// generated from the same table (`posenc families --markdown`).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/encodings/rope.h"
#include "core/models/model_config.h"
#include "core/names.h"

namespace posenc {

// How a family's per-layer attention kinds are read (each rule: hf_layers.cpp; docs/models.md).
enum class LayerRule {
  Generic,         // layer_types, else a non-null sliding_window makes every layer sliding
  QwenWindow,      // use_sliding_window + max_window_layers
  FullInterval,    // full_attention_interval: linear unless (i + 1) % interval == 0
  SlidingPattern,  // sliding_window_pattern: sliding unless (i + 1) % pattern == 0
  Llama4,          // chunked on RoPE layers, full on NoPE layers
  Exaone4,         // layer_types, else sliding_window_pattern (an integer, or a string of L / G per layer)
  Lfm2,            // layer_types ("conv" / "full_attention"), else full_attn_idxs
  NemotronH,       // hybrid_override_pattern (M mamba, * attention, - mlp, E moe), else layer_types
  GraniteHybrid,   // layer_types "mamba" / "attention" (every layer mamba without them)
  KimiLinear,      // linear_attn_config.kda_layers (1-based) KDA, the rest MLA
  DeepseekV4,      // layer_types, else compress_ratios (0 sliding, 4 / 128 compressed)
  Minimax,         // layer_types, else attn_type_list (0 linear, 1 full)
  FalconH1,        // every layer full attention with a parallel Mamba2
  GlobalEvery,     // layer_types, else full iff i % global_attn_every_n_layers == 0, sliding otherwise (ModernBERT)
  BlockConfigs,    // block_configs: attention.no_op / replace_with_linear make a block mix no tokens (Nemotron NAS)
  BlockTypes,      // block_types repeated over the layers: "recurrent" (RG-LRU) or "attention" (RecurrentGemma)
};
template <>
struct EnumNames<LayerRule> {
  static constexpr std::array<const char*, 16> names{"generic",        "qwen_window",  "full_interval", "sliding_pattern",
                                                     "llama4",         "exaone4",      "lfm2",          "nemotron_h",
                                                     "granite_hybrid", "kimi_linear",  "deepseek_v4",   "minimax",
                                                     "falcon_h1",      "global_every", "block_configs", "block_types"};
};

// Which way the layers attend (LayerSpec::causal), by the family's reference.
enum class Direction {
  Causal,            // a decoder: query i sees keys j <= i
  Bidirectional,     // an encoder: every key (a sliding layer of window W: |i - j| <= W // 2)
  BidirectionalKey,  // use_bidirectional_attention true / "all" makes it an encoder (Gemma 3, EmbeddingGemma, Gemma 4)
  EncoderDecoder,    // T5: a bidirectional encoder stack, then a causal decoder stack
};
template <>
struct EnumNames<Direction> {
  static constexpr std::array<const char*, 4> names{"causal", "bidirectional", "use_bidirectional_attention", "encoder_decoder"};
};

// How a family's attention layers select keys before the softmax (LayerSpec::key_selection).
enum class KeySelectionRule {
  None,
  IndexTopk,              // DSA: index_topk keys per query on every attention layer (DeepSeek-V3.2, GLM-5)
  SparseAttentionConfig,  // sparse_attention_config: sparse_topk_blocks blocks of sparse_block_size keys on the
                          // layers whose sparse_attention_freq entry is 1 (MiniMax-M3)
};
template <>
struct EnumNames<KeySelectionRule> {
  static constexpr std::array<const char*, 3> names{"none", "index_topk", "sparse_attention_config"};
};

// Which attention layers rotate.
enum class RopeOn {
  All,                    // every softmax-attention layer (less a NoPE interval, no_rope_layers)
  Sliding,                // only sliding layers (Cohere2)
  SlidingIfWindowed,      // every layer without a sliding window; with one, only sliding layers (EXAONE 4.0)
  None,                   // no layer (Nemotron-H)
  PositionEmbeddingType,  // every attention layer iff position_embedding_type is "rope" (Granite 4.0-H)
  MlaUseNope,             // every attention layer unless mla_use_nope (Kimi Linear)
};
template <>
struct EnumNames<RopeOn> {
  static constexpr std::array<const char*, 6> names{
      "all", "sliding", "sliding_if_windowed", "none", "position_embedding_type", "mla_use_nope"};
};

// The RoPE of sliding layers.
enum class SlidingRope {
  Same,       // the model's
  LocalBase,  // default RoPE at rope_local_base_freq (Gemma 3 v4 configs)
  Unscaled,   // default RoPE at the same base, without the configured scaling (OLMo 3)
};
template <>
struct EnumNames<SlidingRope> {
  static constexpr std::array<const char*, 3> names{"same", "local_base", "unscaled"};
};

// What multiplies q.k.
enum class SoftmaxRule {
  HeadDim,              // head_dim^-0.5
  QueryPreAttnScalar,   // query_pre_attn_scalar^-0.5 (Gemma 2 / 3)
  One,                  // 1 (q and k RMS-normalised per head: Gemma 3n / 4)
  AttentionMultiplier,  // attention_multiplier (Granite)
  KeyMultiplier,        // head_dim^-0.5 x key_multiplier (Falcon-H1 multiplies k)
};
template <>
struct EnumNames<SoftmaxRule> {
  static constexpr std::array<const char*, 5> names{"head_dim", "query_pre_attn_scalar", "one", "attention_multiplier",
                                                    "key_multiplier"};
};

// Row flags (names as in data/model_families.json's "flags").
enum FamilyFlag : unsigned {
  kFamilyMla = 1u << 0,                // multi-head latent attention: qk_nope_head_dim + qk_rope_head_dim
  kFamilySinks = 1u << 1,              // a learned sink logit per head in every attention layer
  kFamilyNoRotaryPct = 1u << 2,        // rotary_pct is the original code's key, not read by transformers
  kFamilyMropeInterleaved = 1u << 3,   // M-RoPE sections interleave by construction
  kFamilyGlobalHeadDim = 1u << 4,      // full-attention layers global_head_dim wide (ModelRope::head_dim), p-RoPE over it
  kFamilyLlama4Temperature = 1u << 5,  // attn_temperature_tuning on NoPE layers
  kFamilyNtkAlpha = 1u << 6,           // rope_scaling.alpha: base x alpha^(d / (d - 2))
  kFamilyYarnSoftmaxMscale = 1u << 7,  // YaRN: softmax x get_mscale(factor, mscale_all_dim)^2
  kFamilyCompressRope = 1u << 8,       // a second RoPE at compress_rope_theta on compressed layers
  kFamilyRopeLast = 1u << 9,           // the rope slice is the head's last rotary_dim dims (MLA: [q_nope, q_pe])
};
inline constexpr std::array<const char*, 10> kFamilyFlagNames{"mla",
                                                              "sinks",
                                                              "no_rotary_pct",
                                                              "mrope_interleaved",
                                                              "global_head_dim",
                                                              "llama4_temperature",
                                                              "ntk_alpha",
                                                              "yarn_softmax_mscale",
                                                              "compress_rope",
                                                              "rope_last"};

struct ModelFamily {
  std::string family;
  std::vector<std::string> model_types, gguf_archs, keys;
  PositionKind position = PositionKind::Rope;
  std::string alibi_key;  // a boolean key that switches the scheme to ALiBi (Falcon: alibi; MPT: attn_config.alibi)
  RopeLayout layout = RopeLayout::Half;
  double base = 10000.0;             // rope_theta when the config has none
  double local_base = 0;             // SlidingRope::LocalBase: rope_local_base_freq's default
  double compress_base = 0;          // kFamilyCompressRope: compress_rope_theta's default
  double query_pre_attn_scalar = 0;  // SoftmaxRule::QueryPreAttnScalar's default
  int64_t max_positions = 0;         // max_position_embeddings' class default (0: required)
  int64_t chunk = 0;                 // attention_chunk_size's default
  LayerRule layers = LayerRule::Generic;
  int pattern = 0;          // the rule's default period (sliding_window_pattern, full_attention_interval)
  int nope_interval = 0;    // no_rope_layer_interval's default (0: no NoPE rule)
  int gguf_swa_period = 0;  // llama.cpp set_swa_pattern for the family's GGUF archs (0: the row's pattern)
  RopeOn rope_on = RopeOn::All;
  SlidingRope sliding_rope = SlidingRope::Same;
  SoftmaxRule softmax = SoftmaxRule::HeadDim;
  std::string mixer;           // the linear layers' mixer
  std::string parallel_mixer;  // a mixer beside every attention layer
  Direction direction = Direction::Causal;
  KeySelectionRule key_selection = KeySelectionRule::None;
  std::string window_key = "sliding_window";  // the key holding the sliding layers' window (ModernBERT: local_attention)
  std::string base_key;                       // the key holding the base beside rope_theta (ModernBERT: global_rope_theta)
  std::string local_base_key;  // SlidingRope::LocalBase: its key (default rope_local_base_freq; ModernBERT local_rope_theta)
  std::string max_key;         // the key holding the trained length beside max_position_embeddings (NeoBERT: max_length)
  std::vector<std::string> logit_scales;  // config keys whose value multiplies q.k beside the softmax rule (qk_scale_factor)
  unsigned flags = 0;
  std::string source;  // reference file and commit
  // What the family does that posenc does not model: every model of it answers these as assumptions (e.g.
  // DeepSeek-V4's attention output rotated back by the query's position).
  std::vector<Assumption> not_modelled;
  bool has(FamilyFlag f) const { return (flags & f) != 0; }
};

// Every row, in the data file's order. Throws std::logic_error naming the row when a name in it is wrong
// (checked by the unit tests, so a bad edit of the data file fails there).
std::span<const ModelFamily> model_families();
// The row listing a transformers model_type, or nullptr.
const ModelFamily* find_model_family(std::string_view model_type);
// The row listing a llama.cpp architecture, or nullptr.
const ModelFamily* find_gguf_family(std::string_view arch);

// llama.cpp's llama_model_rope_type for an architecture name (the data file's llama_cpp_rope_types): "norm"
// (pairs of consecutive values, interleaved), "neox" (pairs offset by n_rot/2, half), "none", "mrope" (Qwen2-VL
// sections), "imrope" (Qwen3-VL interleaved sections), or nullopt when unknown. "none" is followed as
// llama.cpp has it, GPT-J included (it lists LLM_ARCH_GPTJ as LLAMA_ROPE_TYPE_NONE).
std::optional<std::string> llama_cpp_rope_type(const std::string& arch);
// Where that table comes from (file and commit).
const char* llama_cpp_rope_type_source();

// The family table as Markdown rows (docs/models.md's generated section).
std::string model_families_markdown();

}  // namespace posenc
