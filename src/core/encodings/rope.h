// Rotary position embedding (Su et al., RoFormer) and its context-extension schemes, following
// Hugging Face transformers' modeling_rope_utils.py: every entry of ROPE_INIT_FUNCTIONS (default / linear /
// dynamic / yarn / longrope / llama3) plus static NTK-aware scaling. Partial rotary: only the first
// rotary_dim dimensions of a head rotate, the rest pass through. Frequencies and angles are computed in double precision (the reference
// computes inv_freq in float32; we keep the same arrangement of operations but in double).
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/bounds.h"
#include "core/names.h"
#include "core/types.h"

namespace posenc {

enum class RopeScalingType { None, Linear, Ntk, Dynamic, Yarn, Llama3, Longrope, Proportional };
template <>
struct EnumNames<RopeScalingType> {
  static constexpr std::array<const char*, 8> names{"none", "linear", "ntk",      "dynamic",
                                                    "yarn", "llama3", "longrope", "proportional"};
};

// One `rope_scaling` configuration. Fields not used by `type` are ignored.
struct RopeScaling {
  RopeScalingType type = RopeScalingType::None;
  double factor = 1.0;                                   // f >= 1 (all types but none)
  int64_t original_max_position_embeddings = 0;          // L: trained length (dynamic, yarn, llama3, longrope)
  std::optional<int64_t> seq_len;                        // dynamic: current length S (default L); longrope: S
  double beta_fast = 32.0, beta_slow = 1.0;              // yarn
  double low_freq_factor = 0.0, high_freq_factor = 0.0;  // llama3 (both required)
  // yarn and longrope: the cos/sin magnitude. Unset: yarn derives it from factor (and mscale /
  // mscale_all_dim when both are set), longrope sqrt(1 + ln f / ln L) for f > 1.
  std::optional<double> attention_factor;
  std::optional<double> mscale, mscale_all_dim;   // yarn (DeepSeek)
  bool truncate = true;                           // yarn: floor/ceil the correction range
  std::vector<double> short_factor, long_factor;  // longrope: dim/2 rescale factors each
  // proportional (Gemma 4 p-RoPE): dim is the whole head; the first int(p * dim // 2) pairs rotate with
  // exponents 2i/dim, the other pairs get frequency 0 (they pass through); all divided by factor.
  double partial_rotary_factor = 1.0;
};

// The keys of a scaling and the types that take each, as transformers' rope_scaling / rope_parameters and
// posenc's "scaling" objects spell them: the one table behind the request reader (model_io/rope_fields), the
// config readers (hf_rope reads a type's keys, unread_keys names the others; gguf_model's own names), check's
// JSON and the views' scaling keys. A key no type takes is no scaling key. docs/architecture.md: a new type.
struct RopeScalingKey {
  const char* name;
  unsigned takes = 0;  // bit (1 << type) per RopeScalingType that reads the key
  unsigned needs = 0;  // of those, the types a request must give it for (the others have a default)
  // false: a request's key, not a model's (seq_len is the current length a run sees); the config readers leave
  // it unread.
  bool config = true;
  const char* gguf = nullptr;  // the GGUF header's key under {arch}.rope.scaling. where llama.cpp writes one
};

constexpr unsigned rope_scaling_bits(std::initializer_list<RopeScalingType> types) {
  unsigned bits = 0;
  for (RopeScalingType t : types) bits |= 1u << static_cast<unsigned>(t);
  return bits;
}

namespace scaling_bits {
using enum RopeScalingType;
constexpr unsigned kAll = rope_scaling_bits({None, Linear, Ntk, Dynamic, Yarn, Llama3, Longrope, Proportional});
constexpr unsigned kLength = rope_scaling_bits({Dynamic, Yarn, Llama3, Longrope});  // switch on the trained length
constexpr unsigned kCurrent = rope_scaling_bits({Dynamic, Longrope});               // read the current length
constexpr unsigned kYarn = rope_scaling_bits({Yarn});
constexpr unsigned kLlama3 = rope_scaling_bits({Llama3});
constexpr unsigned kLongrope = rope_scaling_bits({Longrope});
}  // namespace scaling_bits

// Table order is the order the forms show the keys in.
inline constexpr RopeScalingKey kRopeScalingKeys[] = {
    // Every scaling has a factor (longrope's defaults to max / original, proportional's to 1; none reads none).
    {"factor", scaling_bits::kAll & ~rope_scaling_bits({RopeScalingType::None}),
     rope_scaling_bits({RopeScalingType::Linear, RopeScalingType::Ntk, RopeScalingType::Dynamic, RopeScalingType::Yarn,
                        RopeScalingType::Llama3}),
     true, "factor"},
    // The trained length L (docs/models.md "original length"); p-RoPE does not depend on it.
    {"original_max_position_embeddings", scaling_bits::kAll & ~rope_scaling_bits({RopeScalingType::Proportional}),
     scaling_bits::kLength, true, "original_context_length"},
    {"seq_len", scaling_bits::kCurrent, 0, false},
    {"beta_fast", scaling_bits::kYarn, 0, true, "yarn_beta_fast"},
    {"beta_slow", scaling_bits::kYarn, 0, true, "yarn_beta_slow"},
    {"truncate", scaling_bits::kYarn},
    {"attention_factor", scaling_bits::kYarn | scaling_bits::kLongrope},
    {"mscale", scaling_bits::kYarn},
    {"mscale_all_dim", scaling_bits::kYarn},
    {"short_factor", scaling_bits::kLongrope, scaling_bits::kLongrope},
    {"long_factor", scaling_bits::kLongrope, scaling_bits::kLongrope},
    {"low_freq_factor", scaling_bits::kLlama3, scaling_bits::kLlama3},
    {"high_freq_factor", scaling_bits::kLlama3, scaling_bits::kLlama3},
    {"partial_rotary_factor", rope_scaling_bits({RopeScalingType::Proportional})},
};

// The table's row of a key (nullptr: no scaling key).
const RopeScalingKey* rope_scaling_key(std::string_view name);
// Whether `type` takes the key (false for a key the table does not list).
bool rope_scaling_takes(RopeScalingType type, std::string_view name);
// The keys `type` takes, in table order.
std::vector<const char*> rope_scaling_keys(RopeScalingType type);

// The length a RoPE model was trained at: its original_max_position_embeddings where a config sets one
// (> 0), else `fallback` (its max_position_embeddings, or the context length a GGUF header gives), as
// docs/models.md's "original length" row reads it (transformers v5 standardize_rope_params).
constexpr int64_t trained_length(int64_t original_max_position_embeddings, int64_t fallback) {
  return original_max_position_embeddings > 0 ? original_max_position_embeddings : fallback;
}

// Throws InvalidArgument with fields "scaling.<name>" (or "dim"/"base") if the configuration is unusable.
void validate_rope_scaling(const RopeScaling& s, int dim, double base);

struct RopeFrequencies {
  std::vector<double> inv_freq;    // dim/2 angular frequencies
  double attention_scaling = 1.0;  // cos and sin are both multiplied by it (YaRN's temperature)
  bool long_factors = false;       // longrope: the long factors were used (seq_len > original length)
};

// HF default: inv_freq[i] = 1 / base^(2i/dim).
std::vector<double> rope_default_inv_freq(int dim, double base);

// The frequencies a scaling configuration has before its factor: what "unscaled" means for that
// configuration, the reference its pairs are classed against. The default frequencies for every type
// but proportional, whose pairs past its rotated fraction have frequency 0 at any factor (they never
// rotate: against the default frequencies they would read as slowed, "interpolated").
std::vector<double> rope_unscaled_inv_freq(int dim, double base, const RopeScaling& scaling);

// inv_freq and attention_scaling for a scaling configuration (validated first).
RopeFrequencies rope_frequencies(int dim, double base, const RopeScaling& scaling = {});

// YaRN's correction range [low, high] (pair indices, floor/ceil rounded unless truncate is false, clamped to
// [0, dim-1]).
std::pair<double, double> yarn_correction_range(double beta_fast, double beta_slow, int dim, double base,
                                                int64_t original_max_position_embeddings, bool truncate = true);

// YaRN's get_mscale: 0.1 * mscale * ln(scale) + 1 for scale > 1, else 1.
double yarn_get_mscale(double scale, double mscale = 1.0);

enum class RopeLayout {
  Half,         // GPT-NeoX / LLaMA rotate_half: pair i = dims (i, i + dim/2)
  Interleaved,  // RoFormer / GPT-J rotate_every_two: pair i = dims (2i, 2i + 1)
};
template <>
struct EnumNames<RopeLayout> {
  static constexpr std::array<const char*, 2> names{"half", "interleaved"};
};

// Rotates each row x[r] by angle positions[r] * inv_freq[i] on pair i; cos and sin are multiplied by
// attention_scaling (as HF does). The first 2 * inv_freq.size() columns (the rotary dims) rotate; any further
// columns pass through unchanged (partial rotary, as GPT-NeoX / GPT-J / partial_rotary_factor models do).
Matrix rope_apply(const Matrix& x, std::span<const int64_t> positions, const RopeFrequencies& freqs, RopeLayout layout);

// Convenience: frequencies from (dim, base, scaling); a dynamic or longrope scaling without seq_len uses
// max(positions) + 1 as the current length. x has dim columns, or rotary_dim of them rotate when given.
Matrix rope_apply(const Matrix& x, std::span<const int64_t> positions, int dim, double base, const RopeScaling& scaling,
                  RopeLayout layout);
Matrix rope_apply_partial(const Matrix& x, std::span<const int64_t> positions, int rotary_dim, double base,
                          const RopeScaling& scaling, RopeLayout layout);

// The current length a dynamic / longrope scaling sees for these positions: max(positions) + 1 (HF's
// dynamic_rope_update), clamped to [1, 2^30]. Leaves other types and an explicit seq_len alone.
RopeScaling with_seq_len_from_positions(const RopeScaling& scaling, std::span<const int64_t> positions);

// Multimodal RoPE (M-RoPE): which position row (0 = t, 1 = h, 2 = w) drives each of the `pairs` rotation
// pairs. section = {a, b, c} with a + b + c = pairs (else InvalidArgument naming "mrope_section").
// Contiguous (Qwen2-VL apply_multimodal_rotary_pos_emb): pairs [0, a) t, [a, a+b) h, [a+b, pairs) w.
// Interleaved (Qwen3-VL apply_interleaved_mrope): pair i is h if i % 3 == 1 and i < 3b, w if i % 3 == 2
// and i < 3c, else t.
std::vector<int> rope_mrope_axes(std::span<const int> section, int pairs, bool interleaved);

// Rotates row r of x with pair i at angle positions(axes[i], r) * inv_freq[i]: positions has 3 rows (t, h,
// w), each with one entry per row of x. With equal rows it is rope_apply with that row.
using MropePositions = std::array<std::vector<int64_t>, 3>;
Matrix rope_apply_mrope(const Matrix& x, const MropePositions& positions, const RopeFrequencies& freqs, RopeLayout layout,
                        std::span<const int> axes);

// Column permutation that maps the interleaved layout onto the half layout: half[:, perm[c]] = inter[:, c].
std::vector<int> rope_interleaved_to_half(int dim);

// Name <-> enum helpers used by the CLI and the UI (the one table is EnumNames above).
inline std::optional<RopeScalingType> rope_scaling_type_from_name(const std::string& name) {
  return from_name<RopeScalingType>(name);
}
inline const char* rope_scaling_type_name(RopeScalingType t) { return name_of(t); }
// transformers' rope_type for a scaling: "default" for none, else the scaling name ("ntk" has no HF
// rope_type and keeps its name).
inline const char* rope_type_name(RopeScalingType t) {
  return t == RopeScalingType::None ? "default" : rope_scaling_type_name(t);
}
inline const char* rope_layout_name(RopeLayout l) { return name_of(l); }

}  // namespace posenc
