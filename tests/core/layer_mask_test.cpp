// Per-layer attention patterns (core/attention/layer_mask.h) against ports of their references:
//   transformers src/transformers/masking_utils.py at 00c4411cbe15d4c56d54d3b56d4d171e9c289dac:
//     causal_mask_function (kv_idx <= q_idx), sliding_window_overlay (kv_idx > q_idx - sliding_window),
//     sliding_window_bidirectional_overlay (abs(q_idx - kv_idx) <= sliding_window),
//     chunked_overlay ((kv_idx - left_padding) // chunk_size == (q_idx - left_padding) // chunk_size, no padding)
//   transformers src/transformers/models/gpt_oss/modeling_gpt_oss.py at 6edf5b311854175ff83c59179b3360beca1ceffc,
//     eager_attention_forward: combined = cat([attn_weights, sinks], -1); combined -= combined.max(-1);
//     probs = softmax(combined); scores = probs[..., :-1]
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/attention/attention.h"
#include "core/attention/layer_mask.h"
#include "core/attention/score_kernels.h"
#include "test_util.h"

using namespace posenc;
using posenc::test::iota;
using posenc::test::random_matrix;

namespace {

// Python's // on integers (floor division).
int64_t py_floordiv(int64_t a, int64_t b) { return static_cast<int64_t>(std::floor(double(a) / double(b))); }

// The reference mask functions, composed as transformers' and_masks does.
bool reference_allows(MaskKind kind, int64_t w, bool causal, int64_t q_idx, int64_t kv_idx) {
  const bool causal_ok = !causal || kv_idx <= q_idx;
  switch (kind) {
    case MaskKind::Full: return causal_ok;
    case MaskKind::Sliding: return causal ? causal_ok && kv_idx > q_idx - w : std::llabs(q_idx - kv_idx) <= w;
    case MaskKind::Chunked: return causal_ok && py_floordiv(kv_idx, w) == py_floordiv(q_idx, w);
  }
  return false;
}

// gpt-oss eager_attention_forward's softmax with the sink column, for one row.
std::vector<double> reference_sink_softmax(const std::vector<double>& row, double sink) {
  std::vector<double> combined = row;
  combined.push_back(sink);
  double mx = -std::numeric_limits<double>::infinity();
  for (double x : combined) mx = std::max(mx, x);
  double z = 0;
  for (double& x : combined) z += (x = std::exp(x - mx));
  for (double& x : combined) x /= z;
  return combined;  // the last entry is the sink's (dropped by the model)
}

}  // namespace

TEST(LayerMask, MatchesTransformersMaskFunctions) {
  for (MaskKind kind : {MaskKind::Full, MaskKind::Sliding, MaskKind::Chunked})
    for (int64_t w : {1, 2, 3, 5})
      for (bool causal : {true, false})
        for (int64_t q = -7; q <= 9; ++q)
          for (int64_t k = -7; k <= 9; ++k) {
            const LayerMask mask{kind, w, std::nullopt};
            EXPECT_EQ(layer_mask_allows(mask, causal, q, k), reference_allows(kind, w, causal, q, k))
                << int(kind) << " w=" << w << " causal=" << causal << " q=" << q << " k=" << k;
          }
}

TEST(LayerMask, SlidingAndChunkedCellsOnAScoreMatrix) {
  // A query at i sees keys j with i - j < W (W = 3: j in {i-2, i-1, i}); chunks of C = 4: 0-3, 4-7.
  const auto pos = iota(8);
  Matrix logits = Matrix::Zero(8, 8);
  apply_causal_mask(logits, pos, pos);
  apply_layer_mask(logits, pos, pos, LayerMask{MaskKind::Sliding, 3, std::nullopt}, true);
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) EXPECT_EQ(std::isinf(logits(i, j)), !(j <= i && i - j < 3)) << i << "," << j;
  MatrixF f = MatrixF::Zero(8, 8);
  apply_layer_mask(f, pos, pos, LayerMask{MaskKind::Chunked, 4, std::nullopt}, true);
  EXPECT_FALSE(std::isinf(f(5, 4)));
  EXPECT_TRUE(std::isinf(f(4, 3)));  // other chunk
  EXPECT_TRUE(std::isinf(f(5, 6)));  // after the query
  EXPECT_FALSE(std::isinf(f(3, 0)));
}

TEST(LayerMask, SinkSoftmaxMatchesGptOss) {
  // Hand value: logits (0, ln 2), sink 0: exp terms 1/2, 1, 1/2 over max ln 2 -> (1/4, 1/2), sink 1/4.
  Matrix two(1, 2);
  two << 0.0, std::log(2.0);
  Vector sw;
  const Matrix w2 = softmax_rows_with_sink(two, 0.0, &sw);
  EXPECT_NEAR(w2(0, 0), 0.25, 1e-15);
  EXPECT_NEAR(w2(0, 1), 0.5, 1e-15);
  EXPECT_NEAR(sw[0], 0.25, 1e-15);

  const Matrix logits = random_matrix(5, 7, 11) * 3.0;
  for (double sink : {-4.0, 0.0, 0.7, 9.0}) {
    const Matrix w = softmax_rows_with_sink(logits, sink, &sw);
    for (int i = 0; i < 5; ++i) {
      std::vector<double> row(logits.row(i).data(), logits.row(i).data() + 7);
      const std::vector<double> ref = reference_sink_softmax(row, sink);
      for (int j = 0; j < 7; ++j) EXPECT_NEAR(w(i, j), ref[size_t(j)], 1e-15);
      EXPECT_NEAR(sw[i], ref[7], 1e-15);
      EXPECT_NEAR(w.row(i).sum() + sw[i], 1.0, 1e-14);
      EXPECT_LT(w.row(i).sum(), 1.0);  // the sink takes its share
    }
  }
  // Without a sink: softmax_rows.
  EXPECT_LT((softmax_rows_with_sink(logits, std::nullopt) - softmax_rows(logits)).cwiseAbs().maxCoeff(), 1e-15);
}

