// A deterministic normal generator that gives the same numbers on every platform: std::mt19937_64's
// output sequence is fixed by the standard, std::normal_distribution's algorithm is not, so the
// Box-Muller transform is done here.
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>

#include "core/types.h"

namespace posenc {

class NormalRng {
 public:
  explicit NormalRng(uint64_t seed) : engine_(seed) {}

  // Uniform in (0, 1]: 53 random bits, never 0 (log(0) is avoided).
  double uniform_open0() { return (static_cast<double>(engine_() >> 11) + 1.0) * 0x1.0p-53; }

  // Standard normal; the two Box-Muller outputs are used in turn.
  double normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double u1 = uniform_open0();
    const double u2 = uniform_open0();
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double t = 2.0 * std::numbers::pi * u2;
    spare_ = r * std::sin(t);
    has_spare_ = true;
    return r * std::cos(t);
  }

 private:
  std::mt19937_64 engine_;
  double spare_ = 0.0;
  bool has_spare_ = false;
};

// rows x cols entries stddev * N(0, 1) from NormalRng(seed), filled row by row: every seeded table of
// the core (learned positions, Shaw tables, relative bias, toy weights) is drawn this way.
inline Matrix seeded_normal_matrix(Eigen::Index rows, Eigen::Index cols, uint64_t seed, double stddev) {
  NormalRng rng(seed);
  Matrix m(rows, cols);
  // Row by row is storage order (Matrix is row-major). Through the pointer: in the wasm build (-Os,
  // exceptions on) m(r, c) stays an out-of-line call through a JS invoke trampoline per entry.
  static_assert(Matrix::IsRowMajor);
  double* out = m.data();
  for (Eigen::Index i = 0, count = rows * cols; i < count; ++i) out[i] = stddev * rng.normal();
  return m;
}

}  // namespace posenc
