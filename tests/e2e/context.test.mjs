// End-to-end, a lost WebGL context: the page says it is restoring, and once the browser gives the
// context back the app draws again (same state), with no console error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openState, waitReady, waitFrames } from './harness.mjs';

const env = useBrowser();

test('context: loseContext() then restoreContext() -> the app draws again', async () => {
  const { page, context, errors } = await openState(env, 'view=waves&n=48');
  await page.evaluate(() => {
    window.__lose = document.getElementById('canvas').getContext('webgl2').getExtension('WEBGL_lose_context');
    window.__lose.loseContext();
  });
  await page.waitForFunction(() => document.getElementById('status').textContent.includes('restoring'), null, { timeout: 5000 });
  const status = await page.evaluate(() => document.getElementById('status').textContent);
  assert.match(status, /the WebGL context was lost; restoring/);
  assert.doesNotMatch(status, /failed to start/);
  await Promise.all([page.waitForNavigation(), page.evaluate(() => window.__lose.restoreContext())]);
  await waitReady(page);
  await waitFrames(page, 3);
  assert.ok(await page.evaluate(() => window.posenc.frameCount()) > 0, 'the app draws again');
  assert.equal((await page.evaluate(() => window.posenc.getState())).n, '48', 'in the same state');
  assert.deepEqual(errors, []);
  await context.close();
});
