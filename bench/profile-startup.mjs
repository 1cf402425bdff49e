// Where a cold page load's time goes before the first frame: a DevTools CPU profile (CDP Profiler, one
// sample every 100 us) of the page's main thread from navigation to window.posenc.ready, in a new browser
// context (an empty HTTP cache, no compiled wasm), with the page's own timeline (resource responses and
// the posenc:* performance marks). Prints, per load, the stages' start times (the first sample inside
// each stage's function) and inclusive times, then the functions by self time.
// Needs a site whose posenc.wasm keeps function names (bench/profile-site.sh writes build/web-prof):
//   node bench/profile-startup.mjs [loads] --site build/web-prof [--query '?view=scores&scheme=rope&n=512']
import { serveSite, launchBrowser } from '../tests/e2e/harness.mjs';

const args = process.argv.slice(2);
const option = (name) => { const i = args.indexOf(name); return i >= 0 ? args.splice(i, 2)[1] : undefined; };
const site = option('--site');
const query = option('--query') || '';
const top = Number(option('--top') || 30);
// --under REGEX: the inclusive time of every function in the samples whose stack has a function matching
// REGEX (default: the main loop's tick), e.g. 'SdlGlWindow' for what the GL context's creation spends.
const under = new RegExp(option('--under') || 'run_app\\(posenc::platform::AppOptions const&\\)::\\$_0');
// --buckets MS: the main thread's activity in buckets of MS ms (the outermost named frame of each sample).
const bucketMs = Number(option('--buckets') || 0);
const loads = Number(args[0] || 3);

