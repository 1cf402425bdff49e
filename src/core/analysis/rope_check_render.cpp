// The renderer and the fits of the RoPE tensor check: one Setting's tensor on a set of rows, and a
// one-parameter least-squares fit that narrows over rows of growing position reach.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>

#include "core/analysis/rope_check_detail.h"
#include "core/half_float.h"

namespace posenc::rope_check_detail {

// ---------------------------------------------------------------- rounding to half-precision formats

double apply_round(Round r, double v) {
  switch (r) {
    case Round::None: return v;
    case Round::Bf16: return posenc::round_bf16(v);
    case Round::Fp16: return posenc::round_fp16(v);
  }
  return v;
}

const char* round_name(Round r) { return r == Round::Bf16 ? "bfloat16" : r == Round::Fp16 ? "float16" : "float64"; }

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// ---------------------------------------------------------------- one way of computing the tensor

int64_t position_of(const Problem& pb, const Setting& s, Eigen::Index row) {
  int64_t p = pb.positions[static_cast<size_t>(row)] + s.offset + s.head_offset * pb.head_of(row);
  if (s.cache_length > 0 && p >= s.cache_length) p = s.cache_wrap ? p % s.cache_length : s.cache_length - 1;
  return p;
}

double angle_frequency(const Setting& s, int i) {
  const double w0 = s.inv_freq[static_cast<size_t>(i)];
  if (s.timescale_round == Round::None || w0 == 0) return apply_round(s.inv_round, w0);
  return 1.0 / apply_round(s.timescale_round, 1.0 / w0);
}

double angle(const Problem& pb, const Setting& s, Eigen::Index row, int i) {
  const double w = angle_frequency(s, i);
  const double p = apply_round(s.position_round, static_cast<double>(position_of(pb, s, row)));
  return apply_round(s.angle_round, s.angle_scale * p * w);
}

double trig_value(const Setting& s, double a, bool is_cos) {
  return apply_round(s.trig_round, is_cos ? std::cos(a) * s.magnitude : std::sin(a) * s.magnitude * s.sin_sign);
}

// Pair i of a dim-wide row: its two columns (after the setting's column offset).
std::pair<Eigen::Index, Eigen::Index> pair_columns(const Problem& pb, const Setting& s, int i) {
  const Eigen::Index o = s.column_offset;
  if (s.layout == RopeLayout::Interleaved) return {o + 2 * i, o + 2 * i + 1};
  return {o + i, o + i + (s.span > 0 ? s.span : pb.pairs)};
}

Matrix rotate_rows(const Problem& pb, const Setting& s, const Matrix& m, const std::vector<Eigen::Index>& idx,
                   const std::vector<char>& unrotated) {
  Matrix out(static_cast<Eigen::Index>(idx.size()), m.cols());
  const int pairs = static_cast<int>(s.inv_freq.size());
  for (size_t j = 0; j < idx.size(); ++j) {
    const Eigen::Index r = idx[j], o = static_cast<Eigen::Index>(j);
    out.row(o) = m.row(r);
    if (!unrotated.empty() && unrotated[static_cast<size_t>(r)]) continue;
    for (int i = 0; i < pairs; ++i) {
      const double a = angle(pb, s, r, i);
      const double c = trig_value(s, a, true), sn = trig_value(s, a, false);
      const auto [i0, i1] = pair_columns(pb, s, i);
      const double x0 = m(r, i0), x1 = m(r, i1);
      if (s.alias == 1) {  // out_b reads the out_a just written over x_a
        out(o, i0) = x0 * c - x1 * sn;
        out(o, i1) = x1 * c + out(o, i0) * sn;
      } else if (s.alias == 2) {  // out_a reads the out_b just written over x_b
        out(o, i1) = x1 * c + x0 * sn;
        out(o, i0) = x0 * c - out(o, i1) * sn;
      } else {
        out(o, i0) = x0 * c - x1 * sn;
        out(o, i1) = x1 * c + x0 * sn;
      }
    }
  }
  return out;
}

// The pair whose angle a cos/sin column holds.
int cos_column_pair(const Problem& pb, RopeLayout layout, Eigen::Index c) {
  if (pb.half_width) return static_cast<int>(c);
  return layout == RopeLayout::Half ? static_cast<int>(c % pb.pairs) : static_cast<int>(c / 2);
}

// The tensor of the setting, restricted to the rows `idx` (and, for logits, the same columns).
Matrix render(const Problem& pb, const Setting& s, const std::vector<Eigen::Index>& idx) {
  switch (pb.kind) {
    case CheckKind::InvFreq: {
      Matrix out(1, pb.pairs);
      for (int i = 0; i < pb.pairs; ++i) out(0, i) = i < static_cast<int>(s.inv_freq.size()) ? angle_frequency(s, i) : 0.0;
      return out;
    }
    case CheckKind::Cos:
    case CheckKind::Sin: {
      Matrix out(static_cast<Eigen::Index>(idx.size()), pb.cols);
      const bool is_cos = pb.kind == CheckKind::Cos;
      std::vector<double> v(static_cast<size_t>(pb.pairs));
      const int pairs = std::min(pb.pairs, static_cast<int>(s.inv_freq.size()));
      for (size_t j = 0; j < idx.size(); ++j) {
        const Eigen::Index r = idx[j];
        const bool left = !s.unrotated.empty() && s.unrotated[static_cast<size_t>(r)];
        for (int i = 0; i < pb.pairs; ++i) {
          if (left || i >= pairs) {  // no rotation: cos 1, sin 0
            v[static_cast<size_t>(i)] = is_cos ? 1.0 : 0.0;
            continue;
          }
          v[static_cast<size_t>(i)] = trig_value(s, angle(pb, s, r, i), is_cos);
        }
        for (Eigen::Index c = 0; c < pb.cols; ++c)
          out(static_cast<Eigen::Index>(j), c) = v[static_cast<size_t>(cos_column_pair(pb, s.layout, c))];
      }
      return out;
    }
    case CheckKind::Rotated: return rotate_rows(pb, s, *pb.x, idx, s.unrotated);
    case CheckKind::Logits: {
      const Matrix qr = rotate_rows(pb, s, *pb.q, idx, s.unrotated_q);
      const Matrix kr = rotate_rows(pb, s, *pb.k, idx, s.unrotated_k);
      return s.logit_scale * (qr * kr.transpose());
    }
  }
  return {};
}

Matrix restrict_rows(const Problem& pb, const Matrix& m, const std::vector<Eigen::Index>& idx) {
  if (pb.kind == CheckKind::InvFreq) return m;
  const bool square = pb.kind == CheckKind::Logits;
  Matrix out(static_cast<Eigen::Index>(idx.size()), square ? static_cast<Eigen::Index>(idx.size()) : m.cols());
  for (size_t j = 0; j < idx.size(); ++j) {
    if (square) {
      for (size_t c = 0; c < idx.size(); ++c) out(static_cast<Eigen::Index>(j), static_cast<Eigen::Index>(c)) = m(idx[j], idx[c]);
    } else {
      out.row(static_cast<Eigen::Index>(j)) = m.row(idx[j]);
    }
  }
  return out;
}

double sse(const Matrix& a, const Matrix& b) {
  // Element by element: a difference matrix would double the memory of a 2^24-element check.
  double s = 0;
  for (Eigen::Index i = 0; i < a.size(); ++i) {
    const double v = a.data()[i] - b.data()[i];
    if (!std::isfinite(v)) return std::numeric_limits<double>::infinity();
    s += v * v;
  }
  return s;
}

// ---------------------------------------------------------------- reference and hypotheses

// The setting of a RoPE configuration (the reference's, or the reference with a field changed).
Setting setting_of(const Problem& pb, const RopeCheckReference& r) {
  const RopeScaling scaling = with_seq_len_from_positions(r.scaling, pb.positions);
  const RopeFrequencies f = rope_frequencies(pb.rotary_dim, r.base, scaling);
  Setting s;
  s.inv_freq = f.inv_freq;
  s.magnitude = f.attention_scaling;
  s.layout = r.layout;
  s.column_offset = r.rotary_offset;
  s.logit_scale = *r.softmax_scale;
  return s;
}

std::optional<Setting> try_setting(const Problem& pb, const RopeCheckReference& r) {
  try {
    return setting_of(pb, r);
  } catch (const InvalidArgument&) { return std::nullopt; }
}

std::vector<Eigen::Index> subsample(std::vector<Eigen::Index> idx, size_t limit) {
  if (idx.size() <= limit) return idx;
  std::vector<Eigen::Index> out;
  out.reserve(limit);
  for (size_t j = 0; j < limit; ++j) out.push_back(idx[j * (idx.size() - 1) / (limit - 1)]);
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

FitLevels make_levels(const Problem& pb, const Matrix& actual) {
  FitLevels fl;
  if (pb.kind == CheckKind::InvFreq) {
    fl.levels.push_back({0});
    fl.actual.push_back(actual);
    return fl;
  }
  std::vector<Eigen::Index> order(pb.positions.size());
  std::iota(order.begin(), order.end(), 0);
  auto mag = [&](Eigen::Index r) { return std::llabs(pb.positions[static_cast<size_t>(r)]); };
  std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) { return mag(a) < mag(b); });
  const double max_reach = static_cast<double>(mag(order.back()));
  // The first reach holds at least two nonzero positions.
  double reach = 4;
  int nonzero = 0;
  for (Eigen::Index r : order)
    if (mag(r) > 0 && ++nonzero == 2) {
      reach = std::max(reach, static_cast<double>(mag(r)));
      break;
    }
  fl.first_reach = reach;
  for (;; reach *= 4) {
    std::vector<Eigen::Index> idx;
    for (Eigen::Index r : order)
      if (static_cast<double>(mag(r)) <= reach) idx.push_back(r);
    idx = subsample(std::move(idx), kFitRows);
    std::sort(idx.begin(), idx.end());
    fl.levels.push_back(idx);
    fl.actual.push_back(restrict_rows(pb, actual, idx));
    if (reach >= max_reach) break;
  }
  return fl;
}

