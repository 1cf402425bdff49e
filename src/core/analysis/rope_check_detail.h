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

double round_bf16(double v);
double round_fp16(double v);
double apply_round(Round r, double v);
const char* round_name(Round r);
std::string num(double v);

// Everything a hypothesis may change: the reference is one Setting, every cause another.
struct Setting {
  std::vector<double> inv_freq;  // rotary pairs
  double magnitude = 1.0;        // cos/sin multiplier (attention_scaling)
  RopeLayout layout = RopeLayout::Half;
  bool pair_by_head_half = false;  // half layout pairing (i, i + dim/2) instead of (i, i + rotary_dim/2)
  int64_t offset = 0;
  double sin_sign = 1.0;
  Round inv_round = Round::None, angle_round = Round::None;
  double logit_scale = 1.0;
};

struct Problem {
  RopeCheckReference ref;  // normalised: rotary_dim and softmax_scale set
  CheckKind kind = CheckKind::Cos;
  int dim = 0, rotary_dim = 0, pairs = 0;
  bool half_width = false;  // cos/sin given as n x rotary_dim/2
  std::vector<int64_t> positions;
  const Matrix* x = nullptr;
  const Matrix* q = nullptr;
  const Matrix* k = nullptr;
  Eigen::Index rows = 0, cols = 0;  // shape of the tensor
};

double angle(const Setting& s, int64_t p, int i);
std::pair<Eigen::Index, Eigen::Index> pair_columns(const Problem& pb, const Setting& s, int i);
Matrix rotate_rows(const Problem& pb, const Setting& s, const Matrix& m, const std::vector<Eigen::Index>& idx);
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

// The catalogue: every cause fitted to `actual` (a mismatch of `expected`, the reference setting's tensor),
// best first, after the naming rules; `unknown` first when no cause explains half of the squared error.
std::vector<RopeCheckDiagnosis> diagnose(const Problem& pb, const Setting& ref, const Matrix& expected, const Matrix& actual);

}  // namespace posenc::rope_check_detail
