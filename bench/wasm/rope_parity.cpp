// The two wasm peers of the kernel-parity table, for bench/kernel-parity.mjs (which times them side by side
// with tfjs-backend-wasm in one node process): posenc's whole RoPE job as the scores view runs it
// (kernels::rope_logits: cos/sin tables, rotation, packed GEMM, a new n x n matrix out) and the reference
// micro-kernel's (wasm/reference_rope.h: the same steps, writing into a buffer it owns). Built with the
// page's link flags (-Os, emmalloc) by bench/run-wasm.sh and as a CTest smoke target (tests/CMakeLists.txt).
#include <emscripten/emscripten.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "bench_inputs.h"
#include "core/encodings/rope.h"
#include "core/kernels/kernels.h"
#include "wasm/reference_rope.h"

using namespace posenc;

namespace {

// One size's inputs and outputs. q, k: uniform in [-1, 1) (bench_inputs.h), positions 0..n-1, base 10000,
// scale 1/sqrt(d), half-layout pairs (LLaMA's rotate_half), as tfjs-rope.mjs does.
struct Case {
  int n = 0, d = 0;
  MatrixF q, k, ours, reference;
  std::vector<int64_t> pos;
  RopeFrequencies freqs;
  float scale = 1.0f;
  reference::Workspace ws;
};
Case g_case;

float max_abs(const MatrixF& m) { return m.size() ? m.cwiseAbs().maxCoeff() : 0.0f; }

}  // namespace

extern "C" {

// Sets up n x d and runs both peers once; returns max |ours - reference| / max(1, max |ours|).
EMSCRIPTEN_KEEPALIVE double parity_setup(int n, int d) {
  Case& c = g_case;
  c.n = n, c.d = d;
  c.q = bench::random_matrix_f(n, d, 1);
  c.k = bench::random_matrix_f(n, d, 2);
  c.pos = bench::positions(n);
  c.freqs = rope_frequencies(d, 10000.0);
  c.scale = 1.0f / std::sqrt(static_cast<float>(d));
  c.reference.resize(n, n);
  c.ours = kernels::rope_logits(c.q, c.k, c.pos, c.pos, c.freqs, RopeLayout::Half, c.scale);
  reference::rope_logits(c.q.data(), c.k.data(), c.pos.data(), n, d, c.freqs.inv_freq.data(), c.scale, c.reference.data(), c.ws);
  return (c.ours - c.reference).cwiseAbs().maxCoeff() / std::max(1.0f, max_abs(c.ours));
}

// The whole job once: peer 0 posenc, 1 the reference. Returns one logit (so the work cannot be skipped).
EMSCRIPTEN_KEEPALIVE float parity_run(int peer) {
  Case& c = g_case;
  if (peer == 0) {
    c.ours = kernels::rope_logits(c.q, c.k, c.pos, c.pos, c.freqs, RopeLayout::Half, c.scale);
    return c.ours(c.n - 1, c.n - 1);
  }
  reference::rope_logits(c.q.data(), c.k.data(), c.pos.data(), c.n, c.d, c.freqs.inv_freq.data(), c.scale, c.reference.data(),
                         c.ws);
  return c.reference(c.n - 1, c.n - 1);
}

// The inputs (n x d row-major, for the tfjs peer: the same numbers) and posenc's last logits (n x n).
EMSCRIPTEN_KEEPALIVE const float* parity_q() { return g_case.q.data(); }
EMSCRIPTEN_KEEPALIVE const float* parity_k() { return g_case.k.data(); }
EMSCRIPTEN_KEEPALIVE const float* parity_ours() { return g_case.ours.data(); }

}  // extern "C"
