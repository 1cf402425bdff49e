// The tensor check's float32 tolerance on every shipped model: each preset's (and each of its layer types')
// RoPE, every kind, its own tensors match with a finite tolerance (no pair of frequency 0 makes it NaN).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../common/test_util.h"
#include "core/analysis/rope_check.h"
#include "core/models/model_config.h"
#include "model_io/presets.h"

using namespace posenc;
using posenc::test::random_matrix;

TEST(RopeCheckFloat32, ToleranceIsFiniteForEveryPresetAndKind) {
  // Every shipped model (each of its layer types' RoPE): its own tensors match with a finite tolerance.
  const auto pos = posenc::test::iota(24);
  int checked = 0;
  for (const model_io::ModelPreset& p : model_io::model_presets()) {
    const ModelPosition m = read_hf_config(model_io::preset_config(p.id));
    if (m.position != PositionKind::Rope || !m.rope) continue;
    std::vector<std::string> types = {""};
    for (const auto& [name, r] : m.layers) types.push_back(name);
    for (const std::string& lt : types) {
      const RopeCheckReference ref = rope_check_reference(m, lt);
      const int r = ref.rotary_dim ? ref.rotary_dim : ref.dim;
      for (auto kind : {CheckKind::InvFreq, CheckKind::Cos, CheckKind::Sin, CheckKind::Rotated, CheckKind::Logits}) {
        RopeCheckInput in;
        in.kind = kind;
        if (kind != CheckKind::InvFreq) in.positions = pos;
        in.actual = kind == CheckKind::InvFreq   ? Matrix::Zero(1, r / 2)
                    : kind == CheckKind::Logits  ? Matrix::Zero(24, 24)
                    : kind == CheckKind::Rotated ? Matrix::Zero(24, ref.dim)
                                                 : Matrix::Zero(24, r);
        if (kind == CheckKind::Rotated) in.x = random_matrix(24, ref.dim, 8);
        if (kind == CheckKind::Logits) in.q = random_matrix(24, ref.dim, 9), in.k = random_matrix(24, ref.dim, 10);
        in.actual = rope_check_expected(ref, in);
        const RopeCheckResult res = rope_check(ref, in);
        const std::string what = p.id + (lt.empty() ? "" : " " + lt) + " " + check_kind_name(kind);
        EXPECT_TRUE(res.match) << what;
        ASSERT_TRUE(res.tolerance.allFinite()) << what;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 50);
}
