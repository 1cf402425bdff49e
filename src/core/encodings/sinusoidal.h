// Sinusoidal positional encoding (Vaswani et al. 2017) and its frequency schedules.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/bounds.h"
#include "core/names.h"
#include "core/types.h"

namespace posenc {

// How the pair frequencies w_k, k = 0..d/2-1, are laid out.
enum class FrequencySchedule {
  Geometric,   // w_k = base^(-2k/d): the standard, wavelengths 2pi .. 2pi*base
  Linear,      // w_k falls linearly from 1 to base^(-(d-2)/d) (same end points as geometric)
  Increasing,  // the geometric frequencies reversed: w_k grows with k (the seed's "what if")
};
template <>
struct EnumNames<FrequencySchedule> {
  static constexpr std::array<const char*, 3> names{"geometric", "linear", "increasing"};
};

// w_k for k = 0..dim/2-1. dim must be even and in [2, kMaxDim]; base > 1.
std::vector<double> sinusoidal_frequencies(int dim, double base = 10000.0,
                                           FrequencySchedule schedule = FrequencySchedule::Geometric);

// P[p][2k] = sin(pos_p w_k), P[p][2k+1] = cos(pos_p w_k); angles in double precision.
Matrix sinusoidal_table(std::span<const int64_t> positions, int dim, double base = 10000.0,
                        FrequencySchedule schedule = FrequencySchedule::Geometric);

// Column i of sinusoidal_table over positions 0..n-1: the same values (the same expression), without
// computing the rest of the table (the waves view's curves and hover).
std::vector<double> sinusoidal_column(int n, int dim, int i, double base = 10000.0,
                                      FrequencySchedule schedule = FrequencySchedule::Geometric);

// Positions 0..n-1, as floats for upload to a texture (the app's hot path).
MatrixF sinusoidal_table_f(int n, int dim, double base = 10000.0, FrequencySchedule schedule = FrequencySchedule::Geometric);

}  // namespace posenc
