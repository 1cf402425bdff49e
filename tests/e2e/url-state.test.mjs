// End-to-end, URL state: a deep link restores every view and is a fixed point of getState(); garbage
// and out-of-range values fall back to defaults with a notice, never a crash.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openState, openDeepLink, assertStateRoundTrip, screenshot } from './harness.mjs';

const env = useBrowser();

const DEEP_LINKS = {
  waves: 'view=waves&scheme=sine_only&n=96&d=32&base=500',
  frequencies: 'view=frequencies&d=64&base=500000&n=2048',
  similarity: 'view=similarity&scheme=binary&n=64&d=8',
  buckets: 'view=buckets&scheme=alibi&n=48&heads=4',
  scores: 'view=scores&scheme=rope&n=24&d=16&causal=1',
  rope: 'view=rope&dim=128&base=500000&scaling=yarn&factor=8&orig=8192&target=65536',
  permutation: 'view=permutation&pe=sinusoidal&shuffle=3',
  toy: 'view=toy&theta=1',
};

for (const [view, query] of Object.entries(DEEP_LINKS)) {
  test(`deep link restores ${view}`, async () => {
    const { page, context, errors, state } = await openDeepLink(env, query, { frames: 2 });
    await assertStateRoundTrip(env, state);
    await screenshot(page, `web-deeplink-${view}.png`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('garbage parameters show a notice and the default picture', async () => {
  const { page, context, errors } = await openState(env, 'view=nonsense&n=-5&d=%ZZ&foo=bar&theme=purple', { frames: 2 });
  const notices = await page.evaluate(() => window.posenc.notices());
  for (const word of ['nonsense', 'foo', 'purple']) assert.match(notices, new RegExp(word));
  const state = await page.evaluate(() => window.posenc.getState());
  assert.equal(state.view, 'waves');
  assert.equal(state.n, '64');
  assert.ok(await page.evaluate(() => window.posenc.itemRect('notice')), 'the notice is drawn');
  assert.ok(await page.evaluate(() => window.posenc.itemRect('heatmap.pe')), 'the default view is drawn');
  await screenshot(page, 'web-garbage-params.png');
  assert.deepEqual(errors, []);
  await context.close();
});

test('out-of-range URL values fall back to defaults with a notice, never a crash', async () => {
  const { page, context, errors } = await openState(env, 'view=waves&n=999999&d=abc&bogus=1', { frames: 2 });
  const notices = await page.evaluate(() => window.posenc.notices());
  assert.match(notices, /n=999999/);
  assert.match(notices, /d="abc"/);
  assert.match(notices, /bogus/);
  const state = await page.evaluate(() => window.posenc.getState());
  assert.equal(state.n, '64');
  assert.equal(state.d, '128');
  await screenshot(page, 'web-waves-bad-params.png');
  assert.deepEqual(errors, []);
  await context.close();
});
