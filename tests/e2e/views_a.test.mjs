// End-to-end: the similarity, bias-bucket and toy-sentence views in headless Chromium. Each deep link
// restores its state, draws the structure the view is about (checked on the pixels of the probed
// heatmaps), and a slider drag changes the picture.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  serveSite, launchBrowser, openPage, waitReady, waitFrames, screenshot, pixel, VIRIDIS, colorDistance,
} from './harness.mjs';

let server, browser;
before(async () => { server = await serveSite(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

// Colour at a point inside cell (row, col) of a rows x cols heatmap drawn in rect r; (fx, fy) in [0, 1]
// place the point within the cell (0.5 = centre).
function cellPixel(png, r, rows, cols, row, col, fx = 0.5, fy = 0.5) {
  return pixel(png, r.x + (col + fx) * r.width / cols, r.y + (row + fy) * r.height / rows);
}
const luminance = ([r, g, b]) => 0.2126 * r + 0.7152 * g + 0.0722 * b;

// Opens /?<query>, waits for frames, checks the state round-trip and the console; returns the page.
async function openView(query, shotName) {
  const opened = await openPage(browser, `${server.url}/?${query}`);
  await waitReady(opened.page);
  await waitFrames(opened.page, 3);
  const expected = Object.fromEntries(new URLSearchParams(query));
  assert.deepEqual(await opened.page.evaluate(() => window.posenc.getState()), expected, 'getState() equals the URL state');
  assert.equal(await opened.page.evaluate(() => window.posenc.notices()), '', 'no notices for a valid deep link');
  // Park the mouse away from the heatmaps so no tooltip covers them.
  await opened.page.mouse.move(1, 1);
  await waitFrames(opened.page, 2);
  opened.png = await screenshot(opened.page, shotName);
  return opened;
}

async function rectOf(page, name) {
  const r = await page.evaluate((n) => window.posenc.itemRect(n), name);
  assert.ok(r && r.width > 10 && r.height > 10, `${name} is drawn: ${JSON.stringify(r)}`);
  return r;
}

// Drags the probed slider from its middle to the right; returns the screenshot afterwards.
async function dragSlider(page, name, shotName) {
  const s = await rectOf(page, name);
  const y = s.y + s.height / 2;
  await page.mouse.move(s.x + s.width * 0.5, y);
  await page.mouse.down();
  for (let i = 1; i <= 8; ++i) await page.mouse.move(s.x + s.width * (0.5 + 0.05 * i), y);
  await page.mouse.up();
  await page.mouse.move(1, 1);
  await waitFrames(page, 3);
  return screenshot(page, shotName);
}

function changedFraction(before, after, r) {
  let changed = 0, total = 0;
  for (let y = r.y + 2; y < r.y + r.height - 2; y += 6) {
    for (let x = r.x + 2; x < r.x + r.width - 2; x += 6) {
      ++total;
      if (colorDistance(pixel(before, x, y), pixel(after, x, y)) > 30) ++changed;
    }
  }
  return changed / total;
}

const SIMILARITY = 'view=similarity&scheme=sinusoidal&n=64&d=32&base=10000&pstep=8&max_len=512&seed=0';

test('similarity: sinusoidal P P^T is brightest on its diagonal and constant along diagonals; n drag redraws', async () => {
  const { page, context, errors, png } = await openView(SIMILARITY, 'web-similarity.png');
  const r = await rectOf(page, 'heatmap.similarity');
  for (const name of ['plot.curves_sinusoidal', 'plot.curves_sine_only', 'plot.neighbour']) await rectOf(page, name);
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
  const after = await dragSlider(page, 'slider.n', 'web-similarity-after-drag.png');
  const state = await page.evaluate(() => window.posenc.getState());
  assert.ok(Number(state.n) > 64, `n grew after the drag: ${state.n}`);
  assert.ok(changedFraction(png, after, r) > 0.2, 'heatmap changed after the drag');
  assert.deepEqual(errors, [], 'no console errors');
  await context.close();
});

test('similarity: sine-only P P^T depends on absolute position (P_0 = 0, diagonal not constant)', async () => {
  const { page, context, errors, png } = await openView(SIMILARITY.replace('sinusoidal', 'sine_only'), 'web-similarity-sine-only.png');
  const r = await rectOf(page, 'heatmap.similarity');
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
  const { page, context, errors } = await openPage(browser, `${server.url}/?view=similarity&n=4096&d=8&scheme=binary`);
  await waitReady(page);
  await waitFrames(page, 3);
  await screenshot(page, 'web-similarity-binary-too-few-bits.png');
  assert.equal((await page.evaluate(() => window.posenc.getState())).n, '4096');
  assert.equal(await page.evaluate(() => window.posenc.itemRect('heatmap.similarity')), null, 'no heatmap when d bits cannot code n');
  await page.evaluate(() => window.posenc.setState({ scheme: 'sinusoidal', d: '64' }));
  await waitFrames(page, 3);
  const r = await rectOf(page, 'heatmap.similarity');
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

const BUCKETS = 'view=buckets&n=64&bidirectional=0&num_buckets=32&max_distance=128&seed=0&show=bucket' +
  '&bucket_size=32&max_position=512&clip=8&heads=8&head=0';

test('buckets: causal T5 matrix is a Toeplitz staircase with a uniform upper triangle', async () => {
  const { page, context, errors, png } = await openView(`${BUCKETS}&scheme=t5`, 'web-buckets-t5-causal.png');
  const r = await rectOf(page, 'heatmap.buckets');
  await rectOf(page, 'plot.buckets.index');
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
  const after = await dragSlider(page, 'slider.num_buckets', 'web-buckets-t5-after-drag.png');
  assert.ok(Number((await page.evaluate(() => window.posenc.getState())).num_buckets) > 32, 'num_buckets grew');
  assert.ok(changedFraction(png, after, r) > 0.1, 'the bucket matrix changed after the drag');
  assert.deepEqual(errors, []);
  await context.close();
});

test('buckets: ALiBi matrix is darkest far from the diagonal, symmetric in i and j', async () => {
  const { page, context, errors, png } = await openView(`${BUCKETS}&scheme=alibi`, 'web-buckets-alibi.png');
  const r = await rectOf(page, 'heatmap.buckets');
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
    const { page, context, errors, png } = await openView(`${BUCKETS}&scheme=${scheme}`, `web-buckets-${scheme}.png`);
    const r = await rectOf(page, 'heatmap.buckets');
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

const TOY = 'view=toy&x1=1,0&x2=0,1&x3=1,1&p1=0.1,0.2&p2=0.2,0.3&p3=0.3,0.4&bias=0,2,-1&theta=0.5&order=forward&show=scores';

test('toy: the seed example gives the expected signs, and reversing the words only permutes no-PE scores', async () => {
  const { page, context, errors, png } = await openView(TOY, 'web-toy.png');
  const rect = {};
  for (const k of ['none', 'absolute', 'relative', 'rope']) rect[k] = await rectOf(page, `heatmap.toy.${k}`);
  // Sample near a cell corner, away from the printed number. Rows and columns are positions 1..3.
  const cell = (png_, k, i, j) => cellPixel(png_, rect[k], 3, 3, i - 1, j - 1, 0.15, 0.15);
  // The diverging map is white (247) at 0; small scores (|s| ~ 0.3 of a range of 3.65) are pale.
  const white = (c) => c.every((v) => v > 240);
  const red = (c) => c[0] > c[2] + 12;
  const blue = (c) => c[2] > c[0] + 12;
  assert.ok(white(cell(png, 'none', 1, 2)), `no PE: x(I) . x(like) = 0 is white, got ${cell(png, 'none', 1, 2)}`);
  assert.ok(red(cell(png, 'none', 3, 3)), 'no PE: x(apples) . x(apples) = 2 is red');
  assert.ok(red(cell(png, 'relative', 2, 3)), 'relative: 1 + 2 = 3 is red');
  assert.ok(white(cell(png, 'relative', 1, 3)), `relative: 1 - 1 = 0 is white, got ${cell(png, 'relative', 1, 3)}`);
  assert.ok(blue(cell(png, 'rope', 1, 2)), `RoPE: -sin(theta) < 0 is blue, got ${cell(png, 'rope', 1, 2)}`);
  assert.ok(blue(cell(png, 'rope', 1, 3)), 'RoPE: cos(2 theta) - sin(2 theta) < 0 is blue');
  assert.ok(colorDistance(cell(png, 'absolute', 3, 3), cell(png, 'none', 3, 3)) > 20, 'absolute PE changes the scores');
  // q = k, so the RoPE score matrix is symmetric.
  assert.ok(colorDistance(cell(png, 'rope', 1, 2), cell(png, 'rope', 2, 1)) < 8, 'RoPE symmetric for q = k');

  // "apples like I": without PE the score matrix is the same matrix with rows and columns reversed. A larger
  // neighbour bias keeps the shared colour range (the largest |score| of all panels) the same in both orders.
  await page.evaluate(() => window.posenc.setState({ bias: '0,5,-1' }));
  await waitFrames(page, 3);
  const fwd = await screenshot(page, 'web-toy-forward.png');
  await page.evaluate(() => window.posenc.setState({ order: 'reversed' }));
  await waitFrames(page, 3);
  const rev = await screenshot(page, 'web-toy-reversed.png');
  for (let i = 1; i <= 3; ++i)
    for (let j = 1; j <= 3; ++j)
      assert.ok(colorDistance(cell(rev, 'none', i, j), cell(fwd, 'none', 4 - i, 4 - j)) < 8, `no PE permuted at (${i}, ${j})`);
  // With absolute PE the position vectors stay put while the words move: not a mere permutation.
  let changed = 0;
  for (let i = 1; i <= 3; ++i)
    for (let j = 1; j <= 3; ++j)
      if (colorDistance(cell(rev, 'absolute', i, j), cell(fwd, 'absolute', 4 - i, 4 - j)) > 8) ++changed;
  assert.ok(changed > 0, 'absolute PE is not just permuted when the words move');

  await page.evaluate(() => window.posenc.setState({ order: 'forward', bias: '0,2,-1' }));
  await waitFrames(page, 3);
  const before = await screenshot(page, 'web-toy-before-drag.png');
  const after = await dragSlider(page, 'slider.theta', 'web-toy-after-drag.png');
  assert.ok(Number((await page.evaluate(() => window.posenc.getState())).theta) > 0.5, 'theta grew');
  assert.ok(changedFraction(before, after, rect.rope) > 0.2, 'the RoPE matrix changed after the drag');
  assert.ok(changedFraction(before, after, rect.none) < 0.02, 'the no-PE matrix did not');
  assert.deepEqual(errors, []);
  await context.close();
});
