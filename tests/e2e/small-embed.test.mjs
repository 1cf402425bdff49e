// End-to-end, what a small embed shows (docs/embedding.md, "An embed fits its frame"): a frame too small for
// every figure shows the view's main figure alone (window.posenc.figures(view)[0]), and that figure is never
// blank or flat, for every view's own defaults and for the seeds' examples, at 366x331 (a phone column's
// embed) in both languages. The permutation view's is the two outputs side by side: without PE the rows of
// O' are the rows of O in the shuffled order, which a reader sees (its difference map is white by design).
//
// Blank or flat is measured on the figure's pixels (its plot.<name> probe: a map's image, a line plot's frame):
// - variance of the luminance over the figure above VARIANCE_MIN = 100 (a standard deviation of 10 of 255
//   levels). A map of one colour has 0; the RoPE difference map of 我不爱你 / 不我爱你 (max |O'-O| = 0.18 on
//   a scale of 2.7: every cell within a few levels of white) reads as blank and measures 11; the figures of
//   the defaults and the seeds' examples measure 549 (a line plot) to 4397 (printed by the test).
// - data colours on at least COLOURED_MIN = 0.5% of the figure: every colormap and every data curve is
//   coloured, while what a figure draws without data (background, frame, grid, tick labels, reference
//   lines) is grey. A line plot with no curve passes the variance test on its grid and reference line alone
//   (the frequencies plot with no schedule: 347), not this one (0%); the thinnest curves of the defaults and
//   the seeds' examples cover 1.4% (the RoPE view's angles, linear interpolation).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, sharedPage, screenshot, exportJson, table, cellPixel, colorDistance, luminance } from './harness.mjs';

const env = useBrowser();
const SIZE = { width: 366, height: 331 };
const VARIANCE_MIN = 100;
const COLOURED_MIN = 0.005;

// The figure's pixels inside rectangle r of the screenshot: luminance variance and the share of coloured
// pixels (largest minus smallest channel over 40 of 255).
function figurePixels(png, r) {
  let sum = 0, sum2 = 0, coloured = 0, count = 0;
  for (let y = Math.ceil(r.y); y < Math.floor(r.y + r.height); ++y) {
    for (let x = Math.ceil(r.x); x < Math.floor(r.x + r.width); ++x) {
      const i = (y * png.width + x) * 4;
      const rgb = [png.data[i], png.data[i + 1], png.data[i + 2]];
      const l = luminance(rgb);
      sum += l, sum2 += l * l, ++count;
      if (Math.max(...rgb) - Math.min(...rgb) > 40) ++coloured;
    }
  }
  const mean = sum / count;
  return { variance: sum2 / count - mean * mean, coloured: coloured / count, count };
}

// The small embed of `query` (embed=1 added) at 366x331: the figure it shows alone and that figure's pixels.
async function smallEmbed(query, shot) {
  const opened = await sharedPage(env, `${query}&embed=1`, SIZE);
  const { page } = opened;
  const probes = await page.evaluate(() => window.posenc.probes());
  const plots = probes.filter((p) => p.startsWith('plot.'));
  assert.equal(plots.length, 1, `${query}: one figure alone (${probes})`);
  const figure = plots[0].slice('plot.'.length);
  const rect = await page.evaluate((n) => window.posenc.itemRect(n), `plot.${figure}`);
  const png = await screenshot(page, shot);
  return { ...opened, figure, rect, png, pixels: figurePixels(png, rect) };
}

function assertShowsSomething({ pixels, rect, figure }, query) {
  const what = `${query}: plot.${figure} ${Math.round(rect.width)}x${Math.round(rect.height)}, variance ` +
    `${pixels.variance.toFixed(1)}, coloured ${(100 * pixels.coloured).toFixed(1)}%`;
  console.log(what);
  assert.ok(rect.width >= 120 && rect.height >= 100, `${what}: readable`);
  assert.ok(pixels.variance > VARIANCE_MIN, `${what}: not blank or flat`);
  assert.ok(pixels.coloured >= COLOURED_MIN, `${what}: draws data`);
}

const shotName = (query) => `small-embed-${query.replace(/[^a-z0-9=]+/gi, '_')}.png`;

test('permutation: the small embed of the seeds\' 我不爱你 shows O and O\' side by side, rows labelled, in both languages', async () => {
  for (const lang of ['en', 'zh']) {
    const query = `view=permutation&sentence=${encodeURIComponent('我不爱你')}&shuffle=4&lang=${lang}`;
    const shown = await smallEmbed(query, `small-embed-permutation-${lang}.png`);
    const { page, errors, png } = shown;
    assert.equal(shown.figure, 'outputs');
    assertShowsSomething(shown, query);
    // The point: without PE, row r of O' is row perm[r] of O (the same token's row, same colours).
    const out = await page.evaluate(() => window.posenc.itemRect('heatmap.perm.output'));
    const shuffled = await page.evaluate(() => window.posenc.itemRect('heatmap.perm.shuffled'));
    assert.ok(out && shuffled && out.x + out.width <= shuffled.x, 'O left of O\'');
    const data = await exportJson(page);
    const perm = table(data, 'perm').rows.map((row) => row[1]);
    assert.deepEqual(data.tokens_shuffled, ['不', '我', '爱', '你']);
    const n = perm.length, d = table(data, 'output').rows[0].length - 1;
    let unlike = 0;
    for (let r = 0; r < n; ++r)
      for (let j = 0; j < d; ++j)
        if (colorDistance(cellPixel(png, shuffled, n, d, r, j), cellPixel(png, out, n, d, perm[r], j)) > 6) ++unlike;
    assert.equal(unlike, 0, `${lang}: every row of O' has the colours of its token's row in O`);
    assert.deepEqual(errors, []);
  }
});

