// The kernel benchmark as a plain wasm program for node: the same jobs as bench/kernels_bench.cpp, timed
// by a simple loop (warm-up, then the median of repeats). Built twice by bench/run-wasm.sh: with -msimd128
// (kernels dispatch to the hand-written SIMD128 path) and without (portable path, autovectorisation off).
// The whole RoPE job against the reference micro-kernel and tfjs is bench/kernel-parity.mjs's table.
// Prints one JSON object per line: {"build": ..., "kernel": ..., "n": ..., "d": ..., "ms": median, "reps": r}.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <functional>
#include <string>
#include <vector>

#include "bench_inputs.h"
#include "core/kernels/kernels.h"
#include "core/attention/score_kernels.h"
#include "core/encodings/rope.h"
#include "core/encodings/sinusoidal.h"
#if defined(__wasm_simd128__)
#include "wasm/reference_rope.h"
#endif

using namespace posenc;

namespace {

#if defined(__wasm_simd128__)
constexpr const char* kBuild = "wasm-simd128";
#else
constexpr const char* kBuild = "wasm-scalar";
#endif

volatile float g_sink = 0.0f;

double now_ms() { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

struct Job {
  std::string kernel;
  std::function<float()> run;
};

// Two warm-up runs of each job, then rounds that time every job once each (peers interleaved, so load from
// other processes hits all of them alike; on an overloaded machine a job can still phase-lock with the
// scheduler's time slices, which min_ms shows) until ~`budget_ms` per job has passed (5 to 51 rounds); medians.
void run_group(int n, int d, const std::vector<Job>& jobs, double budget_ms) {
  for (const Job& j : jobs)
    for (int w = 0; w < 2; ++w) g_sink = g_sink + j.run();
  std::vector<std::vector<double>> t(jobs.size());
  const double start = now_ms();
  while (t[0].size() < 5 || (t[0].size() < 51 && now_ms() - start < budget_ms * jobs.size())) {
    for (size_t i = 0; i < jobs.size(); ++i) {
      const double t0 = now_ms();
      g_sink = g_sink + jobs[i].run();
      t[i].push_back(now_ms() - t0);
    }
  }
  for (size_t i = 0; i < jobs.size(); ++i) {
    std::sort(t[i].begin(), t[i].end());
    std::printf("{\"build\": \"%s\", \"kernel\": \"%s\", \"n\": %d, \"d\": %d, \"ms\": %.4f, \"min_ms\": %.4f, \"reps\": %zu}\n",
                kBuild, jobs[i].kernel.c_str(), n, d, t[i][t[i].size() / 2], t[i].front(), t[i].size());
  }
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
      const MatrixF b = bench::alibi_bias(n);
      MatrixF out(n, n);
      std::vector<Job> jobs;
      if (want("gemm"))
        jobs.push_back({"gemm", [&] {
                          kernels::logits(q.data(), k.data(), n, n, d, scale, out.data());
                          return out(n - 1, n - 1);
                        }});
#if defined(__wasm_simd128__)
      reference::Workspace ws;
      if (want("gemm") || want("ref_gemm"))
        jobs.push_back({"ref_gemm", [&] {
                          reference::gemm_nt(q.data(), k.data(), n, n, d, scale, out.data(), ws);
                          return out(n - 1, n - 1);
                        }});
#endif
      if (want("rope_logits"))
        jobs.push_back({"rope_logits", [&] {
                          MatrixF s = kernels::rope_logits(q, k, pos, pos, f, RopeLayout::Half, scale);
                          return s(n - 1, n - 1);
                        }});
      if (want("bias_logits"))
        jobs.push_back({"bias_logits", [&] {
                          MatrixF s = kernels::bias_logits(q, k, b, scale);
                          return s(n - 1, 0);
                        }});
      if (want("pe_table"))
        jobs.push_back({"pe_table", [&] {
                          MatrixF p = sinusoidal_table_f(n, d);
                          return p(n - 1, d - 1);
                        }});
      if (want("eigen_qkt"))
        jobs.push_back({"eigen_qkt", [&] {
                          MatrixF s = q * k.transpose();
                          return s(n - 1, n - 1);
                        }});
      if (!jobs.empty()) run_group(n, d, jobs, budget);
    }
  // The views' per-change jobs as float kernels (phase 2 wires them in): the scores of every scheme at the
  // scores view's sizes (d = 64), the PE table and P P^T of the waves / similarity views.
  for (int n : {512, 2048}) {
    const int d = 64;
    const MatrixF q = bench::random_matrix_f(n, d, 1), k = bench::random_matrix_f(n, d, 2);
    const auto pos = bench::positions(n);
    std::vector<Job> jobs;
    for (const auto& [name, spec] : bench::score_specs(d)) {
      const std::string kernel = "scores_" + name;
      if (!want(kernel.c_str()) && !want("scores")) continue;
      jobs.push_back({kernel, [&, spec = spec] {
                        kernels::AttentionF a = kernels::attention_f(q, k, pos, pos, spec);
                        return a.weights(n - 1, 0);
                      }});
    }
    const MatrixF wq = bench::random_matrix_f(d, d, 3) * 0.125f, wk = bench::random_matrix_f(d, d, 4) * 0.125f;
    if (want("scores_sinusoidal") || want("scores"))
      jobs.push_back({"scores_sinusoidal", [&] {
                        const MatrixF pe = kernels::pe_table(pos, sinusoidal_frequencies(d));
                        kernels::AttentionF a = kernels::absolute_attention_f(q, pe, wq, wk, 0.125, false);
                        return a.weights(n - 1, 0);
                      }});
    if (!jobs.empty()) run_group(n, d, jobs, budget);
  }
  for (int n : {512, 2048, 4096}) {
    const int d = 128;
    const auto pos = bench::positions(n);
    const std::vector<double> w = sinusoidal_frequencies(d);
    std::vector<Job> jobs;
    if (want("pe_table_f"))
      jobs.push_back({"pe_table_f", [&] {
                        MatrixF p = kernels::pe_table(pos, w);
                        return p(n - 1, d - 1);
                      }});
    if (want("gram"))
      jobs.push_back({"gram", [&] {
                        MatrixF g = kernels::gram(kernels::pe_table(pos, w));
                        return g(n - 1, 0);
                      }});
    if (!jobs.empty()) run_group(n, d, jobs, budget);
  }
  if (want("softmax"))
    for (int n : {512, 1024, 2048}) {
      const MatrixF l = bench::random_matrix_f(n, n, 5) * 8.0f;
      run_group(n, 0,
                {{"softmax",
                  [&] {
                    MatrixF w = kernels::softmax(l);
                    return w(n - 1, n - 1);
                  }}},
                budget);
    }
  return g_sink == 12345.0f ? 1 : 0;
}
