#include "core/weights/weight_decode.h"

#include <cctype>
#include <cmath>
#include <cstring>

// The blocks' float32 arithmetic is ggml's, operation by operation: no fused multiply-add contraction
// (GCC contracts by default where the target has FMA, e.g. under -march=native), so every value is the
// definition's exactly.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=off")
#elif defined(__clang__)
#pragma clang fp contract(off)
#endif

namespace posenc {
namespace {

uint16_t le16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }

// ggml-common.h: QK_K = 256, K_SCALE_SIZE = 12; block sizes from its static_asserts.
constexpr int kQK = 32, kQKK = 256;

// ggml-quants.c get_scale_min_k4: the 6-bit scale and min of sub-block j of a Q4_K / Q5_K super-block.
void scale_min_k4(int j, const uint8_t* q, uint8_t& d, uint8_t& m) {
  if (j < 4) {
    d = q[j] & 63;
    m = q[j + 4] & 63;
  } else {
    d = static_cast<uint8_t>((q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4));
    m = static_cast<uint8_t>((q[j + 4] >> 4) | ((q[j - 0] >> 6) << 4));
  }
}

// block_q4_0 {half d; u8 qs[16]}: y[j] = ((qs[j] & 15) - 8) d, y[j + 16] = ((qs[j] >> 4) - 8) d.
void q4_0(const uint8_t* b, float* y) {
  const float d = half_bits_to_float(le16(b));
  const uint8_t* qs = b + 2;
  for (int j = 0; j < kQK / 2; ++j) {
    y[j] = static_cast<float>((qs[j] & 0x0F) - 8) * d;
    y[j + kQK / 2] = static_cast<float>((qs[j] >> 4) - 8) * d;
  }
}

// block_q4_1 {half d, m; u8 qs[16]}: y = q d + m.
void q4_1(const uint8_t* b, float* y) {
  const float d = half_bits_to_float(le16(b)), m = half_bits_to_float(le16(b + 2));
  const uint8_t* qs = b + 4;
  for (int j = 0; j < kQK / 2; ++j) {
    y[j] = static_cast<float>(qs[j] & 0x0F) * d + m;
    y[j + kQK / 2] = static_cast<float>(qs[j] >> 4) * d + m;
  }
}

// The 5-bit values of a q5 block (qh[4] at b, then qs[16]) in ggml's order: value j is the low nibble of qs[j]
// with bit j of qh as its fifth bit, value j + 16 the high nibble with bit j + 16.
void q5_values(const uint8_t* b, int* q) {
  uint32_t qh;
  std::memcpy(&qh, b, 4);
  const uint8_t* qs = b + 4;
  for (int j = 0; j < kQK / 2; ++j) {
    const uint8_t xh0 = static_cast<uint8_t>(((qh >> (j + 0)) << 4) & 0x10);
    const uint8_t xh1 = static_cast<uint8_t>((qh >> (j + 12)) & 0x10);
    q[j] = (qs[j] & 0x0F) | xh0;
    q[j + kQK / 2] = (qs[j] >> 4) | xh1;
  }
}

// block_q5_0 {half d; u8 qh[4]; u8 qs[16]}: y = (q - 16) d.
void q5_0(const uint8_t* b, float* y) {
  const float d = half_bits_to_float(le16(b));
  int q[kQK];
  q5_values(b + 2, q);
  for (int j = 0; j < kQK; ++j) y[j] = static_cast<float>(q[j] - 16) * d;
}

// block_q5_1 {half d, m; u8 qh[4]; u8 qs[16]}: y = q d + m.
void q5_1(const uint8_t* b, float* y) {
  const float d = half_bits_to_float(le16(b)), m = half_bits_to_float(le16(b + 2));
  int q[kQK];
  q5_values(b + 4, q);
  for (int j = 0; j < kQK; ++j) y[j] = static_cast<float>(q[j]) * d + m;
}

// block_q8_0 {half d; i8 qs[32]}: y = q d.
void q8_0(const uint8_t* b, float* y) {
  const float d = half_bits_to_float(le16(b));
  for (int j = 0; j < kQK; ++j) y[j] = static_cast<float>(static_cast<int8_t>(b[2 + j])) * d;
}

// block_q4_K {half d, dmin; u8 scales[12]; u8 qs[128]}: 8 sub-blocks of 32, y = (d sc) q - (dmin m).
void q4_k(const uint8_t* b, float* y) {
  const float d = half_bits_to_float(le16(b)), min = half_bits_to_float(le16(b + 2));
  const uint8_t* scales = b + 4;
  const uint8_t* q = b + 16;
  int is = 0;
  uint8_t sc, m;
  for (int j = 0; j < kQKK; j += 64) {
    scale_min_k4(is + 0, scales, sc, m);
    const float d1 = d * sc, m1 = min * m;
    scale_min_k4(is + 1, scales, sc, m);
    const float d2 = d * sc, m2 = min * m;
    for (int l = 0; l < 32; ++l) *y++ = d1 * static_cast<float>(q[l] & 0xF) - m1;
    for (int l = 0; l < 32; ++l) *y++ = d2 * static_cast<float>(q[l] >> 4) - m2;
    q += 32;
    is += 2;
  }
}

// block_q5_K {half d, dmin; u8 scales[12]; u8 qh[32]; u8 qs[128]}: as Q4_K with a fifth bit from qh.
void q5_k(const uint8_t* b, float* y) {
  const float d = half_bits_to_float(le16(b)), min = half_bits_to_float(le16(b + 2));
  const uint8_t* scales = b + 4;
  const uint8_t* qh = b + 16;
  const uint8_t* ql = b + 48;
  int is = 0;
  uint8_t sc, m;
  uint8_t u1 = 1, u2 = 2;
  for (int j = 0; j < kQKK; j += 64) {
    scale_min_k4(is + 0, scales, sc, m);
    const float d1 = d * sc, m1 = min * m;
    scale_min_k4(is + 1, scales, sc, m);
    const float d2 = d * sc, m2 = min * m;
    for (int l = 0; l < 32; ++l) *y++ = d1 * static_cast<float>((ql[l] & 0xF) + (qh[l] & u1 ? 16 : 0)) - m1;
    for (int l = 0; l < 32; ++l) *y++ = d2 * static_cast<float>((ql[l] >> 4) + (qh[l] & u2 ? 16 : 0)) - m2;
    ql += 32;
    is += 2;
    u1 = static_cast<uint8_t>(u1 << 2);
    u2 = static_cast<uint8_t>(u2 << 2);
  }
}

// block_q6_K {u8 ql[128]; u8 qh[64]; i8 scales[16]; half d}: 16 sub-blocks of 16, y = d sc q, q in [-32, 31].
void q6_k(const uint8_t* b, float* y) {
  const uint8_t* ql = b;
  const uint8_t* qh = b + 128;
  const int8_t* sc = reinterpret_cast<const int8_t*>(b + 192);
  const float d = half_bits_to_float(le16(b + 208));
  for (int n = 0; n < kQKK; n += 128) {
    for (int l = 0; l < 32; ++l) {
      const int is = l / 16;
      const int8_t q1 = static_cast<int8_t>(((ql[l + 0] & 0xF) | (((qh[l] >> 0) & 3) << 4)) - 32);
      const int8_t q2 = static_cast<int8_t>(((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32);
      const int8_t q3 = static_cast<int8_t>(((ql[l + 0] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32);
      const int8_t q4 = static_cast<int8_t>(((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32);
      // d * sc * q in C is (d * (float)sc) * (float)q.
      y[l + 0] = d * static_cast<float>(sc[is + 0]) * static_cast<float>(q1);
      y[l + 32] = d * static_cast<float>(sc[is + 2]) * static_cast<float>(q2);
      y[l + 64] = d * static_cast<float>(sc[is + 4]) * static_cast<float>(q3);
      y[l + 96] = d * static_cast<float>(sc[is + 6]) * static_cast<float>(q4);
    }
    y += 128;
    ql += 64;
    qh += 32;
    sc += 8;
  }
}

}  // namespace

float half_bits_to_float(uint16_t h) {
  const int sign = (h >> 15) & 1, exp = (h >> 10) & 0x1F, mant = h & 0x3FF;
  float v;
  if (exp == 0) v = std::ldexp(static_cast<float>(mant), -24);  // zero and subnormals: mant 2^-24
  else if (exp == 31) v = mant == 0 ? INFINITY : NAN;
  else v = std::ldexp(static_cast<float>(mant | 0x400), exp - 25);
  return sign ? -v : v;
}

float bf16_bits_to_float(uint16_t b) {
  const uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

WeightBlock weight_block(WeightDType t) {
  switch (t) {
    case WeightDType::F32: return {1, 4};
    case WeightDType::F16:
    case WeightDType::BF16: return {1, 2};
    case WeightDType::Q8_0: return {32, 34};
    case WeightDType::Q4_0: return {32, 18};
    case WeightDType::Q4_1: return {32, 20};
    case WeightDType::Q5_0: return {32, 22};
    case WeightDType::Q5_1: return {32, 24};
    case WeightDType::Q4_K: return {256, 144};
    case WeightDType::Q5_K: return {256, 176};
    case WeightDType::Q6_K: return {256, 210};
  }
  return {1, 4};
}

std::optional<WeightDType> safetensors_dtype(const std::string& dtype) {
  if (dtype == "F32") return WeightDType::F32;
  if (dtype == "F16") return WeightDType::F16;
  if (dtype == "BF16") return WeightDType::BF16;
  return std::nullopt;
}

std::optional<WeightDType> ggml_dtype(uint32_t t) {
  switch (t) {
    case 0: return WeightDType::F32;
    case 1: return WeightDType::F16;
    case 2: return WeightDType::Q4_0;
    case 3: return WeightDType::Q4_1;
    case 6: return WeightDType::Q5_0;
    case 7: return WeightDType::Q5_1;
    case 8: return WeightDType::Q8_0;
    case 12: return WeightDType::Q4_K;
    case 13: return WeightDType::Q5_K;
    case 14: return WeightDType::Q6_K;
    case 30: return WeightDType::BF16;
  }
  return std::nullopt;
}

std::string ggml_type_name(uint32_t t) {
  // ggml.c type_traits' type_name, by id (4 and 5 were Q4_2 / Q4_3, removed).
  static constexpr const char* kNames[] = {"f32",     "f16",    "q4_0",    "q4_1",  "q4_2",   "q4_3",  "q5_0",  "q5_1",
                                           "q8_0",    "q8_1",   "q2_K",    "q3_K",  "q4_K",   "q5_K",  "q6_K",  "q8_K",
                                           "iq2_xxs", "iq2_xs", "iq3_xxs", "iq1_s", "iq4_nl", "iq3_s", "iq2_s", "iq4_xs",
                                           "i8",      "i16",    "i32",     "i64",   "f64",    "iq1_m", "bf16"};
  if (t < sizeof(kNames) / sizeof(kNames[0])) {
    std::string n = kNames[t];
    for (char& c : n) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return n;
  }
  return "type " + std::to_string(t);
}

void decode_weight_blocks(WeightDType t, const uint8_t* src, std::size_t blocks, float* out) {
  const WeightBlock blk = weight_block(t);
  switch (t) {
    case WeightDType::F32: std::memcpy(out, src, blocks * 4); return;
    case WeightDType::F16:
      for (std::size_t i = 0; i < blocks; ++i) out[i] = half_bits_to_float(le16(src + 2 * i));
      return;
    case WeightDType::BF16:
      for (std::size_t i = 0; i < blocks; ++i) out[i] = bf16_bits_to_float(le16(src + 2 * i));
      return;
    default: break;
  }
  void (*one)(const uint8_t*, float*) = nullptr;
  switch (t) {
    case WeightDType::Q8_0: one = q8_0; break;
    case WeightDType::Q4_0: one = q4_0; break;
    case WeightDType::Q4_1: one = q4_1; break;
    case WeightDType::Q5_0: one = q5_0; break;
    case WeightDType::Q5_1: one = q5_1; break;
    case WeightDType::Q4_K: one = q4_k; break;
    case WeightDType::Q5_K: one = q5_k; break;
    case WeightDType::Q6_K: one = q6_k; break;
    default: return;
  }
  for (std::size_t i = 0; i < blocks; ++i) one(src + i * blk.bytes, out + i * blk.values);
}

}  // namespace posenc
