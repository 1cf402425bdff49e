// Twenty `check` requests covering every scaling type (proportional included) and every kind, matches and
// mismatches, small enough to run in a second: sent both to `posenc eval` and to window.posenc.check by
// check.test.mjs, which compares the answers.

// RoPE's default inv_freq: base^(-2i/d).
const invFreq = (d, base) => Array.from({ length: d / 2 }, (_, i) => base ** (-2 * i / d));

// A deterministic normal-ish sequence (the tensors only need to be the same on both sides).
function noise(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32 - 0.5;
  };
}

const range = (n) => Array.from({ length: n }, (_, i) => i);

// cos / sin in the half layout ([f(p w_0 .. w_{d/2-1}), the same again]) for inv_freq w.
const table = (pos, w, f) => pos.map((p) => { const h = w.map((x) => f(p * x)); return [...h, ...h]; });

function rotate(x, pos, w) {
  const h = w.length;
  return x.map((row, r) => {
    const out = row.slice();
    for (let i = 0; i < h; ++i) {
      const t = pos[r] * w[i], c = Math.cos(t), s = Math.sin(t);
      out[i] = row[i] * c - row[i + h] * s;
      out[i + h] = row[i + h] * c + row[i] * s;
    }
    return out;
  });
}

const matrix = (rows, cols, seed) => { const r = noise(seed); return range(rows).map(() => range(cols).map(() => r() * 2)); };
const logits = (q, k, s) => q.map((qr) => k.map((kr) => s * qr.reduce((a, v, j) => a + v * kr[j], 0)));

export function checkRequests() {
  const pos8 = range(8), pos12 = range(12);
  const scalings = {
    none: undefined,
    linear: { type: 'linear', factor: 4 },
    ntk: { type: 'ntk', factor: 2 },
    dynamic: { type: 'dynamic', factor: 2, original_max_position_embeddings: 8 },
    yarn: { type: 'yarn', factor: 8, original_max_position_embeddings: 16 },
    llama3: { type: 'llama3', factor: 8, original_max_position_embeddings: 16, low_freq_factor: 1, high_freq_factor: 4 },
    longrope: { type: 'longrope', factor: 4, original_max_position_embeddings: 8, short_factor: [1, 1.2, 1.5, 2], long_factor: [1, 2, 4, 8] },
    proportional: { type: 'proportional', partial_rotary_factor: 0.5 },
  };
  const ref = (type, dim = 8, extra = {}) => ({ dim, base: 10000, ...(scalings[type] ? { scaling: scalings[type] } : {}), ...extra });
  const w8 = invFreq(8, 10000);
  const out = [];
  const add = (name, request) => out.push({ name, request: { op: 'check', ...request } });
  for (const type of Object.keys(scalings)) {
    // The plain RoPE cos: a match for none, scaling_missing (or a neighbour) for the others.
    add(`${type} cos`, { reference: ref(type), kind: 'cos', positions: pos12, actual: table(pos12, w8, Math.cos) });
  }
  add('none inv_freq 3 digits (exact for base 1e4, dim 8)', { reference: ref('none'), kind: 'inv_freq', actual: w8.map((v) => Number(v.toPrecision(3))) });
  add('linear inv_freq', { reference: ref('linear'), kind: 'inv_freq', actual: w8.map((v) => v / 2) });
  add('yarn inv_freq given tolerance', { reference: ref('yarn'), kind: 'inv_freq', actual: w8, tolerance: { abs: 1e-3 } });
  add('yarn sin', { reference: ref('yarn'), kind: 'sin', positions: pos12, actual: table(pos12, w8, Math.sin) });
  add('proportional sin string positions', { reference: ref('proportional', 16), kind: 'sin', positions: '0:8',
                                             actual: table(pos8, invFreq(16, 10000).map((v, i) => (i < 4 ? v : 0)), Math.sin) });
  {
    const x = matrix(8, 8, 1);
    add('none rotated match', { reference: ref('none'), kind: 'rotated', positions: pos8, x, actual: rotate(x, pos8, w8) });
    add('ntk rotated', { reference: ref('ntk'), kind: 'rotated', positions: pos8, x, actual: rotate(x, pos8, w8) });
    add('none rotated unrotated', { reference: ref('none'), kind: 'rotated', positions: pos8, x, actual: x });
  }
  {
    const q = matrix(8, 8, 2), k = matrix(8, 8, 3);
    const s = 1 / Math.sqrt(8);
    add('none logits match', { reference: ref('none'), kind: 'logits', positions: pos8, q, k,
                               actual: logits(rotate(q, pos8, w8), rotate(k, pos8, w8), s) });
    add('llama3 logits', { reference: ref('llama3'), kind: 'logits', positions: pos8, q, k,
                           actual: logits(rotate(q, pos8, w8), rotate(k, pos8, w8), s) });
    add('dynamic logits scale', { reference: ref('dynamic'), kind: 'logits', positions: pos8, q, k,
                                  actual: logits(rotate(q, pos8, w8), rotate(k, pos8, w8), 0.5) });
  }
  {
    const x = matrix(8, 8, 4);  // 2 heads x 4 rows
    add('longrope rotated heads', { reference: ref('longrope'), kind: 'rotated', positions: range(4),
                                    x: [x.slice(0, 4), x.slice(4)], actual: [rotate(x.slice(0, 4), range(4), w8), x.slice(4)] });
  }
  return out;
}
