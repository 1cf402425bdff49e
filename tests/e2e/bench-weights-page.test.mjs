// Smoke run of the page's weights benchmark (bench/weights-page.mjs) on the small models of
// bench/weights-bench.py --smoke, so the bench cannot silently stop working: both models load in the page through
// window.posenc.loadWeights, each report equals posenc weights --json on the same files, and the table has
// numbers in every column. No timing is asserted (numbers depend on the machine).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repo } from './harness.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'posenc-weights-page-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const posenc = path.join(repo, 'build', 'native', 'posenc');

test('bench/weights-page.mjs --smoke: both small models load in the page, equal to the CLI, and print the table', async () => {
  const models = spawnSync('/usr/bin/python3', [path.join(repo, 'bench', 'weights-bench.py'), '--smoke', '--posenc', posenc, '--dir', dir],
    { encoding: 'utf8', timeout: 120000 });
  assert.equal(models.status, 0, models.stderr);
  const { code, stdout, stderr } = await new Promise((resolve) => {
    execFile(process.execPath, [path.join(repo, 'bench', 'weights-page.mjs'), '--smoke', '--dir', dir, '--posenc', posenc],
      { cwd: repo, timeout: 180000 }, (error, out, err) => resolve({ code: error ? error.code ?? error.signal : 0, stdout: out, stderr: err }));
  });
  assert.equal(code, 0, `exit status; stderr: ${stderr}`);
  const rows = stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
  assert.deepEqual(rows.map((r) => r.case), ['BF16 safetensors folder', 'Q4_K GGUF']);
  for (const r of rows) {
    assert.equal(r.layers, 2, JSON.stringify(r));
    assert.equal(r.equals_cli, true, JSON.stringify(r));
    assert.ok(r.read_bytes > 0 && Number.isFinite(r.seconds) && r.seconds > 0, JSON.stringify(r));
    assert.ok(r.heap_before > 0 && r.heap_after >= r.heap_before, JSON.stringify(r));
  }
  assert.match(stdout, /\| BF16 safetensors folder \| 2 \| \d+\.\d{3} \| \d+\.\d{2} \| \d+\.\d \| \d+\.\d \| -?\d+\.\d \|/);
});
