// The deployable site as docs/hosting.md lists it: `scripts/site OUT` writes exactly the files of its
// table, and scripts/static-server.mjs (what scripts/serve and the tests serve with) sends each with the
// table's MIME type. A host that follows the table ships a site that works in every language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { repo } from './harness.mjs';
import { serveStatic } from '../../scripts/static-server.mjs';

// The rows of the table under "The deployable folder": | `file` | `MIME type` | what |.
function hostingTable() {
  const doc = fs.readFileSync(path.join(repo, 'docs', 'hosting.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## The deployable folder'), doc.indexOf('## Worked examples'));
  const rows = [...section.matchAll(/^\| `([^`]+)` \| `([^`]+)` \|/gm)].map((m) => [m[1], m[2]]);
  assert.ok(rows.length > 0, 'docs/hosting.md has the table of files');
  return new Map(rows);
}

test('hosting: docs/hosting.md lists every file scripts/site writes, with the MIME type it is served as', async () => {
  const listed = hostingTable();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'posenc-hosting-'));
  const out = path.join(root, 'site');
  try {
    const r = spawnSync(path.join(repo, 'scripts', 'site'), [out], { encoding: 'utf8', timeout: 600000 });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(fs.readdirSync(out).sort(), [...listed.keys()].sort(), 'the table names exactly the files of the site');
    for (const file of ['posenc-lang.js', 'posenc-zh.json', 'posenc-cjk.ttf'])
      assert.ok(listed.has(file), `${file} (what lang=zh needs) is listed`);
    const server = await serveStatic(out, 0);
    try {
      for (const [file, type] of listed) {
        const res = await fetch(`${server.url}/${file}`);
        assert.equal(res.status, 200, file);
        assert.equal(res.headers.get('content-type'), type, `${file} is served as ${type}`);
        assert.ok((await res.arrayBuffer()).byteLength > 0, `${file} is not empty`);
      }
    } finally { await server.close(); }
  } finally { fs.rmSync(root, { recursive: true, force: true }); }
});
