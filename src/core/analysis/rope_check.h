// Checks a user's RoPE tensor against posenc's reference and names the porting bug that explains the
// difference. The reference is one RoPE setting (dim, base, scaling, layout, rotary_dim, softmax scale);
// the tensor is one of five kinds (inv_freq, cos, sin, rotated rows, attention logits), cos / sin / rotated
// optionally with a leading heads axis. Each catalogued cause is a family of tensors (the reference with
// one thing done wrong, as a public bug report did it), fitted to the user's tensor by its own parameter
// (factor, base, offset, seq_len, ratio, length, rows, ...) and scored by the fraction of the squared error
// it removes. docs/cli.md lists every cause with its signature and fit. Files: rope_check.cpp (validation,
// tolerance, comparison), rope_check_render.cpp (the renderer and the fits), rope_check_causes.cpp (causes
// of the frequencies), rope_check_rows.cpp (causes of positions, rows, heads and magnitudes).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/encodings/rope.h"
#include "core/models/model_config.h"
#include "core/names.h"
#include "core/types.h"

namespace posenc {

enum class CheckKind { InvFreq, Cos, Sin, Rotated, Logits };
template <>
struct EnumNames<CheckKind> {
  static constexpr std::array<const char*, 5> names{"inv_freq", "cos", "sin", "rotated", "logits"};
};

// The cause ids of the diagnosis, in the order of the catalogue.
enum class CheckCause {
  Layout,             // half vs interleaved pairing swapped
  AnglePrecision,     // steps of the angle path (positions, inv_freq, angle, cos / sin) rounded to bfloat16 / float16
  AngleScale,         // every angle times a constant (RoPE applied twice, positions doubled)
  Base,               // another rope_theta
  ScalingMissing,     // the scaling not applied at all (plain RoPE with the same base)
  ScalingFactor,      // the same scaling with another factor
  YarnTruncate,       // YaRN's correction range rounded (or not) against the reference's `truncate`
  AttentionFactor,    // cos/sin magnitude (YaRN / LongRoPE attention_factor) missing, doubled or wrong
  SoftmaxScale,       // logits scaled by another softmax scale (e.g. DeepSeek's mscale^2 missing)
  LongropeSwitch,     // LongRoPE's other factor set (short vs long chosen at the wrong length)
  DynamicSeqLen,      // dynamic NTK evaluated for another sequence length (or a constant one)
  PartialRotary,      // partial rotary: exponent over head_dim, or pairs offset by head_dim/2
  RotaryOffset,       // the rotary slice at the other end of the head (MLA's rope dims last, rotated first)
  PositionOffset,     // positions shifted by a constant (off by one)
  RotationDirection,  // sin sign flipped: rotation by -angle
  RowConstant,        // logits differ by a per-row constant (softmax ignores it)
  PairingSpan,        // pairs (i, i + s) at another span s than the reference's (proportional / partial)
  CacheLength,        // a cos/sin cache shorter than the positions: rows p >= L read row L-1 or p mod L
  UnrotatedRows,      // rows left as x (the current key cached unrotated, or RoPE never applied)
  NormViolation,      // pairs that do not keep their norm (an in-place kernel reading its own output)
  HeadOffset,         // the head index added to the position
  UnrotatedHeads,     // some heads left as x
  Unknown,            // nothing catalogued explains at least half of the squared error
};
template <>
struct EnumNames<CheckCause> {
  static constexpr std::array<const char*, 23> names{"layout",
                                                     "angle_precision",
                                                     "angle_scale",
                                                     "base",
                                                     "scaling_missing",
                                                     "scaling_factor",
                                                     "yarn_truncate",
                                                     "attention_factor",
                                                     "softmax_scale",
                                                     "longrope_switch",
                                                     "dynamic_seq_len",
                                                     "partial_rotary",
                                                     "rotary_offset",
                                                     "position_offset",
                                                     "rotation_direction",
                                                     "row_constant",
                                                     "pairing_span",
                                                     "cache_length",
                                                     "unrotated_rows",
                                                     "norm_violation",
                                                     "head_offset",
                                                     "unrotated_heads",
                                                     "unknown"};
};

// The reference RoPE setting. Errors name fields under "reference." ("reference.dim",
// "reference.scaling.factor").
struct RopeCheckReference {
  int dim = 0;         // head dim (the width of x, q, k)
  int rotary_dim = 0;  // dims that rotate (0 = dim); the rest pass through
  // The first rotating column: 0, or dim - rotary_dim where the rope slice is last (MLA: q = [q_nope, q_pe],
  // transformers modeling_deepseek_v3.py torch.split(q, [qk_nope_head_dim, qk_rope_head_dim])).
  int rotary_offset = 0;
  double base = 10000.0;
  RopeScaling scaling;  // dynamic / longrope without seq_len: max(positions) + 1, as rope_apply
  RopeLayout layout = RopeLayout::Half;
  std::optional<double> softmax_scale;  // logits' scale; default 1/sqrt(dim)
};

// The reference of one model as read from its config (read_hf_config): the RoPE of `layer_type` when the
// model has per-layer-type settings ("" = the full-attention one). Throws InvalidArgument with field
// "reference.layer_type" for an unknown layer type and "reference.config" when the model has no RoPE.
RopeCheckReference rope_check_reference(const ModelPosition& model, const std::string& layer_type = "");

// A user tolerance: element e matches iff |actual - expected| <= abs + rel * |expected|.
struct RopeCheckTolerance {
  double abs = 0.0;
  double rel = 0.0;
};

// The user's tensor and what it was computed from. Shapes (n = positions.size(), r = rotary_dim):
//   inv_freq: r/2 numbers (1 x r/2 or r/2 x 1); positions optional (they only set a dynamic/longrope length)
//   cos, sin: n x r (transformers' cat(freqs, freqs) for half, repeat-interleaved for interleaved) or n x r/2
//   rotated:  n x dim, the rows of x (n x dim) rotated at positions; with a rotary_offset also the rope slice
//             alone, n x rotary_dim (x and actual both that wide)
//   logits:   n x n, q (n x dim) and k (n x dim) rotated at positions (query = key positions), times the
//             reference's softmax scale, no mask; always the full head (the slice alone is not the logits)
// cos, sin and rotated take a heads axis: heads = H >= 1 means `actual` (and `x`) hold H blocks of n rows,
// head after head (H x n x width stacked to (H n) x width); every head is at the same positions.
// A wrong shape throws InvalidArgument naming "actual" (or "x", "q", "k", "positions" when those disagree).
struct RopeCheckInput {
  CheckKind kind = CheckKind::Cos;
  Matrix actual;
  std::vector<int64_t> positions;
  Matrix x, q, k;
  int heads = 0;                                // 0: no heads axis
  std::optional<RopeCheckTolerance> tolerance;  // unset: the float32 rule (docs/cli.md)
  // The result keeps the per-element tolerance and the first diagnosis's predicted tensor (the Check view's
  // pictures). Off (posenc check, the check op), a check holds the tensors it was given and the expected one,
  // nothing else of their size: the numbers are the same, a 2^24-element check fits in 512 MB.
  bool keep_tensors = true;
};

// A fitted parameter: a number (factor, base, offset, seq_len, ratio), a name (layout, dtype, factors, mode,
// "all"), a flag (truncate), indices (rows, heads) or names (steps).
using CheckFitValue = std::variant<double, std::string, bool, std::vector<int64_t>, std::vector<std::string>>;

struct RopeCheckDiagnosis {
  CheckCause cause = CheckCause::Unknown;
  double explains = 0.0;  // 1 - |actual - fitted|^2 / |actual - expected|^2, clamped to [0, 1]
  std::vector<std::pair<std::string, CheckFitValue>> fitted;  // in a stable order per cause
  std::string message;                                        // what the fitted numbers say, one sentence
  std::string fix;                                            // what to change, one sentence
  // The tensor this cause predicts (shape of expected): the first diagnosis only, when it explains at least half
  // and the input keeps its tensors (else empty).
  Matrix predicted;
};

struct RopeCheckResult {
  bool match = false;
  Matrix expected;             // the reference tensor, in the shape the actual one was given
  Matrix actual;               // as given (inv_freq as 1 x r/2)
  Matrix tolerance;            // per-element tolerance used for `match` (empty unless the input keeps its tensors)
  double max_tolerance = 0.0;  // its largest element
  double max_abs_error = 0.0;
  double max_rel_error = 0.0;        // |a - e| / |e| over elements with |e| >= 2^-24 * max|expected|
  std::vector<int64_t> worst_index;  // [i] inv_freq, [row, column], [head, row, column]: the largest |a - e|
  int heads = 0;                     // the input's heads axis (0: none)
  // The element nearest its tolerance: max |a - e| / tolerance (0 / 0 counts 0) and where it is.
  double worst_ratio = 0.0;
  std::vector<int64_t> worst_ratio_index;
  double worst_expected = 0.0, worst_actual = 0.0;
  bool default_tolerance = true;  // the float32 rule; else the user's abs/rel
  RopeCheckTolerance given_tolerance;
  double angle_rel = 0.0;                        // the float32 rule's angle coefficient (docs/cli.md), 0 for a given tolerance
  std::vector<RopeCheckDiagnosis> diagnosis;     // empty when match; best first; `unknown` first if no cause
                                                 // explains >= 0.5
  std::optional<bool> equivalent_under_softmax;  // logits only: the error is a per-row constant
  // For pictures: the rotary pair of each column of `expected` (-1 = a pass-through column). inv_freq: one
  // entry per element.
  std::vector<int> column_pair;
};

// Builds the reference, compares, and (on a mismatch) diagnoses. Bounded: at most 2^24 elements in any
// matrix, logits at most 2048 positions; the fits run on at most 256 positions, the scores on all, a block
// of rows at a time (a cause's whole tensor is never held but for the logits' causes and the first
// diagnosis's picture); the tolerance is computed where it is read. The rvalue form moves `actual` into the
// result (one copy fewer of a 2^24-element tensor).
RopeCheckResult rope_check(const RopeCheckReference& reference, const RopeCheckInput& input);
RopeCheckResult rope_check(const RopeCheckReference& reference, RopeCheckInput&& input);

// The shape rules of rope_check alone, before a tensor's values are read: an actual tensor of heads x rows x
// cols (heads 0: no heads axis) at n positions (n < 0: as many as its rows, posenc check's default). Throws
// InvalidArgument("actual" / "positions", ...) as rope_check would.
void rope_check_shape(const RopeCheckReference& reference, CheckKind kind, int64_t rows, int64_t cols, int heads, int64_t n);

// The reference tensor alone (same shape rules as rope_check; `actual` only selects the cos/sin width).
Matrix rope_check_expected(const RopeCheckReference& reference, const RopeCheckInput& input);

// A fitted value as text: numbers with 6 significant digits, true / false, names, [i, j, ...] (at most 16
// indices, then how many in all).
std::string check_fit_text(const CheckFitValue& v);

inline const char* check_kind_name(CheckKind k) { return name_of(k); }
inline const char* check_cause_name(CheckCause c) { return name_of(c); }

}  // namespace posenc
