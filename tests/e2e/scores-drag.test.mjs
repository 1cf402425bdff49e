// End-to-end, a slider dragged at full size: the scores view at n = 2048 (Transformer-XL, six 2048 x 2048
// tiles) keeps drawing frames while its base slider is dragged (a coarser preview grid while the drag
// lasts, never a frozen frame), and once the drag ends the picture is the full one: pixel for pixel what a
// fresh page opened at the same state draws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openState, itemRect, waitFrames, waitAsleep } from './harness.mjs';

const env = useBrowser();
const QUERY = 'view=scores&scheme=xl&n=2048&d=64';
const TILES = ['heatmap.scores.term0', 'heatmap.scores.term1', 'heatmap.scores.term2', 'heatmap.scores.term3',
  'heatmap.scores.logits', 'heatmap.scores.weights'];

// Waits (waking the app) until a few frames are drawn and then the app is idle (its main loop paused:
// nothing left to draw): the picture is final.
async function settle(page) {
  await waitFrames(page, 3);
  await waitAsleep(page, 30000);
}

// The tiles' pixels (each heatmap image's rectangle on the canvas).
async function tilePixels(page) {
  const out = {};
  for (const name of TILES) {
    const r = await itemRect(page, name);
    out[name] = await page.screenshot({ clip: { x: r.x, y: r.y, width: r.width, height: r.height } });
  }
  return out;
}

test('scores drag at n = 2048 (XL): frames keep coming during the drag; the final picture is the full one', async () => {
  const { page, context, errors } = await openState(env, QUERY);
  await settle(page);
  const slider = await itemRect(page, 'slider.base');
  const y = slider.y + slider.height / 2;
  const x = (f) => slider.x + slider.width * f;

  await page.mouse.move(x(0.30), y);
  await page.mouse.down();
  await waitFrames(page, 2);
  const before = await page.evaluate(() => ({ frames: window.posenc.frameCount(), t: performance.now() }));
  // About two seconds of dragging: a step every 40 ms, each one a new base (a recompute).
  const steps = 50;
  for (let i = 1; i <= steps; ++i) {
    await page.mouse.move(x(0.30 + 0.4 * i / steps), y);
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
  const during = await page.evaluate(() => ({ frames: window.posenc.frameCount(), t: performance.now() }));
  await page.mouse.up();
  await page.mouse.move(1, 1);
  await settle(page);

  // Every step of the drag is answered by at least one frame (no move swallowed by a full recompute). A
  // count, not a rate: the suite runs two files at once on two cores, so wall time is not the app's.
  const drawn = during.frames - before.frames;
  assert.ok(drawn >= steps, `frames during the drag: ${drawn} for ${steps} steps in ${(during.t - before.t).toFixed(0)} ms (>= one a step)`);

  const state = await page.evaluate(() => window.posenc.getState());
  assert.notEqual(state.base ?? '10000', '10000', `the drag moved base off its default: ${JSON.stringify(state)}`);
  const dragged = await tilePixels(page);
  assert.deepEqual(errors, []);

  // The same state opened fresh (never dragged): the same pixels in every tile.
  const fresh = await openState(env, new URLSearchParams(state).toString());
  await fresh.page.mouse.move(1, 1);
  await settle(fresh.page);
  const still = await tilePixels(fresh.page);
  for (const name of TILES) assert.ok(dragged[name].equals(still[name]), `${name}: the dragged page's picture equals the fresh page's`);
  assert.deepEqual(fresh.errors, []);
  await fresh.context.close();
  await context.close();
});