TEST(LayerMask, AttentionAppliesMaskAndSinkInBothPrecisions) {
  const int n = 12, d = 8;
  const Matrix q = random_matrix(n, d, 3), k = random_matrix(n, d, 4);
  const auto pos = iota(n);
  const AttentionSpec spec{RopePosition{}, std::nullopt, true};
  const LayerMask sliding{MaskKind::Sliding, 4, 0.5};
  const AttentionResult full = attention(q, k, nullptr, pos, pos, spec);
  const AttentionResult r = attention(q, k, nullptr, pos, pos, spec, sliding);
  ASSERT_TRUE(r.sink_weight);
  for (int i = 0; i < n; ++i) {
    std::vector<double> row;
    for (int j = 0; j < n; ++j) {
      const bool visible = j <= i && i - j < 4;
      EXPECT_EQ(r.masked(i, j), !visible);
      if (visible) {
        EXPECT_EQ(r.logits(i, j), full.logits(i, j));  // the mask changes which cells count, not their values
        row.push_back(r.logits(i, j));
      } else {
        EXPECT_EQ(r.weights(i, j), 0.0);
      }
    }
    const std::vector<double> ref = reference_sink_softmax(row, 0.5);
    EXPECT_NEAR((*r.sink_weight)[i], ref.back(), 1e-14);
    EXPECT_NEAR(r.weights.row(i).sum() + (*r.sink_weight)[i], 1.0, 1e-14);
  }
  const kernels::AttentionF f =
      kernels::attention_f(q.cast<float>(), k.cast<float>(), pos, pos, spec, kernels::Path::Best, sliding);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      EXPECT_EQ(std::isinf(f.logits(i, j)), r.masked(i, j));
      EXPECT_NEAR(f.weights(i, j), r.weights(i, j), 1e-5);
    }
}

TEST(LayerMask, BoundaryErrorsNameTheirField) {
  const Matrix q = random_matrix(3, 4, 1);
  const auto pos = iota(3);
  const AttentionSpec spec{NoPosition{}, std::nullopt, true};
  auto field = [&](const LayerMask& m) {
    try {
      attention(q, q, nullptr, pos, pos, spec, m);
    } catch (const InvalidArgument& e) { return e.field(); }
    return std::string("(none)");
  };
  EXPECT_EQ(field(LayerMask{MaskKind::Sliding, 0, std::nullopt}), "mask.window");
  EXPECT_EQ(field(LayerMask{MaskKind::Chunked, -3, std::nullopt}), "mask.window");
  EXPECT_EQ(field(LayerMask{MaskKind::Full, 0, std::numeric_limits<double>::quiet_NaN()}), "mask.sink");
  EXPECT_EQ(field(LayerMask{MaskKind::Sliding, 1, 0.0}), "(none)");
  // A window of 1 leaves each query only itself: weight 1 without a sink.
  const AttentionResult r = attention(q, q, nullptr, pos, pos, spec, LayerMask{MaskKind::Sliding, 1, std::nullopt});
  for (int i = 0; i < 3; ++i) EXPECT_DOUBLE_EQ(r.weights(i, i), 1.0);
}

TEST(LayerMask, FloatScoresTakeTextMropeAndRefuseOtherRows) {
  // Qwen2-VL M-RoPE with t = h = w (text tokens) is 1-D RoPE; the float path computes it, and refuses
  // image rows it would otherwise misread (field position.mrope_section).
  const int n = 6, d = 16;
  const Matrix q = random_matrix(n, d, 5), k = random_matrix(n, d, 6);
  const auto pos = iota(n);
  RopePosition p;
  const std::array<int, 3> section{2, 3, 3};
  p.mrope_axes = rope_mrope_axes(section, d / 2, false);
  p.query_mrope = {pos, pos, pos};
  p.key_mrope = {pos, pos, pos};
  const AttentionSpec spec{p, std::nullopt, true};
  const AttentionResult exact = attention(q, k, nullptr, pos, pos, spec);
  const AttentionResult plain = attention(q, k, nullptr, pos, pos, AttentionSpec{RopePosition{}, std::nullopt, true});
  const kernels::AttentionF f = kernels::attention_f(q.cast<float>(), k.cast<float>(), pos, pos, spec);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j) {
      EXPECT_NEAR(exact.logits(i, j), plain.logits(i, j), 1e-12);
      EXPECT_NEAR(f.logits(i, j), exact.logits(i, j), 1e-4);
    }
  RopePosition image = p;
  image.key_mrope[1][2] = 40;
  try {
    kernels::attention_f(q.cast<float>(), k.cast<float>(), pos, pos, AttentionSpec{image, std::nullopt, true});
    FAIL() << "image rows accepted";
  } catch (const InvalidArgument& e) { EXPECT_EQ(e.field(), "position.mrope_section"); }
}
