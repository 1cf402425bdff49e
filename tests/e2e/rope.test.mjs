// End-to-end, RoPE view: the linear-scaling ratio sits at 1/f and moves with a drag of f, the decay bound
// starts at 1 and falls, and playing animates the rotation without touching the state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useBrowser, openDeepLink, assertStateRoundTrip, itemRect, dragSlider, screenshot, waitFrames, pixel, changedFraction, colorDistance,
} from './harness.mjs';

const env = useBrowser();

const LINEAR_COLOR = [230, 159, 0];  // rope_view.cpp: linear scaling = palette_color(1)
const PLAIN_COLOR = [86, 180, 233];  // rope_view.cpp: no scaling = palette_color(0)

test('rope: linear scaling ratio is flat at 1/f, the decay bound starts at 1 and falls, a drag of f moves the line', async () => {
  const f = 4;
  const { page, context, errors, state } = await openDeepLink(env, 
    `view=rope&scaling=linear&factor=${f}&compare=0&play=0&dim=64&orig=4096&target=16384&pos=1000&pair=20`, { reuse: true });
  const png = await screenshot(page, 'web-rope-linear.png');
  const r = await itemRect(page, 'plot.ratio');
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
  const decay = await itemRect(page, 'plot.decay');
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

  await dragSlider(page, await itemRect(page, 'slider.factor'), 0.2, 0.7);
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
  await assertStateRoundTrip(env, state);
});

test('rope: playing animates the rotating vector without changing the state', async () => {
  const { page, context, errors } = await openDeepLink(env, 'view=rope&play=1&pair=0&dim=64&target=256&orig=128&scaling=none', { reuse: true });
  const c = await itemRect(page, 'canvas.rotation');
  const a = await screenshot(page, 'web-rope-play-a.png');
  await waitFrames(page, 20);
  const b = await screenshot(page, 'web-rope-play-b.png');
  assert.ok(changedFraction(a, b, c, 5) > 0.002, 'the rotation canvas moved');
  assert.equal((await page.evaluate(() => window.posenc.getState())).pos, '0', 'animation does not rewrite the state');
  assert.deepEqual(errors, []);
  await context.close();
});
