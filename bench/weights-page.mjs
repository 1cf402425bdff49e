// The page's weights reader on the models bench/weights-bench.py writes: the 8B-shaped BF16 folder (config.json +
// model.safetensors, 2.7 GB of which 1.34 GB of q/k is read) and its Q4_K GGUF, each given from disk to
// window.posenc.loadWeights in headless Chromium (Debian's; the files set on a file input, so the page reads them
// by File.slice as a reader's picked files). Per model it reports the seconds from the call to the report (the
// reading, the numbers and the view's load), the wasm heap before and after (Module.HEAPU8.length: WebAssembly
// memory only grows, so after is the peak) and its growth, against the bounds 30 s and 64 MiB. With --posenc it
// also runs `posenc weights PATH --json` on the same files and checks that the page's report equals the CLI's.
// It exits with status 1 when a report is an error, differs from the CLI's, or passes a bound.
// Usage: node bench/weights-page.mjs [--smoke] [--dir DIR] [--posenc build/native/posenc] [--site DIR] [--only SUBSTRING]
//   (the models first: /usr/bin/python3 bench/weights-bench.py --posenc build/native/posenc [--smoke]; the site:
//   cmake --build --preset web)
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { isDeepStrictEqual } from 'node:util';
import { serveSite, launchBrowser } from '../tests/e2e/harness.mjs';

const args = process.argv.slice(2);
const option = (name) => { const i = args.indexOf(name); return i >= 0 ? args.splice(i, 2)[1] : undefined; };
const smoke = args.includes('--smoke');
const dir = option('--dir') || '/tmp/posenc-weights-bench';
const posenc = option('--posenc');
const site = option('--site');
const only = option('--only');
const BOUND_SECONDS = 30, BOUND_HEAP = 64 << 20;  // the bounds for the page
const stem = smoke ? 'smoke' : 'llama-8b-shapes';
const CASES = [
  { name: 'BF16 safetensors folder', path: path.join(dir, stem), files: ['config.json', 'model.safetensors'] },
  { name: 'Q4_K GGUF', path: path.join(dir, `${stem}-q4_k.gguf`), files: [''] },
];
for (const c of CASES) {
  for (const f of c.files) {
    if (!fs.existsSync(path.join(c.path, f))) {
      console.error(`weights-page: ${path.join(c.path, f)} is missing: write the models first with ` +
        `/usr/bin/python3 bench/weights-bench.py --posenc build/native/posenc${smoke ? ' --smoke' : ''} --dir ${dir}`);
      process.exit(2);
    }
  }
}

// The first place two JSON values differ ('' when they are equal), for the message when the page and the CLI disagree.
function firstDifference(a, b, at = '$') {
  if (typeof a !== typeof b || Array.isArray(a) !== Array.isArray(b) || (a === null) !== (b === null)) return `${at}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
  if (typeof a !== 'object' || a === null) return Object.is(a, b) ? '' : `${at}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    const d = firstDifference(a[k], b[k], Array.isArray(a) ? `${at}[${k}]` : `${at}.${k}`);
    if (d) return d;
  }
  return '';
}

const server = await serveSite(...(site ? [site] : []));
const browser = await launchBrowser();
const rows = [];
let failed = false;
try {
  for (const c of CASES.filter((x) => !only || x.name.includes(only))) {
    // A new page per model: the heap starts where a reader's fresh page starts.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${server.url}/?view=usage`);
    await page.waitForFunction(() => window.posenc && window.posenc.ready, null, { timeout: 60000 });
    await page.evaluate(() => window.posenc.ready);
    // A file input of the bench's own (the app's inputs would start a read on change).
    await page.evaluate(() => {
      const input = document.createElement('input');
      input.type = 'file';
      input.multiple = true;
      input.id = 'bench-weights-files';
      input.hidden = true;
      document.body.appendChild(input);
    });
    await page.setInputFiles('#bench-weights-files', c.files.map((f) => path.join(c.path, f)));
    const r = await page.evaluate(async () => {
      const heapBefore = window.Module.HEAPU8.length;
      const start = performance.now();
      const json = await window.posenc.loadWeights(document.getElementById('bench-weights-files').files);
      const seconds = (performance.now() - start) / 1000;
      return { heapBefore, heapAfter: window.Module.HEAPU8.length, seconds, json };
    });
    await context.close();
    const row = {
      case: c.name, seconds: Number(r.seconds.toFixed(3)), heap_before: r.heapBefore, heap_after: r.heapAfter,
      growth_mib: Number(((r.heapAfter - r.heapBefore) / 1048576).toFixed(2)),
      layers: r.json.layers ? r.json.layers.length : 0, read_bytes: r.json.read ? r.json.read.bytes : 0,
    };
    if (r.json.error) { failed = true; console.error(`weights-page: ${c.name}: ${r.json.field}: ${r.json.error}`); }
    if (errors.length) { failed = true; console.error(`weights-page: ${c.name}: page errors: ${errors.join('; ')}`); }
    if (posenc) {
      const cli = spawnSync(posenc, ['weights', c.path, '--json'], { encoding: 'utf8', maxBuffer: 1 << 30 });
      const expected = cli.status === 0 ? JSON.parse(cli.stdout) : null;
      row.equals_cli = isDeepStrictEqual(r.json, expected);
      // The per-head numbers alone (the pairs' frequencies come from the C library's pow: docs/weights.md).
      row.layers_equal_cli = expected !== null && isDeepStrictEqual(r.json.layers, expected.layers);
      if (!row.equals_cli) {
        failed = true;
        console.error(`weights-page: ${c.name}: the page's report differs from posenc weights --json: ${expected ? firstDifference(r.json, expected) : cli.stderr}`);
      }
    }
    if (row.seconds > BOUND_SECONDS || r.heapAfter - r.heapBefore > BOUND_HEAP) {
      failed = true;
      console.error(`weights-page: ${c.name}: ${row.seconds} s, heap +${row.growth_mib} MiB (bounds ${BOUND_SECONDS} s, ${BOUND_HEAP >> 20} MiB)`);
    }
    console.log(JSON.stringify(row));
    rows.push(row);
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(`\n| model (${smoke ? 'smoke' : '8B-shaped'}) | layers | read (GB) | seconds | wasm heap before (MiB) | after (MiB) | growth (MiB) |`);
console.log('|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(`| ${r.case} | ${r.layers} | ${(r.read_bytes / 1e9).toFixed(3)} | ${r.seconds.toFixed(2)} | ` +
    `${(r.heap_before / 1048576).toFixed(1)} | ${(r.heap_after / 1048576).toFixed(1)} | ${r.growth_mib.toFixed(1)} |`);
}
process.exit(failed ? 1 : 0);
