#include "core/encodings/rope.h"
#include "core/exact_pow.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace posenc {
namespace {

void check_rope_dim_base(int dim, double base) {
  require(dim >= 2 && dim <= kMaxDim, "dim", "dim must be in [2, " + std::to_string(kMaxDim) + "]");
  require(dim % 2 == 0, "dim", "dim must be even (rotation pairs)");
  require(std::isfinite(base) && base > 1.0, "base", "base must be a finite number > 1");
}

void require_factor(const RopeScaling& s) {
  // HF's validators state "factor must be a float >= 1"; below 1 the schemes compress, not extend.
  require(std::isfinite(s.factor) && s.factor >= 1.0 && s.factor <= 1e6, "scaling.factor",
          "scaling.factor must be a number in [1, 10^6]");
}

void require_original_length(const RopeScaling& s) {
  require(s.original_max_position_embeddings >= 1 && s.original_max_position_embeddings <= kMaxLength,
          "scaling.original_max_position_embeddings", "scaling.original_max_position_embeddings must be an integer in [1, 2^30]");
}

// A real scaling parameter: finite and in (0, 10^6], or [0, 10^6] where zero is meaningful (mscale).
void require_scaling_number(double v, const char* field, bool zero_allowed = false) {
  require(std::isfinite(v) && (zero_allowed ? v >= 0 : v > 0) && v <= 1e6, field,
          std::string(field) + " must be a number in " + (zero_allowed ? "[0" : "(0") + ", 10^6]");
}

void require_attention_factor(const RopeScaling& s) {
  if (s.attention_factor) require_scaling_number(*s.attention_factor, "scaling.attention_factor");
}

void require_seq_len(const RopeScaling& s) {
  if (s.seq_len)
    require(*s.seq_len >= 1 && *s.seq_len <= kMaxLength, "scaling.seq_len", "scaling.seq_len must be an integer in [1, 2^30]");
}

void require_longrope_factors(const std::vector<double>& f, const char* field, int dim) {
  require(static_cast<int>(f.size()) == dim / 2, field,
          std::string(field) + " must have dim/2 = " + std::to_string(dim / 2) + " entries (one per rotary pair)");
  for (double x : f)
    require(std::isfinite(x) && x > 0 && x <= 1e6, field, std::string(field) + " entries must be numbers in (0, 10^6]");
}

// base^(2i/dim) for each pair i < dim/2 (HF's base ** (arange(0, dim, 2) / dim)), correctly rounded.
std::vector<double> pair_powers(int dim, double base) {
  std::vector<double> p(dim / 2);
  const CorrectlyRoundedPowers power(base);
  for (int i = 0; i < dim / 2; ++i) p[i] = power(static_cast<double>(2 * i) / dim);
  return p;
}

std::vector<double> inv_freq_for_base(int dim, double base) {
  std::vector<double> inv = pair_powers(dim, base);
  for (double& x : inv) x = 1.0 / x;
  return inv;
}

}  // namespace

const RopeScalingKey* rope_scaling_key(std::string_view name) {
  for (const RopeScalingKey& k : kRopeScalingKeys)
    if (name == k.name) return &k;
  return nullptr;
}

bool rope_scaling_takes(RopeScalingType type, std::string_view name) {
  const RopeScalingKey* k = rope_scaling_key(name);
  return k && (k->takes & rope_scaling_bits({type})) != 0;
}

std::vector<const char*> rope_scaling_keys(RopeScalingType type) {
  std::vector<const char*> out;
  for (const RopeScalingKey& k : kRopeScalingKeys)
    if (k.takes & rope_scaling_bits({type})) out.push_back(k.name);
  return out;
}

