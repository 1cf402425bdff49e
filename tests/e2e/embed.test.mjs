// End-to-end, embedding: embed mode drops the menu bar and controls=0 the controls, themes follow the
// URL or the page's colour scheme, and the example page's three iframes post their heights (its page
// script, the embed code's, sizes them) and take setState by postMessage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { useBrowser, openPage, openState, waitReady, waitFrames, screenshot, pixel, colorDistance, luminance } from './harness.mjs';

const env = useBrowser();

test('embed mode has no menu bar; controls=0 hides the controls', async () => {
  const full = await openState(env, 'view=waves&n=64', { frames: 2, reuse: true });
  assert.ok(await full.page.evaluate(() => window.posenc.itemRect('menu.share')), 'the app has its menu');
  const fullPng = await screenshot(full.page, 'web-full.png');
  await full.context.close();

  const { page, context, errors } = await openState(env, 'view=waves&n=64&embed=1', { frames: 2, reuse: true });
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
  const bg = {};
  for (const theme of ['light', 'dark']) {
    const { page, context } = await openState(env, `view=frequencies&embed=1&theme=${theme}`, { frames: 2, reuse: true });
    bg[theme] = luminance(pixel(await screenshot(page, `web-theme-${theme}.png`), 5, 400));
    await context.close();
  }
  assert.ok(bg.light > 180 && bg.dark < 70, `light ${bg.light} vs dark ${bg.dark}`);
  const context = await env.browser.newContext({ viewport: { width: 800, height: 500 }, colorScheme: 'light' });
  const page = await context.newPage();
  await page.goto(`${env.server.url}/?view=frequencies&embed=1`);
  await waitReady(page);
  await waitFrames(page, 2);
  assert.ok(luminance(pixel(PNG.sync.read(await page.screenshot()), 5, 400)) > 180, 'a light page gets a light embed');
  await context.close();
});

test('the example page loads its three embeds, each posts its height, setState by postMessage redraws', async () => {
  const { page, context, errors } = await openPage(env.browser, `${env.server.url}/embed-example.html`, { width: 1000, height: 900 });
  const ids = ['embed-waves', 'embed-buckets', 'embed-rope'];
  for (const id of ids) {
    await page.locator(`#${id}`).scrollIntoViewIfNeeded();
    const frame = page.frameLocator(`#${id}`);
    const handle = await page.$(`#${id}`);
    const f = await handle.contentFrame();
    await f.waitForFunction(() => window.posenc && window.posenc.started && window.posenc.started(), null, { timeout: 20000 });
    await f.evaluate(() => window.posenc.ready);
    // The page script (the embed code's) sets the height each embed asks for.
    await page.waitForFunction((sel) => document.querySelector(sel).style.height !== '', `#${id}`, { timeout: 10000 });
    const h = parseFloat(await page.evaluate((sel) => document.querySelector(sel).style.height, `#${id}`));
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
  await f.waitForFunction((c) => { window.posenc.wake(); return window.posenc.frameCount() > c; },
    await f.evaluate(() => window.posenc.frameCount()) + 2);
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