// The stages of a start, each by the function that does it (a regular expression over the profile's
// function names; the innermost frame of a sample's stack that matches one names it).
const STAGES = [
  ['posenc.js evaluated', /^\(posenc\.js\)$/],
  ['page scripts', /^\((param-form|posenc-lang|posenc-page)\.js\)$/],
  ['wasm instantiated', /^instantiate$|receiveInstance/],
  ['GL context (SDL_CreateWindow / GL_CreateContext)', /SdlGlWindow::SdlGlWindow|emscripten_webgl_create_context|SDL_GL_CreateContext/],
  ['font atlas (load_fonts)', /posenc::app::load_fonts/],
  ['ImGui GL init', /ImGui_ImplOpenGL3_Init/],
  ['App constructed', /posenc::app::App::App\(/],
  ['state from the URL', /load_state_query/],
  ['device objects (shaders, font texture)', /ImGui_ImplOpenGL3_CreateDeviceObjects/],
  ['heatmap shaders compiled', /HeatmapProgram::HeatmapProgram/],
  ['view computed (recompute)', /::recompute\(/],
  ['view drawn (App::frame)', /posenc::app::App::frame\(/],
  ['UI rasterised (RenderDrawData)', /ImGui_ImplOpenGL3_RenderDrawData/],
  ['present + onFirstFrame', /WebRunner::present|onFirstFrame/],
  ['first tick, the rest', /run_app\(posenc::platform::AppOptions const&\)::\$_0/],
  ['main(), the rest', /^callMain$/],
];

const server = await serveSite(...(site ? [site] : []));
const browser = await launchBrowser();
try {
  for (let load = 0; load <= loads; ++load) {  // load 0: a warm-up of the browser's processes, not printed
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    // A page of the site's origin first, so the profiled navigation stays in this renderer process.
    await page.goto(`${server.url}/no-such-page`);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
    const started = Date.now();
    await page.goto(`${server.url}/${query}`);
    await page.waitForFunction(() => performance.getEntriesByName('posenc:ready').length > 0, null, { timeout: 60000 });
    const { profile } = await cdp.send('Profiler.stop');
    const timeline = await page.evaluate(() => {
      const out = [];
      const nav = performance.getEntriesByType('navigation')[0];
      out.push(['HTML received', nav.responseEnd]);
      for (const r of performance.getEntriesByType('resource')) {
        out.push([`${r.name.split('/').pop()} requested`, r.startTime], [`${r.name.split('/').pop()} received`, r.responseEnd]);
      }
      for (const m of performance.getEntriesByType('mark')) out.push([m.name, m.startTime]);
      for (const e of ['domInteractive', 'domContentLoadedEventEnd', 'loadEventEnd']) out.push([e, nav[e]]);
      return { out, origin: performance.timeOrigin };
    });
    await context.close();
    if (load === 0) continue;
    // Sample times on the page's clock: the profile's clock is microseconds of a monotonic clock whose
    // origin differs; align on posenc:ready = the last sample (the profile stops just after it).
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map();
    for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
    const name = (n) => n.callFrame.functionName || `(${n.callFrame.url.split('/').pop() || 'program'})`;
    let t = profile.startTime;
    const times = profile.timeDeltas.map((d) => (t += d));
    const ready = timeline.out.find(([k]) => k === 'posenc:ready')[1];
    const mainMark = timeline.out.find(([k]) => k === 'posenc:main');
    const self = new Map(), tick = new Map(), buckets = new Map();
    const stageFirst = new Map(), stageLast = new Map(), stageSamples = new Map();
    // Align: the first sample inside run_app is at posenc:main (within a sample).
    let offset = NaN;
    const stacks = profile.samples.map((id) => {
      const names = [];
      for (let n = byId.get(id); n; n = byId.get(parent.get(n.id))) names.push(name(n));
      return names;
    });
    for (let i = 0; i < stacks.length; ++i) {
      if (stacks[i].some((s) => /^callMain$/.test(s))) { offset = mainMark[1] - times[i] / 1000; break; }
    }
    for (let i = 0; i < stacks.length; ++i) {
      if (times[i] / 1000 + offset > ready) break;  // what follows the first frame is not its cost
      const dt = (profile.timeDeltas[i + 1] ?? 100) / 1000;
      const s = stacks[i];
      self.set(s[0], (self.get(s[0]) || 0) + dt);
      // Inclusive time of each function inside the first frame (the main loop's tick).
      if (bucketMs) {
        const b = Math.floor((times[i] / 1000 + offset) / bucketMs);
        const what = s.length <= 2 ? s[0] : s[s.length - 3];
        const m = buckets.get(b) || new Map();
        m.set(what, (m.get(what) || 0) + dt);
        buckets.set(b, m);
      }
      if (s.some((f) => under.test(f))) {
        for (const f of new Set(s)) tick.set(f, (tick.get(f) || 0) + dt);
      }
      // The innermost frame that belongs to a stage names it.
      let stage;
      for (const f of s) if ((stage = STAGES.find(([, re]) => re.test(f)))) break;
      if (!stage) continue;
      if (!stageFirst.has(stage[0])) stageFirst.set(stage[0], times[i] / 1000 + offset);
      stageLast.set(stage[0], times[i] / 1000 + offset + dt);
      stageSamples.set(stage[0], (stageSamples.get(stage[0]) || 0) + dt);
    }
    console.log(`\n=== load ${load} (${query || 'default'}): ready at ${ready.toFixed(0)} ms, profiled ${Date.now() - started} ms wall`);
    const rows = [...timeline.out.filter(([, v]) => v > 0).map(([k, v]) => [v, k, '']),
      ...[...stageFirst].map(([k, v]) => [v, `stage: ${k}`, `${stageSamples.get(k).toFixed(1)} ms inclusive, until ${stageLast.get(k).toFixed(1)}`])];
    rows.sort((a, b) => a[0] - b[0]);
    for (const [v, k, extra] of rows) console.log(`${v.toFixed(1).padStart(8)} ms  ${k}  ${extra}`);
    const inTick = [...tick].sort((a, b) => b[1] - a[1]).slice(0, top);
    for (const [b, m] of [...buckets].sort((x, y) => x[0] - y[0])) {
      const parts = [...m].sort((x, y) => y[1] - x[1]).slice(0, 3).map(([k, v]) => `${k.slice(0, 40)} ${v.toFixed(0)}`);
      console.log(`  ${String(b * bucketMs).padStart(5)}-${String((b + 1) * bucketMs).padEnd(5)} ${parts.join(' | ')}`);
    }
    console.log(`under ${under.source}, inclusive (ms): ` + inTick.map(([k, v]) => `${k.slice(0, 70)} ${v.toFixed(1)}`).join(' | '));
    const sorted = [...self].sort((a, b) => b[1] - a[1]).slice(0, top);
    console.log('self time (ms): ' + sorted.map(([k, v]) => `${k.slice(0, 70)} ${v.toFixed(1)}`).join(' | '));
  }
} finally {
  await browser.close();
  await server.close();
}
