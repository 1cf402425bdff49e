// End-to-end, embeds nobody else can drive or break (docs/embedding.md): an embed takes posenc:setState
// (and every other message) only from the page that embeds it, never from a sibling frame or an opener;
// embed.js reads messages only from posenc's own iframes (a foreign frame claims no live slot), survives a
// malformed state and one too long for an address with a notice in the figure, and keeps its iframes
// within its maximum height; the app starts in an iframe 100000 px high.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useBrowser, openPage, artifactsDir, settledScroll, settledFrames } from './harness.mjs';
import { serveStatic } from '../../scripts/static-server.mjs';

const env = useBrowser();
// embed.js's documented bounds (docs/embedding.md, "Limits").
const MAX_HEIGHT = 8192, MAX_STATE = 8192;

// A post on another origin (localhost; the site is on 127.0.0.1) holding `body`, with `files` beside it.
async function post(body, { files = {}, width = 1000, height = 800 } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'posenc-guard-'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><head><meta charset="utf-8"><title>post</title>' +
    `<link rel="icon" href="data:,"></head><body style="margin:0;font:18px/1.6 Georgia,serif">${body}</body></html>`);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  const blog = await serveStatic(dir, 0);
  const url = blog.url.replace('127.0.0.1', 'localhost');
  const opened = await openPage(env.browser, `${url}/index.html`, { width, height });
  const close = async () => { await opened.context.close(); await blog.close(); fs.rmSync(dir, { recursive: true, force: true }); };
  return { ...opened, url, close };
}
const site = () => env.server.url;

async function frameOf(page, selector) {
  const frame = await (await page.$(selector)).contentFrame();
  await frame.waitForFunction(() => window.posenc && window.posenc.frameCount() > 0, null, { timeout: 60000, polling: 100 });
  await settledFrames(frame);
  return frame;
}
// Marks the next message `frame`'s window receives: posenc's listener was added at load, before this one,
// so once it has seen the message posenc has handled it (and queued the setState it may have started).
const watchMessages = (frame) => frame.evaluate(() => {
  window.seenMessages = 0;
  window.addEventListener('message', () => { window.seenMessages++; });
});

test('guard: a sibling frame\'s posenc:setState is ignored, the parent\'s works', async () => {
  const p = await post(`<iframe id="app" src="${site()}/?view=waves&amp;n=64&amp;d=64&amp;embed=1" width="900" height="500" style="border:0"></iframe>
<iframe id="sibling" srcdoc="<p>another widget</p>" width="200" height="100"></iframe>`);
  try {
    const app = await frameOf(p.page, '#app');
    await watchMessages(app);
    const sibling = await (await p.page.$('#sibling')).contentFrame();
    await sibling.evaluate(() => window.parent.document.getElementById('app').contentWindow.postMessage(
      { type: 'posenc:setState', state: { n: '16' } }, '*'));
    await app.waitForFunction(() => window.seenMessages >= 1);
    await app.evaluate(() => window.posenc.ready);
    assert.equal((await app.evaluate(() => window.posenc.getState())).n, '64', 'the sibling did not set n');
    // The parent's, after it: taken (messages arrive in order, so the sibling's was seen first).
    await p.page.evaluate(() => document.getElementById('app').contentWindow.postMessage(
      { type: 'posenc:setState', state: { d: '8' } }, '*'));
    await app.waitForFunction(() => window.posenc.getState().d === '8', null, { timeout: 10000 });
    assert.equal((await app.evaluate(() => window.posenc.getState())).n, '64');
    assert.deepEqual(p.errors, []);
  } finally { await p.close(); }
});

test('guard: an opener\'s posenc:setState is ignored by the app it opened', async () => {
  const p = await post('<p>a page that opens posenc</p>');
  try {
    const [popup] = await Promise.all([
      p.context.waitForEvent('page'),
      p.page.evaluate((u) => { window.opened = window.open(u); }, `${site()}/?view=waves&n=64`),
    ]);
    await popup.waitForFunction(() => window.posenc && window.posenc.frameCount() > 0, null, { timeout: 60000 });
    await watchMessages(popup);
    await p.page.evaluate(() => window.opened.postMessage({ type: 'posenc:setState', state: { n: '16' } }, '*'));
    await popup.waitForFunction(() => window.seenMessages >= 1);
    await popup.evaluate(() => window.posenc.ready);
    assert.equal((await popup.evaluate(() => window.posenc.getState())).n, '64', 'the opener did not set n');
    // Nor does the page's own window (a top-level page has no parent to obey).
    await popup.evaluate(() => window.postMessage({ type: 'posenc:setState', state: { n: '16' } }, '*'));
    await popup.waitForFunction(() => window.seenMessages >= 2);
    await popup.evaluate(() => window.posenc.ready);
    assert.equal((await popup.evaluate(() => window.posenc.getState())).n, '64', 'its own window did not set n');
    await popup.close();
    assert.deepEqual(p.errors, []);
  } finally { await p.close(); }
});

