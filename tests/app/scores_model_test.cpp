// The scores view's computation (app/views/scores_model.h), for every scheme with and without the causal
// mask: the float32 pictures (the core's kernels) agree with the double-precision core on every cell, the
// masked cells are marked, one exact row equals that row of the whole exact job (to rounding), and the scheme table
// holds the URL names in the enum's order.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "app/masked_cell.h"
#include "app/views/scores_model.h"
#include "core/models/model_config.h"
#include "model_io/presets.h"

using posenc::AttentionResult;
using posenc::MatrixF;
using posenc::RopePosition;
using posenc::app::kMaskedCell;
using posenc::app::ScoresModel;
using posenc::app::ScoresPicture;
using posenc::app::ScoresScheme;

namespace {

constexpr ScoresScheme kAll[] = {ScoresScheme::None,    ScoresScheme::Sinusoidal, ScoresScheme::Rope,
                                 ScoresScheme::T5,      ScoresScheme::Alibi,      ScoresScheme::Shaw,
                                 ScoresScheme::Deberta, ScoresScheme::Xl,         ScoresScheme::Learned};

const ScoresPicture* picture(ScoresModel& m, const std::string& figure) {
  for (const ScoresPicture& p : m.pictures())
    if (p.figure == figure) return &p;
  return nullptr;
}

}  // namespace

TEST(ScoresModel, TableHoldsEverySchemeInEnumOrderWithItsUrlName) {
  const std::vector<std::string> names = {"none", "sinusoidal", "rope", "t5", "alibi", "shaw", "deberta", "xl", "learned"};
  ASSERT_EQ(posenc::app::scores_scheme_names().size(), names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(posenc::app::scores_scheme_names()[i], names[i]);
    EXPECT_EQ(posenc::app::scores_scheme(kAll[i]).scheme, kAll[i]);
    EXPECT_STREQ(posenc::app::scores_scheme(kAll[i]).name, names[i].c_str());
  }
  // Only the sinusoidal scheme adds position vectors instead of a position term (absolute attention).
  for (ScoresScheme s : kAll) EXPECT_EQ(posenc::app::scores_scheme(s).position == nullptr, s == ScoresScheme::Sinusoidal);
}

TEST(ScoresModel, PicturesAgreeWithTheExactCoreForEveryScheme) {
  const int n = 24;
  for (ScoresScheme scheme : kAll)
    for (bool causal : {false, true}) {
      SCOPED_TRACE(std::string(posenc::app::scores_scheme(scheme).name) + (causal ? " causal" : ""));
      ScoresModel m;
      m.keys.scheme = scheme;
      m.keys.d = 16;
      m.keys.causal = causal;
      m.keys.clip = 3;
      RopePosition rope;
      rope.base = m.keys.base;
      m.compute(n, 1, nullptr, rope);
      ASSERT_TRUE(m.computed());
      const AttentionResult exact = m.exact(-1);
      const ScoresPicture* total = picture(m, "total");
      const ScoresPicture* weights = picture(m, "weights");
      ASSERT_TRUE(total && weights && total->values && weights->values);
      ScoresPicture logits_picture = *total;
      m.mask_picture(logits_picture);
      const MatrixF& logits = *logits_picture.values;
      ASSERT_EQ(logits.rows(), n);
      ASSERT_EQ(logits.cols(), n);
      // Terms: as many pictures as the core's terms when there is more than one.
      EXPECT_EQ(m.pictures().size(), exact.terms.size() > 1 ? exact.terms.size() + 2 : size_t(2));
      for (int i = 0; i < n; ++i) {
        const AttentionResult& row = m.exact_row(i);
        for (int j = 0; j < n; ++j) {
          EXPECT_EQ(row.masked(0, j), exact.masked(i, j));
          EXPECT_EQ(exact.masked(i, j), causal && j > i) << i << "," << j;
          if (exact.masked(i, j)) {
            EXPECT_EQ(logits(i, j), kMaskedCell) << i << "," << j;
            continue;
          }
          EXPECT_NEAR(row.logits(0, j), exact.logits(i, j), 1e-12 * (1 + std::abs(exact.logits(i, j)))) << i << "," << j;
          EXPECT_NEAR(logits(i, j), exact.logits(i, j), 1e-4 * (1 + std::abs(exact.logits(i, j)))) << i << "," << j;
          EXPECT_NEAR((*weights->values)(i, j), exact.weights(i, j), 1e-5) << i << "," << j;
        }
      }
    }
}

TEST(ScoresModel, PreviewGridKeepsEveryStrideThRowAndTheLast) {
  ScoresModel m;
  m.keys.scheme = ScoresScheme::Alibi;
  RopePosition rope;
  m.compute(10, 4, nullptr, rope);
  EXPECT_EQ(m.grid(), (std::vector<int64_t>{0, 4, 8, 9}));
  EXPECT_EQ(picture(m, "total")->values->rows(), 4);
  EXPECT_EQ(m.rows(), 10);  // the exact rows stay whole
}

// Gemma-4-31B-it in the scores view: the keys hold the full_attention layers' RoPE, whose heads are global_head_dim
// 512 wide (huggingface/transformers@c308a309e651a7e033f683353f3f75aa66d29502 models/gemma4/modeling_gemma4.py,
// Gemma4TextAttention), not head_dim 256: d is clamped from 512 to the view's 256, and a notice says so.
TEST(ScoresModel, Gemma4FullLayerWidthIsNamedWhenClamped) {
  ScoresModel s;
  const posenc::ModelPosition m = posenc::read_hf_config(posenc::model_io::preset_config("gemma-4-31b"));
  const posenc::app::ModelFill f = s.fill_from_model(m);
  EXPECT_EQ(s.keys.d, 256);
  EXPECT_EQ(s.keys.rotary_dim, 0);  // all of d: proportional RoPE over the whole (clamped) head
  bool named = false;
  for (const auto& n : f.gaps) named |= n.message.find("full_attention head width 512 is outside") != std::string::npos;
  EXPECT_TRUE(named);
  // A model whose RoPE is head_dim wide: d = head_dim, no width notice.
  const posenc::app::ModelFill llama = s.fill_from_model(posenc::read_hf_config(posenc::model_io::preset_config("llama-3.1-8b")));
  EXPECT_EQ(s.keys.d, 128);
  for (const auto& n : llama.gaps) EXPECT_EQ(n.message.find("head width"), std::string::npos) << n.message;
}