test('the measure calls a blank map and a plot without curves blank', async () => {
  // The difference map alone (figure=difference) is what the permutation small embed showed before: white
  // for NoPE by design. The RoPE one of the same sentence is pale.
  const query = `view=permutation&sentence=${encodeURIComponent('我不爱你')}&shuffle=4&lang=en`;
  const none = await smallEmbed(`${query}&figure=difference`, 'small-embed-permutation-difference-none.png');
  assert.equal(none.figure, 'difference');
  assert.ok(none.pixels.variance < VARIANCE_MIN, `the NoPE difference map measures blank: ${none.pixels.variance}`);
  const rope = await smallEmbed(`${query}&pe=rope&figure=difference`, 'small-embed-permutation-difference-rope.png');
  assert.ok(rope.pixels.variance < VARIANCE_MIN, `the pale RoPE difference map measures blank: ${rope.pixels.variance}`);
  // The frequencies plot with no schedule: frame, grid and the n reference line, no data curve.
  const empty = await smallEmbed('view=frequencies&schedules=&lang=en', 'small-embed-frequencies-empty.png');
  assert.ok(empty.pixels.coloured < COLOURED_MIN, `no curve, no data colours: ${empty.pixels.coloured}`);
  assert.deepEqual(empty.errors, []);
});

// The seeds' examples (SPEC.md's "seeds"), as states of the views that show them.
const SEED_EXAMPLES = [
  // 我不爱你 / 不我爱你 (limingqi, cnblogs 19005998), 猫坐在垫子上 / 垫子坐在猫上, I like apples / apples like I,
  // each without PE and with sinusoidal PE or RoPE.
  ...['none', 'sinusoidal', 'rope'].flatMap((pe) => [
    `view=permutation&sentence=${encodeURIComponent('我不爱你')}&shuffle=4&pe=${pe}`,
    `view=permutation&sentence=${encodeURIComponent('猫坐在垫子上')}&shuffle=259&pe=${pe}`,
    `view=permutation&sentence=${encodeURIComponent('I like apples')}&shuffle=2&pe=${pe}`,
  ]),
  // The 3-token toy ("I like apples" as 2-D vectors, bias 0 / +2 / -1) and its reversed order.
  'view=toy', 'view=toy&order=reversed', 'view=toy&show=weights',
  // Position as an integer, in [0, 1], as binary digits, sine only, sin/cos (d_model = 128, the seed's
  // plot; max_len = 100, d_model = 64, its numpy code), a learned table.
  'view=waves&scheme=integer', 'view=waves&scheme=normalised', 'view=waves&scheme=binary', 'view=waves&scheme=sine_only',
  'view=waves&scheme=sinusoidal&d=128', 'view=waves&scheme=sinusoidal&n=100&d=64', 'view=waves&scheme=learned',
  // Geometric vs linear frequencies, and "what if the frequencies increase?".
  'view=frequencies&schedules=g', 'view=frequencies&schedules=l', 'view=frequencies&schedules=i',
  // sin alone depends on absolute positions, sin/cos only on their difference.
  'view=similarity&scheme=sine_only', 'view=similarity&scheme=sinusoidal', 'view=similarity&scheme=binary',
  // T5 buckets, Shaw's clip(j - i, k), DeBERTa's log buckets.
  'view=buckets&scheme=t5', 'view=buckets&scheme=shaw', 'view=buckets&scheme=deberta',
  // The four terms of absolute attention, Transformer-XL, T5, DeBERTa, RoPE, a learned relative bias
  // (Embedding(2 * 64 + 1, 8)), and no PE.
  'view=scores&scheme=sinusoidal', 'view=scores&scheme=xl', 'view=scores&scheme=t5', 'view=scores&scheme=deberta',
  'view=scores&scheme=rope', 'view=scores&scheme=learned&clip=64&heads=8', 'view=scores&scheme=none',
  // Position interpolation, NTK-aware, dynamic NTK.
  'view=rope&scaling=linear', 'view=rope&scaling=ntk', 'view=rope&scaling=dynamic',
];

test('every view\'s small embed at 366x331 shows a figure that is not blank or flat: its defaults, in both languages', async () => {
  const { page } = await sharedPage(env, 'view=waves&embed=1', SIZE);
  const views = await page.evaluate(() => window.posenc.views());
  for (const lang of ['en', 'zh']) {
    for (const view of views) {
      const query = `view=${view}&lang=${lang}`;
      if (view === 'usage') {
        // Nothing to draw until a weights report is loaded (usage.test.mjs draws a loaded one in an
        // embed): the introduction says what the view shows and how to load one.
        const { page: p, errors } = await sharedPage(env, `${query}&embed=1`, SIZE);
        assert.ok((await p.evaluate(() => window.posenc.probes())).includes('text.usage.intro'), `${query}: its introduction`);
        assert.deepEqual(errors, []);
        continue;
      }
      const shown = await smallEmbed(query, shotName(query));
      assertShowsSomething(shown, query);
      assert.deepEqual(shown.errors, []);
    }
  }
});

test('the seeds\' examples as small embeds at 366x331 show a figure that is not blank or flat', async () => {
  const examples = [...SEED_EXAMPLES.map((e) => `${e}&lang=en`),
    ...SEED_EXAMPLES.filter((e) => e.startsWith('view=permutation')).map((e) => `${e}&lang=zh`)];
  for (const example of examples) {
    const shown = await smallEmbed(example, shotName(example));
    assertShowsSomething(shown, example);
    assert.equal(await shown.page.evaluate(() => window.posenc.notices()), '', `${example}: a valid state`);
    assert.deepEqual(shown.errors, []);
  }
});
