// The peer: the whole n x n RoPE score job done by TensorFlow.js with the wasm backend (XNNPACK), in node.
// Same job as our rope_logits: angles = pos x inv_freq, cos/sin, rotate q and k (half layout, LLaMA
// rotate_half), then scale * Q' K'^T. Inputs are uploaded once; each timed run computes everything from the
// positions (like ours) and is synchronous in the wasm backend; the n x n result stays in wasm memory (ours
// too). The scale is folded into q' (n x d) rather than the n x n output, and k' is transposed explicitly:
// tfjs's cheapest arrangement. bench/kernel-parity.mjs imports loadTfjs / ropeJob and times this job side
// by side with ours in one process; run alone, this file times tfjs only:
//   node bench/tfjs-rope.mjs [budget_ms_per_case] [threads]   -> JSON lines
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// tfjs-core with the wasm backend ready (SIMD build when supported; one thread unless threads > 1);
// returns { tf, build } where build names the variant (tfjs-wasm-simd, ...).
export async function loadTfjs(threads = 1) {
  const tf = require('@tensorflow/tfjs-core');
  const wasm = require('@tensorflow/tfjs-backend-wasm');
  // .wasm files from disk (node: a file path prefix); the backend picks the SIMD variant when supported.
  wasm.setWasmPaths(path.join(repo, 'node_modules', '@tensorflow', 'tfjs-backend-wasm', 'dist') + path.sep);
  if (threads <= 1) tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  else wasm.setThreadsCount(threads);
  await tf.setBackend('wasm');
  await tf.ready();
  const simd = await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT');
  const mt = await tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT');
  const build = `tfjs-wasm${simd ? '-simd' : ''}${mt ? `-threads${wasm.getThreadsCount()}` : ''}`;
  return { tf, build, version: tf.version_core, backend: tf.getBackend() };
}

// The job on q, k (Float32Array, n x d row-major), positions 0..n-1 and inv_freq[i] = 10000^(-2i/d):
// returns { run, logits, dispose }. run() does the whole job once and frees its result (what is timed);
// logits() does it once and returns the n x n result as a Float32Array (for the check against ours).
export function ropeJob(tf, qData, kData, n, d) {
  const q = tf.tensor2d(qData, [n, d]), k = tf.tensor2d(kData, [n, d]);
  const pos = tf.range(0, n, 1, 'float32');
  const invFreq = tf.tensor1d(Array.from({ length: d / 2 }, (_, i) => 1 / Math.pow(10000, (2 * i) / d)));
  const scale = tf.scalar(1 / Math.sqrt(d));
  const logits = () => tf.tidy(() => {
    const ang = tf.outerProduct(pos, invFreq);  // n x d/2, float32
    const c = tf.cos(ang), s = tf.sin(ang);
    const rotate = (x) => {
      const [x1, x2] = tf.split(x, 2, 1);
      return tf.concat([tf.sub(tf.mul(x1, c), tf.mul(x2, s)), tf.add(tf.mul(x2, c), tf.mul(x1, s))], 1);
    };
    // matMul(a, b, false, true) takes a slow path in tfjs-backend-wasm 4.22 (~14x slower at n = 2048):
    // transposing k' explicitly is the fast arrangement (XNNPACK), so the peer gets that.
    return tf.matMul(tf.mul(rotate(q), scale), tf.transpose(rotate(k)));
  });
  return {
    run: () => logits().dispose(),
    logits: () => { const out = logits(); const data = out.dataSync(); out.dispose(); return data; },
    dispose: () => tf.dispose([q, k, pos, invFreq, scale]),
  };
}

function lcg(seed) {  // same distribution as bench/bench_inputs.h (values differ: irrelevant to timing)
  let s = BigInt(seed);
  return () => {
    s = (s * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
    return Number(s >> 40n) / 2 ** 23 - 1;
  };
}
function randomArray(length, seed) {
  const r = lcg(seed), a = new Float32Array(length);
  for (let i = 0; i < a.length; ++i) a[i] = r();
  return a;
}

async function main() {
  const budget = Number(process.argv[2] || 1500);
  const { tf, build, version, backend } = await loadTfjs(Number(process.argv[3] || 1));
  console.error(`tfjs-core ${version}, backend ${backend}, ${build}`);
  const now = () => performance.now();
  for (const n of [512, 1024, 2048]) {
    for (const d of [64, 128]) {
      const job = ropeJob(tf, randomArray(n * d, 1), randomArray(n * d, 2), n, d);
      for (let w = 0; w < 2; ++w) job.run();
      const t = [];
      const start = now();
      while (t.length < 5 || (t.length < 51 && now() - start < budget)) {
        const t0 = now();
        job.run();
        t.push(now() - t0);
      }
      t.sort((a, b) => a - b);
      console.log(JSON.stringify({ build, kernel: 'rope_logits', n, d, ms: Number(t[t.length >> 1].toFixed(4)), min_ms: Number(t[0].toFixed(4)), reps: t.length }));
      job.dispose();
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
