// End-to-end smoke set (scripts/test --quick runs this file alone; the full suite runs it too): every view
// loads from its URL once and draws its main figure with no error or notice, the page's JS API answers
// (views, getState/setState, notices, exportData, describe, linkUrl, embedCode), and an embed on another
// page loads through the embed code's script and reports its height.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serveStatic } from '../../scripts/static-server.mjs';
import { useBrowser, openPage, waitReady, waitFrames, sharedPage, exportJson, itemRect } from './harness.mjs';

const env = useBrowser();

// The main figure of every view (docs/views.md, "Figures and probe names"; as layout.test.mjs).
const MAIN_FIGURE = {
  waves: 'pe', frequencies: 'wavelength', similarity: 'similarity', buckets: 'buckets',
  scores: 'total', rope: 'angles', permutation: 'outputs', toy: 'rope', model: 'wavelength', check: 'error',
  usage: 'share',
};
// The usage view draws its introduction until a weights report is loaded (usage.test.mjs draws it loaded).
const shown = (view) => (view === 'usage' ? 'text.usage.intro' : `plot.${MAIN_FIGURE[view]}`);

test('smoke: every view loads from its URL and draws its main figure, without errors or notices', async () => {
  const { page, context, errors } = await openPage(env.browser, `${env.server.url}/?view=waves`);
  await waitReady(page);
  const views = await page.evaluate(() => window.posenc.views());
  assert.deepEqual([...views].sort(), Object.keys(MAIN_FIGURE).sort(), 'every view has its main figure listed here');
  for (const view of views) {
    await page.goto(`${env.server.url}/?view=${view}`);
    await waitReady(page);
    await waitFrames(page, 2);
    assert.equal((await page.evaluate(() => window.posenc.getState())).view, view);
    await itemRect(page, shown(view));
    assert.equal(await page.evaluate(() => window.posenc.notices()), '', `${view}: no notices`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('smoke: the JS API answers (state, notices, export, describe, link and embed code)', async () => {
  const { page, errors } = await sharedPage(env, 'view=rope&dim=64&base=500');
  const api = await page.evaluate(() => Object.keys(window.posenc));
  for (const name of ['ready', 'frameCount', 'wake', 'getState', 'setState', 'notices', 'noticeList', 'views', 'linkUrl',
    'embedCode', 'exportData', 'describe'])
    assert.ok(api.includes(name), `window.posenc.${name}`);
  const state = await page.evaluate(() => window.posenc.getState());
  assert.equal(state.view, 'rope');
  assert.equal(state.dim, '64');
  assert.equal(state.base, '500');
  await page.evaluate(() => window.posenc.setState({ dim: '32' }));
  await waitFrames(page, 2);
  assert.equal((await page.evaluate(() => window.posenc.getState())).dim, '32', 'setState');
  assert.equal((await page.evaluate(() => window.posenc.getState())).base, '500', 'setState keeps the other keys');
  await page.evaluate(() => window.posenc.setState({ dim: 'many' }));
  await waitFrames(page, 2);
  assert.deepEqual((await page.evaluate(() => window.posenc.noticeList())).map((n) => n.key), ['dim'], 'a bad value is a notice');
  await page.evaluate(() => window.posenc.setState({ dim: '32' }));
  const exported = await exportJson(page);
  assert.ok(Array.isArray(exported.tables) && exported.tables.length > 0, 'exportData(json) has tables');
  const described = await page.evaluate(() => window.posenc.describe());
  assert.ok(described && typeof described === 'object', 'describe()');
  // The short link (the embed code's rule): view first, then only the keys that differ from a fresh view.
  assert.match(await page.evaluate(() => window.posenc.linkUrl()), /\?view=rope&dim=32&base=500$/);
  assert.match(await page.evaluate(() => window.posenc.embedCode()), /<iframe [^>]*src="[^"]*\?view=rope[^"]*embed=1/);
  assert.deepEqual(errors, []);
});

test('smoke: window.posenc asked before the app runs answers empty, never throws', async () => {
  // The wasm held back 1.5 s: window.posenc exists (the page installs it at once) while the runtime does not.
  const context = await env.browser.newContext({ viewport: { width: 720, height: 480 } });
  await context.route('**/posenc.wasm', async (route) => { await new Promise((r) => setTimeout(r, 1500)); await route.continue(); });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.goto(`${env.server.url}/?view=usage`);
  await page.waitForFunction(() => window.posenc !== undefined);
  const early = await page.evaluate(() => ({
    ready: window.posenc.frameCount(), probes: window.posenc.probes(), notices: window.posenc.notices(),
    noticeList: window.posenc.noticeList(), views: window.posenc.views(), figures: window.posenc.figures('usage'),
    rect: window.posenc.itemRect('heatmap.usage_share'), zoom: window.posenc.zoom('heatmap.usage_share'),
    slider: window.posenc.focusedSlider(), drawn: window.posenc.drawnText(),
  }));
  assert.deepEqual(early, { ready: 0, probes: [], notices: '', noticeList: [], views: [], figures: [], rect: null, zoom: null,
                            slider: '', drawn: { texts: [], truncated: false } });
  await waitReady(page);
  assert.ok((await page.evaluate(() => window.posenc.views())).includes('usage'), 'the same questions answer once it runs');
  assert.deepEqual(errors, []);
  await context.close();
});

test('smoke: an embed on another page loads through the embed code and posts its height', async () => {
  const { page, context, errors } = await openPage(env.browser, `${env.server.url}/?view=buckets&embed=1`);
  await waitReady(page);
  const code = await page.evaluate(() => window.posenc.embedCode());
  await context.close();
  // The embed code in a page of another origin (another port).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'posenc-smoke-'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><head><meta charset="utf-8"><title>post</title>' +
    `<link rel="icon" href="data:,"></head><body style="margin:0"><p>A post.</p>\n${code}\n</body></html>`);
  const post = await serveStatic(dir, 0);
  const host = await openPage(env.browser, `${post.url}/index.html`, { width: 800, height: 700 });
  try {
    const frame = await (await host.page.waitForSelector('iframe')).contentFrame();
    await frame.waitForFunction(() => window.posenc && window.posenc.frameCount() > 0, null, { timeout: 60000, polling: 200 });
    assert.notEqual(new URL(frame.url()).origin, new URL(host.page.url()).origin, 'the embed is on another origin');
    const state = await frame.evaluate(() => window.posenc.getState());
    assert.equal(state.view, 'buckets');
    assert.equal(state.embed, '1');
    // embed.js sizes the iframe to the height the embed asks for (posenc:height).
    await host.page.waitForFunction(() => document.querySelector('iframe').style.height !== '', null, { timeout: 20000 });
    assert.deepEqual([...errors, ...host.errors], []);
  } finally {
    await host.context.close();
    await post.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
