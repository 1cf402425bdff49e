// Smoke run of the kernel table's peer (bench/tfjs-rope.mjs, tfjs-backend-wasm in node) with the smallest
// budget, and of bench/make-table.mjs over its output, so neither can silently break (an npm update, a
// renamed field). The wasm kernel driver and the kernel-parity table (bench/kernel-parity.mjs, which runs
// this peer in one process with ours) have their own smoke tests (CTest kernels_wasm_bench_smoke and
// kernel_parity_smoke, web preset). No timing is asserted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repo } from './harness.mjs';

const run = (args) => new Promise((resolve) => {
  execFile(process.execPath, args, { cwd: repo, timeout: 120000 },
    (error, out, err) => resolve({ code: error ? error.code ?? error.signal : 0, stdout: out, stderr: err }));
});

test('bench/tfjs-rope.mjs: every size of the table, SIMD backend; make-table.mjs prints its row', async () => {
  const tfjs = await run(['--no-experimental-fetch', path.join(repo, 'bench', 'tfjs-rope.mjs'), '1']);
  assert.equal(tfjs.code, 0, `exit status; stderr: ${tfjs.stderr}`);
  const rows = tfjs.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
  assert.deepEqual(rows.map((r) => `${r.n}x${r.d}`), ['512x64', '512x128', '1024x64', '1024x128', '2048x64', '2048x128']);
  for (const r of rows) {
    assert.equal(r.kernel, 'rope_logits');
    assert.match(r.build, /^tfjs-wasm-simd/, 'the peer runs its SIMD build');
    assert.ok(Number.isFinite(r.ms) && r.ms > 0 && r.min_ms <= r.ms && r.reps >= 5, JSON.stringify(r));
  }
  // The table script reads the round files run-all.sh writes.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'posenc-bench-'));
  try {
    fs.writeFileSync(path.join(dir, 'tfjs.r1.jsonl'), tfjs.stdout);
    const table = await run([path.join(repo, 'bench', 'make-table.mjs'), dir]);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /\| 2048 \| 128 \|/, table.stdout);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
