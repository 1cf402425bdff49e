// End-to-end, draw only on change: an idle view draws no frames and its main loop is paused (no animation
// frames are even requested); input, setState and resizes wake it at once, and an animation (RoPE's
// play) keeps drawing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openState, waitReady } from './harness.mjs';

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

test('idle: the main loop is paused (no animation frames requested); each kind of input wakes it', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1000, height: 700 } });
  // Count the animation frames the page requests (Emscripten's loop asks for one per tick).
  await context.addInitScript(() => {
    const raf = window.requestAnimationFrame.bind(window);
    window.__rafCalls = 0;
    window.requestAnimationFrame = (cb) => { window.__rafCalls++; return raf(cb); };
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(String(err)));
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  await page.goto(`${env.server.url}/?view=waves`);
  await waitReady(page);
  await page.mouse.move(1, 1);
  const idle = async () => {
    const f = await settled(page);
    await page.waitForFunction(() => window.Module._posenc_sleeping() === 1, null, { timeout: 5000 });
    const calls = await page.evaluate(() => window.__rafCalls);
    assert.equal(await countAfter2s(page), f, 'no frames');
    assert.equal(await page.evaluate(() => window.__rafCalls), calls, 'no animation frames requested while idle');
    return f;
  };
  const wakes = async (what, act) => {
    const f = await idle();
    await act();
    await page.waitForFunction((c) => window.posenc.frameCount() > c, f, { timeout: 5000 });
    assert.ok(true, what);
  };
  const plot = await page.evaluate(() => window.posenc.itemRect('plot.pe'));
  await wakes('a mouse move', () => page.mouse.move(plot.x + 40, plot.y + 40));
  await wakes('a click', () => page.mouse.click(5, 300));
  await wakes('a key', () => page.keyboard.press('ArrowRight'));
  await wakes('the wheel', () => page.mouse.wheel(0, 120));
  await wakes('a resize', () => page.setViewportSize({ width: 900, height: 650 }));
  await wakes('setState', () => page.evaluate(() => window.posenc.setState({ n: '40' })));
  await wakes('wake()', () => page.evaluate(() => window.posenc.wake()));
  await idle();
  assert.deepEqual(errors, []);
  await context.close();
});
