// The pieces of the RoPE tensor check (rope_check.h) shared by its files: one way of computing the tensor
// (a Setting) for a Problem, the renderer, the fits, and the catalogue of causes. Internal to core/analysis.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/rope_check.h"

namespace posenc::rope_check_detail {

inline constexpr double kUnitRoundoff = 0x1p-24;  // float32: half an ulp of 1
inline constexpr int kFitRows = 256;              // positions the fits run on
inline constexpr int kMaxKept = 6;                // diagnoses reported
inline constexpr double kTie = 1e-4;              // explains within this are the same fit (preference rules decide)

enum class Round { None, Bf16, Fp16 };

double apply_round(Round r, double v);
const char* round_name(Round r);
std::string num(double v);

// Everything a hypothesis may change: the reference is one Setting, every cause another.
struct Setting {
  std::vector<double> inv_freq;  // the rotating pairs (the reference: rotary_dim/2)
  double magnitude = 1.0;        // cos/sin multiplier (attention_scaling)
  RopeLayout layout = RopeLayout::Half;
  int span = 0;              // half layout: pair i is (i, i + span); 0 = the reference's rotary_dim/2
  int64_t offset = 0;        // added to every position
  int64_t head_offset = 0;   // head h reads its positions + h * head_offset
  int64_t cache_length = 0;  // > 0: positions >= cache_length read row cache_length - 1, or p mod it
  bool cache_wrap = false;
  std::vector<char> unrotated;                 // per row (cos, sin, rotated): left as x (cos 1, sin 0)
  std::vector<char> unrotated_q, unrotated_k;  // logits: per query / key row
  int alias = 0;  // rotated: 1 = out_b from the already written out_a, 2 = out_a from the written out_b
  double sin_sign = 1.0;
  int column_offset = 0;     // the first rotating column of a dim-wide row (the reference's rotary_offset)
  double angle_scale = 1.0;  // every angle times this (RoPE applied twice: 2)
  // Half-precision roundings along the angle path: the position, inv_freq (or the timescale 1 / inv_freq), the
  // product p * inv_freq, and cos / sin themselves.
  Round position_round = Round::None, inv_round = Round::None, angle_round = Round::None, timescale_round = Round::None,
        trig_round = Round::None;
  double logit_scale = 1.0;
};

struct Problem {
  RopeCheckReference ref;  // normalised: rotary_dim and softmax_scale set
  CheckKind kind = CheckKind::Cos;
  int dim = 0, rotary_dim = 0, pairs = 0;
  bool half_width = false;         // cos/sin given as n x rotary_dim/2
  int heads = 0;                   // the input's heads axis (0: none); rows are head after head
  Eigen::Index n = 0;              // positions per head
  std::vector<int64_t> positions;  // per row of the tensor (each head repeats the input's positions)
  const Matrix* x = nullptr;
  const Matrix* q = nullptr;
  const Matrix* k = nullptr;
  Eigen::Index rows = 0, cols = 0;  // shape of the tensor
  int64_t head_of(Eigen::Index row) const { return heads > 0 && n > 0 ? row / n : 0; }
};

// The position row `row` is rotated at under the setting (offsets, the head's offset, a short cache).
int64_t position_of(const Problem& pb, const Setting& s, Eigen::Index row);
// Pair i's frequency as the setting computes it (inv_freq or its timescale rounded).
double angle_frequency(const Setting& s, int i);
double angle(const Problem& pb, const Setting& s, Eigen::Index row, int i);
// cos(a) or sin(a) times the setting's magnitude (and sin's sign), rounded as the setting rounds them.
double trig_value(const Setting& s, double a, bool is_cos);
std::pair<Eigen::Index, Eigen::Index> pair_columns(const Problem& pb, const Setting& s, int i);
// The rows `idx` of m (x, q or k) rotated by the setting; `unrotated` (per row of m, may be empty) keeps rows.
Matrix rotate_rows(const Problem& pb, const Setting& s, const Matrix& m, const std::vector<Eigen::Index>& idx,
                   const std::vector<char>& unrotated);
int cos_column_pair(const Problem& pb, RopeLayout layout, Eigen::Index c);
Matrix render(const Problem& pb, const Setting& s, const std::vector<Eigen::Index>& idx);
Matrix restrict_rows(const Problem& pb, const Matrix& m, const std::vector<Eigen::Index>& idx);
double sse(const Matrix& a, const Matrix& b);
Setting setting_of(const Problem& pb, const RopeCheckReference& r);
std::optional<Setting> try_setting(const Problem& pb, const RopeCheckReference& r);

// Row subsets for the fits: positions sorted by |p| in levels of growing reach (|p| <= 4, 16, 64, ...), each
// at most kFitRows rows evenly taken; the last holds every row (subsampled). A fit starts on the short
// reach, where the squared error is a smooth function of the parameter, and narrows its grid as the reach
// grows (the angle p * w changes 4x faster with the parameter at each level).
struct FitLevels {
  std::vector<std::vector<Eigen::Index>> levels;
  std::vector<Matrix> actual;  // the actual tensor restricted to each level
  double first_reach = 4;
};

std::vector<Eigen::Index> subsample(std::vector<Eigen::Index> idx, size_t limit);
FitLevels make_levels(const Problem& pb, const Matrix& actual);
double fit_scalar(const Problem& pb, const FitLevels& fl, double lo, double hi,
                  const std::function<std::optional<Setting>(double)>& make);
std::vector<Eigen::Index> all_rows(const Problem& pb);

// Per-pair relative angle error of a correct float32 computation (docs/cli.md, "The default tolerance"):
// rho_i = 2 (3 ln+(1/w_i) + 7 + 3 i) u; 0 for a pair of frequency 0 (its angle is exactly 0).
std::vector<double> angle_rel_error(const std::vector<double>& inv_freq);

// The per-element tolerance of the comparison (docs/cli.md's float32 rule, or the user's abs + rel x
// |expected|), computed where it is read: a 2^24-element check holds no third tensor of its size for it.
// Logits (at most 2048^2) keep theirs whole: it is a matrix product.
class ToleranceField {
 public:
  ToleranceField(const Problem& pb, const Setting& ref, const Matrix& expected, const std::optional<RopeCheckTolerance>& given);
  double at(Eigen::Index r, Eigen::Index c) const;
  Matrix whole() const;

