// Share and embed: URL state for every view, notices for garbage, chrome-less embeds, the example
// page with three iframes (heights posted, setState by postMessage), themes and exports.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import {
  serveSite, launchBrowser, openPage, waitReady, waitFrames, screenshot, pixel, colorDistance,
} from './harness.mjs';

let server, browser;
before(async () => { server = await serveSite(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const DEEP_LINKS = {
  waves: 'view=waves&scheme=sine_only&n=96&d=32&base=500',
  frequencies: 'view=frequencies&d=64&base=500000&n=2048',
  similarity: 'view=similarity&scheme=binary&n=64&d=8',
  buckets: 'view=buckets&scheme=alibi&n=48&heads=4',
  scores: 'view=scores&scheme=rope&n=24&d=16&causal=1',
  rope: 'view=rope&dim=128&base=500000&scaling=yarn&factor=8&orig=8192&target=65536',
  permutation: 'view=permutation&pe=sinusoidal&shuffle=3',
  toy: 'view=toy&theta=1',
};

for (const [view, query] of Object.entries(DEEP_LINKS)) {
  test(`deep link restores ${view}`, async () => {
    const { page, context, errors } = await openPage(browser, `${server.url}/?${query}`);
    await waitReady(page);
    await waitFrames(page, 2);
    const state = await page.evaluate(() => window.posenc.getState());
    for (const [k, v] of new URLSearchParams(query)) assert.equal(state[k], v, `${view}: ${k}`);
    assert.equal(await page.evaluate(() => window.posenc.notices()), '', 'no notices for a valid link');
    // Reloading the state the app reports gives the same state (the URL is a fixed point).
    const q = new URLSearchParams(state).toString();
    const again = await openPage(browser, `${server.url}/?${q}`);
    await waitReady(again.page);
    assert.deepEqual(await again.page.evaluate(() => window.posenc.getState()), state);
    await again.context.close();
    await screenshot(page, `web-deeplink-${view}.png`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('garbage parameters show a notice and the default picture', async () => {
  const { page, context, errors } = await openPage(browser, `${server.url}/?view=nonsense&n=-5&d=%ZZ&foo=bar&theme=purple`);
  await waitReady(page);
  await waitFrames(page, 2);
  const notices = await page.evaluate(() => window.posenc.notices());
  for (const word of ['nonsense', 'foo', 'purple']) assert.match(notices, new RegExp(word));
  const state = await page.evaluate(() => window.posenc.getState());
  assert.equal(state.view, 'waves');
  assert.equal(state.n, '64');
  assert.ok(await page.evaluate(() => window.posenc.itemRect('notice')), 'the notice is drawn');
  assert.ok(await page.evaluate(() => window.posenc.itemRect('heatmap.pe')), 'the default view is drawn');
  await screenshot(page, 'web-garbage-params.png');
  assert.deepEqual(errors, []);
  await context.close();
});

test('embed mode has no menu bar; controls=0 hides the controls', async () => {
  const full = await openPage(browser, `${server.url}/?view=waves&n=64`);
  await waitReady(full.page);
  await waitFrames(full.page, 2);
  assert.ok(await full.page.evaluate(() => window.posenc.itemRect('menu.share')), 'the app has its menu');
  const fullPng = await screenshot(full.page, 'web-full.png');
  await full.context.close();

  const { page, context, errors } = await openPage(browser, `${server.url}/?view=waves&n=64&embed=1`);
  await waitReady(page);
  await waitFrames(page, 2);
  assert.equal((await page.evaluate(() => window.posenc.getState())).embed, '1');
  assert.equal(await page.evaluate(() => window.posenc.itemRect('menu.share')), null, 'no menu in an embed');
  assert.ok(await page.evaluate(() => window.posenc.itemRect('slider.n')), 'the view keeps its own controls');
  const embedPng = await screenshot(page, 'web-embed.png');
  // The menu bar's strip (top 18 px, right half, where the full app shows the menu bar colour) differs.
  let differ = 0, total = 0;
  for (let x = 700; x < 1260; x += 10) { ++total; if (colorDistance(pixel(fullPng, x, 9), pixel(embedPng, x, 9)) > 8) ++differ; }
  assert.ok(differ / total > 0.5 || colorDistance(pixel(fullPng, 1000, 9), pixel(embedPng, 1000, 9)) > 8,
    'the top strip is not the menu bar');
  await page.evaluate(() => window.posenc.setState({ controls: '0' }));
  await waitFrames(page, 2);
  assert.equal(await page.evaluate(() => window.posenc.itemRect('slider.n')), null, 'controls=0 hides the sliders');
  assert.ok(await page.evaluate(() => window.posenc.itemRect('heatmap.pe')), 'the view is still drawn');
  await screenshot(page, 'web-embed-nocontrols.png');
  assert.deepEqual(errors, []);
  await context.close();
});

test('theme=light and theme=dark set the picture, and follow prefers-color-scheme by default', async () => {
  const lum = (c) => 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  const bg = {};
  for (const theme of ['light', 'dark']) {
    const { page, context } = await openPage(browser, `${server.url}/?view=frequencies&embed=1&theme=${theme}`);
    await waitReady(page);
    await waitFrames(page, 2);
    bg[theme] = lum(pixel(await screenshot(page, `web-theme-${theme}.png`), 5, 400));
    await context.close();
  }
  assert.ok(bg.light > 180 && bg.dark < 70, `light ${bg.light} vs dark ${bg.dark}`);
  const context = await browser.newContext({ viewport: { width: 800, height: 500 }, colorScheme: 'light' });
  const page = await context.newPage();
  await page.goto(`${server.url}/?view=frequencies&embed=1`);
  await waitReady(page);
  await waitFrames(page, 2);
  assert.ok(lum(pixel(PNG.sync.read(await page.screenshot()), 5, 400)) > 180, 'a light page gets a light embed');
  await context.close();
});

test('the example page loads its three embeds, each posts its height, setState by postMessage redraws', async () => {
  const { page, context, errors } = await openPage(browser, `${server.url}/embed-example.html`, { width: 1000, height: 900 });
  const ids = ['embed-waves', 'embed-buckets', 'embed-rope'];
  for (const id of ids) {
    await page.locator(`#${id}`).scrollIntoViewIfNeeded();
    const frame = page.frameLocator(`#${id}`);
    const handle = await page.$(`#${id}`);
    const f = await handle.contentFrame();
    await f.waitForFunction(() => window.posenc && window.posenc.started && window.posenc.started(), null, { timeout: 20000 });
    await f.evaluate(() => window.posenc.ready);
    await page.waitForFunction((sel) => document.querySelector(sel).dataset.reportedHeight, `#${id}`, { timeout: 10000 });
    const h = Number(await page.evaluate((sel) => document.querySelector(sel).dataset.reportedHeight, `#${id}`));
    assert.ok(h >= 320, `${id} posted a height (${h})`);
    assert.equal((await f.evaluate(() => window.posenc.getState())).embed, '1');
    void frame;
  }
  await page.screenshot({ path: 'build/test-artifacts/web-embed-example.png', fullPage: true });

  // Drive the first embed from the page.
  await page.locator('#embed-waves').scrollIntoViewIfNeeded();
  const f = await (await page.$('#embed-waves')).contentFrame();
  const stateChanges = [];
  await page.exposeFunction('recordState', (s) => stateChanges.push(s));
  await page.evaluate(() => window.addEventListener('message', (e) => {
    if (e.data && e.data.type === 'posenc:state') window.recordState(e.data.state);
  }));
  const before = await (await page.$('#embed-waves')).screenshot();
  await page.evaluate(() => document.getElementById('embed-waves').contentWindow.postMessage(
    { type: 'posenc:setState', state: { n: '16', d: '8' } }, '*'));
  await f.waitForFunction(() => window.posenc.getState().n === '16', null, { timeout: 10000 });
  await f.waitForFunction((c) => window.posenc.frameCount() > c, await f.evaluate(() => window.posenc.frameCount()) + 2);
  const after = await (await page.$('#embed-waves')).screenshot();
  const a = PNG.sync.read(before), b = PNG.sync.read(after);
  let changed = 0;
  for (let y = 40; y < Math.min(a.height, b.height) - 10; y += 9) {
    for (let x = 260; x < Math.min(a.width, b.width) - 10; x += 9) if (colorDistance(pixel(a, x, y), pixel(b, x, y)) > 30) ++changed;
  }
  assert.ok(changed > 100, `setState changed the picture (${changed} samples)`);
  await page.waitForFunction(() => true);
  assert.ok(stateChanges.some((s) => s.n === '16'), 'the embed posted its new state to the parent');
  assert.deepEqual(errors, []);
  await context.close();
});

test('exports: JSON and CSV carry the data behind the view, PNG is the chrome-less view at devicePixelRatio', async () => {
  const { page, context, errors } = await openPage(browser, `${server.url}/?view=waves&n=8&d=4`, { width: 900, height: 600, deviceScaleFactor: 2 });
  await waitReady(page);
  await waitFrames(page, 2);
  const json = JSON.parse(await page.evaluate(() => window.posenc.exportData('json')));
  assert.equal(json.view, 'waves');
  assert.ok(json.tables.length >= 1, 'at least one table');
  const csv = await page.evaluate(() => window.posenc.exportData('csv'));
  assert.match(csv, /^# /);
  const dataUrl = await page.evaluate(() => window.posenc.exportPng());
  const png = PNG.sync.read(Buffer.from(dataUrl.split(',')[1], 'base64'));
  assert.equal(png.width, 1800);
  assert.equal(png.height, 1200);
  const link = await page.evaluate(() => window.posenc.linkUrl());
  assert.match(link, /\?.*view=waves/);
  const code = await page.evaluate(() => window.posenc.embedCode());
  assert.match(code, /^<iframe src="[^"]*embed=1[^"]*" width="100%" height="\d+" title="posenc: PE waves" aria-label="[^"]+"/);
  assert.deepEqual(errors, []);
  await context.close();
});
