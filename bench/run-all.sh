#!/usr/bin/env bash
# Runs every benchmark of bench/ and prints the tables of bench/README.md (not a test; not in scripts/test).
#   bench/run-all.sh [--no-frames]      outputs in build/bench/, tables in build/bench/tables.md
# 1. native Google Benchmark (-O3 -march=native), 2. wasm in node (SIMD128 and scalar builds),
# 3. tfjs-backend-wasm peer in node, 4. per-frame timing in headless Chromium (needs the web build).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
out=build/bench
mkdir -p "$out"
frames=1
[[ "${1:-}" == "--no-frames" ]] && frames=0

echo "== native (Google Benchmark)" >&2
cmake --preset native >/dev/null
cmake --build --preset native --target posenc_kernels_bench
build/native/bench/posenc_kernels_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_out="$out/native.json" --benchmark_out_format=json

echo "== wasm in node (SIMD128 and scalar)" >&2
bench/run-wasm.sh 1500 >/dev/null

echo "== tfjs-backend-wasm in node" >&2
[[ -d node_modules/@tensorflow/tfjs-backend-wasm ]] || npm ci
node --no-experimental-fetch bench/tfjs-rope.mjs 1500 | tee "$out/tfjs.jsonl"

node bench/make-table.mjs "$out" | tee "$out/tables.md"

if (( frames )); then
  echo "== per-frame timing in headless Chromium" >&2
  source scripts/env.sh
  cmake --preset web >/dev/null
  cmake --build --preset web
  node bench/frame-timing.mjs 15 | tee "$out/frames.txt"
fi
