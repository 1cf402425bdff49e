// Smoke run of the per-frame benchmark (bench/frame-timing.mjs) on one tiny case, so the bench cannot
// silently stop working again (its idle-frame step once waited forever for main-loop iterations that the
// draw-only-on-change pause never runs). It asserts that the script finishes and prints its table with
// numbers in every column; no timing is asserted (numbers depend on the machine).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { repo } from './harness.mjs';

const CASE = 'scores, none, n = 512, d = 64';

test('bench/frame-timing.mjs: one case, one repeat, completes and prints its table', async () => {
  const { code, stdout, stderr } = await new Promise((resolve) => {
    execFile(process.execPath, [path.join(repo, 'bench', 'frame-timing.mjs'), '1', '--only', CASE],
      { cwd: repo, timeout: 120000 }, (error, out, err) => resolve({ code: error ? error.code ?? error.signal : 0, stdout: out, stderr: err }));
  });
  assert.equal(code, 0, `exit status; stderr: ${stderr}`);
  assert.doesNotMatch(stderr, /console errors/, stderr);
  const lines = stdout.split('\n');
  // The JSON row of the case: every measured field a finite, non-negative number.
  const row = JSON.parse(lines.find((l) => l.startsWith('{')));
  assert.equal(row.case, CASE);
  for (const key of ['recompute_ms', 'upload_ms', 'update_ms', 'frame_ms', 'latency_ms', 'idle_frame_ms'])
    assert.ok(Number.isFinite(row[key]) && row[key] >= 0, `${key} = ${row[key]}`);
  // The markdown table: its header, separator and exactly the one row, one number per column.
  const header = lines.findIndex((l) => l.startsWith('| case |'));
  assert.ok(header >= 0, `table header in:\n${stdout}`);
  const columns = lines[header].split('|').length;
  const rows = lines.slice(header + 2).filter((l) => l.startsWith('|'));
  assert.equal(rows.length, 1, rows.join('\n'));
  const cells = rows[0].split('|').slice(1, -1).map((c) => c.trim());
  assert.equal(cells.length + 2, columns);
  assert.equal(cells[0], CASE);
  for (const c of cells.slice(1)) assert.match(c, /^\d+\.\d$/, rows[0]);
});
