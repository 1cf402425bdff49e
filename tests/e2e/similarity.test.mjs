// End-to-end, similarity view (P P^T): the sinusoidal Gram matrix is brightest on its diagonal and
// Toeplitz, sine-only is not, large n is capped, and a binary code with too few bits explains itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useBrowser, openDeepLink, openState, itemRect, dragSlider, screenshot, waitFrames, pixel, cellPixel, luminance, changedFraction, colorDistance, VIRIDIS,
} from './harness.mjs';

const env = useBrowser();

const SIMILARITY = 'view=similarity&scheme=sinusoidal&n=64&d=32&base=10000&pstep=8&max_len=512&seed=0';

test('similarity: sinusoidal P P^T is brightest on its diagonal and constant along diagonals; n drag redraws', async () => {
  const { page, context, errors, png } = await openDeepLink(env, SIMILARITY, { exact: true, shot: 'web-similarity.png', reuse: true });
  const r = await itemRect(page, 'heatmap.similarity');
  for (const name of ['plot.curves_sinusoidal', 'plot.curves_sine_only', 'plot.neighbour']) await itemRect(page, name);
  const n = 64;
  let diag = 0, off = 0;
  for (let i = 0; i < n; i += 3) {
    const d = cellPixel(png, r, n, n, i, i);
    // The diagonal is d/2 = 16, the maximum of the matrix: the top of viridis.
    assert.ok(colorDistance(d, VIRIDIS[1]) < 40, `G[${i}][${i}] should be viridis(1), got ${d}`);
    diag += luminance(d);
    off += luminance(cellPixel(png, r, n, n, i, (i + 20) % n));
  }
  assert.ok(diag > off + 40 * (n / 3) * 0.5, `diagonal brighter than off-diagonal (sum ${diag} vs ${off})`);
  // Toeplitz: G[a][a+k] is the same colour for every a.
  for (const k of [3, 11, 29]) {
    const ref = cellPixel(png, r, n, n, 0, k);
    for (const a of [7, 20, 33]) {
      const c = cellPixel(png, r, n, n, a, a + k);
      assert.ok(colorDistance(c, ref) < 12, `G[${a}][${a + k}] = G[0][${k}] (${c} vs ${ref})`);
    }
  }
  await dragSlider(page, await itemRect(page, 'slider.n'), 0.5, 0.9);
  const after = await screenshot(page, 'web-similarity-after-drag.png');
  const state = await page.evaluate(() => window.posenc.getState());
  assert.ok(Number(state.n) > 64, `n grew after the drag: ${state.n}`);
  assert.ok(changedFraction(png, after, r, 6) > 0.2, 'heatmap changed after the drag');
  assert.deepEqual(errors, [], 'no console errors');
  await context.close();
});

test('similarity: sine-only P P^T depends on absolute position (P_0 = 0, diagonal not constant)', async () => {
  const { page, context, errors, png } = await openDeepLink(env, SIMILARITY.replace('sinusoidal', 'sine_only'), { exact: true, shot: 'web-similarity-sine-only.png', reuse: true });
  const r = await itemRect(page, 'heatmap.similarity');
  const n = 64;
  // Row 0 is P_0 . P_b = 0 for every b: one colour.
  const row0 = cellPixel(png, r, n, n, 0, 0);
  for (const b of [5, 20, 40, 63]) assert.ok(colorDistance(cellPixel(png, r, n, n, 0, b), row0) < 8, `row 0 uniform at b = ${b}`);
  // ...but the diagonal |P_a|^2 is not: G[0][0] = 0 and G[40][40] > 0.
  const far = cellPixel(png, r, n, n, 40, 40);
  assert.ok(colorDistance(far, row0) > 60, `G[40][40] differs from G[0][0] (${far} vs ${row0})`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('similarity: n beyond the heatmap cap shows the cap, binary with too few bits explains itself', async () => {
  const { page, context, errors } = await openState(env, 'view=similarity&n=4096&d=8&scheme=binary', { reuse: true });
  await screenshot(page, 'web-similarity-binary-too-few-bits.png');
  assert.equal((await page.evaluate(() => window.posenc.getState())).n, '4096');
  assert.equal(await page.evaluate(() => window.posenc.itemRect('heatmap.similarity')), null, 'no heatmap when d bits cannot code n');
  await page.evaluate(() => window.posenc.setState({ scheme: 'sinusoidal', d: '64' }));
  await waitFrames(page, 3);
  const r = await itemRect(page, 'heatmap.similarity');
  const png = await screenshot(page, 'web-similarity-capped.png');
  // Still the bright diagonal at 2048 x 2048 cells: the main diagonal outshines the anti-diagonal.
  let diag = 0, anti = 0;
  for (let t = 0.02; t < 0.99; t += 0.02) {
    diag += luminance(pixel(png, r.x + t * r.width, r.y + t * r.height));
    anti += luminance(pixel(png, r.x + t * r.width, r.y + (1 - t) * r.height));
  }
  assert.ok(diag > anti * 1.3, `capped heatmap keeps its bright diagonal (${diag} vs ${anti})`);
  assert.deepEqual(errors, []);
  await context.close();
});
