// The plan-and-feed analysis: the same numbers whatever the chunking (a block split between chunks is carried),
// the definitions on a hand-made model (q_norm, k_norm, qk, shares, semantic share, top pairs), and its errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <numbers>
#include <vector>

#include "core/weights/qk_usage.h"

namespace posenc {
namespace {

ConfigValue llama_config() {
  ConfigValue c = ConfigValue::object();
  c.set("model_type", ConfigValue::string("llama"));
  c.set("hidden_size", ConfigValue::integer(4));
  c.set("num_attention_heads", ConfigValue::integer(2));
  c.set("num_key_value_heads", ConfigValue::integer(1));
  c.set("head_dim", ConfigValue::integer(4));
  c.set("num_hidden_layers", ConfigValue::integer(1));
  c.set("max_position_embeddings", ConfigValue::integer(100));
  c.set("rope_theta", ConfigValue::number(10000.0));
  return c;
}

QkTensorNames names() {
  QkTensorNames n;
  n.q = {"q{i}"};
  n.k = {"k{i}"};
  n.input_norm = {"n{i}"};
  return n;
}

// One file: the norm (F32 [4]), q (F32 [8, 4]) and k (F32 [4, 4]) back to back.
struct Model {
  std::vector<float> norm{1, 2, 1, 0.5f}, q, k;
  std::vector<uint8_t> file;
  std::vector<WeightTensor> tensors;
  Model() {
    for (int i = 0; i < 32; ++i) q.push_back(static_cast<float>((i * 7) % 11) - 5.0f);
    for (int i = 0; i < 16; ++i) k.push_back(static_cast<float>((i * 5) % 7) - 3.0f);
    auto add = [&](const std::string& name, const std::vector<float>& v, std::vector<int64_t> shape) {
      WeightTensor t{name, 0, WeightDType::F32, "F32", shape, file.size(), v.size() * 4, 0};
      file.resize(file.size() + v.size() * 4);
      std::memcpy(file.data() + t.offset, v.data(), v.size() * 4);
      tensors.push_back(t);
    };
    add("n0", norm, {4});
    add("q0", q, {8, 4});
    add("k0", k, {4, 4});
    for (WeightTensor& t : tensors) t.file_size = file.size();
  }
};

QkUsage run(const Model& m, std::size_t chunk) {
  const ConfigValue c = llama_config();
  const ModelPosition pos = read_hf_config(c);
  QkUsageAnalysis a(pos, weight_shapes_from_config(c, pos), names(), m.tensors, WeightFormat::Safetensors);
  for (const WeightRange& r : a.plan())
    for (uint64_t at = 0; at < r.length; at += chunk)
      a.feed(std::span<const uint8_t>(m.file.data() + r.offset + at, std::min<uint64_t>(chunk, r.length - at)));
  return a.finish();
}

TEST(QkUsage, TheDefinitionsOnAHandMadeModel) {
  const Model m;
  const QkUsage u = run(m, 1 << 20);
  ASSERT_EQ(u.layers.size(), 1u);
  ASSERT_EQ(u.layers[0].heads.size(), 2u);
  EXPECT_EQ(u.layout, RopeLayout::Half);
  for (int h = 0; h < 2; ++h) {
    const QkHeadUsage& head = u.layers[0].heads[static_cast<std::size_t>(h)];
    EXPECT_EQ(head.kv_head, 0);
    double total = 0;
    std::vector<double> qk;
    for (int j = 0; j < 2; ++j) {
      // Pair j = rows (j, j + 2) of the head (half layout), each column scaled by the norm gain.
      double q2 = 0, k2 = 0;
      for (int r : {j, j + 2})
        for (int col = 0; col < 4; ++col) {
          q2 += std::pow(m.q[static_cast<std::size_t>((4 * h + r) * 4 + col)] * m.norm[static_cast<std::size_t>(col)], 2);
          k2 += std::pow(m.k[static_cast<std::size_t>(r * 4 + col)] * m.norm[static_cast<std::size_t>(col)], 2);
        }
      EXPECT_NEAR(head.q_norm[static_cast<std::size_t>(j)], std::sqrt(q2), 1e-12);
      EXPECT_NEAR(head.k_norm[static_cast<std::size_t>(j)], std::sqrt(k2), 1e-12);
      qk.push_back(std::sqrt(q2) * std::sqrt(k2));
      total += qk.back();
    }
    double semantic = 0;
    for (int j = 0; j < 2; ++j) {
      EXPECT_NEAR(head.qk_share[static_cast<std::size_t>(j)], qk[static_cast<std::size_t>(j)] / total, 1e-12);
      if (u.pairs.turns[static_cast<std::size_t>(j)] < 1) semantic += qk[static_cast<std::size_t>(j)] / total;
    }
    EXPECT_NEAR(*head.semantic_share, semantic, 1e-12);
    EXPECT_EQ(head.top_pairs.size(), 2u);
    EXPECT_GE(head.qk_share[static_cast<std::size_t>(head.top_pairs[0])],
              head.qk_share[static_cast<std::size_t>(head.top_pairs[1])]);
  }
  // Pair 1 of a 4-dim head at base 10000: inv_freq 0.01, 100 positions = 1/(2 pi) x 100 x 0.01 turns.
  EXPECT_NEAR(u.pairs.turns[1], 100 * 0.01 / (2 * std::numbers::pi), 1e-15);
  EXPECT_EQ(u.tensors_read, 3u);
  EXPECT_EQ(u.bytes_read, m.file.size());
}

TEST(QkUsage, AnyChunkingGivesTheSameNumbers) {
  const Model m;
  const QkUsage whole = run(m, 1 << 20);
  for (std::size_t chunk : {1u, 3u, 5u, 7u, 64u}) {
    const QkUsage u = run(m, chunk);
    for (std::size_t h = 0; h < 2; ++h) {
      EXPECT_EQ(u.layers[0].heads[h].q_norm, whole.layers[0].heads[h].q_norm) << chunk;
      EXPECT_EQ(u.layers[0].heads[h].k_norm, whole.layers[0].heads[h].k_norm) << chunk;
    }
  }
}

TEST(QkUsage, ErrorsNameTheTensor) {
  const ConfigValue c = llama_config();
  const ModelPosition pos = read_hf_config(c);
  const WeightShapes shapes = weight_shapes_from_config(c, pos);
  Model m;
  m.tensors[1].shape = {4, 4};
  try {
    QkUsageAnalysis a(pos, shapes, names(), m.tensors, WeightFormat::Safetensors);
    FAIL();
  } catch (const InvalidArgument& e) { EXPECT_EQ(e.field(), "q0"); }
  Model past;
  past.tensors[2].file_size = past.tensors[2].offset + 10;
  try {
    QkUsageAnalysis a(pos, shapes, names(), past.tensors, WeightFormat::Safetensors);
    FAIL();
  } catch (const InvalidArgument& e) { EXPECT_EQ(e.field(), "k0"); }
  Model ok;
  QkUsageAnalysis a(pos, shapes, names(), ok.tensors, WeightFormat::Safetensors);
  EXPECT_THROW(a.finish(), InvalidArgument);
  std::vector<uint8_t> too_many(ok.file.size() + 1, 0);
  EXPECT_THROW(a.feed(too_many), InvalidArgument);
}

TEST(QkUsage, LayerLists) {
  EXPECT_EQ(parse_layer_list("0,3,5-7", 8, "layers"), (std::vector<int>{0, 3, 5, 6, 7}));
  EXPECT_EQ(parse_layer_list("2,1,2", 3, "layers"), (std::vector<int>{1, 2}));
  for (const char* bad : {"", "8", "1-", "3-1", "a", "0,,1", "-1"})
    EXPECT_THROW(parse_layer_list(bad, 8, "layers"), InvalidArgument) << bad;
}

}  // namespace
}  // namespace posenc
