// Per-frame cost of a state change in the browser: headless Chromium (SwiftShader WebGL2),
// the built site in build/web (or --site DIR, e.g. an older build for a before/after in one run). For each
// case the page gets a state through window.posenc.setState, then for each repeat one parameter is toggled
// (base 10000 <-> 10001 where the view has a base, else seed 1 <-> 2: either forces a full recompute) and
// we record:
//   recompute_ms - the view's recompute() (the core), measured in wasm (posenc_last_recompute_ms)
//   upload_ms  - its upload() (the heatmaps' texture uploads and colour ranges; posenc_last_upload_ms)
//   update_ms  - the view's part of the frame carrying the change (posenc_last_update_ms): its upload and
//                drawing; the recompute runs earlier in that frame (the notices ask the view first)
//   frame_ms   - the whole main-loop iteration that drew the change (Module.preMainLoop -> postMainLoop)
//   latency_ms - from setState to the end of that frame (includes waiting for the next animation frame)
//   idle_frame_ms - a main-loop iteration with nothing changed (the steady cost of drawing the view)
// Medians over repeats. Usage: node bench/frame-timing.mjs [repeats] [--site DIR] [--only SUBSTRING]
// (needs build/web: cmake --build --preset web)
import { serveSite, launchBrowser, openPage, waitReady, waitFrames } from '../tests/e2e/harness.mjs';

const args = process.argv.slice(2);
const option = (name) => { const i = args.indexOf(name); return i >= 0 ? args.splice(i, 2)[1] : undefined; };
const site = option('--site');
const only = option('--only');
const repeats = Number(args[0] || 15);

const BASE = ['base', '10000', '10001'];
const SEED = ['seed', '1', '2'];
const SCORES_SCHEMES = ['none', 'sinusoidal', 'rope', 't5', 'alibi', 'shaw', 'deberta', 'xl', 'learned'];
const CASES = [];
for (const n of [512, 2048]) {
  for (const scheme of SCORES_SCHEMES)
    CASES.push({ name: `scores, ${scheme}, n = ${n}, d = 64`, state: { view: 'scores', scheme, n: `${n}`, d: '64', causal: '0' },
                 toggle: BASE });
  // (causal is named in every scores case: setState keeps the keys a state leaves out.) Under the causal mask (what a decoder does) the masked half is not computed.
  for (const scheme of ['sinusoidal', 'rope', 'deberta', 'xl'])
    CASES.push({ name: `scores, ${scheme}, n = ${n}, d = 64, causal`, state: { view: 'scores', scheme, n: `${n}`, d: '64', causal: '1' },
                 toggle: BASE });
  // The other views in their default state but for n.
  CASES.push({ name: `similarity (default), n = ${n}`, state: { view: 'similarity', n: `${n}` }, toggle: BASE });
  CASES.push({ name: `waves (default), n = ${n}`, state: { view: 'waves', n: `${n}` }, toggle: BASE });
  CASES.push({ name: `waves, sinusoidal, n = ${n}, d = 128`, state: { view: 'waves', scheme: 'sinusoidal', n: `${n}`, d: '128' }, toggle: BASE });
  CASES.push({ name: `buckets (default), n = ${n}`, state: { view: 'buckets', n: `${n}` }, toggle: SEED });
}
CASES.push({ name: 'similarity, n = 4096', state: { view: 'similarity', n: '4096' }, toggle: BASE });
CASES.push({ name: 'rope (default)', state: { view: 'rope' }, toggle: BASE });
CASES.push({ name: 'permutation (default)', state: { view: 'permutation' }, toggle: SEED });

// Frames drawn with nothing changed (the steady cost of drawing the view), `count` of them. The app draws
// only on change and pauses its main loop otherwise, so an idle page runs no iterations at all: wake it
// (window.posenc.wake, as any input does) and time the iterations that drew a frame (frameCount moved).
function idleFrames(page, count) {
  return page.evaluate((count) => new Promise((resolve) => {
    const out = [];
    let start = 0, f0 = 0;
    Module.preMainLoop = () => { start = performance.now(); f0 = window.posenc.frameCount(); };
    Module.postMainLoop = () => {
      if (window.posenc.frameCount() > f0) out.push(performance.now() - start);
      if (out.length >= count) { Module.preMainLoop = Module.postMainLoop = null; resolve(out); return; }
      window.posenc.wake();
    };
    window.posenc.wake();
  }), count);
}

const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]; };

// One state change, timed inside the page.
function measure(page, partial) {
  return page.evaluate((partial) => new Promise((resolve) => {
    const f0 = window.posenc.frameCount();
    let frameStart = 0;
    Module.preMainLoop = () => { frameStart = performance.now(); };
    const t0 = performance.now();
    Module.postMainLoop = () => {
      if (window.posenc.frameCount() <= f0) return;
      const t1 = performance.now();
      Module.preMainLoop = Module.postMainLoop = null;
      resolve({ latency_ms: t1 - t0, frame_ms: t1 - frameStart, update_ms: Module._posenc_last_update_ms(),
                 recompute_ms: Module._posenc_last_recompute_ms ? Module._posenc_last_recompute_ms() : NaN,
                 upload_ms: Module._posenc_last_upload_ms ? Module._posenc_last_upload_ms() : NaN });
    };
    window.posenc.setState(partial);
  }), partial);
}

const server = await serveSite(...(site ? [site] : []));
const browser = await launchBrowser();
const rows = [];
try {
  const { page, errors } = await openPage(browser, server.url);
  await waitReady(page);
  for (const c of CASES.filter((c) => !only || c.name.includes(only))) {
    const [key, a, b] = c.toggle;
    await page.evaluate((s) => window.posenc.setState(s), { ...c.state, [key]: a });
    await waitFrames(page, 3);
    const notices = await page.evaluate(() => window.posenc.notices());
    const r = [];
    for (let i = 0; i < repeats + 2; ++i) {
      const m = await measure(page, { [key]: i % 2 ? a : b });
      if (i >= 2) r.push(m);  // two warm-up changes
      await waitFrames(page, 1);
    }
    const idle = await idleFrames(page, 9);
    const row = {
      case: c.name, repeats,
      idle_frame_ms: median(idle),
      update_ms: median(r.map((x) => x.update_ms)),
      recompute_ms: median(r.map((x) => x.recompute_ms)),
      upload_ms: median(r.map((x) => x.upload_ms)),
      frame_ms: median(r.map((x) => x.frame_ms)),
      latency_ms: median(r.map((x) => x.latency_ms)),
      notices: notices || undefined,
    };
    rows.push(row);
    console.log(JSON.stringify(row));
  }
  if (errors.length) console.error('console errors:', errors);
} finally {
  await browser.close();
  await server.close();
}
console.log('\n| case | recompute + upload (ms) | recompute (ms) | upload (ms) | view drawn incl. upload (ms) | frame with the change (ms) | state change -> frame drawn (ms) | idle frame (ms) |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows)
  console.log(`| ${r.case} | ${(r.recompute_ms + r.upload_ms).toFixed(1)} | ${r.recompute_ms.toFixed(1)} | ${r.upload_ms.toFixed(1)} | ${r.update_ms.toFixed(1)} | ${r.frame_ms.toFixed(1)} | ${r.latency_ms.toFixed(1)} | ${r.idle_frame_ms.toFixed(1)} |`);
