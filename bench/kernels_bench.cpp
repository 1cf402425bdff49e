// Native benchmarks of the float32 hot kernels (the same jobs as bench/wasm/kernels_wasm.cpp):
//   rope_logits   n x n RoPE scores: cos/sin tables, rotate q and k, scale * Q' K'^T   (n, d)
//                 (Path::Best: Eigen's GEMM natively; rope_logits_portable: the scalar reference loops)
//   bias_logits   scale * Q K^T + bias (T5 / ALiBi add)                                 (n, d)
//   softmax       row softmax of an n x n logit matrix                                  (n)
//   pe_table      sinusoidal PE table n x d, float                                      (n, d)
//   gemm          kernels::logits: scale * Q K^T                                       (n, d)
//   eigen_qkt     reference only: Eigen's own GEMM Q K^T (AVX-512 with -march=native)    (n, d)
// Run: build/native/bench/posenc_kernels_bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include "bench_inputs.h"
#include "core/kernels/kernels.h"
#include "core/encodings/rope.h"
#include "core/encodings/sinusoidal.h"

using namespace posenc;

namespace {

template <kernels::Path kPath>
void rope_logits(benchmark::State& st) {
  const int n = static_cast<int>(st.range(0)), d = static_cast<int>(st.range(1));
  const MatrixF q = bench::random_matrix_f(n, d, 1), k = bench::random_matrix_f(n, d, 2);
  const auto pos = bench::positions(n);
  const RopeFrequencies f = rope_frequencies(d, 10000.0);
  for (auto _ : st) {
    MatrixF s = kernels::rope_logits(q, k, pos, pos, f, RopeLayout::Half, 1.0f / std::sqrt(float(d)), kPath);
    benchmark::DoNotOptimize(s.data());
  }
  st.counters["GFLOP/s"] =
      benchmark::Counter(2.0 * n * n * d, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}

void bias_logits(benchmark::State& st) {
  const int n = static_cast<int>(st.range(0)), d = static_cast<int>(st.range(1));
  const MatrixF q = bench::random_matrix_f(n, d, 3), k = bench::random_matrix_f(n, d, 4);
  const MatrixF b = bench::alibi_bias(n);
  for (auto _ : st) {
    MatrixF s = kernels::bias_logits(q, k, b, 1.0f / std::sqrt(float(d)));
    benchmark::DoNotOptimize(s.data());
  }
}

void softmax(benchmark::State& st) {
  const int n = static_cast<int>(st.range(0));
  const MatrixF l = bench::random_matrix_f(n, n, 5) * 8.0f;
  for (auto _ : st) {
    MatrixF w = kernels::softmax(l);
    benchmark::DoNotOptimize(w.data());
  }
}

void pe_table(benchmark::State& st) {
  const int n = static_cast<int>(st.range(0)), d = static_cast<int>(st.range(1));
  for (auto _ : st) {
    MatrixF p = sinusoidal_table_f(n, d);
    benchmark::DoNotOptimize(p.data());
  }
}

// kernels::logits, the Q K^T product the score views call (Path::Best: Eigen's GEMM natively).
void gemm(benchmark::State& st) {
  const int n = static_cast<int>(st.range(0)), d = static_cast<int>(st.range(1));
  const MatrixF q = bench::random_matrix_f(n, d, 1), k = bench::random_matrix_f(n, d, 2);
  for (auto _ : st) {
    MatrixF s = kernels::logits(q, k, 1.0f / std::sqrt(float(d)));
    benchmark::DoNotOptimize(s.data());
  }
}

void eigen_qkt(benchmark::State& st) {
  const int n = static_cast<int>(st.range(0)), d = static_cast<int>(st.range(1));
  const MatrixF q = bench::random_matrix_f(n, d, 1), k = bench::random_matrix_f(n, d, 2);
  for (auto _ : st) {
    MatrixF s = q * k.transpose();
    benchmark::DoNotOptimize(s.data());
  }
}

void nd_args(benchmark::internal::Benchmark* b) {
  for (int n : {512, 1024, 2048})
    for (int d : {64, 128}) b->Args({n, d});
}

}  // namespace

BENCHMARK(rope_logits<kernels::Path::Best>)->Name("rope_logits")->Apply(nd_args)->Unit(benchmark::kMillisecond);
BENCHMARK(rope_logits<kernels::Path::Portable>)->Name("rope_logits_portable")->Apply(nd_args)->Unit(benchmark::kMillisecond);
BENCHMARK(bias_logits)->Apply(nd_args)->Unit(benchmark::kMillisecond);
BENCHMARK(softmax)->Arg(512)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond);
BENCHMARK(pe_table)->Apply(nd_args)->Unit(benchmark::kMillisecond);
BENCHMARK(gemm)->Apply(nd_args)->Unit(benchmark::kMillisecond);
BENCHMARK(eigen_qkt)->Apply(nd_args)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
