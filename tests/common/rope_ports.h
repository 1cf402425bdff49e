// Four real float32 RoPE implementations ported line by line, for the tensor check's tolerance tests: each
// computes inv_freq (or its iterated equivalent), the cos / sin tables (half layout: cat(freqs, freqs)) and
// the rotated rows the way its library does, in float32 (std::pow / exp / log / cos / sin on float, as
// the libraries call powf, expf, logf, cosf, sinf).
//
// - transformers: src/transformers/modeling_rope_utils.py `_compute_default_rope_parameters`
//   (huggingface/transformers 0044e3b3facff1a1ad60b235c69d5b45beae75a4):
//   inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim)); modeling_llama's
//   LlamaRotaryEmbedding.forward: freqs = inv_freq.float() @ position_ids.float(), emb = cat(freqs, freqs),
//   cos = emb.cos(); apply_rotary_pos_emb: q * cos + rotate_half(q) * sin.
// - llama.cpp: ggml/src/ggml-cpu/ops.cpp (ggml-org/llama.cpp 0049e3cb202d8a8cebcfdbb137059e7e46627171):
//   theta_scale = powf(freq_base, -2.0f/n_dims) once; ggml_rope_cache_init: theta = p, then per pair
//   cache = cosf(theta), sinf(theta) and theta *= theta_scale (an iterated float32 product); rotate_pairs
//   (NEOX): x0*cos - x1*sin, x0*sin + x1*cos.
// - MLX: mlx/fast.cpp `rope` fallback (ml-explore/mlx 0017d3c3f1b9ad5aad9ea0d76f1d39376fa17b56):
//   inv_freqs = exp(arange(0, -half_dims, -1, float32) * (std::log(base) / half_dims)), positions float32,
//   theta = positions * inv_freqs; x1*cos - x2*sin, x1*sin + x2*cos.
// - JAX / flax: examples/gemma/positional_embeddings.py `apply_rope` (google/flax
//   f3c115183d9f82db3afefaddc7ab9743cbf2f667): fraction = 2 * arange(0, head_dim // 2) / head_dim,
//   timescale = max_wavelength**fraction, sinusoid_inp = positions / timescale (float32, x64 off);
//   first_half*cos - second_half*sin, second_half*cos + first_half*sin.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/types.h"

namespace posenc::test {

enum class RopePort { Transformers, LlamaCpp, Mlx, Jax };
inline const char* port_name(RopePort p) {
  switch (p) {
    case RopePort::Transformers: return "transformers";
    case RopePort::LlamaCpp: return "llama.cpp";
    case RopePort::Mlx: return "mlx";
    case RopePort::Jax: return "jax";
  }
  return "";
}
inline constexpr RopePort kRopePorts[] = {RopePort::Transformers, RopePort::LlamaCpp, RopePort::Mlx, RopePort::Jax};

// A half-precision variant of a port: its angles (p * inv_freq) or its inv_freq rounded before cos / sin.
enum class PortHalf { None, AnglesBf16, AnglesFp16, InvFreqBf16, InvFreqFp16 };

inline float port_bf16(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  b = (b + 0x7FFFu + ((b >> 16) & 1u)) & 0xFFFF0000u;
  std::memcpy(&f, &b, 4);
  return f;
}
inline float port_fp16(float f) {
  const double a = std::fabs(static_cast<double>(f));
  int e = 0;
  std::frexp(a, &e);
  const double spacing = a >= 0x1p-14 ? std::ldexp(1.0, e - 11) : 0x1p-24;
  return static_cast<float>(std::copysign(std::nearbyint(a / spacing) * spacing, static_cast<double>(f)));
}

struct PortTables {
  Matrix inv_freq;  // 1 x dim/2 (llama.cpp: its angles at p = 1, the iterated powers of theta_scale)
  Matrix cos, sin;  // n x dim, half layout
  Matrix rotated;   // n x dim: x rotated (when x was given)
};

// The port's angle of pair i at position p (float32, as the library computes it); `half` rounds.
class PortAngles {
 public:
  PortAngles(RopePort port, int dim, double base, PortHalf half) : port_(port), dim_(dim), half_(half) {
    const int h = dim / 2;
    const float b = static_cast<float>(base);
    inv_.resize(static_cast<size_t>(h));
    switch (port) {
      case RopePort::Transformers:
        for (int i = 0; i < h; ++i) inv_[size_t(i)] = 1.0f / std::pow(b, static_cast<float>(2 * i) / static_cast<float>(dim));
        break;
      case RopePort::LlamaCpp: {
        theta_scale_ = std::pow(b, -2.0f / static_cast<float>(dim));
        float t = 1.0f;
        for (int i = 0; i < h; ++i, t *= theta_scale_) inv_[size_t(i)] = t;
        break;
      }
      case RopePort::Mlx: {
        const float c = std::log(b) / static_cast<float>(h);  // std::log(float base) / half_dims
        for (int i = 0; i < h; ++i) inv_[size_t(i)] = std::exp(static_cast<float>(-i) * c);
        break;
      }
      case RopePort::Jax:
        for (int i = 0; i < h; ++i) {
          const float fraction = static_cast<float>(2 * i) / static_cast<float>(dim);
          inv_[size_t(i)] = std::pow(b, fraction);  // the timescale; the angle divides by it
        }
        break;
    }
    if (half_ == PortHalf::InvFreqBf16 || half_ == PortHalf::InvFreqFp16)
      for (float& w : inv_) w = round_half(w);  // JAX: its timescale held in the half type
  }