void validate_rope_scaling(const RopeScaling& s, int dim, double base) {
  check_rope_dim_base(dim, base);
  if (s.type == RopeScalingType::None) return;
  // Every scaling has a factor; those that switch on the trained length read it next; then each its own.
  require_factor(s);
  const RopeScalingType t = s.type;
  if (t == RopeScalingType::Dynamic || t == RopeScalingType::Yarn || t == RopeScalingType::Longrope ||
      t == RopeScalingType::Llama3)
    require_original_length(s);
  switch (t) {
    case RopeScalingType::None:
    case RopeScalingType::Linear: return;
    case RopeScalingType::Ntk:
      // The exponent dim / (dim - 2) is undefined for dim == 2 (the reference divides by zero).
      require(dim >= 4, "dim", "NTK scaling needs dim >= 4 (exponent dim/(dim-2))");
      return;
    case RopeScalingType::Dynamic:
      require(dim >= 4, "dim", "dynamic NTK scaling needs dim >= 4 (exponent dim/(dim-2))");
      require_seq_len(s);
      return;
    case RopeScalingType::Yarn:
      require_scaling_number(s.beta_fast, "scaling.beta_fast");
      require_scaling_number(s.beta_slow, "scaling.beta_slow");
      require_attention_factor(s);
      if (s.mscale) require_scaling_number(*s.mscale, "scaling.mscale", true);
      if (s.mscale_all_dim) require_scaling_number(*s.mscale_all_dim, "scaling.mscale_all_dim", true);
      return;
    case RopeScalingType::Longrope:
      require_attention_factor(s);
      require_longrope_factors(s.short_factor, "scaling.short_factor", dim);
      require_longrope_factors(s.long_factor, "scaling.long_factor", dim);
      require_seq_len(s);
      return;
    case RopeScalingType::Llama3:
      require_scaling_number(s.low_freq_factor, "scaling.low_freq_factor");
      // Equal factors are accepted (Llama-4-Scout: both 1): transformers' band test then never selects the
      // smooth branch. high < low is refused: the smooth blend would run backwards.
      require(std::isfinite(s.high_freq_factor) && s.high_freq_factor >= s.low_freq_factor && s.high_freq_factor <= 1e6,
              "scaling.high_freq_factor", "scaling.high_freq_factor must be a number >= scaling.low_freq_factor");
      return;
    case RopeScalingType::Proportional:
      require(std::isfinite(s.partial_rotary_factor) && s.partial_rotary_factor >= 0 && s.partial_rotary_factor <= 1,
              "scaling.partial_rotary_factor", "scaling.partial_rotary_factor must be a number in [0, 1]");
      return;
  }
}

std::vector<double> rope_default_inv_freq(int dim, double base) {
  check_rope_dim_base(dim, base);
  return inv_freq_for_base(dim, base);
}

std::vector<double> rope_unscaled_inv_freq(int dim, double base, const RopeScaling& scaling) {
  if (scaling.type != RopeScalingType::Proportional) return rope_default_inv_freq(dim, base);
  RopeScaling unit = scaling;
  unit.factor = 1.0;
  return rope_frequencies(dim, base, unit).inv_freq;
}

std::pair<double, double> yarn_correction_range(double beta_fast, double beta_slow, int dim, double base, int64_t L,
                                                bool truncate) {
  // find_correction_dim: the pair index whose wavelength completes `rot` turns over L positions.
  auto correction_dim = [&](double rot) {
    return (dim * std::log(static_cast<double>(L) / (rot * 2 * std::numbers::pi))) / (2 * std::log(base));
  };
  double low = correction_dim(beta_fast);
  double high = correction_dim(beta_slow);
  if (truncate) {
    low = std::floor(low);
    high = std::ceil(high);
  }
  return {std::max(low, 0.0), std::min(high, static_cast<double>(dim - 1))};
}

double yarn_get_mscale(double scale, double mscale) {
  if (scale <= 1) return 1.0;
  return 0.1 * mscale * std::log(scale) + 1.0;
}

