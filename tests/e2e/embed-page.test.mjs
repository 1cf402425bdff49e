// End-to-end, embeds in a blog post on another origin (docs/embedding.md): an embed fits the height its
// iframe has (no inner scroll), the wheel over a bare iframe (no page script) scrolls the post, Ctrl +
// wheel over a map zooms it (and a first plain wheel over a map says so); the embed code's embed.js sizes
// the embeds that ask (data-posenc-fit), keeps the height of an unmarked iframe and of one marked
// data-posenc-height="fixed", and a 400x300 embed keeps its height as it starts (the text below never
// jumps); scripts/site writes a
// folder that serves the app from a sub-path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { useBrowser, openPage, artifactsDir, settledScroll, settledFrames, scrolledFrom } from './harness.mjs';
import { serveStatic } from '../../scripts/static-server.mjs';

const env = useBrowser();
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const prose = (n) => `<p>${'Prose about positional encodings, long enough to wrap over several lines. '.repeat(n)}</p>`;

// A post in a 720 px column on another origin (localhost; the site is on 127.0.0.1), with `body`.
async function post(body, { width = 1280, height = 800, theme = 'light' } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'posenc-post-'));
  const bg = theme === 'dark' ? '#16181d;color:#ddd' : '#fbfaf7;color:#222';
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><head><meta charset="utf-8"><title>post</title>' +
    `<link rel="icon" href="data:,"></head><body style="margin:0;background:${bg};font:18px/1.6 Georgia,serif">` +
    `<main style="width:720px;margin:0 auto">${body}</main></body></html>`);
  const blog = await serveStatic(dir, 0);
  const opened = await openPage(env.browser, `${blog.url.replace('127.0.0.1', 'localhost')}/index.html`, { width, height });
  const close = async () => { await opened.context.close(); await blog.close(); fs.rmSync(dir, { recursive: true, force: true }); };
  return { ...opened, close };
}
const site = () => env.server.url;  // the site's origin, 127.0.0.1 (the post is on localhost)

async function live(page, id) {
  const frame = await (await page.$(`#${id}`)).contentFrame();
  await frame.waitForFunction(() => window.posenc && window.posenc.frameCount() > 0, null, { timeout: 60000, polling: 100 });
  // Settled: the app sleeps once the picture stops changing.
  await settledFrames(frame);
  return frame;
}
function shot(page, name) {
  fs.mkdirSync(artifactsDir, { recursive: true });
  return page.screenshot({ path: path.join(artifactsDir, name) });
}

const BARE = [['waves', 'view=waves&embed=1', 'plot.pe'], ['scores', 'view=scores&embed=1', 'plot.total'],
  ['frequencies', 'view=frequencies&embed=1', 'plot.wavelength']];

for (const theme of ['light', 'dark']) {
  test(`embed (${theme}): three bare 420 px iframes in a 720 px column fit their frames; the wheel over each scrolls the post`, async () => {
    const frames = BARE.map(([id, q]) => `${prose(3)}<iframe id="${id}" src="${site()}/?${q}&amp;theme=${theme}" width="100%" height="420" style="border:0" title="posenc: ${id}"></iframe>`);
    const p = await post(frames.join('\n') + prose(12), { theme });
    try {
      for (const [id, , figure] of BARE) {
        await p.page.evaluate((i) => document.getElementById(i).scrollIntoView({ block: 'center' }), id);
        await settledScroll(p.page);
        const frame = await live(p.page, id);
        // Fits: every probe lies inside the frame; no window of the app can scroll.
        const fit = await frame.evaluate(() => window.posenc.probes().map((n) => [n, window.posenc.itemRect(n)]));
        for (const [name, r] of fit) if (r && r.height > 0) assert.ok(r.y >= -0.5 && r.y + r.height <= 420.5, `${id}: ${name} inside the 420 px frame: ${JSON.stringify(r)}`);
        assert.ok(await frame.evaluate((f) => !!window.posenc.itemRect(f), figure), `${id} shows ${figure}`);
        assert.equal(await frame.evaluate(() => document.scrollingElement.scrollHeight <= innerHeight), true, `${id}: its document does not scroll`);
        if (theme === 'light' && id === 'scores') await shot(p.page, `embed-bare-420-${theme}.png`);
        // The wheel over the middle of the embed (for scores and waves: on the map) scrolls the post.
        const box = await (await p.page.$(`#${id}`)).boundingBox();
        const r = await frame.evaluate((f) => window.posenc.itemRect(f), figure);
        const x = box.x + r.x + r.width / 2, y = box.y + r.y + r.height / 2;
        const y0 = await settledScroll(p.page);
        await p.page.mouse.move(x, y);
        await p.page.mouse.wheel(0, 120);
        const y1 = await scrolledFrom(p.page, y0);
        assert.ok(y1 > y0, `${id}: the wheel over the embed scrolled the post: ${y0} -> ${y1}`);
        if (id !== 'frequencies') {
          assert.deepEqual(await frame.evaluate((f) => window.posenc.zoom(f), figure), { x: 0, y: 0, width: 1, height: 1 }, `${id}: a plain wheel does not zoom`);
          await frame.waitForFunction(() => /scroll to zoom/.test(document.getElementById('toast').textContent), null, { timeout: 5000 });
        }
      }
      assert.deepEqual(p.errors, []);
    } finally { await p.close(); }
  });
}

