// A browser without WebGL2 (Chromium with WebGL switched off) gets a sentence saying so, not a page stuck
// at "Loading posenc…": the page checks WebGL2 only when the app could not start (a probe before start-up
// would cost the first frame; bench/startup.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveSite, launchBrowser } from './harness.mjs';

test('no WebGL2: the status says so, window.posenc.ready rejects', async () => {
  const server = await serveSite();
  const browser = await launchBrowser(['--disable-webgl', '--disable-webgl2']);
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}/?view=waves`);
    const rejected = await page.evaluate(() => window.posenc.ready.then(() => 'resolved', (e) => String(e.message)));
    assert.equal(rejected, 'this browser has no WebGL2.');
    const status = page.locator('#status');
    assert.equal(await status.textContent(), 'posenc failed to start: this browser has no WebGL2.');
    assert.equal(await status.getAttribute('class'), 'error');
  } finally {
    await browser.close();
    await server.close();
  }
});