 private:
  double dtheta(int64_t p, int i) const;  // a pair's angle error at position p (the float32 rule)
  const Problem& pb_;
  const Setting& ref_;
  const Matrix& expected_;
  std::optional<RopeCheckTolerance> given_;
  std::vector<double> rho_;          // the float32 rule's per-pair relative angle error
  double a_ = 1.0;                   // |magnitude|
  std::vector<int> pair_of_column_;  // rotated: the pair of each column, -1 for a pass-through column
  Matrix logits_;                    // logits: the whole tolerance
};

// A cause's predicted tensor: `scale` x the setting's tensor, rendered where it is scored (a block of rows at a
// time) and once more for the first diagnosis's picture; or a tensor computed whole (the logits' causes).
struct Prediction {
  std::optional<Setting> setting;
  double scale = 1.0;
  Matrix tensor;
};

// The catalogue. Each member function fits one cause and add()s its prediction (causes of the frequencies
// in rope_check_causes.cpp, of positions, rows, heads and magnitudes in rope_check_rows.cpp).
struct Diagnoser {
  struct Scored {
    RopeCheckDiagnosis d;
    Prediction p;
  };
  using Fitted = std::vector<std::pair<std::string, CheckFitValue>>;

  const Problem& pb;
  const Setting& ref;
  const Matrix& expected;
  const Matrix& actual;
  const ToleranceField& tolerance;
  const FitLevels& fl;
  bool keep_tensors = true;  // keep predicted tensors for the first diagnosis's picture
  double base_sse = 0;
  std::vector<Scored> out;

  double explains(const Prediction& p) const;
  void add(CheckCause cause, Prediction p, Fitted fitted, std::string message, std::string fix);
  void add(CheckCause cause, const Setting& s, Fitted fitted, std::string message, std::string fix) {
    add(cause, Prediction{s, 1.0, {}}, std::move(fitted), std::move(message), std::move(fix));
  }
  void add(CheckCause cause, Matrix predicted, Fitted fitted, std::string message, std::string fix) {
    add(cause, Prediction{std::nullopt, 1.0, std::move(predicted)}, std::move(fitted), std::move(message), std::move(fix));
  }
  Matrix full(const Setting& s) const { return render(pb, s, all_rows(pb)); }
  Matrix full(const Prediction& p) const;
  // Calls f(first row, rows) over the tensor's rows a block at a time (logits and inv_freq: all at once, their
  // render is not row by row); f(first, idx) may render the setting's tensor on idx.
  void each_block(const std::function<void(Eigen::Index, const std::vector<Eigen::Index>&)>& f) const;
  // Sum of (actual - scale x the setting's tensor)^2 in storage order, a block at a time (sse's value).
  double setting_sse(const Setting& s, double scale) const;
  RopeCheckReference with(const std::function<void(RopeCheckReference&)>& change) const;
  double level_sse(const Setting& s) const;  // squared error on the last fit level (<= kFitRows rows)

  // Frequencies (rope_check_causes.cpp).
  void layout();
  void angle_precision();
  void angle_scale();
  void base();
  void scaling_missing();
  void scaling_factor();
  void yarn_truncate();
  void longrope_switch();
  void dynamic_seq_len();
  void partial_rotary();
  void pairing_span();
  void rotary_offset();
  // Positions, rows, heads, magnitudes (rope_check_rows.cpp).
  void magnitude();
  void logit_ratio();
  void position_offset();
  void rotation_direction();
  void row_constant();
  void cache_length();
  void unrotated_rows();
  void norm_violation();
  void head_offset();
  void unrotated_heads();
};

// The catalogue run on `actual` (a mismatch of `expected`, the reference setting's tensor): best first,
// after the naming rules; `unknown` first when no cause explains half of the squared error. With keep_tensors,
// the first diagnosis carries its predicted tensor.
std::vector<RopeCheckDiagnosis> diagnose(const Problem& pb, const Setting& ref, const Matrix& expected, const Matrix& actual,
                                         const ToleranceField& tolerance, bool keep_tensors);

}  // namespace posenc::rope_check_detail
