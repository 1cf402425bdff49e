// End-to-end, words for assistive technology: the views as real links, a live region describing the
// current view (title, formula, parameters, numbers) that follows setState, a labelled canvas.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openState, waitFrames } from './harness.mjs';

const env = useBrowser();

test('accessibility: view links, a labelled canvas and a live region that follows setState', async () => {
  const { page, context, errors } = await openState(env, 'view=waves&n=64');
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
  const { page, context, errors } = await openState(env, 'view=waves&embed=1');
  assert.equal(await page.evaluate(() => document.getElementById('views').hidden), true);
  assert.equal(await page.locator('nav#views a:visible').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});
