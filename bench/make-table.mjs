// Builds the markdown tables of bench/README.md from one run's outputs in build/bench/: parity*.jsonl
// (bench/kernel-parity.mjs: posenc, the reference micro-kernel and tfjs-backend-wasm timed side by side in
// one process: the kernel-parity table), native.json (Google Benchmark, median of repetitions), and per
// round r: wasm-simd.r<r>.jsonl, wasm-scalar.r<r>.jsonl, tfjs.r<r>.jsonl (tfjs-rope.mjs run alone; single
// files wasm-simd.jsonl etc. are read too). A cell is the median over rounds of each round's median.
//   node bench/make-table.mjs [build/bench]
import fs from 'node:fs';
import path from 'node:path';
import { parityTable } from './parity-table.mjs';

const dir = process.argv[2] || 'build/bench';
const files = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
const lines = (f) => fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
const key = (k, n, d) => `${k}/${n}/${d}`;
const samples = {};
const put = (src, k, n, d, ms) => { ((samples[key(k, n, d)] ??= {})[src] ??= []).push(ms); };
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };

if (files.includes('native.json')) {
  const native = JSON.parse(fs.readFileSync(path.join(dir, 'native.json'), 'utf8'));
  for (const b of native.benchmarks) {
    if (b.aggregate_name && b.aggregate_name !== 'median') continue;
    const [k, n, d = 0] = b.run_name.split('/');
    const ms = b.real_time * { ns: 1e-6, us: 1e-3, ms: 1, s: 1e3 }[b.time_unit];
    put(k === 'rope_logits_portable' ? 'native_portable' : 'native', k.replace('_portable', ''), +n, +d, ms);
  }
}
for (const [prefix, src] of [['wasm-simd', 'simd'], ['wasm-scalar', 'scalar'], ['tfjs', 'tfjs']])
  for (const f of files.filter((f) => f === `${prefix}.jsonl` || (f.startsWith(`${prefix}.r`) && f.endsWith('.jsonl'))))
    for (const r of lines(f)) {
      // The reference micro-kernel runs in the SIMD process: its own column.
      const ref = r.kernel.startsWith('ref_');
      put(ref ? 'ref' : src, ref ? r.kernel.slice(4) : r.kernel, r.n, r.d, r.ms);
      // Fastest rep: on a loaded machine a job can phase-lock with the scheduler's slices; min shows that.
      if (r.min_ms !== undefined) put(`${ref ? 'ref' : src}_min`, ref ? r.kernel.slice(4) : r.kernel, r.n, r.d, r.min_ms);
    }
const table = {};
for (const [id, v] of Object.entries(samples)) table[id] = Object.fromEntries(Object.entries(v).map(([s, a]) => [s, median(a)]));
const rounds = Math.max(0, ...Object.values(samples).flatMap((v) => Object.values(v).map((a) => a.length)));

const f = (x) => (x === undefined ? '-' : x < 10 ? x.toFixed(2) : x.toFixed(1));
const ratio = (a, b) => (a === undefined || b === undefined ? '-' : `${(a / b).toFixed(2)}x`);
const out = [];
// The kernel-parity table: one row per size (several parity files: the median of each field).
const parity = {};
for (const f of files.filter((name) => /^parity.*\.jsonl$/.test(name)))
  for (const r of lines(f)) (parity[`${r.n}/${r.d}`] ??= []).push(r);
if (Object.keys(parity).length) {
  const merged = Object.values(parity).map((rs) => Object.fromEntries(Object.keys(rs[0]).map((k) =>
    [k, typeof rs[0][k] === 'number' ? median(rs.map((r) => r[k])) : rs[0][k]]))).sort((a, b) => a.n - b.n || a.d - b.d);
  out.push('### Kernel parity: the whole RoPE job, posenc vs the reference micro-kernel vs tfjs-backend-wasm, one process, median ms\n');
  out.push(parityTable(merged), '');
}
if (rounds) out.push(`(${rounds} round(s); each cell below the median over rounds of per-round medians)\n`);
const rows = (k) => Object.entries(table).filter(([id]) => id.startsWith(k + '/'))
  .map(([id, v]) => ({ n: +id.split('/')[1], d: +id.split('/')[2], ...v })).sort((a, b) => a.n - b.n || a.d - b.d);

