// End-to-end, relative-bias view (buckets): T5's causal staircase, ALiBi's distance falloff, DeBERTa's
// and Shaw's signed, clipped distances, checked on the pixels of the probed heatmap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useBrowser, openDeepLink, itemRect, dragSlider, screenshot, cellPixel, luminance, changedFraction, colorDistance, VIRIDIS,
} from './harness.mjs';

const env = useBrowser();

const BUCKETS = 'view=buckets&n=64&bidirectional=0&num_buckets=32&max_distance=128&seed=0&show=bucket' +
  '&bucket_size=32&max_position=512&clip=8&heads=8&head=0';

test('buckets: causal T5 matrix is a Toeplitz staircase with a uniform upper triangle', async () => {
  const { page, context, errors, png } = await openDeepLink(env, `${BUCKETS}&scheme=t5`, { exact: true, shot: 'web-buckets-t5-causal.png', reuse: true });
  const r = await itemRect(page, 'heatmap.buckets');
  await itemRect(page, 'plot.buckets.index');
  const n = 64;
  // Keys after the query (j > i) all fall in bucket 0: the bottom of viridis, one colour.
  for (const [i, j] of [[0, 1], [0, 63], [10, 40], [30, 31], [50, 62]]) {
    const c = cellPixel(png, r, n, n, i, j);
    assert.ok(colorDistance(c, VIRIDIS[0]) < 30, `upper cell (${i}, ${j}) is bucket 0, got ${c}`);
  }
  // Along the last row, distance i - j = 0..63: luminance never falls, each exact bucket (< 16) is a new
  // step, and past max_exact the log buckets form plateaus (fewer colours than distances).
  const lum = [];
  for (let dist = 0; dist < n; ++dist) lum.push(luminance(cellPixel(png, r, n, n, n - 1, n - 1 - dist)));
  for (let k = 1; k < n; ++k) assert.ok(lum[k] >= lum[k - 1] - 2, `bucket colour never decreases (${k}: ${lum[k - 1]} -> ${lum[k]})`);
  for (let k = 1; k < 16; ++k) assert.ok(lum[k] > lum[k - 1] + 1, `exact bucket ${k} is its own step`);
  let plateaus = 0;
  for (let k = 17; k < n; ++k) if (Math.abs(lum[k] - lum[k - 1]) < 1) ++plateaus;
  assert.ok(plateaus > 20, `log buckets share colours past max_exact (plateau steps: ${plateaus})`);
  // Same relative distance, same bucket, same colour.
  for (const [i, j] of [[20, 5], [40, 3], [63, 30]])
    assert.ok(colorDistance(cellPixel(png, r, n, n, i, j), cellPixel(png, r, n, n, i - 2, j - 2)) < 8, `Toeplitz at (${i}, ${j})`);
  await dragSlider(page, await itemRect(page, 'slider.num_buckets'), 0.5, 0.9);
  const after = await screenshot(page, 'web-buckets-t5-after-drag.png');
  assert.ok(Number((await page.evaluate(() => window.posenc.getState())).num_buckets) > 32, 'num_buckets grew');
  assert.ok(changedFraction(png, after, r, 6) > 0.1, 'the bucket matrix changed after the drag');
  assert.deepEqual(errors, []);
  await context.close();
});

test('buckets: ALiBi matrix is darkest far from the diagonal, symmetric in i and j', async () => {
  const { page, context, errors, png } = await openDeepLink(env, `${BUCKETS}&scheme=alibi`, { exact: true, shot: 'web-buckets-alibi.png', reuse: true });
  const r = await itemRect(page, 'heatmap.buckets');
  const n = 64;
  const diag = luminance(cellPixel(png, r, n, n, 30, 30));
  const near = luminance(cellPixel(png, r, n, n, 30, 40));
  const far = luminance(cellPixel(png, r, n, n, 0, 63));
  assert.ok(diag > near && near > far, `luminance falls with |i - j|: ${diag} > ${near} > ${far}`);
  assert.ok(colorDistance(cellPixel(png, r, n, n, 0, 63), VIRIDIS[0]) < 30, 'the far corner is the bottom of viridis');
  assert.ok(colorDistance(cellPixel(png, r, n, n, 63, 0), cellPixel(png, r, n, n, 0, 63)) < 8, 'symmetric');
  assert.deepEqual(errors, []);
  await context.close();
});

test('buckets: DeBERTa and Shaw draw signed, clipped distances', async () => {
  for (const scheme of ['deberta', 'shaw']) {
    const { page, context, errors, png } = await openDeepLink(env, `${BUCKETS}&scheme=${scheme}`, { exact: true, shot: `web-buckets-${scheme}.png`, reuse: true });
    const r = await itemRect(page, 'heatmap.buckets');
    const n = 64;
    const below = cellPixel(png, r, n, n, 60, 2), above = cellPixel(png, r, n, n, 2, 60);
    const diag = cellPixel(png, r, n, n, 30, 30);
    assert.ok(diag[0] > 200 && diag[1] > 200 && diag[2] > 200, `${scheme}: distance 0 is white, got ${diag}`);
    // DeBERTa's delta is i - j (positive below the diagonal); Shaw's clip(j - i) is positive above it.
    const [pos, neg] = scheme === 'deberta' ? [below, above] : [above, below];
    assert.ok(pos[0] > pos[2] + 60, `${scheme}: positive side is red, got ${pos}`);
    assert.ok(neg[2] > neg[0] + 60, `${scheme}: negative side is blue, got ${neg}`);
    if (scheme === 'shaw') {
      // Past K = 8 every distance shares the end of the table: one colour.
      assert.ok(colorDistance(cellPixel(png, r, n, n, 0, 10), cellPixel(png, r, n, n, 0, 60)) < 8, 'clipped beyond K');
    }
    assert.deepEqual(errors, []);
    await context.close();
  }
});
