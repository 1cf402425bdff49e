// Blocks with planted values decode to exactly the values the format defines (ggml/src/ggml-common.h block
// layouts, ggml/src/ggml-quants.c dequantize_row_*, ggml-org/llama.cpp @01243c587feceaa5d6a6c2305535ef2f549c48b8):
// scales chosen as powers of two so every product is exact and the expected value is the definition itself.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/weights/weight_decode.h"

namespace posenc {
namespace {

constexpr uint16_t kHalfOne = 0x3C00, kHalfTwo = 0x4000, kHalfHalf = 0x3800, kHalfMinusOne = 0xBC00;

void put16(std::vector<uint8_t>& b, uint16_t v) {
  b.push_back(static_cast<uint8_t>(v & 0xFF));
  b.push_back(static_cast<uint8_t>(v >> 8));
}

std::vector<float> decode(WeightDType t, const std::vector<uint8_t>& b) {
  const WeightBlock blk = weight_block(t);
  EXPECT_EQ(b.size() % static_cast<std::size_t>(blk.bytes), 0u);
  std::vector<float> out(b.size() / blk.bytes * blk.values);
  decode_weight_blocks(t, b.data(), b.size() / blk.bytes, out.data());
  return out;
}

TEST(WeightDecode, HalfAndBfloat16AreExact) {
  EXPECT_EQ(half_bits_to_float(kHalfOne), 1.0f);
  EXPECT_EQ(half_bits_to_float(kHalfMinusOne), -1.0f);
  EXPECT_EQ(half_bits_to_float(0x0001), std::ldexp(1.0f, -24));  // smallest subnormal
  EXPECT_EQ(half_bits_to_float(0x7BFF), 65504.0f);               // largest finite
  EXPECT_EQ(bf16_bits_to_float(0x3F80), 1.0f);
  EXPECT_EQ(bf16_bits_to_float(0xC040), -3.0f);
  EXPECT_TRUE(std::isinf(half_bits_to_float(0x7C00)));
}

TEST(WeightDecode, Q8_0IsScaleTimesSignedByte) {
  std::vector<uint8_t> b;
  put16(b, kHalfHalf);
  for (int i = 0; i < 32; ++i) b.push_back(static_cast<uint8_t>(static_cast<int8_t>(i * 8 - 128)));
  const std::vector<float> y = decode(WeightDType::Q8_0, b);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(y[i], 0.5f * static_cast<float>(i * 8 - 128)) << i;
}

TEST(WeightDecode, Q4_0AndQ4_1PutLowNibblesFirstHighNibblesSecond) {
  std::vector<uint8_t> b;
  put16(b, kHalfTwo);
  for (int j = 0; j < 16; ++j) b.push_back(static_cast<uint8_t>(j | ((15 - j) << 4)));
  std::vector<float> y = decode(WeightDType::Q4_0, b);
  for (int j = 0; j < 16; ++j) {
    EXPECT_EQ(y[j], 2.0f * static_cast<float>(j - 8));
    EXPECT_EQ(y[j + 16], 2.0f * static_cast<float>(15 - j - 8));
  }
  std::vector<uint8_t> c;
  put16(c, kHalfTwo);
  put16(c, kHalfMinusOne);
  c.insert(c.end(), b.begin() + 2, b.end());
  y = decode(WeightDType::Q4_1, c);
  for (int j = 0; j < 16; ++j) {
    EXPECT_EQ(y[j], 2.0f * static_cast<float>(j) - 1.0f);
    EXPECT_EQ(y[j + 16], 2.0f * static_cast<float>(15 - j) - 1.0f);
  }
}

TEST(WeightDecode, Q5TakesTheFifthBitFromQh) {
  // qh bit j is value j's fifth bit, bit j + 16 value j + 16's.
  std::vector<uint8_t> b;
  put16(b, kHalfOne);
  const uint32_t qh = 0xAAAA5555u;
  for (int i = 0; i < 4; ++i) b.push_back(static_cast<uint8_t>(qh >> (8 * i)));
  for (int j = 0; j < 16; ++j) b.push_back(static_cast<uint8_t>(3 | (12 << 4)));
  std::vector<float> y = decode(WeightDType::Q5_0, b);
  for (int j = 0; j < 16; ++j) {
    EXPECT_EQ(y[j], static_cast<float>(static_cast<int>(3 | (((qh >> j) & 1) << 4)) - 16)) << j;
    EXPECT_EQ(y[j + 16], static_cast<float>(static_cast<int>(12 | (((qh >> (j + 16)) & 1) << 4)) - 16)) << j;
  }
  std::vector<uint8_t> c;
  put16(c, kHalfOne);
  put16(c, kHalfHalf);
  c.insert(c.end(), b.begin() + 2, b.end());
  y = decode(WeightDType::Q5_1, c);
  for (int j = 0; j < 16; ++j) EXPECT_EQ(y[j], static_cast<float>(static_cast<int>(3 | (((qh >> j) & 1) << 4))) + 0.5f) << j;
}

TEST(WeightDecode, Q4_KScalesAndMinsOfEverySubBlock) {
  // Sub-block s (32 values): scale sc[s], min m[s] (6 bits each, packed by get_scale_min_k4's rule), y = d sc q - dmin m.
  const int sc[8] = {1, 2, 3, 4, 33, 40, 50, 63}, mn[8] = {0, 1, 2, 3, 17, 20, 31, 62};
  uint8_t scales[12] = {};
  for (int j = 0; j < 4; ++j) {
    scales[j] = static_cast<uint8_t>(sc[j] | ((sc[j + 4] >> 4) << 6));
    scales[j + 4] = static_cast<uint8_t>(mn[j] | ((mn[j + 4] >> 4) << 6));
    scales[j + 8] = static_cast<uint8_t>((sc[j + 4] & 0xF) | ((mn[j + 4] & 0xF) << 4));
  }
  std::vector<uint8_t> b;
  put16(b, kHalfOne);
  put16(b, kHalfHalf);
  b.insert(b.end(), scales, scales + 12);
  for (int i = 0; i < 128; ++i) b.push_back(static_cast<uint8_t>((i % 16) | (((i + 5) % 16) << 4)));
  const std::vector<float> y = decode(WeightDType::Q4_K, b);
  for (int g = 0; g < 4; ++g)
    for (int l = 0; l < 32; ++l) {
      const int i = 32 * g + l;
      EXPECT_EQ(y[64 * g + l], static_cast<float>(sc[2 * g] * (i % 16)) - 0.5f * static_cast<float>(mn[2 * g]));
      EXPECT_EQ(y[64 * g + 32 + l],
                static_cast<float>(sc[2 * g + 1] * ((i + 5) % 16)) - 0.5f * static_cast<float>(mn[2 * g + 1]));
    }
}

TEST(WeightDecode, Q6_KSignedScalesAndSixBitValues) {
  std::vector<uint8_t> b(210, 0);
  for (int i = 0; i < 128; ++i) b[static_cast<std::size_t>(i)] = static_cast<uint8_t>((i % 16) | ((15 - i % 16) << 4));
  for (int i = 0; i < 64; ++i) b[128 + static_cast<std::size_t>(i)] = static_cast<uint8_t>(i % 256);
  for (int i = 0; i < 16; ++i) b[192 + static_cast<std::size_t>(i)] = static_cast<uint8_t>(static_cast<int8_t>(i - 8));
  b[208] = kHalfHalf & 0xFF;
  b[209] = kHalfHalf >> 8;
  const std::vector<float> y = decode(WeightDType::Q6_K, b);
  for (int n = 0; n < 2; ++n)
    for (int l = 0; l < 32; ++l) {
      const uint8_t* ql = b.data() + 64 * n;
      const uint8_t* qh = b.data() + 128 + 32 * n;
      const int8_t* s = reinterpret_cast<const int8_t*>(b.data() + 192 + 8 * n);
      const int q1 = ((ql[l] & 0xF) | ((qh[l] & 3) << 4)) - 32, q4 = ((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32;
      EXPECT_EQ(y[128 * n + l], 0.5f * static_cast<float>(s[l / 16]) * static_cast<float>(q1));
      EXPECT_EQ(y[128 * n + l + 96], 0.5f * static_cast<float>(s[l / 16 + 6]) * static_cast<float>(q4));
    }
}

TEST(WeightDecode, TypeNamesAndIds) {
  EXPECT_EQ(ggml_dtype(12), WeightDType::Q4_K);
  EXPECT_EQ(ggml_dtype(30), WeightDType::BF16);
  EXPECT_FALSE(ggml_dtype(10));  // Q2_K: refused by name
  EXPECT_EQ(ggml_type_name(10), "Q2_K");
  EXPECT_EQ(ggml_type_name(23), "IQ4_XS");
  EXPECT_EQ(ggml_type_name(999), "type 999");
  EXPECT_FALSE(safetensors_dtype("F64"));
  EXPECT_EQ(safetensors_dtype("BF16"), WeightDType::BF16);
}

}  // namespace
}  // namespace posenc
