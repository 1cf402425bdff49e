// Scaled dot-product attention with every positional scheme of the explorer. The logits are returned
// both as a total and as their additive terms (already scaled), so the decomposition views can show
// each term beside the total.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "core/attention/layer_mask.h"
#include "core/encodings/rope.h"
#include "core/names.h"
#include "core/types.h"

namespace posenc {

struct NoPosition {};  // NoPE: logits = scale q.k (permutation-equivariant)

struct RopePosition {
  double base = 10000.0;
  RopeScaling scaling;
  RopeLayout layout = RopeLayout::Half;
  std::optional<int> rotary_dim = std::nullopt;  // partial rotary: the first rotary_dim of d dims rotate (default d)
  // M-RoPE (Qwen2-VL / Qwen3-VL): the t/h/w axis of each pair (rope_mrope_axes; empty = 1-D RoPE) and the
  // three position rows of the queries and keys (the 1-D positions stay the t row, for the causal mask).
  std::vector<int> mrope_axes = {};
  MropePositions query_mrope = {}, key_mrope = {};
};

struct T5Position {  // default scale 1: T5 does not scale q.k
  bool bidirectional = true;
  int num_buckets = 32;
  int64_t max_distance = 128;
  std::vector<double> bias;  // num_buckets entries (one head)
};

struct AlibiPosition {
  double slope = 0.5;
};

struct ShawPosition {
  int64_t max_relative_position = 4;  // K
  Matrix key_table;                   // (2K+1) x d
  std::optional<Matrix> value_table;  // (2K+1) x dv; required when v is given
};

struct DebertaPosition {  // default scale 1/sqrt(3d)
  int64_t bucket_size = 256;
  int64_t max_position = 512;
  Matrix pos_key;    // 2s x d, s = bucket_size if > 0 else max_position
  Matrix pos_query;  // 2s x d
};

struct XlPosition {
  Vector u, v;    // global content / position biases, d entries
  Matrix r_proj;  // d x d
  double base = 10000.0;
};

struct LearnedBiasPosition {  // learned clipped relative bias: table (2 max + 1) x heads, one head used
  Matrix table;
  int head = 0;
};

using PositionScheme = std::variant<NoPosition, RopePosition, T5Position, AlibiPosition, ShawPosition, DebertaPosition,
                                    XlPosition, LearnedBiasPosition>;

// The position schemes by name, one per PositionScheme alternative in its order: the one spelling of a
// scheme for posenc eval's position.scheme, the scores and buckets views' scheme= values and the exports.
enum class PositionSchemeKind { None, Rope, T5, Alibi, Shaw, Deberta, Xl, Learned };
template <>
struct EnumNames<PositionSchemeKind> {
  static constexpr std::array<const char*, 8> names{"none", "rope", "t5", "alibi", "shaw", "deberta", "xl", "learned"};
};
static_assert(std::variant_size_v<PositionScheme> == EnumNames<PositionSchemeKind>::names.size());
inline PositionSchemeKind position_kind(const PositionScheme& p) { return static_cast<PositionSchemeKind>(p.index()); }

struct AttentionSpec {
  PositionScheme position;
  std::optional<double> scale;  // default: 1/sqrt(d), T5 1, DeBERTa 1/sqrt(3d)
  bool causal = false;          // masks cells with key_pos > query_pos
};

struct AttentionTerm {
  std::string name;  // e.g. "content", "bias", "c2p", "(b) q.W_R R"
  Matrix values;     // n x m, scale already applied where the scheme applies it
};

struct AttentionResult {
  double scale = 1.0;
  std::vector<AttentionTerm> terms;   // logits = sum of terms on unmasked cells
  Matrix logits;                      // n x m; masked cells are -infinity
  Matrix weights;                     // row softmax; masked cells 0; fully masked rows all 0
  std::optional<Matrix> output;       // n x dv when v is given
  std::optional<Vector> sink_weight;  // with a sink: its weight per query row (the row sums to 1 - it)
  bool masked(Eigen::Index i, Eigen::Index j) const { return std::isinf(logits(i, j)); }
};

double default_attention_scale(const PositionScheme& scheme, Eigen::Index d);

// q: n x d, k: m x d, v (optional): m x dv; positions of every query and key; a layer's sliding / chunked
// pattern and sink (layer_mask.h) applied after the causal mask. Throws InvalidArgument naming "q", "k",
// "v", "query_positions", "key_positions", "position.<field>", "mask.window" or "mask.sink".
AttentionResult attention(const Matrix& q, const Matrix& k, const Matrix* v, std::span<const int64_t> query_pos,
                          std::span<const int64_t> key_pos, const AttentionSpec& spec, const LayerMask& mask = {});

// Numerically stable row softmax: -inf entries get weight 0; a row with no finite entry is all 0.
Matrix softmax_rows(const Matrix& logits);

// Causal mask applied in place: logits(i, j) = -inf where key_pos[j] > query_pos[i].
void apply_causal_mask(Matrix& logits, std::span<const int64_t> query_pos, std::span<const int64_t> key_pos);

}  // namespace posenc
