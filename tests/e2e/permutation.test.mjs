// End-to-end, permutation view: without PE a shuffle only permutes the output rows (pooled output
// identical), with sinusoidal or RoPE positions it changes them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useBrowser, openDeepLink, assertStateRoundTrip, itemRect, screenshot, waitFrames, cellPixel, changedFraction, colorDistance,
} from './harness.mjs';

const env = useBrowser();

const WHITE = [247, 247, 247];   // diverging colormap at 0

async function permutationPixels(query, name) {
  const { page, context, errors, state } = await openDeepLink(env, query, { reuse: true });
  const png = await screenshot(page, name);
  const diff = await itemRect(page, 'heatmap.perm.difference');
  const pooled = await itemRect(page, 'heatmap.perm.pooled');
  const out = await itemRect(page, 'heatmap.perm.output');
  return { page, context, errors, state, png, diff, pooled, out };
}

test('permutation: without PE the shuffled output is the same rows permuted and the pooled output is identical', async () => {
  const n = 6, d = 16;
  const { page, context, errors, state, png, diff, pooled, out } = await permutationPixels(
    `view=permutation&pe=none&shuffle=1&d=${d}&seed=1&sentence=${encodeURIComponent('the cat sat on the mat')}`,
    'web-permutation-none.png');
  for (let i = 0; i < n; ++i) {
    for (let j = 0; j < d; ++j) {
      const c = cellPixel(png, diff, n, d, i, j);
      assert.ok(colorDistance(c, WHITE) < 4, `difference (${i},${j}) is 0 (white), got ${c}`);
    }
  }
  for (let j = 0; j < d; ++j) {
    const a = cellPixel(png, pooled, 2, d, 0, j), b = cellPixel(png, pooled, 2, d, 1, j);
    assert.ok(colorDistance(a, b) < 3, `pooled column ${j}: mean(O) == mean(O')`);
  }
  // The outputs themselves are not blank.
  let colored = 0;
  for (let j = 0; j < d; ++j) if (colorDistance(cellPixel(png, out, n, d, 0, j), WHITE) > 40) ++colored;
  assert.ok(colored > d / 3, 'output O has visible values');

  // Shuffle again: the state and the shuffled output change, the difference stays 0.
  const shuffled = await itemRect(page, 'heatmap.perm.shuffled');
  const button = await itemRect(page, 'button.shuffle');
  await page.mouse.click(button.x + button.width / 2, button.y + button.height / 2);
  await waitFrames(page, 3);
  assert.equal((await page.evaluate(() => window.posenc.getState())).shuffle, '2');
  const png2 = await screenshot(page, 'web-permutation-none-shuffled-again.png');
  assert.ok(changedFraction(png, png2, shuffled, 5) > 0.2, 'the shuffled output changed');
  for (let i = 0; i < n; ++i) assert.ok(colorDistance(cellPixel(png2, diff, n, d, i, 3), WHITE) < 4);
  assert.deepEqual(errors, []);
  await context.close();
  await assertStateRoundTrip(env, state);
});

for (const pe of ['sinusoidal', 'rope']) {
  test(`permutation: with ${pe} the shuffled output differs`, async () => {
    const n = 6, d = 16;
    const { context, errors, png, diff, pooled } = await permutationPixels(
      `view=permutation&pe=${pe}&shuffle=1&d=${d}&seed=1`, `web-permutation-${pe}.png`);
    let nonzero = 0;
    for (let i = 0; i < n; ++i)
      for (let j = 0; j < d; ++j) if (colorDistance(cellPixel(png, diff, n, d, i, j), WHITE) > 15) ++nonzero;
    assert.ok(nonzero > 5, `difference has visibly non-zero cells: ${nonzero}`);
    let pooledDiffers = 0;
    for (let j = 0; j < d; ++j)
      if (colorDistance(cellPixel(png, pooled, 2, d, 0, j), cellPixel(png, pooled, 2, d, 1, j)) > 3) ++pooledDiffers;
    assert.ok(pooledDiffers > 0, 'pooled outputs differ in some dimension');
    assert.deepEqual(errors, []);
    await context.close();
  });
}
