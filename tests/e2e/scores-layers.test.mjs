// End-to-end, scores view with a model's layer (layer=<i>): gpt-oss-20b alternates 128-token sliding and
// full layers, each with an attention sink. The sliding layer masks keys 128 or more behind the query
// (transformers masking_utils.sliding_window_overlay: kv_idx > q_idx - W), the full layer does not; both
// draw the sink as an extra last column of the logits and weights. Checked on the probed pixels and on
// the exact export (masked cells null, each weights row + its sink weight = 1). Screenshots at the four
// frame sizes, both themes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useBrowser, openState, waitFrames, itemRect, screenshot, cellPixel, colorDistance, exportJson, table,
  column, PHONE,
} from './harness.mjs';

const env = useBrowser();

const MASKED = [140, 140, 148];  // heatmap.cpp: masked cells (0.55, 0.55, 0.58)
const N = 160;                   // past the window W = 128
const K = Math.ceil(N / 24);     // cells the sink column spans in the picture (scores_view.cpp sink_cells)

async function openLayer(layer, extra = '') {
  const opened = await openState(env, `view=scores&model=gpt-oss-20b&layer=${layer}&n=${N}${extra}`, { tab: 'load' });
  await opened.page.mouse.move(1, 1);
  await waitFrames(opened.page, 2);
  return opened;
}

test('scores: gpt-oss sliding layer masks keys outside the window, the full layer does not; sink column', async () => {
  const seen = {};
  for (const layer of [0, 1]) {
    const { page, context, errors } = await openLayer(layer);
    const state = await page.evaluate(() => window.posenc.getState());
    assert.equal(state.layer, String(layer));
    assert.equal(state.causal, '1', 'a model with sliding layers and sinks turns the causal mask on');
    const notices = await page.evaluate(() => window.posenc.notices());
    assert.ok(!/layer=/.test(notices), `no layer notice: ${notices}`);
    await itemRect(page, 'text.scores.layer');
    // The sink column: one cell wide, at the right edge of the weights image.
    const sinkRect = await page.evaluate(() => window.posenc.itemRect('heatmap.scores.weights.sink'));
    const weightsRect = await itemRect(page, 'heatmap.scores.weights');
    assert.ok(sinkRect && sinkRect.width > 0 && Math.abs(sinkRect.x + sinkRect.width - weightsRect.x - weightsRect.width) < 1,
      `sink column at the right of the weights: ${JSON.stringify(sinkRect)}`);
    const png = await screenshot(page, `web-scores-gpt-oss-layer${layer}.png`);
    // Logits and weights: N rows, N + 1 columns (the sink last).
    for (const name of ['heatmap.scores.logits', 'heatmap.scores.weights']) {
      const r = await itemRect(page, name);
      const px = (i, j) => cellPixel(png, r, N, N + K, i, j);
      // Always masked: keys after the query. Inside the window: never.
      for (const [i, j] of [[10, 100], [150, 155]]) assert.ok(colorDistance(px(i, j), MASKED) < 8, `${name} (${i},${j}) after the query`);
      for (const [i, j] of [[150, 140], [150, 30], [100, 0]]) assert.ok(colorDistance(px(i, j), MASKED) > 20, `${name} (${i},${j}) in the window`);
      // 150 - 10 = 140 >= 128: outside the sliding window.
      const far = colorDistance(px(150, 10), MASKED);
      if (layer === 0) assert.ok(far < 8, `${name} (150,10) masked on the sliding layer, got ${px(150, 10)}`);
      else assert.ok(far > 20, `${name} (150,10) visible on the full layer, got ${px(150, 10)}`);
      // The sink column is never masked.
      for (const i of [0, 80, 159]) assert.ok(colorDistance(px(i, N + K / 2), MASKED) > 20, `${name} sink column row ${i}`);
    }
    // The exact export: masked cells are null; weights + sink = 1 per row.
    const exported = await exportJson(page);
    const logits = table(exported, 'logits');
    const weights = table(exported, 'weights');
    const sink = column(table(exported, 'sink'), 'sink_weight');
    assert.equal(sink.length, N);
    const at = (t, i, j) => t.rows[i][1 + j];
    assert.equal(at(logits, 150, 155), null);
    assert.equal(at(logits, 150, 10) === null, layer === 0, `logit (150,10) masked iff sliding (layer ${layer})`);
    assert.equal(typeof at(logits, 150, 30), 'number');
    for (const i of [0, 50, 159]) {
      let sum = 0;
      for (let j = 0; j < N; ++j) sum += at(weights, i, j) ?? 0;
      assert.ok(Math.abs(sum + sink[i] - 1) < 1e-12, `row ${i}: weights ${sum} + sink ${sink[i]} = 1`);
      assert.ok(sink[i] > 0 && sink[i] < 1);
    }
    seen[layer] = at(weights, 150, 30);
    assert.deepEqual(errors, []);
    await context.close();
  }
  // The sliding layer's softmax runs over fewer keys: the same visible cell weighs more there.
  assert.ok(seen[0] > seen[1], `weight (150,30): sliding ${seen[0]} > full ${seen[1]}`);
});

test('scores: drop_rope scores the same q, k without the rotation; layer out of range is named', async () => {
  const a = await openLayer(1, '&seed=3');
  const withRope = table(await exportJson(a.page), 'logits');
  await a.context.close();
  const b = await openLayer(1, '&seed=3&drop_rope=1');
  const dropped = table(await exportJson(b.page), 'logits');
  assert.equal(await b.page.evaluate(() => window.posenc.getState().drop_rope), '1');
  // The rotation (and YaRN's cos/sin magnitude) gone: the visible logits change.
  assert.notEqual(dropped.rows[40][11], withRope.rows[40][11]);
  assert.notEqual(dropped.rows[40][40], withRope.rows[40][40]);
  await b.context.close();
  const c = await openState(env, 'view=scores&model=gpt-oss-20b&layer=99', { tab: 'load' });
  const notices = await c.page.evaluate(() => window.posenc.notices());
  assert.match(notices, /layer/);
  await c.context.close();
});

test('scores layer screenshots: four sizes, both themes', async () => {
  const sizes = [
    ['desktop-1280x800', { width: 1280, height: 800 }, ''],
    ['column-720x480', { width: 720, height: 480 }, ''],
    ['embed-400x300', { width: 400, height: 300 }, '&embed=1'],
    ['phone-390x844', PHONE, ''],
  ];
  // The pictures are the subject, not the load: one page per device kind (sharedPage), brought to each
  // theme and size.
  for (const theme of ['dark', 'light'])
    for (const [name, viewport, extra] of sizes) {
      const { page, context, errors } = await openState(env, `view=scores&model=gpt-oss-20b&layer=0&n=200&theme=${theme}${extra}`,
        { ...viewport, reuse: true });
      await page.mouse.move(1, 1);
      await waitFrames(page, 2);
      // docs/sizes/<size>-scores-layer[-light].png are these pictures.
      await screenshot(page, `${name}-scores-layer${theme === 'light' ? '-light' : ''}.png`);
      assert.deepEqual(errors, []);
      await context.close();
    }
});
