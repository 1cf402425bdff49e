// The wasm heap across many states: one page (headless Chromium, the built site in build/web or --site DIR)
// cycles `states` states through window.posenc.setState, view after view in menu order (the Model view with
// every preset, a compare=<preset> every third visit and target lengths from 4K to 1M; the RoPE view with
// presets; the scores view at n = 64..512), loads a model file every few states (three config.json files
// through window.posenc.loadModel, one as the Model view's second model through loadCompareModel), draws a
// frame every 10 states, and reads the wasm heap (Module.HEAPU8.length: WebAssembly memory only grows, so
// its largest value is the peak) after each state. It prints one JSON row and a table: the heap at the start,
// at most, and the step and state that first reached the most. It exits with status 1 when the heap passes
// the bound (128 MiB: an eighth of the 1,086 MB jump this soak once found, a Model-view state whose keys came
// from the one before it) or the page logged an error.
// Usage: node bench/soak.mjs [states] [--site DIR]   (states: 500 by default; needs build/web)
// The suite runs a short smoke of it (tests/e2e/bench-soak.test.mjs: 60 states, every view, the bound).
import fs from 'node:fs';
import path from 'node:path';
import { serveSite, launchBrowser, openPage, waitReady, waitFrames, repo } from '../tests/e2e/harness.mjs';

const args = process.argv.slice(2);
const option = (name) => { const i = args.indexOf(name); return i >= 0 ? args.splice(i, 2)[1] : undefined; };
const site = option('--site');
const count = Number(args[0] || 500);
if (!(Number.isInteger(count) && count > 0)) {
  console.error('usage: node bench/soak.mjs [states] [--site DIR]');
  process.exit(2);
}
const MiB = 2 ** 20, BOUND = 128 * MiB;
const configs = path.join(repo, 'tests', 'data', 'configs');
const presets = JSON.parse(fs.readFileSync(path.join(configs, 'presets.json'), 'utf8'));
const LOADS = [['loadModel', 'llama-3.1-8b.json'], ['loadModel', 'deepseek-v4-flash.json'],
  ['loadCompareModel', 'gemma-3-1b-it.json'], ['loadModel', 'nemotron-3-nano-30b-a3b.json']]
  .map(([how, file]) => ({ how, file, text: fs.readFileSync(path.join(configs, file), 'utf8') }));
// A load every `every` states (50 in the full soak; at least 4 loads in a short one).
const every = Math.max(5, Math.min(50, Math.floor(count / 4)));

// The states: every view's, the Model view's with presets, compare and target lengths.
function soakStates(views) {
  const extra = {
    model: (i) => ({ model: presets[i % presets.length].id, ...(i % 3 === 0 ? { compare: presets[(i * 7) % presets.length].id } : {}),
                     target_len: String(4096 << (i % 9)) }),
    rope: (i) => ({ model: presets[(i * 5) % presets.length].id }),
    scores: (i) => ({ n: String(64 << (i % 4)) }),
  };
  const states = [];
  for (let i = 0; i < count; ++i) {
    const view = views[i % views.length];
    states.push({ view, ...(extra[view] ? extra[view](i) : {}) });
  }
  return states;
}

const server = await serveSite(...(site ? [site] : []));
const browser = await launchBrowser();
let failed = false;
try {
  const { page, errors } = await openPage(browser, `${server.url}/?view=model`);
  await waitReady(page);
  await waitFrames(page, 2);
  const views = await page.evaluate(() => window.posenc.views());
  const heap = () => page.evaluate(() => window.Module.HEAPU8.length);
  const start = await heap();
  let max = start, at = -1, loads = 0;
  const states = soakStates(views);
  const t0 = Date.now();
  for (let i = 0; i < states.length; ++i) {
    await page.evaluate((s) => window.posenc.setState(s), states[i]);
    if (i % every === Math.floor(every / 2)) {
      const load = LOADS[loads++ % LOADS.length];
      await page.evaluate(([how, text]) => window.posenc[how](text), [load.how, load.text]);
    }
    if (i % 10 === 0) await waitFrames(page, 1);
    const h = await heap();
    if (h > max) { max = h; at = i; }
  }
  await waitFrames(page, 1);
  const row = { states: states.length, views: [...new Set(states.map((s) => s.view))], view_count: views.length, loads,
                start_mib: +(start / MiB).toFixed(1), max_mib: +(max / MiB).toFixed(1), at, state: at >= 0 ? states[at] : null,
                bound_mib: BOUND / MiB, errors, wall_s: +((Date.now() - t0) / 1000).toFixed(1) };
  console.log(JSON.stringify(row));
  console.log('\n| states | views | model loads | wasm heap at the start (MiB) | at most (MiB) | first at step | bound (MiB) |');
  console.log('|---|---|---|---|---|---|---|');
  console.log(`| ${row.states} | ${row.views.length} | ${loads} | ${row.start_mib} | **${row.max_mib}** | ${at} | ${row.bound_mib} |`);
  if (max > BOUND) { failed = true; console.error(`soak: wasm heap ${max} B > ${BOUND} B at step ${at}: ${JSON.stringify(row.state)}`); }
  if (errors.length) { failed = true; console.error(`soak: console errors: ${errors.join('; ')}`); }
} finally {
  await browser.close();
  await server.close();
}
process.exit(failed ? 1 : 0);
