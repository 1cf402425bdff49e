// End-to-end, draw only on change: an idle view draws no frames; input, setState and resizes wake it at
// once, and an animation (RoPE's play) keeps drawing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openState } from './harness.mjs';

const env = useBrowser();

// Waits (without waking the app) until its frame count stops moving; returns it.
async function settled(page) {
  await page.waitForFunction(() => new Promise((resolve) => {
    const f = window.posenc.frameCount();
    setTimeout(() => resolve(window.posenc.frameCount() === f), 300);
  }), null, { timeout: 20000, polling: 100 });
  return page.evaluate(() => window.posenc.frameCount());
}
// The frame count after a 2 s wait in the page (a fact: equal or not, whatever the machine's speed).
async function countAfter2s(page) {
  return page.evaluate(() => new Promise((resolve) => setTimeout(() => resolve(window.posenc.frameCount()), 2000)));
}

test('idle: frameCount() stays constant on an idle view=waves; input wakes it', async () => {
  const { page, context, errors } = await openState(env, 'view=waves');
  await page.mouse.move(1, 1);
  const f0 = await settled(page);
  assert.equal(await countAfter2s(page), f0, 'no frames while nothing changes');

  await page.mouse.move(640, 500);
  await page.waitForFunction((c) => window.posenc.frameCount() > c, f0, { timeout: 5000 });
  const f1 = await settled(page);
  await page.evaluate(() => window.posenc.setState({ n: '32' }));
  await page.waitForFunction((c) => window.posenc.frameCount() > c, f1, { timeout: 5000 });
  const f2 = await settled(page);
  await page.keyboard.press('Shift');
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.waitForFunction((c) => window.posenc.frameCount() > c, f2, { timeout: 5000 });
  const f3 = await settled(page);
  assert.equal(await countAfter2s(page), f3, 'idle again after the changes');
  assert.deepEqual(errors, []);
  await context.close();
});

test('idle: RoPE playing keeps drawing, paused it does not', async () => {
  const { page, context, errors } = await openState(env, 'view=rope&play=1');
  await page.mouse.move(1, 1);
  const a = await page.evaluate(() => window.posenc.frameCount());
  assert.ok(await countAfter2s(page) > a, 'the animation draws');
  await page.evaluate(() => window.posenc.setState({ play: '0' }));
  const f = await settled(page);
  assert.equal(await countAfter2s(page), f, 'paused: idle');
  assert.deepEqual(errors, []);
  await context.close();
});
