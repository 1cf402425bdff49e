// Which rotary frequencies a trained model's q/k projections use, from its weights: per layer, q head and
// rotary pair, the Frobenius norms of the pair's two rows of W_q and W_k (input-norm gain folded into the
// columns, per-dim q/k-norm gain into the rows), their product and its share of the head's total
// (docs/weights.md has the definitions and what they do and do not mean).
//
// One code path for the CLI and the page, in a "plan and feed" shape that needs no file access and no async
// C++: the caller lists the tensors the files declare (WeightTensor: safetensors or GGUF headers, read by
// model_io and gguf.h), builds a QkUsageAnalysis, reads each WeightRange of plan() in order and feeds its
// bytes (any chunking), then calls finish(). Memory stays bounded by the model's q/k row counts and norm
// widths: no tensor is ever held whole (a block split between chunks is carried, at most 210 bytes).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/models/config_value.h"
#include "core/models/gguf.h"
#include "core/models/model_config.h"
#include "core/weights/weight_decode.h"
#include "core/noncopyable.h"

namespace posenc {

// One tensor as a file's header declares it.
struct WeightTensor {
  std::string name;
  int file = 0;                      // index into the caller's list of files
  std::optional<WeightDType> dtype;  // nullopt: a type posenc does not decode (dtype_name says which)
  std::string dtype_name;            // as the file spells it ("BF16", "Q4_K", "F64", "IQ2_XS")
  std::vector<int64_t> shape;        // outermost first, as torch has it (a GGUF's ne reversed): [rows, cols]
  uint64_t offset = 0;               // absolute byte offset of the data in its file
  uint64_t bytes = 0;                // bytes the data takes (checked against dtype and shape by the analysis)
  uint64_t file_size = 0;            // the size of its file (the data must end inside it)
};

// The names of a family's tensors, each a pattern with {i} for the layer index, alternatives in order
// (model_io fills it from data/weight_tensors.json).
struct QkTensorNames {
  // Phi-3's [q | k | v] blocks; GPT-NeoX's q, k, v within each head; CodeGen's qkv_mp_num blocks, each
  // [q | v | k] of heads / qkv_mp_num consecutive heads.
  enum class Fused { Blocks, PerHead, MpQvk };
  std::vector<std::string> q, k, qkv, input_norm, q_norm, k_norm;
  Fused qkv_split = Fused::Blocks;
  int qkv_mp_num = 0;  // MpQvk's block count
  // MLA (DeepSeek-V2 / V3, Kimi K2): q's rope rows from q_b_proj (after q_a_layernorm) or q_proj; k's rope
  // rows, the last qk_rope_head_dim of kv_a_proj_with_mqa.
  std::vector<std::string> mla_q_a_norm, mla_q_b, mla_kv_a;
  bool input_norm_required = true;  // false where the family has no norm before attention (OLMo 2)
  // The model normalises q and k per head (QK-norm): a layer whose files hold no q/k norm gain is read with
  // gains 1 and an assumption says so.
  bool qk_norm_expected = false;
  // Gemma's RMSNorm multiplies by (1 + w): the gain is 1 + the stored value (input norm; q/k norms where
  // qk_norm_one_plus).
  bool norm_one_plus = false, qk_norm_one_plus = false;
  std::string source;  // the reference the names come from
};

// The attention shapes the weights must have (from config.json or the GGUF header).
struct WeightShapes {
  int heads = 0, kv_heads = 0, hidden = 0;
  int global_kv_heads = 0;  // Gemma 4's attention_k_eq_v: its non-sliding layers' KV heads (0: kv_heads)
  // MLA: q_lora_rank (0: q_proj straight from the input), kv_lora_rank, and the q/k head's nope + rope parts.
  bool mla = false;
  int q_lora_rank = 0, kv_lora_rank = 0, qk_nope_head_dim = 0, qk_rope_head_dim = 0;
};

// The shapes from a config.json (text_config when the model keeps its language model there), errors naming
// the key; `m` is read_hf_config's reading of the same config.
WeightShapes weight_shapes_from_config(const ConfigValue& config, const ModelPosition& m);
// The shapes from a GGUF header (llama.cpp's keys: <arch>.attention.head_count, head_count_kv,
// embedding_length, q_lora_rank, kv_lora_rank, rope.dimension_count, key_length_mla / key_length).
WeightShapes weight_shapes_from_gguf(const GgufHeader& h, const ModelPosition& m);

// The tensors a GGUF header declares, offsets made absolute (the data section starts at the header's end
// rounded up to general.alignment, default 32), each checked to lie inside `file_size`.
std::vector<WeightTensor> gguf_weight_tensors(const GgufHeader& h, uint64_t file_size, int file);

// The pairs as the model rotates them: inv_freq (the model's own, scaling applied), wavelength 2 pi /
// inv_freq (+inf at frequency 0: Gemma 4's proportional pairs), turns over the trained length, and the
// M-RoPE axis of each pair (empty without M-RoPE; 0 t, 1 h, 2 w).
struct QkPairs {
  std::vector<double> inv_freq, wavelength, turns;
  std::vector<int> mrope_axis;
  bool operator==(const QkPairs&) const = default;
};

struct QkHeadUsage {
  int head = 0, kv_head = 0;
  std::vector<double> q_norm, k_norm, qk, qk_share;  // qk_share empty when the head's qk sum is 0
  std::optional<double> semantic_share;              // nullopt when the head's qk sum is 0
  std::vector<int> top_pairs;                        // up to 8 pair indices, largest qk_share first
};

struct QkLayerUsage {
  int layer = 0;
  bool rope = true;                  // false: position "none", no numbers
  std::string kind;                  // layer_attention_name (full, sliding, chunked, linear, ...)
  std::optional<QkPairs> own_pairs;  // a layer whose frequencies differ from the model's
  std::vector<QkHeadUsage> heads;
};

struct QkUsage {
  std::string model_type;
  int rotary_dim = 0;
  RopeLayout layout = RopeLayout::Half;  // the pairing used for the rows as the file stores them
  int64_t trained_length = 0;
  QkPairs pairs;
  std::vector<QkLayerUsage> layers;
  uint64_t tensors_read = 0, bytes_read = 0;  // bytes_read: the plan's ranges (the caller adds its headers)
  std::vector<Assumption> assumptions;
  std::vector<std::string> unread_keys;
};

// One contiguous byte range the caller reads and feeds, in plan order.
struct WeightRange {
  int file = 0;
  uint64_t offset = 0, length = 0;
  std::string tensor;  // for progress and messages
};

enum class WeightFormat { Safetensors, Gguf };

// The pairs of one RoPE over `trained_length` (the frequency part of QkUsage; the `model` op's inv_freq).
QkPairs qk_pairs(const ModelRope& r, int64_t trained_length);

// The shared share-of-norm numbers of one head from its per-pair norms (qk, qk_share, semantic_share,
// top_pairs): the definitions of docs/weights.md in one place.
void qk_head_numbers(QkHeadUsage& head, const QkPairs& pairs);

class QkUsageAnalysis : NonCopyable {
 public:
  // Everything is checked here, before a byte of tensor data is read: every tensor named (the first
  // alternative found; none found: InvalidArgument naming what was looked for), its dtype (field = the
  // tensor's name), its shape against the shapes, its range inside its file. `layers`: 0-based layer
  // indices to read (empty: all).
  QkUsageAnalysis(const ModelPosition& model, const WeightShapes& shapes, const QkTensorNames& names,
                  std::span<const WeightTensor> tensors, WeightFormat format, std::vector<int> layers = {});
  ~QkUsageAnalysis();

  const std::vector<WeightRange>& plan() const { return plan_; }
  uint64_t total_bytes() const { return total_bytes_; }
  int total_tensors() const;
  // The next bytes of the plan (range after range, in order; any chunk size). Throws InvalidArgument when
  // more bytes arrive than the plan has.
  void feed(std::span<const uint8_t> bytes);
  uint64_t bytes_done() const { return bytes_done_; }
  int ranges_done() const { return static_cast<int>(range_); }
  // The numbers, once every range was fed (InvalidArgument "weights" otherwise).
  QkUsage finish();

  struct Impl;  // the jobs behind the plan and the sums they fill (qk_usage.cpp)

 private:
  Impl* impl_;
  std::vector<WeightRange> plan_;
  uint64_t total_bytes_ = 0, bytes_done_ = 0, range_start_ = 0;
  std::size_t range_ = 0;
};

// "0,3,5-7" as layer indices (0-based, each < layer_count); InvalidArgument with field `field` otherwise.
std::vector<int> parse_layer_list(const std::string& text, int layer_count, const std::string& field);

}  // namespace posenc
