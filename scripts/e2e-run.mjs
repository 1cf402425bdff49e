// Runs browser end-to-end test files with node's test runner (TAP on stdout, as `node --test` prints it),
// the longest files first: scripts/test's e2e stage.
//   node scripts/e2e-run.mjs [--concurrency N] [FILE | DIRECTORY]...
// A directory stands for every *.test.mjs in it, so a new test file is always run. `node --test` starts its
// files in name order; a long file that starts last runs alone at the end on one core while the other idles
// (the run's tail). Here the files start by their weight, heaviest first (WEIGHTS: seconds of each file's
// tests, summed, in a run of the whole suite two files at a time on a busy 2-core machine; only their order
// matters). A file the table does not know starts first (it may be long): the table orders the files and
// never decides which ones run. The exit status is 1 when a test failed (or none ran).
import { run } from 'node:test';
import { tap } from 'node:test/reporters';
import fs from 'node:fs';
import path from 'node:path';

const WEIGHTS = {
  'blog': 111, 'layout': 104, 'url-state': 94, 'model-files': 87, 'param-form': 83, 'input': 81, 'embed-page': 75,
  'check-paste': 71, 'line-break': 70, 'model': 68, 'touch': 67, 'zh': 66, 'zh-font': 63, 'embed-guard': 62,
  'model-views': 59, 'hugo': 59, 'usage': 58, 'small-embed': 57, 'idle': 55, 'scores-drag': 54, 'phone-keyboard': 53,
  'models': 53, 'figures': 50, 'embed-code': 49, 'smoke': 48, 'touch-targets': 46, 'scores-layers': 46, 'embed': 42,
  'bench-soak': 39, 'lang-offer': 39, 'bench-weights-page': 38, 'check': 37, 'rope': 34, 'toy': 32, 'waves': 30,
  'bench-tfjs': 25, 'scores': 22, 'bench-startup': 22, 'share': 22, 'permutation': 19, 'model-layers': 17,
  'bench-frame-timing': 16, 'similarity': 16, 'accessibility': 15, 'buckets': 15, 'export': 8, 'context': 7,
  'no-webgl2': 6, 'hosting': 2, 'gguf-parser': 2,
};

const args = process.argv.slice(2);
let concurrency = 2;
const inputs = [];
for (let i = 0; i < args.length; ++i) {
  if (args[i] === '--concurrency') concurrency = Number(args[++i]);
  else inputs.push(args[i]);
}
if (!(concurrency >= 1) || inputs.length === 0) {
  console.error('usage: node scripts/e2e-run.mjs [--concurrency N] [FILE | DIRECTORY]...');
  process.exit(2);
}
const files = new Set();
for (const input of inputs) {
  if (fs.statSync(input).isDirectory()) {
    for (const name of fs.readdirSync(input).sort()) if (name.endsWith('.test.mjs')) files.add(path.resolve(input, name));
  } else {
    files.add(path.resolve(input));
  }
}
const weight = (file) => WEIGHTS[path.basename(file, '.test.mjs')] ?? Number.MAX_VALUE;
// Array.prototype.sort is stable: equal weights keep their name order.
const ordered = [...files].sort((a, b) => weight(b) - weight(a));

let failed = 0, passed = 0;
const stream = run({ files: ordered, concurrency });
stream.on('test:fail', () => { failed += 1; });
stream.on('test:pass', () => { passed += 1; });
stream.compose(tap).pipe(process.stdout);
stream.on('close', () => { process.exitCode = failed > 0 || passed === 0 ? 1 : 0; });
