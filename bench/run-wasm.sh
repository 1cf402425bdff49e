#!/usr/bin/env bash
# Builds the wasm kernel benchmark twice (SIMD128 and truly scalar) and runs both under node.
#   bench/run-wasm.sh [budget_ms_per_case] [kernel] [builds] [suffix]
#     -> JSON lines on stdout (also build/bench/wasm-<build><suffix>.jsonl); builds: "simd scalar" (default)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
source "$repo/scripts/env.sh"
out="$repo/build/bench"
mkdir -p "$out/simd" "$out/scalar"
echo '{"type": "commonjs"}' > "$out/package.json"   # emcc's node output is CommonJS
# The build's warning flags (CMakeLists.txt posenc_warnings); Eigen is a system header, as in CMake.
common=(-std=c++20 -O3 -DNDEBUG -fexceptions -Wall -Wextra -Wshadow -Werror
        -I"$repo/src" -I"$repo/bench" -isystem /usr/include/eigen3
        $(find "$repo/src/core" -name "*.cpp") "$repo/bench/wasm/kernels_wasm.cpp"
        -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=134217728 -sENVIRONMENT=node)
build() {  # name, flags...
  local name=$1; shift
  local js="$out/$name/kernels_wasm.js"
  if [[ ! -f "$js" || -n "$(find "$repo/src/core" "$repo/bench" -newer "$js" -name '*.[ch]*' -print -quit)" ]]; then
    echo "building $name ..." >&2
    em++ "${common[@]}" "$@" -o "$js"
  fi
  # Check what really landed: SIMD128 ops in the SIMD build, none in the scalar one.
  local v128
  v128=$(wasm-objdump -d "$out/$name/kernels_wasm.wasm" | grep -cE '(v128|f32x4|i32x4|f64x2|i64x2|i16x8|i8x16)\.' || true)
  echo "$name: $v128 SIMD128 instructions in kernels_wasm.wasm" >&2
}
# Only the builds asked for.
[[ " ${3:-simd scalar} " == *" simd "* ]] && build simd -msimd128
[[ " ${3:-simd scalar} " == *" scalar "* ]] && build scalar -fno-vectorize -fno-slp-vectorize
for name in ${3:-simd scalar}; do
  node --no-experimental-fetch "$out/$name/kernels_wasm.js" "${1:-1500}" "${2:-}" | tee "$out/wasm-$name${4:-}.jsonl"
done
