// The kernel-parity table (bench/kernel-parity.mjs rows -> markdown), shared by kernel-parity.mjs and
// make-table.mjs. Targets: posenc <= 1.05x the reference micro-kernel's time, tfjs-backend-wasm >= 1.7x
// posenc's, at every size; "met" reads the median columns.
export const TARGET_REFERENCE = 1.05, TARGET_TFJS = 1.7;

const f = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
const x2 = (x) => `${x.toFixed(2)}x`;

export function parityTable(rows) {
  const out = [
    '| n | d | posenc (ms) | reference 4x8 (ms) | tfjs-backend-wasm (ms) | posenc / reference (target <= 1.05x) | tfjs / posenc (target >= 1.7x) | same two, fastest reps | same two, per-rep pairs | met |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const r of rows) {
    const a = r.posenc_ms / r.reference_ms, b = r.tfjs_ms / r.posenc_ms;
    out.push(`| ${r.n} | ${r.d} | ${f(r.posenc_ms)} | ${f(r.reference_ms)} | ${f(r.tfjs_ms)} | ${x2(a)} | ${x2(b)} | ` +
      `${x2(r.posenc_min_ms / r.reference_min_ms)}, ${x2(r.tfjs_min_ms / r.posenc_min_ms)} | ` +
      `${x2(r.posenc_over_reference_paired)}, ${x2(r.tfjs_over_posenc_paired)} | ${a <= TARGET_REFERENCE && b >= TARGET_TFJS ? 'yes' : 'no'} |`);
  }
  const reps = rows.map((r) => r.reps);
  out.push('', `(each cell the median of ${Math.min(...reps)}-${Math.max(...reps)} repetitions; the three peers timed back to back ` +
    'in one node process, their order rotating; "same two, per-rep pairs": the median over repetitions of the ratio of two peers timed back to back)');
  return out.join('\n');
}
