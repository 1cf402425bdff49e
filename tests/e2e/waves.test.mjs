// End-to-end, PE matrix view (waves): the web build in headless Chromium draws the sinusoidal PE matrix
// with the right colours, a slider drag changes it, and the largest matrix fits in memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  useBrowser, openState, dragSlider, screenshot, cellPixel, changedFraction, VIRIDIS, colorDistance,
  artifactsDir, waitReady, waitFrames, openPage,
} from './harness.mjs';

const env = useBrowser();

test('PE matrix view draws the sinusoidal heatmap, and dragging n changes it', async () => {
  const { page, context, errors } = await openPage(env.browser, `${env.server.url}/?view=waves&n=64&d=32&base=10000`);
  const firstFrameMs = await waitReady(page);
  await waitFrames(page, 3);
  const loaded = await page.evaluate(() => window.posenc.getState());
  assert.deepEqual({ view: loaded.view, n: loaded.n, d: loaded.d, base: loaded.base }, { view: 'waves', n: '64', d: '32', base: '10000' });
  assert.equal(loaded.scheme, 'sinusoidal', 'the default encoding is sinusoidal');

  const rect = await page.evaluate(() => window.posenc.itemRect('heatmap.pe'));
  assert.ok(rect && rect.width > 200 && rect.height > 200, `heatmap rect ${JSON.stringify(rect)}`);
  const png = await screenshot(page, 'web-waves.png');

  // Row 0: sin(0) = 0 -> viridis middle, cos(0) = 1 -> viridis top (yellow), in every pair.
  for (const col of [0, 2, 14, 30]) {
    const c = cellPixel(png, rect, 64, 32, 0, col);
    assert.ok(colorDistance(c, VIRIDIS[0.5]) < 40, `P[0][${col}] = sin 0 should be viridis(0.5), got ${c}`);
    const c1 = cellPixel(png, rect, 64, 32, 0, col + 1);
    assert.ok(colorDistance(c1, VIRIDIS[1]) < 40, `P[0][${col + 1}] = cos 0 should be viridis(1), got ${c1}`);
  }
  // Row 3, dim 0: sin(3) = 0.141 -> a bit above the middle; dim 1: cos(3) = -0.99 -> viridis bottom (purple).
  const low = cellPixel(png, rect, 64, 32, 3, 1);
  assert.ok(colorDistance(low, VIRIDIS[0]) < 40, `P[3][1] = cos 3 should be viridis(0), got ${low}`);
  // The lowest-frequency pair barely moves over 64 positions: its last row still looks like row 0.
  const slow = cellPixel(png, rect, 64, 32, 63, 31);
  assert.ok(colorDistance(slow, VIRIDIS[1]) < 40, `P[63][31] = cos(63e-4*...) ~ 1, got ${slow}`);

  // Drag the n slider to the right: n grows, the picture changes.
  const slider = await page.evaluate(() => window.posenc.itemRect('slider.n'));
  assert.ok(slider, 'n slider is drawn');
  await dragSlider(page, slider, 0.5, 0.9);
  const state = await page.evaluate(() => window.posenc.getState());
  assert.ok(Number(state.n) > 64, `n grew after the drag: ${state.n}`);
  assert.match(await page.evaluate(() => location.search), new RegExp(`n=${state.n}`), 'the URL follows the state');
  const after = await screenshot(page, 'web-waves-after-drag.png');
  const changed = changedFraction(png, after, rect, 7);
  assert.ok(changed > 0.2, `heatmap changed after the drag (${(100 * changed).toFixed(0)}% of samples)`);

  assert.deepEqual(errors, [], 'no console errors');
  fs.mkdirSync(artifactsDir, { recursive: true });
  fs.writeFileSync(path.join(artifactsDir, 'web-metrics.json'), JSON.stringify({ firstFrameMs }, null, 2));
  console.log(`# time to first frame: ${firstFrameMs.toFixed(0)} ms`);
  await context.close();
});

test('largest matrix (n = 4096, d = 1024) renders and wasm memory stays near the matrix size', async () => {
  const { page, context, errors } = await openState(env, 'view=waves&n=4096&d=1024');
  const heap = await page.evaluate(() => Module.HEAP8.length);
  // The sinusoidal picture is float32 (kernels::pe_table); hover, curves and export compute what they show
  // in double from the core (one row, the chosen columns, the whole table only while exporting).
  const matrixBytes = 4096 * 1024 * 4;
  console.log(`# wasm memory at n=4096, d=1024: ${(heap / 2 ** 20).toFixed(1)} MiB (matrix float32: ${(matrixBytes / 2 ** 20).toFixed(0)} MiB)`);
  assert.ok(heap < 3 * matrixBytes, `wasm memory ${heap} should stay within 3x the float32 matrix (${matrixBytes})`);
  await screenshot(page, 'web-waves-4096x1024.png');
  assert.deepEqual(errors, []);
  const metrics = path.join(artifactsDir, 'web-metrics.json');
  const prev = fs.existsSync(metrics) ? JSON.parse(fs.readFileSync(metrics, 'utf8')) : {};
  fs.writeFileSync(metrics, JSON.stringify({ ...prev, heapBytesAt4096x1024: heap }, null, 2));
  await context.close();
});
