// End-to-end, draw only on change: an idle view draws no frames and its main loop is paused (no animation
// frames are even requested); input, setState and resizes wake it at once, and an animation (RoPE's
// play) keeps drawing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openState, waitReady, waitAsleep } from './harness.mjs';

const env = useBrowser();

// Waits (without waking the app) until its main loop is paused (_posenc_sleeping(): the app's own idle
// state); returns the frame count then.
const settled = (page) => waitAsleep(page);
// The frame count after `ms` in the page (a fact: equal or not, whatever the machine's speed). The long
// window (2 s) once per test; between the wakes of one test, the loop's paused state plus a short window.
async function countAfter(page, ms = 2000) {
  return page.evaluate((t) => new Promise((resolve) => setTimeout(() => resolve(window.posenc.frameCount()), t)), ms);
}
const countAfter2s = (page) => countAfter(page, 2000);

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
  // The animation draws: frames keep coming with nothing waking the app (waited on, not timed).
  await page.waitForFunction((c) => window.posenc.frameCount() >= c + 10, a, { timeout: 10000 });
  assert.equal(await page.evaluate(() => window.Module._posenc_sleeping()), 0, 'the main loop runs');
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
  const idle = async (ms = 250) => {
    const f = await settled(page);
    const calls = await page.evaluate(() => window.__rafCalls);
    assert.equal(await countAfter(page, ms), f, 'no frames');
    assert.equal(await page.evaluate(() => window.Module._posenc_sleeping()), 1, 'the main loop stays paused');
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
  await idle(2000);
  assert.deepEqual(errors, []);
  await context.close();
});

test('idle: a frame equal to the one on the canvas is not drawn again; every change is, and shows its state', async () => {
  const context = await env.browser.newContext({ viewport: { width: 900, height: 600 } });
  // Count the frames drawn onto the page's canvas: each clears it first (the heatmaps colour their own
  // textures, which are not the canvas).
  await context.addInitScript(() => {
    window.__canvasClears = 0;
    const clear = WebGL2RenderingContext.prototype.clear;
    WebGL2RenderingContext.prototype.clear = function (mask) {
      if (this.getParameter(this.FRAMEBUFFER_BINDING) === null) window.__canvasClears++;
      return clear.call(this, mask);
    };
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.goto(`${env.server.url}/?view=buckets&controls=0`);
  await waitReady(page);
  await page.mouse.move(1, 1);
  await settled(page);
  const clears = () => page.evaluate(() => window.__canvasClears);
  const c0 = await clears();
  // Frames forced with nothing changed (what a test's waitFrames or the page's wake() cause): none drawn.
  const f0 = await page.evaluate(() => window.posenc.frameCount());
  await page.waitForFunction((t) => { window.posenc.wake(); return window.posenc.frameCount() >= t; }, f0 + 10, { timeout: 20000 });
  assert.equal(await clears(), c0, 'ten frames equal to the canvas drew nothing');
  // Each change is drawn, and what the canvas shows then is the state's picture: the same pixels as a
  // frame drawn whole after a resize there and back (which no skipped frame can have left stale). A new
  // seed with the controls hidden changes the heatmap's texture more than the draw lists.
  for (const change of [{ seed: '7' }, { seed: '8' }, { n: '48' }, { theme: 'dark' }]) {
    const before = await clears();
    await page.evaluate((s) => window.posenc.setState(s), change);
    await settled(page);
    assert.ok(await clears() > before, `${JSON.stringify(change)} is drawn`);
    const shown = await page.screenshot();
    await page.setViewportSize({ width: 901, height: 600 });
    await settled(page);
    await page.setViewportSize({ width: 900, height: 600 });
    await settled(page);
    assert.ok((await page.screenshot()).equals(shown), `${JSON.stringify(change)}: the canvas shows the state's picture`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});
