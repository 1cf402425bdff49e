// End-to-end, sharing and export: the JSON and CSV data behind a view, the PNG of the chrome-less view,
// the link and the embed code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { useBrowser, openState } from './harness.mjs';

const env = useBrowser();

test('exports: JSON and CSV carry the data behind the view, PNG is the chrome-less view at devicePixelRatio', async () => {
  const { page, context, errors } = await openState(env, 'view=waves&n=8&d=4', { frames: 2, width: 900, height: 600, deviceScaleFactor: 2 });
  const json = JSON.parse(await page.evaluate(() => window.posenc.exportData('json')));
  assert.equal(json.view, 'waves');
  assert.ok(json.tables.length >= 1, 'at least one table');
  const csv = await page.evaluate(() => window.posenc.exportData('csv'));
  assert.match(csv, /^# /);
  const dataUrl = await page.evaluate(() => window.posenc.exportPng());
  const png = PNG.sync.read(Buffer.from(dataUrl.split(',')[1], 'base64'));
  assert.equal(png.width, 1800);
  assert.equal(png.height, 1200);
  const link = await page.evaluate(() => window.posenc.linkUrl());
  assert.match(link, /\?.*view=waves/);
  const code = await page.evaluate(() => window.posenc.embedCode());
  // The <posenc-figure> tag around the plain iframe (docs/embedding.md; embed-code.test.mjs checks the rest).
  assert.match(code, /^<posenc-figure state="[^"]*view=waves[^"]*" theme="[a-z]+">\n<iframe src="[^"]*embed=1[^"]*" width="100%" height="\d+" title="posenc: PE waves" aria-label="[^"]+"/);
  assert.deepEqual(errors, []);
  await context.close();
});
