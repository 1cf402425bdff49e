// The element types posenc reads weights in, decoded exactly as their formats define them: safetensors'
// F32 / F16 / BF16 (little-endian IEEE binary32, binary16, and bfloat16 = the top 16 bits of a binary32)
// and GGUF's ggml block types, written from ggml's definitions (ggml/src/ggml-common.h for the block
// layouts, ggml/src/ggml-quants.c dequantize_row_q4_0 ... dequantize_row_q6_K for the arithmetic, both
// ggml-org/llama.cpp @01243c587feceaa5d6a6c2305535ef2f549c48b8). Every block is decoded to the float32
// values llama.cpp's own dequantisation gives (the same float32 operations in the same order).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "core/names.h"

namespace posenc {

enum class WeightDType { F32, F16, BF16, Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, Q4_K, Q5_K, Q6_K };
template <>
struct EnumNames<WeightDType> {
  static constexpr std::array<const char*, 11> names{"F32",  "F16",  "BF16", "Q8_0", "Q4_0", "Q4_1",
                                                     "Q5_0", "Q5_1", "Q4_K", "Q5_K", "Q6_K"};
};

// A block: `values` elements stored in `bytes` bytes (1 and 4/2/2 for the plain floats).
struct WeightBlock {
  int values = 1;
  int bytes = 4;
};
WeightBlock weight_block(WeightDType t);

// The safetensors dtype string ("F32", "F16", "BF16") as a type; nullopt for any other (F64, I8, F8_E4M3, ...).
std::optional<WeightDType> safetensors_dtype(const std::string& dtype);

// A ggml type id (ggml.h enum ggml_type: F32 0, F16 1, Q4_0 2, Q4_1 3, Q5_0 6, Q5_1 7, Q8_0 8, Q4_K 12,
// Q5_K 13, Q6_K 14, BF16 30) as a type; nullopt for the others.
std::optional<WeightDType> ggml_dtype(uint32_t ggml_type);
// ggml's name of a type id, for messages ("Q2_K", "IQ4_XS", "type 99" when unknown).
std::string ggml_type_name(uint32_t ggml_type);

// The largest block of any type (Q6_K's 210 bytes): the most a streaming reader carries between chunks.
inline constexpr int kMaxWeightBlockBytes = 210;
inline constexpr int kMaxWeightBlockValues = 256;

// Decodes `blocks` whole blocks of type `t` from `src` into `out` (blocks * weight_block(t).values floats).
void decode_weight_blocks(WeightDType t, const uint8_t* src, std::size_t blocks, float* out);

// IEEE binary16 and bfloat16 bit patterns as float32 (exact).
float half_bits_to_float(uint16_t h);
float bf16_bits_to_float(uint16_t b);

}  // namespace posenc
