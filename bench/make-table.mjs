// Builds the markdown tables of bench/README.md from one run's outputs in build/bench/:
// native.json (Google Benchmark, median of repetitions), wasm-simd.jsonl, wasm-scalar.jsonl, tfjs.jsonl.
//   node bench/make-table.mjs [build/bench]
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2] || 'build/bench';
const lines = (f) => fs.existsSync(path.join(dir, f))
  ? fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)) : [];
const key = (k, n, d) => `${k}/${n}/${d}`;
const table = {};
const put = (src, k, n, d, ms) => { (table[key(k, n, d)] ??= {})[src] = ms; };

const native = JSON.parse(fs.readFileSync(path.join(dir, 'native.json'), 'utf8'));
for (const b of native.benchmarks) {
  if (b.aggregate_name && b.aggregate_name !== 'median') continue;
  const [k, n, d = 0] = b.run_name.split('/');
  const ms = b.real_time * { ns: 1e-6, us: 1e-3, ms: 1, s: 1e3 }[b.time_unit];
  put(k === 'rope_logits_portable' ? 'native_portable' : 'native', k.replace('_portable', ''), +n, +d, ms);
}
for (const [f, src] of [['wasm-simd.jsonl', 'simd'], ['wasm-scalar.jsonl', 'scalar'], ['tfjs.jsonl', 'tfjs']])
  for (const r of lines(f)) put(src, r.kernel, r.n, r.d, r.ms);

const f = (x) => (x === undefined ? '-' : x < 10 ? x.toFixed(2) : x.toFixed(1));
const ratio = (a, b) => (a === undefined || b === undefined ? '-' : `${(a / b).toFixed(2)}x`);
const out = [];
const rows = (k) => Object.entries(table).filter(([id]) => id.startsWith(k + '/'))
  .map(([id, v]) => ({ n: +id.split('/')[1], d: +id.split('/')[2], ...v })).sort((a, b) => a.n - b.n || a.d - b.d);

out.push('### n x n RoPE logits (the whole job: cos/sin tables, rotate q and k, scale Q\' K\'^T), median ms\n');
out.push('| n | d | native -O3 -march=native | wasm scalar | wasm SIMD128 | tfjs-backend-wasm (SIMD) | SIMD vs scalar wasm (target >= 3x) | wasm SIMD / native (target <= 2.5x) | tfjs / ours (target > 1x) | native portable loop (info) |');
out.push('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows('rope_logits'))
  out.push(`| ${r.n} | ${r.d} | ${f(r.native)} | ${f(r.scalar)} | ${f(r.simd)} | ${f(r.tfjs)} | ${ratio(r.scalar, r.simd)} | ${ratio(r.simd, r.native)} | ${ratio(r.tfjs, r.simd)} | ${f(r.native_portable)} |`);
for (const [k, title] of [['bias_logits', 'Bias logits: scale Q K^T + bias (T5 / ALiBi add)'], ['softmax', 'Row softmax of n x n logits'],
  ['pe_table', 'Sinusoidal PE table n x d (float, angles in double)'], ['eigen_qkt', 'Reference: Eigen\'s own Q K^T (GEMM only)']]) {
  out.push(`\n### ${title}, median ms\n`);
  out.push('| n | d | native | wasm scalar | wasm SIMD128 | SIMD vs scalar wasm | wasm SIMD / native |');
  out.push('|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows(k))
    out.push(`| ${r.n} | ${r.d || '-'} | ${f(r.native)} | ${f(r.scalar)} | ${f(r.simd)} | ${ratio(r.scalar, r.simd)} | ${ratio(r.simd, r.native)} |`);
}
console.log(out.join('\n'));
