// Idle CPU of a page with 5 embeds: CPU seconds used by the whole Chromium process tree (browser, GPU,
// renderers) over 10 s once every embed has drawn and nothing changes. Usage:
//   node tests/e2e/idle-cpu.mjs [site dir, default build/web]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser, siteDir } from './harness.mjs';
import { serveStatic } from '../../scripts/static-server.mjs';

const root = path.resolve(process.argv[2] || siteDir);
const site = await serveStatic(root, 0);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'posenc-idle-'));
const views = ['waves', 'frequencies', 'buckets', 'similarity', 'toy'];
fs.writeFileSync(path.join(dir, 'index.html'), `<!doctype html><meta charset="utf-8"><body style="margin:0">` +
  views.map((v, i) => `<iframe id="e${i}" src="${site.url.replace('127.0.0.1', 'localhost')}/?view=${v}&amp;embed=1" width="600" height="300" style="border:0"></iframe>`).join(''));
const blog = await serveStatic(dir, 0);
const browser = await launchBrowser();
const page = await (await browser.newContext({ viewport: { width: 1280, height: 1000 } })).newPage();
await page.goto(`${blog.url}/index.html`);
for (let i = 0; i < views.length; ++i) {
  const f = await (await page.$(`#e${i}`)).contentFrame();
  await f.waitForFunction(() => window.posenc && window.posenc.frameCount() > 0, null, { timeout: 120000 });
}
await page.mouse.move(1290, 1010);
await new Promise((r) => setTimeout(r, 4000));
const hz = 100;  // USER_HZ
// Only this run's Chromium: the processes descending from this node process (other Chromiums on a shared
// machine are not counted).
function descendants() {
  const parent = new Map();
  for (const p of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      parent.set(p, stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch { /* gone */ }
  }
  const mine = new Set([String(process.pid)]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [p, pp] of parent) if (!mine.has(p) && mine.has(pp)) { mine.add(p); grew = true; }
  }
  return [...mine].filter((p) => p !== String(process.pid));
}
function cpu() {
  let ticks = 0;
  for (const p of descendants()) {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (!/chrom/i.test(comm)) continue;
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]);  // utime + stime
    } catch { /* gone */ }
  }
  return ticks / hz;
}
const frames = async () => Promise.all(views.map(async (_, i) => (await (await page.$(`#e${i}`)).contentFrame()).evaluate(() => window.posenc.frameCount())));
const c0 = cpu(), f0 = await frames();
await new Promise((r) => setTimeout(r, 10000));
const c1 = cpu(), f1 = await frames();
console.log(JSON.stringify({ site: root, cpu_seconds_in_10s: +(c1 - c0).toFixed(2), cpu_percent: +((c1 - c0) * 10).toFixed(1),
  frames_in_10s: f1.map((f, i) => f - f0[i]) }));
await browser.close(); await site.close(); await blog.close();
fs.rmSync(dir, { recursive: true, force: true });
