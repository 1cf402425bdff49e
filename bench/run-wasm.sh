#!/usr/bin/env bash
# Builds the wasm kernel benchmarks and runs them under node.
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
mkdir -p "$out/simd" "$out/scalar" "$out/parity"
echo '{"type": "commonjs"}' > "$out/package.json"   # emcc's node output is CommonJS
# The build's warning flags (CMakeLists.txt posenc_warnings); Eigen is a system header, as in CMake.
warn=(-std=c++20 -DNDEBUG -fexceptions -Wall -Wextra -Wshadow -Werror -I"$repo/src" -I"$repo/bench" -isystem /usr/include/eigen3)
common=("${warn[@]}" -O3 $(find "$repo/src/core" -name "*.cpp") "$repo/bench/wasm/kernels_wasm.cpp"
        -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=134217728 -sENVIRONMENT=node)
stale() {  # js: older than a source of the core or the bench?
  [[ ! -f "$1" || -n "$(find "$repo/src/core" "$repo/bench" -newer "$1" -name '*.[ch]*' -print -quit)" ]]
}
simd_count() {  # SIMD128 instructions in a module (the SIMD build has them, the scalar one has none)
  wasm-objdump -d "$1" | grep -cE '(v128|f32x4|i32x4|f64x2|i64x2|i16x8|i8x16)\.' || true
}
build() {  # name, flags...
  local name=$1; shift
  local js="$out/$name/kernels_wasm.js"
  if stale "$js"; then
    echo "building $name ..." >&2
    em++ "${common[@]}" "$@" -o "$js"
  fi
  echo "$name: $(simd_count "$out/$name/kernels_wasm.wasm") SIMD128 instructions in kernels_wasm.wasm" >&2
}
build_parity() {
  local js="$out/parity/rope_parity.js"
  if stale "$js"; then
    echo "building parity ..." >&2
    # The sources the job needs, each compiled as the page compiles it (core -O3; the formulas -Oz).
    em++ "${warn[@]}" -msimd128 -O3 -c "$repo/src/core/kernels/kernels.cpp" -o "$out/parity/kernels.o"
    em++ "${warn[@]}" -msimd128 -O3 -c "$repo/src/core/kernels/kernels_tables.cpp" -o "$out/parity/kernels_tables.o"
    em++ "${warn[@]}" -msimd128 -Oz -c "$repo/src/core/encodings/rope.cpp" -o "$out/parity/rope.o"
    em++ "${warn[@]}" -msimd128 -O3 -c "$repo/src/core/bounds.cpp" -o "$out/parity/bounds.o"
    em++ "${warn[@]}" -msimd128 -O3 -c "$repo/bench/wasm/rope_parity.cpp" -o "$out/parity/rope_parity.o"
    em++ -msimd128 -fexceptions -Os -sMALLOC=emmalloc "$out"/parity/*.o -o "$js" \
      -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=134217728 -sENVIRONMENT=node -sMODULARIZE=1 -sEXPORT_NAME=createRopeParity \
      -sEXPORTED_RUNTIME_METHODS=HEAPF32
  fi
  echo "parity: $(simd_count "$out/parity/rope_parity.wasm") SIMD128 instructions in rope_parity.wasm" >&2
}
# Only the builds asked for.
builds=" ${3:-simd scalar} "
[[ "$builds" == *" simd "* ]] && build simd -msimd128
[[ "$builds" == *" scalar "* ]] && build scalar -fno-vectorize -fno-slp-vectorize
[[ "$builds" == *" parity "* ]] && build_parity
[[ "${1:-1500}" == 0 ]] && exit 0
for name in $builds; do
  if [[ "$name" == parity ]]; then
    rm -f "$out/parity${4:-}.jsonl"
    node --no-experimental-fetch "$repo/bench/kernel-parity.mjs" "${1:-3000}" --module "$out/parity/rope_parity.js" \
      --json "$out/parity${4:-}.jsonl"
  else
    node --no-experimental-fetch "$out/$name/kernels_wasm.js" "${1:-1500}" "${2:-}" | tee "$out/wasm-$name${4:-}.jsonl"
  fi
done