if (rows('gemm').length) {
  out.push('### Q K^T GEMM (scale Q K^T, n x n, both operands packed), median ms\n');
  out.push('| n | d | ours wasm SIMD128 | reference 4x8 micro-kernel | ours / reference (target <= 1.15x) | same, fastest reps | wasm scalar | native (Eigen) | GFLOP/s ours |');
  out.push('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows('gemm'))
    out.push(`| ${r.n} | ${r.d} | ${f(r.simd)} | ${f(r.ref)} | ${ratio(r.simd, r.ref)} | ${ratio(r.simd_min, r.ref_min)} | ${f(r.scalar)} | ${f(r.native)} | ${r.simd ? (2 * r.n * r.n * r.d / r.simd / 1e6).toFixed(1) : '-'} |`);
}

if (rows('rope_logits').some((r) => r.simd !== undefined || r.scalar !== undefined || r.native !== undefined)) {
  out.push('\n### n x n RoPE logits, the whole job (cos/sin tables, rotate q and k, scale Q\' K\'^T), other builds, median ms\n');
  out.push('| n | d | ours wasm SIMD128 | wasm scalar | SIMD vs scalar | native -O3 -march=native | wasm SIMD / native | native portable loop (info) |');
  out.push('|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows('rope_logits').filter((x) => x.simd !== undefined || x.scalar !== undefined || x.native !== undefined))
    out.push(`| ${r.n} | ${r.d} | ${f(r.simd)} | ${f(r.scalar)} | ${ratio(r.scalar, r.simd)} | ${f(r.native)} | ${ratio(r.simd, r.native)} | ${f(r.native_portable)} |`);
}
if (rows('rope_logits').some((r) => r.tfjs !== undefined)) {
  out.push('\n### tfjs-backend-wasm alone (bench/tfjs-rope.mjs in its own process; side by side with ours: the parity table), median ms\n');
  out.push('| n | d | tfjs-backend-wasm | fastest rep |');
  out.push('|---:|---:|---:|---:|');
  for (const r of rows('rope_logits').filter((x) => x.tfjs !== undefined)) out.push(`| ${r.n} | ${r.d} | ${f(r.tfjs)} | ${f(r.tfjs_min)} |`);
}

const schemes = [...new Set(Object.keys(table).filter((id) => id.startsWith('scores_')).map((id) => id.split('/')[0]))];
if (schemes.length) {
  out.push('\n### Float score job per scheme (attention_f / absolute_attention_f: terms, logits, softmax), d = 64, median ms\n');
  out.push('| scheme | n | wasm SIMD128 | wasm scalar | SIMD vs scalar |');
  out.push('|---|---:|---:|---:|---:|');
  for (const s of schemes)
    for (const r of rows(s)) out.push(`| ${s.slice(7)} | ${r.n} | ${f(r.simd)} | ${f(r.scalar)} | ${ratio(r.scalar, r.simd)} |`);
}

for (const [k, title] of [['bias_logits', 'Bias logits: scale Q K^T + bias (T5 / ALiBi add)'], ['softmax', 'Row softmax of n x n logits'],
  ['pe_table', 'Sinusoidal PE table n x d, core sinusoidal_table_f (libm sin/cos in double)'],
  ['pe_table_f', 'Sinusoidal PE table n x d, kernels::pe_table (SIMD sin/cos, angles reduced in double)'],
  ['gram', 'P P^T (similarity view: PE table + Gram GEMM)'], ['eigen_qkt', 'Reference: Eigen\'s own Q K^T (GEMM only)']]) {
  if (!rows(k).length) continue;
  out.push(`\n### ${title}, median ms\n`);
  out.push('| n | d | native | wasm scalar | wasm SIMD128 | SIMD vs scalar wasm | wasm SIMD / native |');
  out.push('|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows(k))
    out.push(`| ${r.n} | ${r.d || '-'} | ${f(r.native)} | ${f(r.scalar)} | ${f(r.simd)} | ${ratio(r.scalar, r.simd)} | ${ratio(r.simd, r.native)} |`);
}
console.log(out.join('\n'));
