#!/usr/bin/env bash
# Runs every benchmark of bench/ and prints the tables of bench/README.md (not a test; not in scripts/test).
#   bench/run-all.sh [--quick] [--no-frames]      outputs in build/bench/, tables in build/bench/tables.md
# 1. native Google Benchmark (-O3 -march=native), 2. the kernel-parity table: posenc's whole RoPE job, the
# reference micro-kernel's (bench/wasm/reference_rope.h) and tfjs-backend-wasm's, timed side by side in one
# node process (bench/kernel-parity.mjs), 3. ROUNDS rounds of the wasm SIMD128 driver (every kernel, ours +
# the reference GEMM), 4. the scalar wasm build, 5. per-frame timing and 6. start-up time and page weight in
# headless Chromium (need the web build). --kernel-parity: step 2 only (the parity table in
# build/bench/tables.md). --quick: every table, from fewer repetitions (a check that the run works, ~1/4 of
# the time; not numbers to report). Step 7, the heap soak (bench/soak.mjs: 500 states across every view; 60
# with --quick), runs with the web steps. Every step has a time limit (STEP_MINUTES, default 20): a step that
# hangs stops the run with its name instead of waiting forever.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
source scripts/env.sh
out=build/bench
mkdir -p "$out"
frames=1 quick=0 parity_only=0
for a in "$@"; do
  case "$a" in
    --no-frames) frames=0 ;;
    --quick) quick=1 ;;
    --kernel-parity) parity_only=1 ;;
    *) echo "usage: bench/run-all.sh [--quick] [--no-frames] [--kernel-parity]" >&2; exit 2 ;;
  esac
done
if (( quick )); then
  rounds=${ROUNDS:-1} budget=${BUDGET_MS:-100} native_reps=1 native_min=0.05 parity_budget=${PARITY_MS:-300}
  frame_repeats=${FRAME_REPEATS:-3} startup_loads=${STARTUP_LOADS:-1} soak_states=${SOAK_STATES:-60}
else
  rounds=${ROUNDS:-3} budget=${BUDGET_MS:-500} native_reps=5 native_min=0.5 parity_budget=${PARITY_MS:-6000}
  frame_repeats=${FRAME_REPEATS:-15} startup_loads=${STARTUP_LOADS:-5} soak_states=${SOAK_STATES:-500}
fi
started=$SECONDS
# One step: its name, wall time and a time limit (a hang fails the run, naming the step).
step() {
  local name=$1; shift
  local t0=$SECONDS
  echo "== $name" >&2
  if ! timeout -k 10 "$((${STEP_MINUTES:-20} * 60))" "$@"; then
    echo "bench/run-all.sh: step '$name' failed or exceeded ${STEP_MINUTES:-20} min" >&2
    exit 1
  fi
  echo "   ($name: $((SECONDS - t0)) s)" >&2
}
# The machine and its load, printed with the tables (numbers from a loaded machine are only ratios).
machine="$(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p' | head -1); load before the run: $(uptime | sed 's/.*load average: //')"
(( quick )) && machine="$machine; --quick (fewer repetitions: not numbers to report)"
echo "== $machine" >&2

rm -f "$out"/wasm-*.jsonl "$out"/tfjs*.jsonl "$out"/parity*.jsonl "$out/native.json"
[[ -d node_modules/@tensorflow/tfjs-backend-wasm ]] || npm ci
# The kernel-parity table: the three peers interleaved repetition by repetition in one process, so load
# from other jobs on the machine falls on all three alike (PARITY_MS per size, at least 11 repetitions).
step "kernel parity: posenc, reference, tfjs-backend-wasm in one node process" \
  bash -c "bench/run-wasm.sh $parity_budget '' parity >/dev/null"

if (( ! parity_only )); then
  cmake --preset bench >/dev/null
  step "build the native benchmark" cmake --build --preset bench
  step "native (Google Benchmark)" build/bench/bench/posenc_kernels_bench --benchmark_repetitions=$native_reps \
    --benchmark_min_time=$native_min --benchmark_report_aggregates_only=true \
    --benchmark_out="$out/native.json" --benchmark_out_format=json
  # The SIMD128 driver (every kernel; ours and the reference GEMM interleaved rep by rep), ROUNDS times.
  for ((r = 1; r <= rounds; ++r)); do
    step "round $r/$rounds: wasm SIMD128 (ours + reference) in node" bash -c "bench/run-wasm.sh $budget '' simd .r$r >/dev/null"
  done
  step "wasm scalar in node" bash -c "bench/run-wasm.sh $((budget / 5 > 20 ? budget / 5 : 20)) '' scalar .r1 >/dev/null"
fi

{ echo "Machine: $machine"; echo; node bench/make-table.mjs "$out"; } | tee "$out/tables.md"

if (( frames && ! parity_only )); then
  cmake --preset web >/dev/null
  step "build the site" cmake --build --preset web --target posenc-web
  step "per-frame timing in headless Chromium" bash -c "node bench/frame-timing.mjs $frame_repeats | tee $out/frames.txt"
  step "start-up and page weight in headless Chromium" bash -c "node bench/startup.mjs $startup_loads | tee $out/startup.txt"
  step "wasm heap soak in headless Chromium" bash -c "node bench/soak.mjs $soak_states | tee $out/soak.txt"
  # Every table of the run in one file: kernels, frames, start-up, heap.
  { echo; echo "## Per-frame timing"; echo; sed -n '/^| case /,$p' "$out/frames.txt"
    echo; echo "## Start-up and page weight"; echo; sed -n '/^| state /,$p' "$out/startup.txt"
    echo; echo "## Wasm heap across states"; echo; sed -n '/^| states /,$p' "$out/soak.txt"; } >> "$out/tables.md"
fi
echo "== load after the run: $(uptime | sed 's/.*load average: //'); wall time $((SECONDS - started)) s" | tee -a "$out/tables.md" >&2
