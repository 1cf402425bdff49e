// Smoke run of the start-up benchmark (bench/startup.mjs) on one case and one load, so the bench cannot
// silently stop working: it must finish and print its two tables (start-up and page weight) with numbers
// in every column. No timing is asserted (numbers depend on the machine).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { repo } from './harness.mjs';

const CASE = 'waves (default view)';

test('bench/startup.mjs: one case, one load, completes and prints its tables', async () => {
  const { code, stdout, stderr } = await new Promise((resolve) => {
    execFile(process.execPath, [path.join(repo, 'bench', 'startup.mjs'), '1', '--only', CASE],
      { cwd: repo, timeout: 120000 }, (error, out, err) => resolve({ code: error ? error.code ?? error.signal : 0, stdout: out, stderr: err }));
  });
  assert.equal(code, 0, `exit status; stderr: ${stderr}`);
  const lines = stdout.split('\n');
  const row = JSON.parse(lines.find((l) => l.startsWith('{')));
  assert.equal(row.case, CASE);
  for (const key of ['html', 'wasm', 'main', 'ready'])
    assert.ok(Number.isFinite(row[key]) && row[key] > 0, `${key} = ${row[key]}`);
  // Events in page order: HTML before main(), main() before the first frame.
  assert.ok(row.html <= row.main && row.main <= row.ready, JSON.stringify(row));
  const header = lines.findIndex((l) => l.startsWith('| state |'));
  assert.ok(header >= 0, `start-up table in:\n${stdout}`);
  const rows = lines.slice(header + 2).filter((l) => l.startsWith('| '));
  assert.match(rows[0], /^\| waves \(default view\) \| \d+ \| \d+ \| \d+ \| \*\*\d+\*\* \| \d+ \|/, rows[0]);
  // Page weight: the wasm is one of the files fetched, and the total is a positive gzip size.
  assert.match(stdout, /\| \/posenc\.wasm \| \d+ \| \d+ \|/);
  assert.match(stdout, /\| \*\*total\*\* \| \d+ \| \*\*\d+\*\* \(\d\.\d{3} MB\) \|/);
});
