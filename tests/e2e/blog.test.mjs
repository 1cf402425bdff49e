// End-to-end, a long blog post on another origin with 10 embeds (Chrome caps live WebGL contexts and
// stops animation frames in off-screen cross-origin iframes). With the embed code's page script on the
// page (the coordinator), at most its limit of embeds hold a WebGL context at any time; without it, each
// embed gives its context back when it leaves the viewport. Either way every embed draws when scrolled
// into view, none stays dead, and an embed that gave its context back returns in its exact state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useBrowser, openPage, openState } from './harness.mjs';
import { serveStatic } from '../../scripts/static-server.mjs';

const env = useBrowser();
const VIEWS = ['waves', 'frequencies', 'rope', 'buckets', 'similarity', 'scores', 'permutation', 'toy'];
// More embeds than the live bound (6) with room to spare, so some must give their context back on the way
// down and come back on the way up; each embed costs an app load or two, so no more than that.
const EMBEDS = 10;

function blogPage(site, script) {
  const figures = [];
  for (let i = 0; i < EMBEDS; ++i) {
    const view = VIEWS[i % VIEWS.length];
    figures.push(`<p>${'Paragraph of prose. '.repeat(40)}</p>
<iframe id="e${i}" src="${site}/?view=${view}&amp;embed=1" width="100%" height="420" loading="lazy" style="border:0"
        title="posenc: ${view}"></iframe>`);
  }
  return `<!doctype html><html><head><meta charset="utf-8"><title>blog</title><link rel="icon" href="data:,"></head>
<body style="max-width:720px;margin:0 auto">${figures.join('\n')}\n${script}</body></html>`;
}

// The page script of Share -> Copy embed code, as the app writes it.
async function embedScript() {
  const { page, context } = await openState(env, 'view=waves', { frames: 1 });
  const code = await page.evaluate(() => window.posenc.embedCode());
  await context.close();
  // The posenc site is localhost in this test (see run): the script comes from there, as its iframes.
  return code.slice(code.indexOf('<script')).replace('//127.0.0.1:', '//localhost:');
}

const frameOf = async (page, i) => (await page.$(`#e${i}`)).contentFrame();
// Evaluates in a frame, or gives `fallback` when its document does not answer within a second (a lazy
// iframe not loaded yet, or one reloading after giving its context back).
async function ask(frame, fn, fallback) {
  let timer;
  try {
    return await Promise.race([frame.evaluate(fn), new Promise((resolve) => { timer = setTimeout(() => resolve(fallback), 1000); })]);
  } catch { return fallback; } finally { clearTimeout(timer); }
}
const t0 = Date.now();
const log = (...a) => { if (process.env.POSENC_BLOG_LOG) console.log('#', ((Date.now() - t0) / 1000).toFixed(1), ...a); };

// Waits until embed i (its current document) has drawn; returns its frame.
async function drawn(page, i) {
  const deadline = Date.now() + 90000;
  for (;;) {
    const frame = await frameOf(page, i);
    if (await ask(frame, () => !!(window.posenc && window.posenc.frameCount() > 0), false)) return frame;
    if (Date.now() > deadline) {
      const info = await ask(frame, () => window.posenc && window.posenc.contextInfo(), null);
      throw new Error(`embed ${i} did not draw: ${JSON.stringify(info)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

// How many embeds hold a WebGL context now, each asked in its own document (one being reloaded holds none).
// A lazy iframe that has not loaded the embed yet is still on about:blank: no app, no context (its
// document does not answer an evaluate, which would cost the second of `ask`'s fallback on every count).
async function liveContexts(page) {
  const live = await Promise.all(Array.from({ length: EMBEDS }, async (_, i) => {
    const frame = await frameOf(page, i);
    if (!/^https?:/.test(frame.url())) return false;
    return ask(frame, () => !!(window.posenc && window.posenc.hasContext && window.posenc.hasContext()), false);
  }));
  return live.filter(Boolean).length;
}

async function run({ coordinated }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'posenc-blog-'));
  // Another origin: localhost (the site is on 127.0.0.1).
  const site = env.server.url.replace('127.0.0.1', 'localhost');
  fs.writeFileSync(path.join(dir, 'index.html'), blogPage(site, coordinated ? await embedScript() : ''));
  const blog = await serveStatic(dir, 0);
  const { page, context, errors } = await openPage(env.browser, `${blog.url}/index.html`, { width: 800, height: 600 });
  const warnings = [];
  page.on('console', (msg) => { if (/too many active webgl contexts|context lost/i.test(msg.text())) warnings.push(msg.text()); });
  let maxLive = 0, maxCoordinator = 0;
  const limit = coordinated ? await page.evaluate(() => window.posencEmbeds.limit) : 6;
  const check = async (where) => {
    const live = await liveContexts(page);
    maxLive = Math.max(maxLive, live);
    log(where, 'live', live, coordinated ? await page.evaluate(() => window.posencEmbeds.live()) : '');
    assert.ok(live <= limit, `${where}: ${live} live WebGL contexts (at most ${limit})`);
    if (coordinated) {
      const counted = await page.evaluate(() => window.posencEmbeds.live());
      maxCoordinator = Math.max(maxCoordinator, counted);
      assert.ok(counted <= limit, `${where}: the page counts ${counted} live embeds`);
    }
  };
  try {
    // The first embed gets a state of its own (from the page) before the reader scrolls on.
    await page.locator('#e0').scrollIntoViewIfNeeded();
    const f0 = await drawn(page, 0);
    const doc0 = await f0.evaluate(() => window.posenc.contextInfo().doc);
    assert.equal(await f0.evaluate(() => window.posenc.contextInfo().coordinated), coordinated);
    await page.evaluate(() => document.getElementById('e0').contentWindow.postMessage(
      { type: 'posenc:setState', state: { n: '48', d: '32' } }, '*'));
    await f0.waitForFunction(() => window.posenc.getState().n === '48', null, { timeout: 10000 });
    for (let i = 0; i < EMBEDS; ++i) {
      await page.locator(`#e${i}`).scrollIntoViewIfNeeded();
      await drawn(page, i);
      await check(`down, at embed ${i}`);
    }
    // Back up: every embed draws again (most gave their context back meanwhile).
    for (let i = EMBEDS - 1; i >= 0; --i) {
      await page.locator(`#e${i}`).scrollIntoViewIfNeeded();
      const f = await drawn(page, i);
      assert.equal((await f.evaluate(() => window.posenc.getState())).view, VIEWS[i % VIEWS.length], `embed ${i}`);
      await check(`up, at embed ${i}`);
    }
    // The first embed gave its context back and came back in its exact state.
    const back = await drawn(page, 0);
    assert.notEqual(await back.evaluate(() => window.posenc.contextInfo().doc), doc0, 'e0 was released and restored');
    const state = await back.evaluate(() => window.posenc.getState());
    assert.equal(state.n, '48');
    assert.equal(state.d, '32');
    assert.deepEqual(warnings, [], 'no context was taken away by the browser');
    assert.deepEqual(errors, []);
    console.log(`# ${coordinated ? 'coordinated' : 'uncoordinated'}: at most ${maxLive} live contexts` +
      (coordinated ? ` (page count ${maxCoordinator}, limit ${limit})` : ''));
  } finally {
    await context.close();
    await blog.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('blog with the embed page script: at most its limit of live contexts, every embed draws, none stays dead',
  { timeout: 900000 }, () => run({ coordinated: true }));

test('blog without the page script: each embed gives its context back out of view, every embed draws',
  { timeout: 900000 }, () => run({ coordinated: false }));
