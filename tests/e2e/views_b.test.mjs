// End-to-end: the scores, rope and permutation views in headless Chromium. Each test opens a deep
// link, checks the state round trip and no console errors, saves a screenshot, and checks with pixels
// that the expected structure is drawn.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  serveSite, launchBrowser, openPage, waitReady, waitFrames, screenshot, pixel, colorDistance,
} from './harness.mjs';

let server, browser;
before(async () => { server = await serveSite(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const MASKED = [140, 140, 148];  // heatmap.cpp: masked cells (0.55, 0.55, 0.58)
const WHITE = [247, 247, 247];   // diverging colormap at 0
const LINEAR_COLOR = [230, 159, 0];  // rope_view.cpp: linear scaling = palette_color(1)
const PLAIN_COLOR = [86, 180, 233];  // rope_view.cpp: no scaling = palette_color(0)

function cellCenter(r, rows, cols, row, col) {
  return [r.x + (col + 0.5) * r.width / cols, r.y + (row + 0.5) * r.height / rows];
}
const luminance = ([r, g, b]) => 0.2126 * r + 0.7152 * g + 0.0722 * b;

// Opens `/?query`, waits for the first frames, checks every URL parameter is in getState(), and that
// the full state read back loads to exactly the same state. Returns {page, context, errors, state}.
async function openView(query) {
  const { page, context, errors } = await openPage(browser, `${server.url}/?${query}`);
  await waitReady(page);
  await waitFrames(page, 3);
  const state = await page.evaluate(() => window.posenc.getState());
  for (const [key, value] of new URLSearchParams(query)) assert.equal(state[key], value, `getState().${key}`);
  assert.equal(await page.evaluate(() => window.posenc.notices()), '', 'no notices for a valid deep link');
  return { page, context, errors, state };
}

async function assertFullStateRoundTrip(state) {
  const query = new URLSearchParams(state).toString();
  const { page, context, errors } = await openPage(browser, `${server.url}/?${query}`);
  await waitReady(page);
  await waitFrames(page, 2);
  assert.deepEqual(await page.evaluate(() => window.posenc.getState()), state, 'full state round trip');
  assert.deepEqual(errors, []);
  await context.close();
}

async function rect(page, name) {
  const r = await page.evaluate((n) => window.posenc.itemRect(n), name);
  assert.ok(r && r.width > 10 && r.height > 10, `${name} drawn: ${JSON.stringify(r)}`);
  return r;
}

async function drag(page, slider, from, to) {
  const y = slider.y + slider.height / 2;
  await page.mouse.move(slider.x + slider.width * from, y);
  await page.mouse.down();
  for (let i = 1; i <= 10; ++i) await page.mouse.move(slider.x + slider.width * (from + (to - from) * i / 10), y);
  await page.mouse.up();
  await waitFrames(page, 3);
}

function changedFraction(a, b, r) {
  let changed = 0, total = 0;
  for (let y = r.y + 2; y < r.y + r.height - 2; y += 5) {
    for (let x = r.x + 2; x < r.x + r.width - 2; x += 5) {
      ++total;
      if (colorDistance(pixel(a, x, y), pixel(b, x, y)) > 30) ++changed;
    }
  }
  return changed / total;
}

test('scores: causal T5 masks the upper triangle of every tile, hover-free, and a drag of n changes the picture', async () => {
  const n = 32;
  const { page, context, errors, state } = await openView(`view=scores&scheme=t5&causal=1&n=${n}&d=16`);
  assert.equal(state.view, 'scores');
  const png = await screenshot(page, 'web-scores-t5-causal.png');
  for (const name of ['heatmap.scores.term0', 'heatmap.scores.term1', 'heatmap.scores.logits', 'heatmap.scores.weights']) {
    const r = await rect(page, name);
    for (const [i, j] of [[0, 1], [0, n - 1], [5, 20], [30, 31], [10, 11]]) {
      const c = pixel(png, ...cellCenter(r, n, n, i, j));
      assert.ok(colorDistance(c, MASKED) < 6, `${name} (${i},${j}) above the diagonal is masked, got ${c}`);
    }
    for (const [i, j] of [[0, 0], [31, 0], [20, 5], [31, 31], [11, 10]]) {
      const c = pixel(png, ...cellCenter(r, n, n, i, j));
      assert.ok(colorDistance(c, MASKED) > 20, `${name} (${i},${j}) on/below the diagonal is not masked, got ${c}`);
    }
  }
  // T5's bias is one value per bucket of j - i: constant along each diagonal.
  const bias = await rect(page, 'heatmap.scores.term1');
  for (const delta of [0, 1, 3, 10]) {
    const ref = pixel(png, ...cellCenter(bias, n, n, delta, 0));
    for (const i of [delta + 5, delta + 13, n - 1]) {
      const c = pixel(png, ...cellCenter(bias, n, n, i, i - delta));
      assert.ok(colorDistance(c, ref) < 6, `bias constant along diagonal i - j = ${delta}`);
    }
  }

  const logits = await rect(page, 'heatmap.scores.logits');
  await drag(page, await rect(page, 'slider.n'), 0.3, 0.6);
  const after = await page.evaluate(() => window.posenc.getState());
  assert.ok(Number(after.n) > n, `n grew: ${after.n}`);
  const png2 = await screenshot(page, 'web-scores-t5-after-drag.png');
  assert.ok(changedFraction(png, png2, logits) > 0.2, 'logits heatmap changed after the drag');
  assert.deepEqual(errors, []);
  await context.close();
  await assertFullStateRoundTrip(state);
});

test('scores: ALiBi with constant content puts the most weight on the diagonal, logits constant along diagonals', async () => {
  const n = 24;
  const { page, context, errors } = await openView(`view=scores&scheme=alibi&content=constant&n=${n}&d=16&head=0&heads=8`);
  const png = await screenshot(page, 'web-scores-alibi-constant.png');
  const w = await rect(page, 'heatmap.scores.weights');
  for (const i of [0, 5, 12, 23]) {
    const diag = luminance(pixel(png, ...cellCenter(w, n, n, i, i)));
    for (let j = 0; j < n; ++j) {
      if (j === i) continue;
      const off = luminance(pixel(png, ...cellCenter(w, n, n, i, j)));
      assert.ok(diag > off + 5, `weights row ${i}: diagonal (${diag.toFixed(0)}) brighter than column ${j} (${off.toFixed(0)})`);
    }
  }
  const logits = await rect(page, 'heatmap.scores.logits');
  for (const delta of [0, 4, 12]) {
    const ref = pixel(png, ...cellCenter(logits, n, n, 0, delta));
    for (const i of [3, 9, n - 1 - delta]) {
      assert.ok(colorDistance(pixel(png, ...cellCenter(logits, n, n, i, i + delta)), ref) < 6, `Toeplitz at ${delta}`);
      assert.ok(colorDistance(pixel(png, ...cellCenter(logits, n, n, i + delta, i)), ref) < 6, `symmetric at ${delta}`);
    }
  }
  // Farther from the diagonal, lower logits: bluer, i.e. less red and darker than the diagonal.
  const diagColor = pixel(png, ...cellCenter(logits, n, n, 10, 10));
  const farColor = pixel(png, ...cellCenter(logits, n, n, 0, n - 1));
  assert.ok(farColor[0] < diagColor[0] - 60, `far cell bluer than the diagonal: ${farColor} vs ${diagColor}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('scores: n above the cap is computed at 1024 with a visible message, never a hang', async () => {
  const { page, context, errors } = await openView('view=scores&scheme=none&n=4096&d=8');
  const r = await rect(page, 'heatmap.scores.logits');
  assert.ok(r.width > 100);
  await screenshot(page, 'web-scores-capped.png');
  assert.deepEqual(errors, []);
  await context.close();
});

test('rope: linear scaling ratio is flat at 1/f, the decay bound starts at 1 and falls, a drag of f moves the line', async () => {
  const f = 4;
  const { page, context, errors, state } = await openView(
    `view=rope&scaling=linear&factor=${f}&compare=0&play=0&dim=64&orig=4096&target=16384&pos=1000&pair=20`);
  const png = await screenshot(page, 'web-rope-linear.png');
  const r = await rect(page, 'plot.ratio');
  // y axis fixed to [0, 1.05]: 1/f sits at this pixel row.
  const expectY = r.y + r.height - (1 / f) / 1.05 * r.height;
  let hits = 0;
  for (let x = Math.ceil(r.x + 4); x < r.x + r.width * 0.6; x += 3) {
    const ys = [];
    for (let y = Math.ceil(r.y); y < r.y + r.height; ++y) if (colorDistance(pixel(png, x, y), LINEAR_COLOR) < 60) ys.push(y);
    assert.ok(ys.length > 0, `linear curve drawn at x = ${x}`);
    const mid = (Math.min(...ys) + Math.max(...ys)) / 2;
    assert.ok(Math.abs(mid - expectY) < 4, `linear ratio at x = ${x} drawn at y = ${mid}, expected ${expectY.toFixed(1)} (1/f)`);
    ++hits;
  }
  assert.ok(hits > 20);
  // Nothing of the other methods is drawn with compare=0: no pixel far above the line has the linear colour.
  const decay = await rect(page, 'plot.decay');
  // Topmost pixel of a curve (unscaled in blue, linear in orange: both are 1 at m = 0, orange on top).
  const curveY = (x, colors) => {
    for (let y = Math.ceil(decay.y); y < decay.y + decay.height; ++y)
      if (colors.some((c) => colorDistance(pixel(png, x, y), c) < 50)) return y;
    return null;
  };
  const y0 = curveY(Math.ceil(decay.x + 1), [PLAIN_COLOR, LINEAR_COLOR]);
  const expect0 = decay.y + decay.height * (1 - 1 / 1.02);
  assert.ok(y0 !== null && Math.abs(y0 - expect0) < 4, `decay bound at m = 0 is 1 (y = ${y0}, expected ${expect0.toFixed(1)})`);
  // At m ~ 410 (80% of 512) the unscaled bound is below 0.5: blue only in the lower half of that column
  // (the legend, top right, is skipped).
  const xFar = Math.floor(decay.x + decay.width * 0.8);
  const blueAt = [];
  for (let y = Math.ceil(decay.y + 45); y < decay.y + decay.height; ++y)
    if (colorDistance(pixel(png, xFar, y), PLAIN_COLOR) < 50) blueAt.push(y);
  assert.ok(blueAt.length > 0 && Math.min(...blueAt) > decay.y + decay.height * 0.5,
    `decay bound at m ~ 410 is below 0.5 (blue at y = ${blueAt})`);

  await drag(page, await rect(page, 'slider.factor'), 0.2, 0.7);
  const after = await page.evaluate(() => window.posenc.getState());
  assert.ok(Number(after.factor) > f, `factor grew: ${after.factor}`);
  const png2 = await screenshot(page, 'web-rope-after-drag.png');
  const newY = r.y + r.height - (1 / Number(after.factor)) / 1.05 * r.height;
  const x = Math.ceil(r.x + r.width * 0.3);
  let found = false;
  for (let y = Math.ceil(newY - 3); y <= newY + 3; ++y) if (colorDistance(pixel(png2, x, y), LINEAR_COLOR) < 60) found = true;
  assert.ok(found, `after the drag the line sits at 1/f = ${(1 / Number(after.factor)).toFixed(3)}`);
  assert.deepEqual(errors, []);
  await context.close();
  await assertFullStateRoundTrip(state);
});

test('rope: playing animates the rotating vector without changing the state', async () => {
  const { page, context, errors } = await openView('view=rope&play=1&pair=0&dim=64&target=256&orig=128&scaling=none');
  const c = await rect(page, 'canvas.rotation');
  const a = await screenshot(page, 'web-rope-play-a.png');
  await waitFrames(page, 20);
  const b = await screenshot(page, 'web-rope-play-b.png');
  assert.ok(changedFraction(a, b, c) > 0.002, 'the rotation canvas moved');
  assert.equal((await page.evaluate(() => window.posenc.getState())).pos, '0', 'animation does not rewrite the state');
  assert.deepEqual(errors, []);
  await context.close();
});

async function permutationPixels(query, name) {
  const { page, context, errors, state } = await openView(query);
  const png = await screenshot(page, name);
  const diff = await rect(page, 'heatmap.perm.difference');
  const pooled = await rect(page, 'heatmap.perm.pooled');
  const out = await rect(page, 'heatmap.perm.output');
  return { page, context, errors, state, png, diff, pooled, out };
}

test('permutation: without PE the shuffled output is the same rows permuted and the pooled output is identical', async () => {
  const n = 6, d = 16;
  const { page, context, errors, state, png, diff, pooled, out } = await permutationPixels(
    `view=permutation&pe=none&shuffle=1&d=${d}&seed=1&sentence=${encodeURIComponent('the cat sat on the mat')}`,
    'web-permutation-none.png');
  for (let i = 0; i < n; ++i) {
    for (let j = 0; j < d; ++j) {
      const c = pixel(png, ...cellCenter(diff, n, d, i, j));
      assert.ok(colorDistance(c, WHITE) < 4, `difference (${i},${j}) is 0 (white), got ${c}`);
    }
  }
  for (let j = 0; j < d; ++j) {
    const a = pixel(png, ...cellCenter(pooled, 2, d, 0, j)), b = pixel(png, ...cellCenter(pooled, 2, d, 1, j));
    assert.ok(colorDistance(a, b) < 3, `pooled column ${j}: mean(O) == mean(O')`);
  }
  // The outputs themselves are not blank.
  let colored = 0;
  for (let j = 0; j < d; ++j) if (colorDistance(pixel(png, ...cellCenter(out, n, d, 0, j)), WHITE) > 40) ++colored;
  assert.ok(colored > d / 3, 'output O has visible values');

  // Shuffle again: the state and the shuffled output change, the difference stays 0.
  const shuffled = await rect(page, 'heatmap.perm.shuffled');
  const button = await rect(page, 'button.shuffle');
  await page.mouse.click(button.x + button.width / 2, button.y + button.height / 2);
  await waitFrames(page, 3);
  assert.equal((await page.evaluate(() => window.posenc.getState())).shuffle, '2');
  const png2 = await screenshot(page, 'web-permutation-none-shuffled-again.png');
  assert.ok(changedFraction(png, png2, shuffled) > 0.2, 'the shuffled output changed');
  for (let i = 0; i < n; ++i) assert.ok(colorDistance(pixel(png2, ...cellCenter(diff, n, d, i, 3)), WHITE) < 4);
  assert.deepEqual(errors, []);
  await context.close();
  await assertFullStateRoundTrip(state);
});

for (const pe of ['sinusoidal', 'rope']) {
  test(`permutation: with ${pe} the shuffled output differs`, async () => {
    const n = 6, d = 16;
    const { context, errors, png, diff, pooled } = await permutationPixels(
      `view=permutation&pe=${pe}&shuffle=1&d=${d}&seed=1`, `web-permutation-${pe}.png`);
    let nonzero = 0;
    for (let i = 0; i < n; ++i)
      for (let j = 0; j < d; ++j) if (colorDistance(pixel(png, ...cellCenter(diff, n, d, i, j)), WHITE) > 15) ++nonzero;
    assert.ok(nonzero > 5, `difference has visibly non-zero cells: ${nonzero}`);
    let pooledDiffers = 0;
    for (let j = 0; j < d; ++j)
      if (colorDistance(pixel(png, ...cellCenter(pooled, 2, d, 0, j)), pixel(png, ...cellCenter(pooled, 2, d, 1, j))) > 3) ++pooledDiffers;
    assert.ok(pooledDiffers > 0, 'pooled outputs differ in some dimension');
    assert.deepEqual(errors, []);
    await context.close();
  });
}