RopeFrequencies rope_frequencies(int dim, double base, const RopeScaling& s) {
  validate_rope_scaling(s, dim, base);
  RopeFrequencies out;
  const int half = dim / 2;
  const double f = s.factor;
  const double L = static_cast<double>(s.original_max_position_embeddings);
  switch (s.type) {
    case RopeScalingType::None: out.inv_freq = inv_freq_for_base(dim, base); break;
    case RopeScalingType::Linear:  // position interpolation: p/f, i.e. inv_freq/f
      out.inv_freq = inv_freq_for_base(dim, base);
      for (double& w : out.inv_freq) w /= f;
      break;
    case RopeScalingType::Ntk: out.inv_freq = inv_freq_for_base(dim, base * correctly_rounded_pow(f, dim / (dim - 2.0))); break;
    case RopeScalingType::Dynamic: {
      const int64_t S = s.seq_len.value_or(s.original_max_position_embeddings);
      if (S > s.original_max_position_embeddings) {
        // Same arrangement as HF: (factor * seq_len / max_pos) - (factor - 1).
        const double b = base * correctly_rounded_pow((f * static_cast<double>(S) / L) - (f - 1), dim / (dim - 2.0));
        out.inv_freq = inv_freq_for_base(dim, b);
      } else {
        out.inv_freq = inv_freq_for_base(dim, base);
      }
      break;
    }
    case RopeScalingType::Yarn: {
      auto [low, high] =
          yarn_correction_range(s.beta_fast, s.beta_slow, dim, base, s.original_max_position_embeddings, s.truncate);
      if (low == high) high += 0.001;  // HF: prevent a zero-width ramp
      out.inv_freq.resize(half);
      const std::vector<double> pos_freqs = pair_powers(dim, base);
      for (int i = 0; i < half; ++i) {
        const double pos_freq = pos_freqs[i];
        const double extrapolation = 1.0 / pos_freq;
        const double interpolation = 1.0 / (f * pos_freq);
        const double ramp = std::clamp((i - low) / (high - low), 0.0, 1.0);
        const double extrapolation_factor = 1.0 - ramp;
        out.inv_freq[i] = interpolation * (1 - extrapolation_factor) + extrapolation * extrapolation_factor;
      }
      // _compute_yarn_parameters: explicit attention_factor, else the ratio of the two get_mscale terms
      // when both mscale and mscale_all_dim are set and nonzero (Python truthiness), else get_mscale(f).
      if (s.attention_factor) out.attention_scaling = *s.attention_factor;
      else if (s.mscale && *s.mscale != 0 && s.mscale_all_dim && *s.mscale_all_dim != 0)
        out.attention_scaling = yarn_get_mscale(f, *s.mscale) / yarn_get_mscale(f, *s.mscale_all_dim);
      else out.attention_scaling = yarn_get_mscale(f);
      break;
    }
    case RopeScalingType::Longrope: {
      // _compute_longrope_parameters: inv_freq = 1 / (ext * base^(2i/dim)), ext = long factors iff the
      // current length exceeds the original one.
      out.long_factors = s.seq_len && *s.seq_len > s.original_max_position_embeddings;
      const std::vector<double>& ext = out.long_factors ? s.long_factor : s.short_factor;
      out.inv_freq = pair_powers(dim, base);
      for (int i = 0; i < half; ++i) out.inv_freq[i] = 1.0 / (ext[i] * out.inv_freq[i]);
      if (s.attention_factor) out.attention_scaling = *s.attention_factor;
      else if (f <= 1.0) out.attention_scaling = 1.0;
      else out.attention_scaling = std::sqrt(1 + std::log(f) / std::log(L));
      break;
    }
    case RopeScalingType::Llama3: {
      out.inv_freq = inv_freq_for_base(dim, base);
      const double low_wavelen = L / s.low_freq_factor;
      const double high_wavelen = L / s.high_freq_factor;
      for (double& w : out.inv_freq) {
        const double wavelen = 2 * std::numbers::pi / w;
        if (wavelen < high_wavelen) continue;  // high frequencies: kept
        if (wavelen > low_wavelen) {           // low frequencies: interpolated
          w = w / f;
          continue;
        }
        // Band edges land here (HF: ~(wl < high) & ~(wl > low)): smooth blend. With equal factors the band
        // is the single wavelength L / low, where transformers divides 0 by 0.
        require(s.high_freq_factor > s.low_freq_factor, "scaling.high_freq_factor",
                "scaling.high_freq_factor equals scaling.low_freq_factor and a pair's wavelength lies exactly on "
                "the band edge: transformers computes 0/0 (NaN) there");
        const double smooth = (L / wavelen - s.low_freq_factor) / (s.high_freq_factor - s.low_freq_factor);
        w = (1 - smooth) * w / f + smooth * w;
      }
      break;
    }
    case RopeScalingType::Proportional: {
      // _compute_proportional_rope_parameters: rope_angles = int(p * head_dim // 2) pairs with exponents
      // 2i / head_dim, the remaining head_dim/2 - rope_angles pairs frequency 0; all / factor.
      const int angles = std::min(half, static_cast<int>(std::floor(s.partial_rotary_factor * dim / 2.0)));
      const std::vector<double> powers = pair_powers(dim, base);
      out.inv_freq.assign(half, 0.0);
      for (int i = 0; i < angles; ++i) out.inv_freq[i] = 1.0 / powers[i] / f;
      break;
    }
  }
  return out;
}

std::vector<int> rope_mrope_axes(std::span<const int> section, int pairs, bool interleaved) {
  require(section.size() == 3, "mrope_section", "mrope_section must have 3 entries (t, h, w)");
  int64_t sum = 0;
  for (int v : section) {
    require(v >= 0, "mrope_section", "mrope_section entries must be >= 0");
    sum += v;
  }
  require(sum == pairs, "mrope_section",
          "mrope_section must sum to rotary_dim / 2 = " + std::to_string(pairs) + " (it sums to " + std::to_string(sum) + ")");
  std::vector<int> axes(pairs, 0);
  if (!interleaved) {
    // Qwen2-VL: cos.split(mrope_section * 2) takes chunk i from axis i % 3, over each half of the head.
    for (int i = 0; i < pairs; ++i) axes[i] = i < section[0] ? 0 : i < section[0] + section[1] ? 1 : 2;
  } else {
    // Qwen3-VL: freqs_t[..., offset:3*section[axis]:3] = freqs[axis] for (axis, offset) = (1, 1), (2, 2).
    for (int axis = 1; axis <= 2; ++axis)
      for (int i = axis; i < std::min(pairs, 3 * section[axis]); i += 3) axes[i] = axis;
  }
  return axes;
}

