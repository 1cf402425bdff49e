// The kernel-parity table: one RoPE score job done by three peers, timed side by side in ONE node process.
// The job, identical for all three (what is timed, nothing left out):
//   in   q, k: n x d float32 (the same numbers for every peer: tfjs gets ours from wasm memory), positions
//        0..n-1, inv_freq[i] = 10000^(-2i/d), scale 1/sqrt(d)
//   do   cos/sin tables of pos x inv_freq (posenc and the reference: angle in double, float tables; tfjs:
//        float32, its API), rotate q and k (half-layout pairs), scale, Q' K'^T
//   out  the n x n float32 logits in wasm memory (posenc: a new matrix, as the scores view gets it; the
//        reference: a buffer it owns; tfjs: a new tensor, disposed after the timer stops)
// Peers: posenc (kernels::rope_logits), the reference micro-kernel (bench/wasm/reference_rope.h: hand-written
// SIMD128, 4 x 8 register tile) -- both from bench/wasm/rope_parity.cpp, linked with the page's flags -- and
// tfjs-backend-wasm (bench/tfjs-rope.mjs: XNNPACK, SIMD, one thread). Every repetition times the three back
// to back, their order rotating, so load from other processes falls on all three alike. Before timing, each
// size checks that the reference equals posenc (max |diff| < 1e-4 of max |logit|) and tfjs agrees within its
// float32 tables (< 2e-3), and stops otherwise.
//   node --no-experimental-fetch bench/kernel-parity.mjs [budget_ms_per_size] [--module build/bench/parity/rope_parity.js]
//        [--json FILE] [--sizes 512x64,2048x128]     -> the markdown table on stdout (JSON lines in FILE)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { loadTfjs, ropeJob } from './tfjs-rope.mjs';
import { parityTable } from './parity-table.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name) => { const i = args.indexOf(name); return i >= 0 ? args.splice(i, 2)[1] : undefined; };
const modulePath = path.resolve(option('--module') || path.join(repo, 'build', 'bench', 'parity', 'rope_parity.js'));
const jsonFile = option('--json');
const budget = Number(args[0] || 3000);
const sizes = option('--sizes');
const SIZES = sizes ? sizes.split(',').map((s) => s.split('x').map(Number))
  : [[512, 64], [512, 128], [1024, 64], [1024, 128], [2048, 64], [2048, 128]];

const median = (a) => { const s = [...a].sort((x, y) => x - y); return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const min = (a) => Math.min(...a);
const now = () => performance.now();

if (!fs.existsSync(modulePath)) {
  console.error(`kernel-parity: no ${modulePath} (build it: bench/run-wasm.sh 0 "" parity)`);
  process.exit(2);
}
const wasm = await createRequire(import.meta.url)(modulePath)();
const { tf, build } = await loadTfjs(1);
if (!build.includes('simd')) throw new Error(`tfjs runs ${build}, not its SIMD build`);

const rows = [];
for (const [n, d] of SIZES) {
  const refDiff = wasm._parity_setup(n, d);
  const view = (ptr, count) => new Float32Array(wasm.HEAPF32.buffer, ptr, count);
  const tfjs = ropeJob(tf, view(wasm._parity_q(), n * d).slice(), view(wasm._parity_k(), n * d).slice(), n, d);
  const ours = view(wasm._parity_ours(), n * n);
  const theirs = tfjs.logits();
  let maxDiff = 0, maxAbs = 0;
  for (let i = 0; i < ours.length; ++i) {
    maxDiff = Math.max(maxDiff, Math.abs(ours[i] - theirs[i]));
    maxAbs = Math.max(maxAbs, Math.abs(ours[i]));
  }
  const tfjsDiff = maxDiff / Math.max(1, maxAbs);
  if (!(refDiff < 1e-4) || !(tfjsDiff < 2e-3)) {
    console.error(`kernel-parity: the peers disagree at ${n} x ${d}: reference ${refDiff}, tfjs ${tfjsDiff} (relative max |diff|)`);
    process.exit(1);
  }
  const peers = [
    { name: 'posenc', run: () => wasm._parity_run(0) },
    { name: 'reference', run: () => wasm._parity_run(1) },
    { name: 'tfjs', run: () => tfjs.run() },
  ];
  for (const p of peers) for (let w = 0; w < 3; ++w) p.run();
  const t = Object.fromEntries(peers.map((p) => [p.name, []]));
  const start = now();
  for (let rep = 0; rep < 11 || (rep < 201 && now() - start < budget); ++rep)
    for (let i = 0; i < peers.length; ++i) {
      const p = peers[(rep + i) % peers.length];
      const t0 = now();
      p.run();
      t[p.name].push(now() - t0);
    }
  tfjs.dispose();
  // Per repetition, the ratio of two peers timed back to back: its median is the least load-sensitive ratio.
  const paired = (a, b) => median(t[a].map((x, i) => x / t[b][i]));
  const row = {
    n, d, reps: t.posenc.length, build: `wasm-simd128 (page link flags) + ${build}`,
    posenc_ms: median(t.posenc), reference_ms: median(t.reference), tfjs_ms: median(t.tfjs),
    posenc_min_ms: min(t.posenc), reference_min_ms: min(t.reference), tfjs_min_ms: min(t.tfjs),
    posenc_over_reference_paired: paired('posenc', 'reference'), tfjs_over_posenc_paired: paired('tfjs', 'posenc'),
    reference_diff: refDiff, tfjs_diff: tfjsDiff,
  };
  rows.push(row);
  if (jsonFile) fs.appendFileSync(jsonFile, JSON.stringify(row) + '\n');
  console.error(`${n} x ${d}: ${row.reps} reps`);
}

console.log(parityTable(rows));