test('guard: a malformed state and a 1 MB state are notices in the figure; the figures still start', async () => {
  const big = 'view=toy&sentence=' + 'x'.repeat(1 << 20);
  const p = await post(`<posenc-figure id="bad" state="%%%&amp;n=32"></posenc-figure>
<posenc-figure id="big" state="${big}"></posenc-figure>
<script src="${site()}/embed.js" async></script>`);
  try {
    await p.page.waitForFunction(() => document.querySelectorAll('posenc-figure > iframe').length === 2, null, { timeout: 20000 });
    const notices = await p.page.evaluate(() => [...document.querySelectorAll('posenc-figure')].map((f) => {
      const n = f.querySelector(':scope > .posenc-notice');
      return { id: f.id, notice: n ? n.textContent : null, role: n && n.getAttribute('role'), src: f.querySelector('iframe').src };
    }));
    const bad = notices.find((n) => n.id === 'bad'), long = notices.find((n) => n.id === 'big');
    assert.match(bad.notice, /"%%%" is not a URL query/);
    assert.equal(bad.role, 'status');
    assert.match(bad.src, /\?n=32&embed=1&theme=auto$/, 'the well-formed part of the state is kept');
    assert.match(long.notice, /the state is 1048594 characters, more than the 8192 an address may carry/);
    assert.ok(long.src.length < MAX_STATE + 200, `the iframe's address stays short: ${long.src.length}`);
    for (const id of ['bad', 'big']) {
      await p.page.evaluate((i) => document.getElementById(i).scrollIntoView({ block: 'center' }), id);
      await settledScroll(p.page);
      const frame = await frameOf(p.page, `#${id} > iframe`);
      const state = await frame.evaluate(() => window.posenc.getState());
      assert.equal(state.view, id === 'bad' ? 'waves' : 'toy', `${id} starts`);
      if (id === 'bad') assert.equal(state.n, '32');
    }
    fs.mkdirSync(artifactsDir, { recursive: true });
    await p.page.screenshot({ path: path.join(artifactsDir, 'embed-guard-notices.png') });
    assert.deepEqual(p.errors, []);
  } finally { await p.close(); }
});

test('guard: height 100000 is clamped by embed.js, and the app starts in a 100000 px iframe', async () => {
  const p = await post(`<posenc-figure id="tall" state="view=rope" height="100000"></posenc-figure>
<iframe id="bare" src="${site()}/?view=waves&amp;n=64&amp;embed=1" width="800" height="100000" style="border:0"></iframe>
<script src="${site()}/embed.js" async></script>`);
  try {
    await p.page.waitForFunction(() => document.querySelector('#tall > iframe'), null, { timeout: 20000 });
    const tall = await p.page.evaluate(() => document.querySelector('#tall > iframe').getBoundingClientRect().height);
    assert.equal(tall, MAX_HEIGHT, 'embed.js keeps its iframe within its maximum height');
    const figure = await frameOf(p.page, '#tall > iframe');
    assert.equal((await figure.evaluate(() => window.posenc.getState())).view, 'rope', 'the clamped figure starts');
    await p.page.evaluate(() => document.getElementById('bare').scrollIntoView({ block: 'start' }));
    await settledScroll(p.page);
    const bare = await frameOf(p.page, '#bare');
    const drawn = await bare.evaluate(() => {
      const c = document.getElementById('canvas'), gl = c.getContext('webgl2'), r = c.getBoundingClientRect();
      return { css: r.height, buffer: gl.drawingBufferHeight, width: gl.drawingBufferWidth, cssWidth: r.width, ratio: devicePixelRatio,
        status: document.getElementById('status').textContent, heatmap: window.posenc.itemRect('heatmap.pe') };
    });
    assert.doesNotMatch(drawn.status, /failed/);
    assert.ok(drawn.css < 100000 && drawn.css >= 4096, `the canvas is as tall as WebGL draws: ${JSON.stringify(drawn)}`);
    assert.equal(drawn.buffer, Math.round(drawn.css * drawn.ratio), 'its drawing buffer is the whole canvas (no stretched picture)');
    assert.equal(drawn.width, Math.round(drawn.cssWidth * drawn.ratio));
    assert.ok(drawn.heatmap && drawn.heatmap.y + drawn.heatmap.height <= drawn.css, 'the view is drawn within the canvas');
    assert.deepEqual(p.errors, []);
  } finally { await p.close(); }
});

test('guard: a foreign frame posting posenc:context claims no live slot; posenc\'s embeds still go live', async () => {
  const foreign = Array.from({ length: 6 }, (_, i) => `<iframe class="foreign" srcdoc="<p>ad ${i}</p>" width="100" height="40"></iframe>`).join('');
  const p = await post(`${foreign}<posenc-figure id="fig" state="view=buckets"></posenc-figure>
<script src="${site()}/embed.js" async></script>`);
  try {
    await p.page.waitForFunction(() => window.posencEmbeds && window.posencEmbeds.limit === 6, null, { timeout: 20000 });
    // Each foreign frame claims a live context, and records what it is sent back.
    for (const handle of await p.page.$$('iframe.foreign')) {
      const f = await handle.contentFrame();
      await f.evaluate(() => {
        window.got = [];
        window.addEventListener('message', (e) => window.got.push(e.data && e.data.type));
        window.parent.postMessage({ type: 'posenc:context', doc: 'foreign', live: true, visible: true, want: false }, '*');
        window.parent.postMessage({ type: 'posenc:height', height: 5000 }, '*');
      });
    }
    const frame = await frameOf(p.page, '#fig > iframe');
    await frame.waitForFunction(() => window.posenc.contextInfo().coordinated && window.posenc.contextInfo().live, null, { timeout: 20000 });
    assert.equal(await p.page.evaluate(() => window.posencEmbeds.live()), 1, 'only the figure holds a live slot');
    for (const handle of await p.page.$$('iframe.foreign')) {
      const f = await handle.contentFrame();
      assert.deepEqual(await f.evaluate(() => window.got), [], 'a foreign frame is sent nothing');
      assert.equal(await handle.evaluate((e) => e.style.height), '', 'nor sized');
    }
    assert.deepEqual(p.errors, []);
  } finally { await p.close(); }
});
