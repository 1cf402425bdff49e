#!/usr/bin/env bash
# Runs every benchmark of bench/ and prints the tables of bench/README.md (not a test; not in scripts/test).
#   bench/run-all.sh [--no-frames]      outputs in build/bench/, tables in build/bench/tables.md
# 1. native Google Benchmark (-O3 -march=native), 2. ROUNDS alternating rounds of the wasm SIMD128 process
# (ours + the reference micro-kernel of bench/wasm/reference_rope.h) and the tfjs-backend-wasm peer in node,
# 3. the scalar wasm build, 4. per-frame timing and 5. start-up time and page weight in headless Chromium
# (need the web build).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
out=build/bench
mkdir -p "$out"
frames=1
[[ "${1:-}" == "--no-frames" ]] && frames=0
# The machine and its load, printed with the tables (numbers from a loaded machine are only ratios).
machine="$(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p' | head -1); load before the run: $(uptime | sed 's/.*load average: //')"
echo "== $machine" >&2

echo "== native (Google Benchmark)" >&2
cmake --preset native >/dev/null
cmake --build --preset native --target posenc_kernels_bench
build/native/bench/posenc_kernels_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_out="$out/native.json" --benchmark_out_format=json

# The SIMD128 process (ours and the reference micro-kernel, interleaved rep by rep) and the tfjs process
# alternate for ROUNDS rounds, so load from other jobs on the machine falls on both peers alike; the
# tables take the median over rounds. The scalar build runs once (it is ~10x slower; a ratio, not a peer).
rounds=${ROUNDS:-3}
rm -f "$out"/wasm-*.jsonl "$out"/tfjs*.jsonl
[[ -d node_modules/@tensorflow/tfjs-backend-wasm ]] || npm ci
for ((r = 1; r <= rounds; ++r)); do
  echo "== round $r/$rounds: wasm SIMD128 (ours + reference) in node" >&2
  bench/run-wasm.sh 500 "" simd ".r$r" >/dev/null
  echo "== round $r/$rounds: tfjs-backend-wasm in node" >&2
  node --no-experimental-fetch bench/tfjs-rope.mjs 500 > "$out/tfjs.r$r.jsonl"
done
echo "== wasm scalar in node" >&2
bench/run-wasm.sh 500 "" scalar ".r1" >/dev/null

{ echo "Machine: $machine"; echo; node bench/make-table.mjs "$out"; } | tee "$out/tables.md"

if (( frames )); then
  echo "== per-frame timing in headless Chromium" >&2
  source scripts/env.sh
  cmake --preset web >/dev/null
  cmake --build --preset web --target posenc-web
  node bench/frame-timing.mjs "${FRAME_REPEATS:-15}" | tee "$out/frames.txt"
  echo "== start-up and page weight in headless Chromium" >&2
  node bench/startup.mjs "${STARTUP_LOADS:-5}" | tee "$out/startup.txt"
  # Every table of the run in one file: kernels, frames, start-up.
  { echo; echo "## Per-frame timing"; echo; sed -n '/^| case /,$p' "$out/frames.txt"
    echo; echo "## Start-up and page weight"; echo; sed -n '/^| state /,$p' "$out/startup.txt"; } >> "$out/tables.md"
fi
echo "== load after the run: $(uptime | sed 's/.*load average: //')" | tee -a "$out/tables.md" >&2
