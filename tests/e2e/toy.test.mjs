// End-to-end, toy sentence view: the seed example's score signs with no PE, absolute, relative and RoPE,
// reversing the words only permutes the no-PE scores, and a theta drag changes only RoPE.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useBrowser, openState, openControls, openDeepLink, itemRect, dragSlider, screenshot, waitFrames, cellPixel, changedFraction, colorDistance,
  typeIntoField,
} from './harness.mjs';

const env = useBrowser();

const TOY = 'view=toy&x1=1,0&x2=0,1&x3=1,1&p1=0.1,0.2&p2=0.2,0.3&p3=0.3,0.4&bias=0,2,-1&theta=0.5&order=forward&show=scores';

test('toy: the seed example gives the expected signs, and reversing the words only permutes no-PE scores', async () => {
  const { page, context, errors, png } = await openDeepLink(env, TOY, { exact: true, shot: 'web-toy.png', reuse: true });
  const rect = {};
  for (const k of ['none', 'absolute', 'relative', 'rope']) rect[k] = await itemRect(page, `heatmap.toy.${k}`);
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
  await dragSlider(page, await itemRect(page, 'slider.theta'), 0.5, 0.9);
  const after = await screenshot(page, 'web-toy-after-drag.png');
  assert.ok(Number((await page.evaluate(() => window.posenc.getState())).theta) > 0.5, 'theta grew');
  assert.ok(changedFraction(before, after, rect.rope, 6) > 0.2, 'the RoPE matrix changed after the drag');
  assert.ok(changedFraction(before, after, rect.none, 6) < 0.02, 'the no-PE matrix did not');
  assert.deepEqual(errors, []);
  await context.close();
});

test('toy: a vector field takes typing on a single click; a value outside [-10, 10] is said, not clamped', async () => {
  for (const [size, theme] of [[{ width: 1280, height: 800 }, 'dark'], [{ width: 720, height: 900 }, 'light']]) {
    const { page, context, errors } = await openState(env, `${TOY}&theme=${theme}`, { ...size, tab: 'toy' });
    await openControls(page, 'input.x1');
    const type = (key, text) => typeIntoField(page, key, text);  // one click, no double-click
    let { state, notices } = await type('x1', '2, -0.5');
    assert.equal(state.x1, '2,-0.5', 'typed after a single click');
    assert.deepEqual(notices, []);
    ({ state, notices } = await type('x1', '50,0'));
    assert.equal(state.x1, '2,-0.5', '50 is not clamped to 10: the value stays');
    assert.deepEqual(notices.map((n) => n.key), ['x1']);
    assert.match(notices[0].message, /"50,0" has a number outside \[-10, 10\]: not applied \(x1 is 2,-0.5\)/);
    await itemRect(page, 'notice');
    await screenshot(page, `toy-value-rejected-${size.width}-${theme}.png`);
    ({ state, notices } = await type('bias', '0,3,x'));
    assert.equal(state.bias, '0,2,-1');
    assert.ok(notices.some((n) => n.key === 'bias' && /needs 3 comma-separated numbers/.test(n.message)), JSON.stringify(notices));
    assert.deepEqual(errors, []);
    await context.close();
  }
});

