// End-to-end, Share -> Copy embed code: the README's snippet, with the resize script.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openState } from './harness.mjs';

const env = useBrowser();

test('embed code: the state and the resize script', async () => {
  const { page, context, errors } = await openState(env, 'view=buckets&scheme=t5&n=48&theme=dark');
  const before = await page.evaluate(() => window.posenc.getState());
  const code = await page.evaluate(() => window.posenc.embedCode());
  const src = code.match(/<iframe src="([^"]*)"/)[1].replace(/&amp;/g, '&');
  const q = Object.fromEntries(new URL(src).searchParams);
  assert.equal(q.view, 'buckets');
  assert.equal(q.embed, '1');
  assert.equal(q.theme, 'dark');
  assert.equal(q.n, '48');
  assert.match(code, /height="\d+"/);
  assert.match(code, /<script>[\s\S]*posenc:height[\s\S]*<\/script>$/);
  // Reading the snippet's facts left the app as it was.
  assert.deepEqual(await page.evaluate(() => window.posenc.getState()), before);
  assert.deepEqual(errors, []);
  await context.close();
});
