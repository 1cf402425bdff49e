// Where a state change's time goes, as shares: a Chromium DevTools CPU profile (CDP Profiler, sampling
// every 50 us) over `changes` state changes of one view state in headless Chromium, the same toggle as
// bench/frame-timing.mjs (base 10000 <-> 10001, a full recompute each). Prints the functions by self time
// and the inclusive time of the recompute / upload entry points, as shares of the sampled time, plus the
// in-wasm phase timers (posenc_last_recompute_ms / posenc_last_upload_ms) for comparison. Shares hold on a
// loaded machine where absolute times do not.
// Needs a site whose posenc.wasm keeps function names (link with --profiling-funcs):
//   bench/profile-site.sh            (relinks build/web's objects into build/web-prof)
//   node bench/profile-frame.mjs [changes] --site build/web-prof --state 'view=scores&scheme=xl&n=2048&d=64'
//     [--under REGEX]  (the self time inside one function, e.g. ScoresView::recompute or posenc_describe)
import { serveSite, launchBrowser, openPage, waitReady, waitFrames } from '../tests/e2e/harness.mjs';

const args = process.argv.slice(2);
const option = (name) => { const i = args.indexOf(name); return i >= 0 ? args.splice(i, 2)[1] : undefined; };
const site = option('--site');
const stateText = option('--state') || 'view=scores&scheme=xl&n=2048&d=64';
const top = Number(option('--top') || 25);
// --under REGEX: also the self time of the samples whose stack has a function matching REGEX (e.g.
// 'ScoresView::recompute' or 'posenc_describe'), as shares of those samples: what that call spends its time in.
const under = option('--under');
const changes = Number(args[0] || 10);
const state = Object.fromEntries(new URLSearchParams(stateText));

const server = await serveSite(...(site ? [site] : []));
const browser = await launchBrowser();
try {
  const { page } = await openPage(browser, server.url);
  await waitReady(page);
  await page.evaluate((s) => window.posenc.setState(s), { ...state, base: '10000' });
  await waitFrames(page, 3);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
  await cdp.send('Profiler.start');
  const timers = [];
  for (let i = 0; i < changes; ++i) {
    timers.push(await page.evaluate((b) => new Promise((resolve) => {
      const f0 = window.posenc.frameCount();
      Module.postMainLoop = () => {
        if (window.posenc.frameCount() <= f0) return;
        Module.postMainLoop = null;
        resolve({ recompute: Module._posenc_last_recompute_ms(), upload: Module._posenc_last_upload_ms() });
      };
      window.posenc.setState({ base: b });
    }), i % 2 ? '10000' : '10001'));
    await waitFrames(page, 1);
  }
  const { profile } = await cdp.send('Profiler.stop');
  // Self samples per function; inclusive samples per function (counted once per sample even if recursive).
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
  const name = (n) => n.callFrame.functionName || `(${n.callFrame.url.split('/').pop() || 'program'})`;
  const self = new Map(), incl = new Map();
  let total = 0, busy = 0;
  for (const id of profile.samples) {
    const n = byId.get(id);
    total += 1;
    if (name(n) === '(idle)' || name(n) === '(program)') continue;
    busy += 1;
    self.set(name(n), (self.get(name(n)) || 0) + 1);
    const seen = new Set();
    for (let c = id; c !== undefined; c = parent.get(c)) {
      const nm = name(byId.get(c));
      if (!seen.has(nm)) { seen.add(nm); incl.set(nm, (incl.get(nm) || 0) + 1); }
    }
  }
  const pct = (x, of = busy) => `${((100 * x) / of).toFixed(1)} %`;
  // The samples inside the view's recompute() or upload(), by phase: the innermost frame that names one.
  const PHASES = [
    ['GEMM (packed 4x8 micro-kernel, packing)', /micro_kernel|gemm_simd128|pack_|run_logits|kernels::logits\(|kernels::matmul\(/],
    ['sum of the terms + softmax (finish)', /finish\(|softmax|sum_finite|kernels::add/],
    ['bias fills, gathers, tables (per relative position)', /fill_relative|gather_relative|relative_term|gathered|per_delta|sin_cos_table|pe_table|mask_causal/],
    ['quantise to 16-bit codes', /kernels::quantize/],
    ['value range', /value_range/],
    ['texSubImage2D (WebGL upload)', /texSubImage2D|TexSubImage/],
  ];
  const phase = new Map(), outer = { recompute: 0, upload: 0 };
  for (const id of profile.samples) {
    const names = [];
    for (let c = id; c !== undefined; c = parent.get(c)) names.push(name(byId.get(c)));
    const top = names.find((nm) => /ScoresView::recompute|ScoresView::upload|View::recompute\(|View::upload\(|::recompute\(\)|::upload\(\)/.test(nm));
    if (!top) continue;
    const which = /upload/.test(top) ? 'upload' : 'recompute';
    outer[which] += 1;
    let label = `other ${which}`;
    for (const nm of names) {  // innermost first
      const hit = PHASES.find(([, re]) => re.test(nm));
      if (hit) { label = hit[0]; break; }
      if (nm === top) break;
    }
    phase.set(label, (phase.get(label) || 0) + 1);
  }
  const inView = outer.recompute + outer.upload;
  const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  console.log(`state ${stateText}, ${changes} changes; in-wasm timers (median): recompute ${med(timers.map((t) => t.recompute)).toFixed(1)} ms, upload ${med(timers.map((t) => t.upload)).toFixed(1)} ms`);
  console.log(`${total} samples, ${busy} busy (not idle / program)\n`);
  if (inView) {
    console.log(`recompute ${pct(outer.recompute, inView)} / upload ${pct(outer.upload, inView)} of the samples in recompute + upload (${pct(inView)} of all busy samples)\n`);
    console.log('| phase | share of recompute + upload |\n|---|---:|');
    for (const [k, v] of [...phase].sort((a, b) => b[1] - a[1])) console.log(`| ${k} | ${pct(v, inView)} |`);
    console.log('');
  }
  console.log('| function (self time) | share of busy samples |\n|---|---:|');
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`| ${k} | ${pct(v)} |`);
  const entry = [...incl.keys()].filter((k) => /recompute|upload|attention_f|absolute_attention_f|finish|softmax|logits|set_values|quantize|value_range|texSubImage|fill_relative|gather_relative|Scorer|matmul|add|mask_causal|sin_cos/i.test(k));
  console.log('\n| function (inclusive) | share of busy samples |\n|---|---:|');
  for (const k of entry.sort((a, b) => incl.get(b) - incl.get(a)).slice(0, top)) console.log(`| ${k} | ${pct(incl.get(k))} |`);
  if (under) {
    const re = new RegExp(under), within = new Map();
    let hits = 0;
    for (const id of profile.samples) {
      const names = [];
      for (let c = id; c !== undefined; c = parent.get(c)) names.push(name(byId.get(c)));
      if (!names.some((nm) => re.test(nm))) continue;
      hits += 1;
      // JS glue (invoke_* trampolines, table lookups) is named by the first wasm function under it.
      const js = names.findIndex((nm) => nm.includes('::') || nm.includes('('));
      const key = js > 0 ? `${names[0]} <- ${names[js]}` : names[0];
      within.set(key, (within.get(key) || 0) + 1);
    }
    console.log(`\n| self time under /${under}/ (${pct(hits)} of busy samples) | share of those samples |\n|---|---:|`);
    for (const [k, v] of [...within].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`| ${k.slice(0, 160)} | ${pct(v, hits)} |`);
  }
} finally {
  await browser.close();
  await server.close();
}
