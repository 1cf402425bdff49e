// End-to-end, words for assistive technology: the views as real links, a live region describing the
// current view (title, formula, parameters, numbers) that follows setState, a labelled canvas.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openState, waitFrames } from './harness.mjs';

const env = useBrowser();

test('accessibility: view links, a labelled canvas and a live region that follows setState', async () => {
  const { page, context, errors } = await openState(env, 'view=waves&n=64', { reuse: true });
  const views = await page.evaluate(() => window.posenc.views());
  const links = await page.evaluate(() => [...document.querySelectorAll('nav#views a')].map((a) => a.getAttribute('href')));
  assert.deepEqual(links, views.map((v) => `?view=${v}`), 'one link per view, in menu order');
  assert.equal(await page.evaluate(() => document.getElementById('views').tagName), 'NAV');
  const canvas = await page.evaluate(() => ({ role: document.getElementById('canvas').getAttribute('role'),
    label: document.getElementById('canvas').getAttribute('aria-label') }));
  assert.equal(canvas.role, 'img');
  assert.match(canvas.label, /^posenc figure: PE waves/, 'the canvas label names the figure');
  const live = page.locator('#describe');
  assert.equal(await live.getAttribute('aria-live'), 'polite');
  const before = await live.textContent();
  assert.match(before, /n = 64/, `the live region names the parameters: ${before}`);
  await page.evaluate(() => window.posenc.setState({ n: '32' }));
  await waitFrames(page, 2);
  const after = await live.textContent();
  assert.match(after, /n = 32/, `the live region follows setState: ${after}`);
  assert.notEqual(after, before);
  assert.deepEqual(errors, []);
  await context.close();
});

test('accessibility: no view links in an embed', async () => {
  // A fresh load: embed mode is the page's at load (a shared page set to embed=1 keeps its links).
  const { page, context, errors } = await openState(env, 'view=waves&embed=1');
  assert.equal(await page.evaluate(() => document.getElementById('views').hidden), true);
  assert.equal(await page.locator('nav#views a:visible').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('accessibility: the hover readout is mirrored into a polite live region once the pointer rests', async () => {
  const { page, context, errors } = await openState(env, 'view=waves&n=64&d=128&base=10000', { reuse: true });
  const region = page.locator('#readout');
  assert.equal(await region.getAttribute('aria-live'), 'polite');
  const describedBefore = await page.locator('#describe').textContent();
  // Cell (p = 10, i = 6) of the 64 x 128 matrix in plot.pe.
  const r = await page.evaluate(() => window.posenc.itemRect('plot.pe'));
  const p = 10, i = 6;
  await page.mouse.move(r.x + (i + 0.5) * r.width / 128, r.y + (p + 0.5) * r.height / 64);
  await page.waitForFunction(() => /P\[p\]\[i\]/.test(document.getElementById('readout').textContent), null, { timeout: 10000 });
  const tooltip = await page.evaluate(() => window.posenc.readout());
  const text = await region.textContent();
  assert.equal(text, tooltip.replace(/\n/g, '; '), 'the region says what the tooltip says');
  assert.match(text, /position p = 10, dim i = 6/);
  const value = Number(/P\[p\]\[i\] = (\S+)/.exec(text)[1]);
  const w = Math.pow(10000, -6 / 128);  // pair k = 3: w_k = base^(-2k/d); dim 6 is its sine
  assert.ok(Math.abs(value - Math.sin(p * w)) < 1e-12, `P[10][6] = ${value}, sin(10 w_3) = ${Math.sin(p * w)}`);
  const wk = Number(/w_k = ([^,;\s]+)/.exec(text)[1]);
  assert.ok(Math.abs(wk - w) < 1e-9 * w, `w_k = ${wk}, expected ${w}`);
  assert.equal(await page.locator('#describe').textContent(), describedBefore, "describe()'s region is left as it was");
  // Away from the plots: the readout is gone, and the region with it.
  await page.mouse.move(1, 1);
  await page.waitForFunction(() => document.getElementById('readout').textContent === '', null, { timeout: 10000 });
  assert.deepEqual(errors, []);
  await context.close();
});
