// Helpers the float32 kernel tests share: the paths to run and the error against the double core.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/kernels/kernels.h"
#include "core/types.h"

namespace posenc::test {

// Every kernel path this build has (SIMD128 only in wasm -msimd128 builds).
inline std::vector<kernels::Path> kernel_paths() {
  std::vector<kernels::Path> p{kernels::Path::Portable, kernels::Path::Best};
  if (kernels::kHaveSimd128) p.push_back(kernels::Path::Simd128);
  return p;
}

// max |got - ref| / max(1, max |ref|) over cells finite in ref; -inf / NaN cells must match in kind.
inline double rel_err(const MatrixF& got, const Matrix& ref) {
  EXPECT_EQ(got.rows(), ref.rows());
  EXPECT_EQ(got.cols(), ref.cols());
  if (got.rows() != ref.rows() || got.cols() != ref.cols()) return 1e30;
  double scale = 1.0, err = 0.0;
  for (Eigen::Index i = 0; i < ref.size(); ++i)
    if (std::isfinite(ref.data()[i])) scale = std::max(scale, std::abs(ref.data()[i]));
  for (Eigen::Index i = 0; i < ref.size(); ++i) {
    const double r = ref.data()[i], g = got.data()[i];
    if (std::isnan(r) || std::isinf(r)) {
      if (!(std::isnan(r) ? std::isnan(g) : g == r)) return 1e30;
      continue;
    }
    if (!std::isfinite(g)) return 1e30;
    err = std::max(err, std::abs(g - r));
  }
  return err / scale;
}

}  // namespace posenc::test