// Minimises the squared error over a continuous parameter t in [lo, hi] (a log scale where the caller
// wants one): a grid on the first level, three best candidates carried to each next level on a grid 4x
// finer around them, then golden-section search. make(t) returns nullopt where the setting is invalid.
double fit_scalar(const Problem& pb, const FitLevels& fl, double lo, double hi,
                  const std::function<std::optional<Setting>(double)>& make) {
  auto cost = [&](size_t level, double t) {
    const auto s = make(t);
    if (!s) return std::numeric_limits<double>::infinity();
    return sse(render(pb, *s, fl.levels[level]), fl.actual[level]);
  };
  const int n0 = static_cast<int>(std::clamp(161.0 * fl.first_reach / 4.0, 161.0, 2001.0));
  double step = (hi - lo) / (n0 - 1);
  std::vector<std::pair<double, double>> scored;  // (cost, t)
  for (int j = 0; j < n0; ++j) scored.push_back({cost(0, lo + j * step), lo + j * step});
  auto best3 = [&](std::vector<std::pair<double, double>> v, double sep) {
    std::sort(v.begin(), v.end());
    std::vector<double> out;
    for (const auto& [c, t] : v) {
      if (!std::isfinite(c)) break;
      bool far = true;
      for (double o : out) far = far && std::fabs(o - t) > sep;
      if (far) out.push_back(t);
      if (out.size() == 3) break;
    }
    return out;
  };
  std::vector<double> cands = best3(scored, 1.5 * step);
  if (cands.empty()) return lo;
  // Each level: 4x the reach, a 4x finer grid over +-2 of the previous steps. The last level is repeated
  // twice more so a single-level problem (inv_freq) is refined too.
  const size_t last = fl.levels.size() - 1;
  for (size_t level = 1; level <= last + 2; ++level) {
    const size_t lv = std::min(level, last);
    step /= 4;
    scored.clear();
    for (double c : cands)
      for (int j = -8; j <= 8; ++j) {
        const double t = std::clamp(c + j * step, lo, hi);
        scored.push_back({cost(lv, t), t});
      }
    cands = best3(scored, 1.5 * step);
    if (cands.empty()) return lo;
  }
  // Golden section on the best candidate's bracket.
  double a = std::max(lo, cands[0] - step), b = std::min(hi, cands[0] + step);
  const double g = (std::sqrt(5.0) - 1) / 2;
  double c1 = b - g * (b - a), c2 = a + g * (b - a);
  double f1 = cost(last, c1), f2 = cost(last, c2);
  for (int it = 0; it < 40; ++it) {
    // Two costs within 1e-9 of each other are no longer told apart by the data but by the last bits of the
    // maths library (native and wasm differ there): stop, so both answer the same fit.
    if (std::fabs(f1 - f2) <= 1e-9 * std::max(f1, f2)) break;
    if (f1 < f2) {
      b = c2, c2 = c1, f2 = f1, c1 = b - g * (b - a), f1 = cost(last, c1);
    } else {
      a = c1, c1 = c2, f1 = f2, c2 = a + g * (b - a), f2 = cost(last, c2);
    }
  }
  const double t = (a + b) / 2;
  return cost(last, t) <= cost(last, cands[0]) ? t : cands[0];
}

std::vector<double> angle_rel_error(const std::vector<double>& inv_freq) {
  // transformers: the exponent 2i/r rounded moves w by ln(1/w) u; pow, the division, the scaling and the
  // product p * w a few u more. MLX's exp(-i ln(base) / half) carries the argument's 3 roundings into w as
  // 3 ln(1/w) u. llama.cpp's iterated product theta *= theta_scale adds pair after pair powf's error and a
  // rounding: <= 3 i u at pair i. All doubled for safety (docs/cli.md derives it).
  std::vector<double> rho(inv_freq.size());
  for (size_t i = 0; i < inv_freq.size(); ++i) {
    const double w = inv_freq[i];
    rho[i] = w > 0 ? 2 * (3 * std::max(0.0, std::log(1 / w)) + 7 + 3 * static_cast<double>(i)) * kUnitRoundoff : 0.0;
  }
  return rho;
}

std::vector<Eigen::Index> all_rows(const Problem& pb) {
  std::vector<Eigen::Index> idx(static_cast<size_t>(pb.kind == CheckKind::InvFreq ? 1 : pb.rows));
  std::iota(idx.begin(), idx.end(), 0);
  return idx;
}

}  // namespace posenc::rope_check_detail