test('embed: Ctrl + wheel over a map zooms it and does not scroll the post; the full app zooms on a plain wheel', async () => {
  const p = await post(`${prose(3)}<iframe id="scores" src="${site()}/?view=scores&amp;embed=1" width="100%" height="420" style="border:0"></iframe>${prose(12)}`);
  try {
    await p.page.evaluate(() => document.getElementById('scores').scrollIntoView({ block: 'center' }));
    await settledScroll(p.page);
    const frame = await live(p.page, 'scores');
    const box = await (await p.page.$('#scores')).boundingBox();
    const r = await frame.evaluate(() => window.posenc.itemRect('plot.total'));
    await p.page.mouse.move(box.x + r.x + r.width / 2, box.y + r.y + r.height / 2);
    await new Promise((res) => setTimeout(res, 300));
    const y0 = await settledScroll(p.page);
    await p.page.keyboard.down('Control');
    await p.page.mouse.wheel(0, -240);
    await p.page.keyboard.up('Control');
    await frame.waitForFunction(() => { window.posenc.wake(); return window.posenc.zoom('plot.total').width < 1; }, null, { timeout: 10000 });
    assert.equal(await settledScroll(p.page), y0, 'Ctrl + wheel on the map does not scroll the post');
    assert.deepEqual(p.errors, []);
  } finally { await p.close(); }
  // The full app: a plain wheel over a map zooms it.
  const { page, context } = await openPage(env.browser, `${env.server.url}/?view=scores`);
  try {
    await page.waitForFunction(() => window.posenc && window.posenc.frameCount() > 2, null, { timeout: 30000 });
    const t = await page.evaluate(() => window.posenc.itemRect('plot.total'));
    await page.mouse.move(t.x + t.width / 2, t.y + t.height / 2);
    await new Promise((res) => setTimeout(res, 300));
    await page.mouse.wheel(0, -240);
    await page.waitForFunction(() => { window.posenc.wake(); return window.posenc.zoom('plot.total').width < 1; }, null, { timeout: 10000 });
  } finally { await context.close(); }
});

test('embed.js: sizes an embed that asks, keeps an unmarked one and a fixed one, a 400x300 embed starts without moving the text below', async () => {
  const body = `${prose(2)}<iframe id="auto" data-posenc-fit src="${site()}/?view=buckets&amp;embed=1" width="100%" height="420" style="border:0"></iframe>
<p id="after-auto">after auto</p>
<iframe id="unmarked" src="${site()}/?view=waves&amp;embed=1" width="100%" height="420" style="border:0"></iframe>
<p id="after-unmarked">after unmarked</p>
<iframe id="fixed" data-posenc-fit data-posenc-height="fixed" src="${site()}/?view=rope&amp;embed=1&amp;theme=dark" width="100%" height="420" style="border:0"></iframe>
<p id="after-fixed">after fixed</p>
<iframe id="small" src="${site()}/?view=scores&amp;embed=1" width="400" height="300" style="border:0"></iframe>
<p id="after-small">after small</p>${prose(10)}
<script src="${site()}/embed.js" async></script>`;
  const p = await post(body);
  try {
    await p.page.waitForFunction(() => window.posencEmbeds && window.posencEmbeds.limit === 6, null, { timeout: 10000 });
    for (const id of ['auto', 'unmarked', 'fixed', 'small']) {
      const before = await p.page.evaluate((i) => document.getElementById('after-' + i).getBoundingClientRect().top + scrollY, id);
      await p.page.evaluate((i) => document.getElementById(i).scrollIntoView({ block: 'center' }), id);
      const frame = await live(p.page, id);
      await frame.waitForFunction(() => window.posenc.contextInfo().coordinated, null, { timeout: 10000 });
      await new Promise((res) => setTimeout(res, 500));
      const height = await p.page.evaluate((i) => document.getElementById(i).getBoundingClientRect().height, id);
      const after = await p.page.evaluate((i) => document.getElementById('after-' + i).getBoundingClientRect().top + scrollY, id);
      if (id === 'auto') {
        // The height the embed asks for: the documented rule at 720 px (8 + 23 + 17 + 540 + 8).
        assert.equal(height, 596, 'embed.js gives the embed the height it asks for');
      } else {
        assert.equal(height, id === 'small' ? 300 : 420, `${id}: keeps its height`);
        assert.equal(after, before, `${id}: the text below did not move as the embed started`);
      }
      if (id === 'small') {
        await shot(p.page, 'embed-400x300-in-post.png');
        const fig = await frame.evaluate(() => window.posenc.itemRect('plot.total'));
        assert.ok(fig && fig.y + fig.height <= 300.5, `the small embed's figure fits its 300 px: ${JSON.stringify(fig)}`);
      }
    }
    assert.deepEqual(p.errors, []);
  } finally { await p.close(); }
});

test('scripts/site OUT: the deployable folder, served from a sub-path, loads a view and its embed code points there', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'posenc-site-'));
  const out = path.join(root, 'posenc');
  const r = spawnSync(path.join(repo, 'scripts', 'site'), [out], { encoding: 'utf8', timeout: 600000 });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(fs.readdirSync(out).sort(),
    ['embed-example.html', 'embed.js', 'favicon.svg', 'index.html', 'param-form.js', 'posenc-cjk.ttf', 'posenc-lang.js',
      'posenc-page.js', 'posenc-zh.json', 'posenc.js', 'posenc.wasm']);
  const server = await serveStatic(root, 0);
  const { page, context, errors } = await openPage(env.browser, `${server.url}/posenc/?view=rope&pos=100`);
  try {
    await page.waitForFunction(() => window.posenc && window.posenc.frameCount() > 0, null, { timeout: 60000 });
    assert.equal(await page.evaluate(() => fetch('posenc.wasm').then((res) => res.headers.get('content-type'))), 'application/wasm');
    assert.equal((await page.evaluate(() => window.posenc.getState())).pos, '100');
    const code = await page.evaluate(() => window.posenc.embedCode());
    assert.ok(code.includes(`src="${server.url}/posenc/?view=rope`), code);
    assert.ok(code.endsWith(`<script src="${server.url}/posenc/embed.js" async></script>`), code);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    await server.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
});
