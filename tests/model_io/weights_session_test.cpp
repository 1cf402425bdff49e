// Every preset (published config.json files, tests/data/configs) that rotates: its attention shapes read for the
// weights (heads, KV heads, hidden size, MLA's ranks), consistent with the RoPE the model readers give, and a
// family row of data/weight_tensors.json that names its q/k tensors.
#include <gtest/gtest.h>

#include "core/models/model_config.h"
#include "model_io/presets.h"
#include "model_io/weights_session.h"

namespace posenc::model_io {
namespace {

TEST(WeightsSession, EveryRotaryPresetHasShapesAndTensorNames) {
  int rotary = 0;
  for (const ModelPreset& p : model_presets()) {
    SCOPED_TRACE(p.id);
    const ConfigValue config = preset_config(p.id);
    const ModelPosition m = read_hf_config(config);
    if (m.position != PositionKind::Rope) continue;
    ++rotary;
    WeightShapes s;
    ASSERT_NO_THROW(s = weight_shapes_from_config(config, m));
    EXPECT_GT(s.heads, 0);
    EXPECT_GT(s.hidden, 0);
    EXPECT_EQ(s.heads % s.kv_heads, 0);
    if (s.mla) { EXPECT_EQ(m.rope->rotary_dim, s.qk_rope_head_dim); }
    const QkTensorNames n = qk_tensor_names(m, WeightFormat::Safetensors);
    EXPECT_TRUE(s.mla || (!n.q.empty() && !n.k.empty()) || !n.qkv.empty()) << "no q/k names";
    if (s.mla) { EXPECT_FALSE(n.mla_kv_a.empty()); }
    EXPECT_FALSE(n.source.empty());
  }
  EXPECT_GE(rotary, 10);
}

TEST(WeightsSession, SafetensorsHeadersAreCheckedBeforeTheyAreRead) {
  // A declared header length past the file, and one over the limit: refused naming the file.
  std::vector<uint8_t> b(16, 0);
  b[0] = 200;
  EXPECT_THROW(safetensors_weight_tensors(b, 16, 0, "a.safetensors"), InvalidArgument);
  WeightsSession s;
  EXPECT_EQ(s.add_file("b.safetensors", 1000, {}), 8u);
  std::vector<uint8_t> huge(8, 0);
  huge[3] = 0x80;  // 2 GiB
  try {
    s.add_file("b.safetensors", uint64_t{4} << 30, huge);
    FAIL();
  } catch (const InvalidArgument& e) { EXPECT_EQ(e.field(), "b.safetensors"); }
}

TEST(WeightsSession, IndexNamesShardsBesideIt) {
  const SafetensorsIndex idx =
      parse_safetensors_index(R"({"weight_map": {"a": "m-1.safetensors", "b": "m-2.safetensors", "c": "m-1.safetensors"}})");
  EXPECT_EQ(idx.files, (std::vector<std::string>{"m-1.safetensors", "m-2.safetensors"}));
  EXPECT_THROW(parse_safetensors_index(R"({"weight_map": {"a": "../x.safetensors"}})"), InvalidArgument);
  EXPECT_THROW(parse_safetensors_index(R"({"metadata": {}})"), InvalidArgument);
}

}  // namespace
}  // namespace posenc::model_io