  // The angles of every pair at position p.
  std::vector<float> at(int64_t p) const {
    const int h = dim_ / 2;
    std::vector<float> t(static_cast<size_t>(h));
    const float pf = static_cast<float>(p);
    if (port_ == RopePort::LlamaCpp && half_ != PortHalf::InvFreqBf16 && half_ != PortHalf::InvFreqFp16) {
      float theta = pf;  // ggml_rope_cache_init(theta_base = p, ...)
      for (int i = 0; i < h; ++i) {
        t[size_t(i)] = theta;
        theta *= theta_scale_;
      }
    } else {
      for (int i = 0; i < h; ++i) t[size_t(i)] = port_ == RopePort::Jax ? pf / inv_[size_t(i)] : pf * inv_[size_t(i)];
    }
    if (half_ == PortHalf::AnglesBf16 || half_ == PortHalf::AnglesFp16)
      for (float& a : t) a = round_half(a);
    return t;
  }

  // inv_freq as the library holds it (JAX: 1 / timescale, computed in float32).
  Matrix inv_freq() const {
    Matrix m(1, static_cast<Eigen::Index>(inv_.size()));
    for (size_t i = 0; i < inv_.size(); ++i)
      m(0, Eigen::Index(i)) = port_ == RopePort::Jax ? static_cast<double>(1.0f / inv_[i]) : static_cast<double>(inv_[i]);
    return m;
  }

 private:
  float round_half(float v) const {
    return half_ == PortHalf::AnglesBf16 || half_ == PortHalf::InvFreqBf16 ? port_bf16(v) : port_fp16(v);
  }
  RopePort port_;
  int dim_;
  PortHalf half_;
  float theta_scale_ = 1.0f;
  std::vector<float> inv_;
};

// The port's tables at `pos` (and x rotated, when x has rows), all float32, returned as double.
inline PortTables port_tables(RopePort port, int dim, double base, const std::vector<int64_t>& pos, const Matrix& x = {},
                              PortHalf half = PortHalf::None) {
  const PortAngles angles(port, dim, base, half);
  const int h = dim / 2;
  PortTables out;
  out.inv_freq = angles.inv_freq();
  const Eigen::Index n = static_cast<Eigen::Index>(pos.size());
  out.cos.resize(n, dim);
  out.sin.resize(n, dim);
  if (x.rows() > 0) out.rotated.resize(n, dim);
  for (Eigen::Index r = 0; r < n; ++r) {
    const std::vector<float> t = angles.at(pos[size_t(r)]);
    for (int i = 0; i < h; ++i) {
      const float c = std::cos(t[size_t(i)]), s = std::sin(t[size_t(i)]);
      out.cos(r, i) = out.cos(r, i + h) = c;
      out.sin(r, i) = out.sin(r, i + h) = s;
      if (x.rows() == 0) continue;
      const float x0 = static_cast<float>(x(r, i)), x1 = static_cast<float>(x(r, i + h));
      float o0, o1;
      if (port == RopePort::Transformers) {
        // q * cos + rotate_half(q) * sin, rotate_half(q) = cat(-q2, q1): two products, then the sum.
        const float a0 = x0 * c, b0 = -x1 * s, a1 = x1 * c, b1 = x0 * s;
        o0 = a0 + b0;
        o1 = a1 + b1;
      } else if (port == RopePort::Jax) {
        const float a0 = x0 * c, b0 = x1 * s, a1 = x1 * c, b1 = x0 * s;
        o0 = a0 - b0;
        o1 = a1 + b1;
      } else {  // llama.cpp rotate_pairs and MLX: x0*cos - x1*sin, x0*sin + x1*cos
        const float a0 = x0 * c, b0 = x1 * s, a1 = x0 * s, b1 = x1 * c;
        o0 = a0 - b0;
        o1 = a1 + b1;
      }
      out.rotated(r, i) = o0;
      out.rotated(r, i + h) = o1;
    }
  }
  return out;
}

}  // namespace posenc::test
