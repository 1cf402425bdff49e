// The kernel benchmark as a plain wasm program for node: the same jobs as bench/kernels_bench.cpp, timed
// by a simple loop (warm-up, then the median of repeats). Built twice by bench/run-wasm.sh: with -msimd128
// (kernels dispatch to the hand-written SIMD128 path) and without (portable path, autovectorisation off).
// Prints one JSON object per line: {"build": ..., "kernel": ..., "n": ..., "d": ..., "ms": median, "reps": r}.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "bench_inputs.h"
#include "core/kernels.h"
#include "core/rope.h"
#include "core/sinusoidal.h"

using namespace posenc;

namespace {

#if defined(__wasm_simd128__)
constexpr const char* kBuild = "wasm-simd128";
#else
constexpr const char* kBuild = "wasm-scalar";
#endif

volatile float g_sink = 0.0f;

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Two warm-up runs, then repeats until ~`budget_ms` has passed (at least 5, at most 51); median.
void run(const char* kernel, int n, int d, const std::function<float()>& job, double budget_ms) {
  for (int w = 0; w < 2; ++w) g_sink = g_sink + job();
  std::vector<double> t;
  const double start = now_ms();
  while (t.size() < 5 || (t.size() < 51 && now_ms() - start < budget_ms)) {
    const double t0 = now_ms();
    g_sink = g_sink + job();
    t.push_back(now_ms() - t0);
  }
  std::sort(t.begin(), t.end());
  std::printf("{\"build\": \"%s\", \"kernel\": \"%s\", \"n\": %d, \"d\": %d, \"ms\": %.4f, \"reps\": %zu}\n", kBuild,
              kernel, n, d, t[t.size() / 2], t.size());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const double budget = argc > 1 ? std::atof(argv[1]) : 1500.0;
  const std::string only = argc > 2 ? argv[2] : "";
  auto want = [&](const char* k) { return only.empty() || only == k; };
  for (int n : {512, 1024, 2048})
    for (int d : {64, 128}) {
      const MatrixF q = bench::random_matrix_f(n, d, 1), k = bench::random_matrix_f(n, d, 2);
      const auto pos = bench::positions(n);
      const RopeFrequencies f = rope_frequencies(d, 10000.0);
      const float scale = 1.0f / std::sqrt(float(d));
      if (want("rope_logits"))
        run("rope_logits", n, d, [&] {
          MatrixF s = kernels::rope_logits(q, k, pos, pos, f, RopeLayout::Half, scale);
          return s(n - 1, n - 1);
        }, budget);
      if (want("bias_logits")) {
        const MatrixF b = bench::alibi_bias(n);
        run("bias_logits", n, d, [&] {
          MatrixF s = kernels::bias_logits(q, k, b, scale);
          return s(n - 1, 0);
        }, budget);
      }
      if (want("pe_table"))
        run("pe_table", n, d, [&] {
          MatrixF p = sinusoidal_table_f(n, d);
          return p(n - 1, d - 1);
        }, budget);
      if (want("eigen_qkt"))
        run("eigen_qkt", n, d, [&] {
          MatrixF s = q * k.transpose();
          return s(n - 1, n - 1);
        }, budget);
    }
  if (want("softmax"))
    for (int n : {512, 1024, 2048}) {
      const MatrixF l = bench::random_matrix_f(n, n, 5) * 8.0f;
      run("softmax", n, 0, [&] {
        MatrixF w = kernels::softmax(l);
        return w(n - 1, n - 1);
      }, budget);
    }
  return g_sink == 12345.0f ? 1 : 0;
}
