// Smoke run of the heap soak (bench/soak.mjs) on 60 states: every view visited, model files loaded (the
// Model view's second model among them), the wasm heap within the soak's bound (128 MiB) and no console
// error. The full 500-state soak is a benchmark (bench/run-all.sh). No timing is asserted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { repo } from './harness.mjs';

const STATES = 60;

test('bench/soak.mjs: 60 states across every view keep the wasm heap under its bound', async () => {
  const { code, stdout, stderr } = await new Promise((resolve) => {
    execFile(process.execPath, [path.join(repo, 'bench', 'soak.mjs'), String(STATES)],
      { cwd: repo, timeout: 180000 }, (error, out, err) => resolve({ code: error ? error.code ?? error.signal : 0, stdout: out, stderr: err }));
  });
  assert.equal(code, 0, `exit status; stderr: ${stderr}`);
  const row = JSON.parse(stdout.split('\n').find((l) => l.startsWith('{')));
  assert.equal(row.states, STATES);
  assert.equal(row.views.length, row.view_count, `every view: ${row.views}`);
  assert.ok(row.views.includes('model'));
  assert.ok(row.loads >= 4, `model loads: ${row.loads}`);
  assert.equal(row.bound_mib, 128);
  assert.ok(row.start_mib > 0 && row.max_mib >= row.start_mib && row.max_mib <= row.bound_mib, JSON.stringify(row));
  assert.deepEqual(row.errors, []);
  assert.match(stdout, /^\| 60 \| \d+ \| \d+ \| [\d.]+ \| \*\*[\d.]+\*\* \| -?\d+ \| 128 \|$/m);
});
