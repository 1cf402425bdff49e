// transformers' RoPE cos / sin tables built by hand for the tests (from the frequencies, not through the
// check's own renderer), shared by the unit and the integration tests of the tensor check.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/encodings/rope.h"
#include "core/types.h"

namespace posenc::test {

enum class TableKind { Cos, Sin };

// transformers' cos/sin: emb = cat(freqs, freqs) (half) or repeat_interleave(freqs, 2) (interleaved), times
// attention_scaling `a`. `angle_of(position, pair)` computes the angle.
template <class AngleOf>
Matrix cos_sin_table(TableKind kind, const std::vector<int64_t>& pos, int pairs, double a, RopeLayout layout, AngleOf angle_of) {
  Matrix m(static_cast<Eigen::Index>(pos.size()), 2 * pairs);
  for (size_t r = 0; r < pos.size(); ++r)
    for (int c = 0; c < 2 * pairs; ++c) {
      const int i = layout == RopeLayout::Half ? c % pairs : c / 2;
      const double t = angle_of(pos[r], i);
      m(static_cast<Eigen::Index>(r), c) = (kind == TableKind::Cos ? std::cos(t) : std::sin(t)) * a;
    }
  return m;
}

// The table of the frequencies f in double: angle p * inv_freq[i], magnitude f.attention_scaling.
inline Matrix cos_sin(TableKind kind, const std::vector<int64_t>& pos, const RopeFrequencies& f,
                      RopeLayout layout = RopeLayout::Half) {
  return cos_sin_table(kind, pos, static_cast<int>(f.inv_freq.size()), f.attention_scaling, layout,
                       [&](int64_t p, int i) { return static_cast<double>(p) * f.inv_freq[static_cast<size_t>(i)]; });
}

// v rounded to bfloat16 (round to nearest even on the float32 bits), as torch's .to(torch.bfloat16).
inline double to_bf16(double v) {
  float f = static_cast<float>(v);
  uint32_t b;
  std::memcpy(&b, &f, 4);
  b = (b + 0x7FFFu + ((b >> 16) & 1u)) & 0xFFFF0000u;
  std::memcpy(&f, &b, 4);
  return f;
}

// v rounded to IEEE float16 (11 significant bits, subnormal spacing 2^-24 below 2^-14, round to nearest even),
// as torch's .to(torch.float16) of the float32 value.
inline double to_fp16(double v) {
  const double f = static_cast<float>(v);
  if (f == 0 || !std::isfinite(f)) return f;
  int e = 0;
  std::frexp(f, &e);
  const double spacing = std::fabs(f) >= 0x1p-14 ? std::ldexp(1.0, e - 11) : 0x1p-24;
  const double r = std::nearbyint(f / spacing) * spacing;
  return std::fabs(r) > 65504 ? std::copysign(INFINITY, r) : r;
}

// transformers' default inv_freq in float32: 1.0 / (base ** (arange(0, dim, 2).float() / dim)).
inline std::vector<float> inv_freq_f32(int dim, double base) {
  std::vector<float> w(static_cast<size_t>(dim / 2));
  for (int i = 0; i < dim / 2; ++i)
    w[static_cast<size_t>(i)] = 1.0f / std::pow(static_cast<float>(base), static_cast<float>(2 * i) / static_cast<float>(dim));
  return w;
}

}  // namespace posenc::test
