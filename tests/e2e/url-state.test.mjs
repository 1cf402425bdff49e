// End-to-end, URL state: a deep link restores every view and is a fixed point of getState(); garbage
// and out-of-range values fall back to defaults with a notice, never a crash.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useBrowser, openState, openInParent, openPage, openDeepLink, assertStateRoundTrip, screenshot, waitFrames, waitReady, siteDir } from './harness.mjs';

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
    const { page, context, errors, state } = await openDeepLink(env, query, { frames: 2, tab: 'deep-link' });
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

// A value of any length, from setState, posenc:setState or the URL, is a notice and the app stays alive
// (ccall once copied such strings onto the wasm stack: a 2 MiB one overflowed it and every later call
// failed). The page copies at most one character past the app's 256 KiB limit.
test('a value of any length is a notice, never a dead page', async () => {
  // In a page's iframe: the page's posenc:setState below is a blog page's way in.
  const { frame: page, context, errors, postState } = await openInParent(env, 'view=waves&n=64&d=64');
  const before = await page.evaluate(() => window.Module.HEAPU8.length);
  for (const length of [2 * 1048576, 8 * 1048576]) {
    await page.evaluate((n) => window.posenc.setState({ n: '1'.repeat(n) }), length);
    const notices = await page.evaluate(() => window.posenc.noticeList());
    assert.deepEqual(notices.map((x) => x.key), ['n']);
    assert.match(notices[0].message, /longer than 256 KiB: ignored/);
    assert.ok(notices[0].message.length < 200, 'the notice quotes a bounded part of the value');
  }
  await page.evaluate(() => window.posenc.setState({ sentence: 'x'.repeat(3 * 1048576), ['k'.repeat(1048576)]: '1' }));
  assert.ok((await page.evaluate(() => window.posenc.noticeList())).length >= 1);
  // The blog page's way in.
  await postState({ d: '2'.repeat(4 * 1048576) });
  await page.waitForFunction(() => window.posenc.notices().includes('d="222'));
  // Alive: the next calls work, and the copies did not keep the memory.
  await page.evaluate(() => window.posenc.setState({ n: '100' }));
  await waitFrames(page, 2);
  assert.equal((await page.evaluate(() => window.posenc.getState())).n, '100');
  assert.deepEqual(await page.evaluate(() => window.posenc.noticeList()), []);
  const after = await page.evaluate(() => window.Module.HEAPU8.length);
  assert.ok(after - before <= 16 * 1048576, `wasm memory ${before} -> ${after}`);
  assert.deepEqual(errors, []);
  await context.close();

  // The URL: a long state is set after the start (argv is copied onto the stack too). A static host
  // refuses such a request line (the test server: 431), so the page is served from here for it.
  const url = await openPage(env.browser, 'about:blank');
  await url.page.route((u) => u.search.length > 65536, (route) => route.fulfill({ path: path.join(siteDir, 'index.html') }));
  await url.page.goto(`${env.server.url}/?view=waves&d=64&n=${'1'.repeat(1048576)}`);
  await waitReady(url.page);
  await waitFrames(url.page, 2);
  const notices = await url.page.evaluate(() => window.posenc.noticeList());
  assert.deepEqual(notices.map((x) => x.key), ['n']);
  assert.match(notices[0].message, /longer than 256 KiB/);
  const state = await url.page.evaluate(() => window.posenc.getState());
  assert.equal(state.view, 'waves');
  assert.equal(state.d, '64');
  await url.page.evaluate(() => window.posenc.setState({ n: '32' }));
  assert.equal((await url.page.evaluate(() => window.posenc.getState())).n, '32');
  assert.deepEqual(url.errors, []);
  await url.context.close();
});
