#!/usr/bin/env bash
# Builds the wasm kernel benchmarks (targets of the web preset) and runs them under node.
#   bench/run-wasm.sh [budget_ms_per_case] [kernel] [builds] [suffix]
#     builds: "simd scalar" (default) and/or "parity"
#     simd, scalar: bench/wasm/kernels_wasm.cpp with -msimd128 (the SIMD128 kernels) and truly scalar; JSON
#                   lines on stdout, also build/bench/wasm-<build><suffix>.jsonl
#     parity:       bench/wasm/rope_parity.cpp (posenc's and the reference's RoPE job, compiled and linked
#                   with the page's flags: kernels -O3, link -Os with emmalloc as cmake/web.cmake) timed with
#                   tfjs-backend-wasm in one process by bench/kernel-parity.mjs: the kernel-parity table on
#                   stdout, JSON lines in build/bench/parity<suffix>.jsonl (budget 0: build only)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
source "$repo/scripts/env.sh"
out="$repo/build/bench"
mkdir -p "$out"
# The three modules are targets of the web preset (tests/CMakeLists.txt), built as the suite builds them and
# run by its smoke tests (kernels_wasm_bench_smoke, kernels_wasm_bench_scalar_smoke, kernel_parity_smoke):
# the sources, the generated headers and the flags are CMake's, so this script cannot drift from the build.
tree="$repo/build/web-cmake"
simd_count() {  # SIMD128 instructions in a module (the SIMD build has them, the scalar one has none)
  wasm-objdump -d "$1" | grep -cE '(v128|f32x4|i32x4|f64x2|i64x2|i16x8|i8x16)\.' || true
}
declare -A target=([simd]=posenc_kernels_wasm_bench [scalar]=posenc_kernels_wasm_bench_scalar [parity]=posenc_rope_parity)
builds=" ${3:-simd scalar} "
wanted=()
for name in $builds; do
  [[ -n "${target[$name]:-}" ]] || { echo "run-wasm.sh: unknown build '$name' (simd, scalar, parity)" >&2; exit 2; }
  wanted+=("${target[$name]}")
done
[[ -f "$tree/build.ninja" ]] || cmake --preset web >/dev/null
cmake --build --preset web --target "${wanted[@]}" >&2
for name in $builds; do
  echo "$name: $(simd_count "$tree/tests/${target[$name]}.wasm") SIMD128 instructions in ${target[$name]}.wasm" >&2
done
[[ "${1:-1500}" == 0 ]] && exit 0
for name in $builds; do
  if [[ "$name" == parity ]]; then
    rm -f "$out/parity${4:-}.jsonl"
    node --no-experimental-fetch "$repo/bench/kernel-parity.mjs" "${1:-3000}" --module "$tree/tests/posenc_rope_parity.js" \
      --json "$out/parity${4:-}.jsonl"
  else
    node --no-experimental-fetch "$tree/tests/${target[$name]}.js" "${1:-1500}" "${2:-}" | tee "$out/wasm-$name${4:-}.jsonl"
  fi
done
