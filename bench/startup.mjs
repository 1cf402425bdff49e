// Start-up time and page weight: navigation -> window.posenc.ready (the first frame drawn), in
// headless Chromium (Debian's, SwiftShader WebGL2) on localhost, cold cache (a new browser context per run:
// an empty HTTP cache and no compiled-wasm cache), median of `runs`. Besides the total it reports where the
// time went, from the page's own timeline:
//   html      - navigation start -> the HTML document received (responseEnd)
//   wasm      - posenc.wasm received (responseEnd of its request; compiled while streaming)
//   main      - the C++ main() entered (performance mark 'posenc:main': runtime and wasm instantiated)
//   ready     - the first frame drawn (performance mark 'posenc:ready', set by the page when posenc.ready resolves)
// Page weight: every response of a page load (what the browser fetched), as served and gzip -9 of each.
// Usage: node bench/startup.mjs [runs] [--site DIR] [--only SUBSTRING] [--vs DIR]   (needs build/web: cmake --build --preset web)
//   --vs DIR: a second site (another build's build/web) measured in the same minutes, its loads alternating
//   with the first's (A B A B ...), so a machine whose speed drifts moves both alike: a table for each.
import zlib from 'node:zlib';
import { serveSite, launchBrowser } from '../tests/e2e/harness.mjs';

const args = process.argv.slice(2);
const option = (name) => { const i = args.indexOf(name); return i >= 0 ? args.splice(i, 2)[1] : undefined; };
const site = option('--site');
const only = option('--only');
const vs = option('--vs');
const runs = Number(args[0] || 5);
const CASES = [
  { name: 'waves (default view)', query: '' },
  { name: 'scores, rope, n = 512', query: '?view=scores&scheme=rope&n=512' },
  { name: 'model, llama-3.1-8b', query: '?view=model&model=llama-3.1-8b' },
  // The Chinese interface: its catalogue and CJK face are fetched beside posenc.wasm, and the first frame
  // waits for them (web/posenc-lang.js): the page weight below lists what it fetches beyond the default load.
  { name: 'waves, lang=zh', query: '?lang=zh' },
];

const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]; };

// One cold load. With `keepBodies` the responses' bodies are kept (for the page weight): fetching them
// through the DevTools protocol (posenc.wasm: 2.5 MB of base64) costs the browser CPU while the page loads,
// so the timed loads do not ask for them and the weight comes from a load of its own, not counted.
async function loadOnce(browser, url, keepBodies = false) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const bodies = [];
  if (keepBodies) {
    page.on('response', async (r) => {
      try { bodies.push({ url: r.url(), body: await r.body() }); } catch { /* redirects, aborted */ }
    });
  }
  await page.goto(url);
  await page.waitForFunction(() => performance.getEntriesByName('posenc:ready').length > 0, null, { timeout: 60000 });
  const t = await page.evaluate(() => {
    const mark = (n) => { const e = performance.getEntriesByName(n)[0]; return e ? e.startTime : NaN; };
    const res = (suffix) => {
      const e = performance.getEntriesByType('resource').find((r) => r.name.split('?')[0].endsWith(suffix));
      return e ? e.responseEnd : NaN;
    };
    const nav = performance.getEntriesByType('navigation')[0];
    return { html: nav.responseEnd, wasm: res('/posenc.wasm'), main: mark('posenc:main'), ready: mark('posenc:ready') };
  });
  await context.close();
  return { t, bodies };
}

const sites = [site || null, ...(vs ? [vs] : [])];
const servers = await Promise.all(sites.map((s) => serveSite(...(s ? [s] : []))));
const browser = await launchBrowser();
const rows = sites.map(() => []);  // per site
const weights = new Map();  // case name -> the files of its first load (the first site's)
try {
  // One warm-up load per site (starts the browser's processes) that is not counted.
  for (const server of servers) await loadOnce(browser, `${server.url}/`);
  for (const c of CASES.filter((c) => !only || c.name.includes(only))) {
    const samples = sites.map(() => []);
    {
      const { bodies } = await loadOnce(browser, `${servers[0].url}/${c.query}`, true);
      const files = new Map();
      for (const b of bodies) files.set(new URL(b.url).pathname, b.body);
      weights.set(c.name, [...files].map(([path, body]) => ({ path, bytes: body.length, gzip: zlib.gzipSync(body, { level: 9 }).length })));
    }
    for (let i = 0; i < runs; ++i) {
      for (let k = 0; k < servers.length; ++k) samples[k].push((await loadOnce(browser, `${servers[k].url}/${c.query}`)).t);
    }
    for (let k = 0; k < servers.length; ++k) {
      const row = { case: c.name, runs, ...(vs ? { site: sites[k] || 'build/web' } : {}) };
      for (const key of ['html', 'wasm', 'main', 'ready']) row[key] = median(samples[k].map((s) => s[key]));
      row.all_ready = samples[k].map((s) => Math.round(s.ready));
      rows[k].push(row);
      console.log(JSON.stringify(row));
    }
  }
} finally {
  await browser.close();
  for (const server of servers) await server.close();
}
const f = (x) => (Number.isFinite(x) ? x.toFixed(0) : '-');
for (let k = 0; k < sites.length; ++k) {
  if (vs) console.log(`\n${sites[k] || 'build/web'}${k ? ' (--vs, loads alternating with the first)' : ''}:`);
  console.log('\n| state | HTML received (ms) | posenc.wasm received (ms) | main() entered (ms) | first frame: posenc.ready (ms) | each run (ms) |');
  console.log('|---|---:|---:|---:|---:|---|');
  for (const r of rows[k]) console.log(`| ${r.case} | ${f(r.html)} | ${f(r.wasm)} | ${f(r.main)} | **${f(r.ready)}** | ${r.all_ready.join(', ')} |`);
}
const sum = (files) => files.reduce((a, w) => ({ bytes: a.bytes + w.bytes, gzip: a.gzip + w.gzip }), { bytes: 0, gzip: 0 });
const weight = weights.get(CASES[0].name) || [...weights.values()][0];
if (weight) {
  const total = sum(weight);
  console.log('\n| file (one page load) | bytes | gzip -9 |');
  console.log('|---|---:|---:|');
  for (const w of weight) console.log(`| ${w.path} | ${w.bytes} | ${w.gzip} |`);
  console.log(`| **total** | ${total.bytes} | **${total.gzip}** (${(total.gzip / 1e6).toFixed(3)} MB) |`);
}
// The other states: the files they fetch beyond the default load (the default's own files by path).
const base = new Set((weight || []).map((w) => w.path));
for (const [name, files] of weights) {
  if (files === weight) continue;
  const extra = files.filter((w) => !base.has(w.path));
  if (!extra.length) continue;
  const more = sum(extra), all = sum(files);
  console.log(`\n| ${name}: files beyond the default load | bytes | gzip -9 |`);
  console.log('|---|---:|---:|');
  for (const w of extra) console.log(`| ${w.path} | ${w.bytes} | ${w.gzip} |`);
  console.log(`| **extra** | ${more.bytes} | **${more.gzip}** |`);
  console.log(`| **the whole load** | ${all.bytes} | **${all.gzip}** |`);
}