namespace {

// Rotates each row's pairs by position_of(row, pair) * inv_freq[pair], times the cos/sin magnitude; the
// pass-through dims beyond the rotary ones stay as they are. 1-D RoPE and M-RoPE differ only in the position.
template <class PositionOf>
Matrix rotate_pairs(const Matrix& x, const RopeFrequencies& freqs, RopeLayout layout, PositionOf position_of) {
  const Eigen::Index half = static_cast<Eigen::Index>(freqs.inv_freq.size());
  Matrix out = x;
  const double a = freqs.attention_scaling;
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    for (Eigen::Index i = 0; i < half; ++i) {
      const double angle = position_of(r, i) * freqs.inv_freq[i];
      const double c = std::cos(angle) * a, sn = std::sin(angle) * a;
      const Eigen::Index i0 = layout == RopeLayout::Half ? i : 2 * i;
      const Eigen::Index i1 = layout == RopeLayout::Half ? i + half : 2 * i + 1;
      const double x0 = x(r, i0), x1 = x(r, i1);
      out(r, i0) = x0 * c - x1 * sn;
      out(r, i1) = x1 * c + x0 * sn;
    }
  }
  return out;
}

}  // namespace

Matrix rope_apply_mrope(const Matrix& x, const MropePositions& positions, const RopeFrequencies& freqs, RopeLayout layout,
                        std::span<const int> axes) {
  const Eigen::Index half = static_cast<Eigen::Index>(freqs.inv_freq.size());
  require(x.cols() >= 2 * half, "x", "x must have at least the rotary dims (2 * pairs) as columns");
  require(static_cast<Eigen::Index>(axes.size()) == half, "mrope_section", "mrope_section must cover every pair");
  for (const auto& row : positions) {
    require(static_cast<Eigen::Index>(row.size()) == x.rows(), "positions",
            "each of the 3 position rows must have one entry per row of x");
    for (int64_t p : row) require(p >= -kMaxPosition && p <= kMaxPosition, "positions", "positions must lie in [-10^6, 10^6]");
  }
  return rotate_pairs(x, freqs, layout,
                      [&](Eigen::Index r, Eigen::Index i) { return static_cast<double>(positions[axes[i]][r]); });
}

Matrix rope_apply(const Matrix& x, std::span<const int64_t> positions, const RopeFrequencies& freqs, RopeLayout layout) {
  const Eigen::Index half = static_cast<Eigen::Index>(freqs.inv_freq.size());
  require(x.cols() >= 2 * half, "x", "x must have at least the rotary dims (2 * pairs) as columns");
  require(static_cast<Eigen::Index>(positions.size()) == x.rows(), "positions", "positions must have one entry per row of x");
  for (int64_t p : positions)
    require(p >= -kMaxPosition && p <= kMaxPosition, "positions", "positions must lie in [-10^6, 10^6]");
  return rotate_pairs(x, freqs, layout, [&](Eigen::Index r, Eigen::Index) { return static_cast<double>(positions[r]); });
}

RopeScaling with_seq_len_from_positions(const RopeScaling& scaling, std::span<const int64_t> positions) {
  RopeScaling s = scaling;
  const bool uses_length = s.type == RopeScalingType::Dynamic || s.type == RopeScalingType::Longrope;
  if (uses_length && !s.seq_len && !positions.empty()) {
    const int64_t mx = *std::max_element(positions.begin(), positions.end());
    s.seq_len = std::clamp<int64_t>(mx + 1, 1, kMaxLength);
  }
  return s;
}

Matrix rope_apply(const Matrix& x, std::span<const int64_t> positions, int dim, double base, const RopeScaling& scaling,
                  RopeLayout layout) {
  require(x.cols() == dim, "x", "x must have dim columns");
  return rope_apply(x, positions, rope_frequencies(dim, base, with_seq_len_from_positions(scaling, positions)), layout);
}

Matrix rope_apply_partial(const Matrix& x, std::span<const int64_t> positions, int rotary_dim, double base,
                          const RopeScaling& scaling, RopeLayout layout) {
  require(rotary_dim >= 2 && rotary_dim % 2 == 0 && rotary_dim <= x.cols(), "rotary_dim",
          "rotary_dim must be even, >= 2 and <= the width of x");
  return rope_apply(x, positions, rope_frequencies(rotary_dim, base, with_seq_len_from_positions(scaling, positions)), layout);
}

std::vector<int> rope_interleaved_to_half(int dim) {
  std::vector<int> perm(dim);
  for (int c = 0; c < dim; ++c) perm[c] = (c % 2 == 0) ? c / 2 : dim / 2 + c / 2;
  return perm;
}

}  // namespace posenc
