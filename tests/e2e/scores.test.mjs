// End-to-end, attention scores view: causal masks, T5's Toeplitz bias, ALiBi's diagonal weight and the
// n cap, checked on the pixels of the probed heatmaps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useBrowser, openDeepLink, assertStateRoundTrip, itemRect, dragSlider, screenshot, cellPixel, luminance, changedFraction, colorDistance,
} from './harness.mjs';

const env = useBrowser();

const MASKED = [140, 140, 148];  // heatmap.cpp: masked cells (0.55, 0.55, 0.58)

test('scores: causal T5 masks the upper triangle of every tile, hover-free, and a drag of n changes the picture', async () => {
  const n = 32;
  const { page, context, errors, state } = await openDeepLink(env, `view=scores&scheme=t5&causal=1&n=${n}&d=16`, { reuse: true });
  assert.equal(state.view, 'scores');
  const png = await screenshot(page, 'web-scores-t5-causal.png');
  for (const name of ['heatmap.scores.term0', 'heatmap.scores.term1', 'heatmap.scores.logits', 'heatmap.scores.weights']) {
    const r = await itemRect(page, name);
    for (const [i, j] of [[0, 1], [0, n - 1], [5, 20], [30, 31], [10, 11]]) {
      const c = cellPixel(png, r, n, n, i, j);
      assert.ok(colorDistance(c, MASKED) < 6, `${name} (${i},${j}) above the diagonal is masked, got ${c}`);
    }
    for (const [i, j] of [[0, 0], [31, 0], [20, 5], [31, 31], [11, 10]]) {
      const c = cellPixel(png, r, n, n, i, j);
      assert.ok(colorDistance(c, MASKED) > 20, `${name} (${i},${j}) on/below the diagonal is not masked, got ${c}`);
    }
  }
  // T5's bias is one value per bucket of j - i: constant along each diagonal.
  const bias = await itemRect(page, 'heatmap.scores.term1');
  for (const delta of [0, 1, 3, 10]) {
    const ref = cellPixel(png, bias, n, n, delta, 0);
    for (const i of [delta + 5, delta + 13, n - 1]) {
      const c = cellPixel(png, bias, n, n, i, i - delta);
      assert.ok(colorDistance(c, ref) < 6, `bias constant along diagonal i - j = ${delta}`);
    }
  }

  const logits = await itemRect(page, 'heatmap.scores.logits');
  await dragSlider(page, await itemRect(page, 'slider.n'), 0.3, 0.6);
  const after = await page.evaluate(() => window.posenc.getState());
  assert.ok(Number(after.n) > n, `n grew: ${after.n}`);
  const png2 = await screenshot(page, 'web-scores-t5-after-drag.png');
  assert.ok(changedFraction(png, png2, logits, 5) > 0.2, 'logits heatmap changed after the drag');
  assert.deepEqual(errors, []);
  await context.close();
  await assertStateRoundTrip(env, state);
});

test('scores: ALiBi with constant content puts the most weight on the diagonal, logits constant along diagonals', async () => {
  const n = 24;
  const { page, context, errors } = await openDeepLink(env, `view=scores&scheme=alibi&content=constant&n=${n}&d=16&head=0&heads=8`, { reuse: true });
  const png = await screenshot(page, 'web-scores-alibi-constant.png');
  const w = await itemRect(page, 'heatmap.scores.weights');
  for (const i of [0, 5, 12, 23]) {
    const diag = luminance(cellPixel(png, w, n, n, i, i));
    for (let j = 0; j < n; ++j) {
      if (j === i) continue;
      const off = luminance(cellPixel(png, w, n, n, i, j));
      assert.ok(diag > off + 5, `weights row ${i}: diagonal (${diag.toFixed(0)}) brighter than column ${j} (${off.toFixed(0)})`);
    }
  }
  const logits = await itemRect(page, 'heatmap.scores.logits');
  for (const delta of [0, 4, 12]) {
    const ref = cellPixel(png, logits, n, n, 0, delta);
    for (const i of [3, 9, n - 1 - delta]) {
      assert.ok(colorDistance(cellPixel(png, logits, n, n, i, i + delta), ref) < 6, `Toeplitz at ${delta}`);
      assert.ok(colorDistance(cellPixel(png, logits, n, n, i + delta, i), ref) < 6, `symmetric at ${delta}`);
    }
  }
  // Farther from the diagonal, lower logits: bluer, i.e. less red and darker than the diagonal.
  const diagColor = cellPixel(png, logits, n, n, 10, 10);
  const farColor = cellPixel(png, logits, n, n, 0, n - 1);
  assert.ok(farColor[0] < diagColor[0] - 60, `far cell bluer than the diagonal: ${farColor} vs ${diagColor}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('scores: n above the cap is computed at 1024 with a visible message, never a hang', async () => {
  const { page, context, errors } = await openDeepLink(env, 'view=scores&scheme=none&n=4096&d=8', { reuse: true });
  const r = await itemRect(page, 'heatmap.scores.logits');
  assert.ok(r.width > 100);
  await screenshot(page, 'web-scores-capped.png');
  assert.deepEqual(errors, []);
  await context.close();
});
