// What the Check view computes, without ImGui or GL: the user's tensor read through the one check-request
// reader (model_io/check_request.h, posenc eval's), or the built-in example; the check; and the pictures'
// numbers (error per position x pair, the top cause's residual, per-pair maxima and tolerance, each pair's
// class by the core's rule).
#pragma once

#include <string>
#include <vector>

#include "core/analysis/rope_analysis.h"
#include "core/analysis/rope_check.h"

namespace posenc::app {

enum class CheckSource { Example, Text, File };

// The view's text keys as typed: tensors as rows of numbers, positions in the position grammar.
struct CheckTexts {
  std::string tensor, x, q, k, positions;
  double tol_abs = 0, tol_rel = 0;  // both 0: the float32 rule
};

// A dropped tensor file, as read (heads > 0: an H x n x w tensor stacked) or the reader's error.
struct CheckFile {
  Matrix m;
  int heads = 0;
  std::string name, error;
};

struct CheckPictures {
  Matrix error_pp, residual_pp;        // (position x pair) maxima, the pass-through dims last; (query x key) for logits
  std::vector<int> error_col;          // the column each error_pp cell's maximum is in
  std::vector<PairBehaviour> classes;  // per pair (not for logits)
  std::vector<double> pair_error, pair_residual, pair_tolerance;  // per pair (logits: per query row)
  bool has_pass = false, has_residual = false;
  float vmax = 1;
};

struct CheckComputation {
  RopeCheckReference ref;  // as the request reader read it
  RopeCheckInput input;
  RopeCheckResult result;
  std::string example_words;  // what the example is ("" when the tensor is the user's)
  CheckPictures pictures;
};

// The rows of the built-in example when no positions are given.
inline constexpr int kCheckExampleRows = 32;

// Checks the tensor of `source` against `reference` (the view's keys or a model's), through the request
// reader: its errors name the request's fields ("reference.scaling.factor", "actual", "positions", "x", ...).
// `trained_length` classes the pairs (the scaling's original length, or the model's).
CheckComputation compute_check(const RopeCheckReference& reference, CheckKind kind, CheckSource source, const CheckTexts& texts,
                               const CheckFile& file, int64_t trained_length);

// Per position (row) x pair maxima of |err| (logits: err itself); `argmax` gets the column of each maximum.
Matrix check_per_pair(const RopeCheckResult& r, const RopeCheckReference& ref, bool logits, const Matrix& err,
                      std::vector<int>* argmax = nullptr);

}  // namespace posenc::app
