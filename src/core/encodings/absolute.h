// Absolute positional encodings added to the token embedding (x'_p = x_p + P_p): the naive ones the seed
// texts reject (integer, normalised, binary, sine only), the sinusoidal one (see sinusoidal.h) and a
// learned BERT-style table.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "core/names.h"
#include "core/encodings/sinusoidal.h"
#include "core/types.h"

namespace posenc {

enum class AbsoluteScheme { Sinusoidal, SineOnly, Binary, Integer, Normalised, Learned };
template <>
struct EnumNames<AbsoluteScheme> {
  static constexpr std::array<const char*, 6> names{"sinusoidal", "sine_only", "binary", "integer", "normalised", "learned"};
};

// P_p[c] = p for every column c: unbounded, dwarfs the embedding for long sequences.
Matrix integer_encoding(int n, int dim);

// P_p[c] = p / (n - 1) in [0, 1] (0 for n = 1): the step between neighbours depends on n.
Matrix normalised_encoding(int n, int dim);

// P_p[c] = bit c of p (column 0 = least significant bit), as 0 / 1. Positions must fit in dim bits.
Matrix binary_encoding(int n, int dim);

// P_p[c] = sin(p w_c) with dim frequencies w_c = base^(-c/dim) (the sinusoidal schedule at width 2 dim):
// P_m . P_n then depends on m and n, not only on m - n.
Matrix sine_only_encoding(std::span<const int64_t> positions, int dim, double base = 10000.0,
                          FrequencySchedule schedule = FrequencySchedule::Geometric);

// BERT-style learned table: max_len x dim, entries N(0, stddev^2) from NormalRng(seed). Positions past
// max_len have no row (no extrapolation): callers must check p < max_len.
Matrix learned_position_table(int max_len, int dim, uint64_t seed, double stddev = 0.02);

struct AbsoluteParams {
  double base = 10000.0;
  FrequencySchedule schedule = FrequencySchedule::Geometric;
  int learned_max_len = 512;
  uint64_t seed = 0;
};

// Positions 0..n-1 for any scheme. Learned rows past learned_max_len are zero (undefined in the model;
// the UI shows them blank) — use learned_defined_rows() to know how many rows are real.
Matrix absolute_encoding(AbsoluteScheme scheme, int n, int dim, const AbsoluteParams& params = {});
int learned_defined_rows(int n, const AbsoluteParams& params);

inline const char* absolute_scheme_name(AbsoluteScheme s) { return name_of(s); }
inline std::optional<AbsoluteScheme> absolute_scheme_from_name(const std::string& name) {
  return from_name<AbsoluteScheme>(name);
}

}  // namespace posenc
