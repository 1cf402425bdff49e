// One decoder layer's attention pattern beyond the causal mask, applied as a separate step over a score
// matrix (any scheme's logits, double or float): sliding window, chunked attention, an attention sink.
//   causal      key j visible to query i iff pos_j <= pos_i (transformers masking_utils.causal_mask_function)
//   sliding W   causal: pos_i - pos_j < W (sliding_window_overlay: kv_idx > q_idx - W);
//               bidirectional: |pos_i - pos_j| <= W (sliding_window_bidirectional_overlay)
//   chunked C   floor(pos_j / C) == floor(pos_i / C) (chunked_overlay, Llama 4 attention_chunk_size), and
//               causal when the mask is
//   sink s      gpt-oss: one learned logit per head joins each row's softmax as an extra column, then is
//               dropped (modeling_gpt_oss.py eager_attention_forward): the row's weights sum to 1 - sink weight.
// Query scales by position (Llama 4 temperature tuning, llama_4_scaling_beta) multiply q before the score
// (core/models/model_config.h query_scale_at); M-RoPE positions are RopePosition's (attention.h).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/types.h"

namespace posenc {

enum class MaskKind { Full, Sliding, Chunked };

struct LayerMask {
  MaskKind kind = MaskKind::Full;
  int64_t window = 0;          // Sliding: W; Chunked: chunk size C; unused for Full
  std::optional<double> sink;  // the sink logit (already on the logits' scale); none = no sink column
  bool active() const { return kind != MaskKind::Full || sink.has_value(); }
};

// Validation at the boundary: window >= 1 (and <= 2^31) for Sliding / Chunked, a finite sink. Throws
// InvalidArgument naming `<prefix>window` or `<prefix>sink`.
void check_layer_mask(const LayerMask& mask, const char* window_field = "window", const char* sink_field = "sink");

// Whether query position qp sees key position kp under the causal flag and the layer's pattern.
bool layer_mask_allows(const LayerMask& mask, bool causal, int64_t qp, int64_t kp);

// logits(i, j) = -inf where the layer's pattern (sliding / chunked; not the causal part, which
// apply_causal_mask does) hides key j from query i.
void apply_layer_mask(Matrix& logits, std::span<const int64_t> qpos, std::span<const int64_t> kpos, const LayerMask& mask,
                      bool causal);
void apply_layer_mask(MatrixF& logits, std::span<const int64_t> qpos, std::span<const int64_t> kpos, const LayerMask& mask,
                      bool causal);

// Row softmax with an optional sink column (gpt-oss): w_ij = exp(e_ij - M) / (sum_j exp(e_ij - M) + exp(s - M)),
// M = max(max_j e_ij, s). -inf entries get 0; without a sink a row with no finite entry is all 0 (as
// softmax_rows); with one, such a row gives the sink all the weight. sink_weight (n entries) receives
// exp(s - M) / Z per row when given.
Matrix softmax_rows_with_sink(const Matrix& logits, std::optional<double> sink, Vector* sink_weight = nullptr);
MatrixF softmax_rows_with_sink(const MatrixF& logits, std::optional<double> sink, std::vector<float>* sink_weight = nullptr);

}  // namespace posenc
