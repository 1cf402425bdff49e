// End-to-end, Share for everyone, on one page: the form's Share group is real buttons with their names (Copy
// link, Copy embed code, Export PNG, Export SVG, Export CSV, Export JSON) that a keyboard reaches and a live
// region confirms; on the canvas, Enter and Space open ImGui's menus and activate their items; Copy embed
// code offers the <posenc-figure> tag around the plain iframe, which asks to fit (data-posenc-fit). Both
// themes, at 1280x800, 720x480, the 400x300 embed and the 390x844 phone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useBrowser, openState, waitFrames, itemRect, repo } from './harness.mjs';

const env = useBrowser();
const BUTTONS = ['Copy link', 'Copy embed code', 'Export PNG', 'Export SVG', 'Export CSV', 'Export JSON'];
let shared = null;
async function page() {
  if (!shared || shared.page.isClosed()) shared = await openState(env, 'view=buckets&scheme=alibi&heads=12', { frames: 2 });
  return shared.page;
}
async function show(p, state, size) {
  await p.setViewportSize(size);
  await p.evaluate((s) => window.posenc.setState(s), state);
  await waitFrames(p, 4);
}

test('share group: real buttons by name, reached by the keyboard, a live region confirms; downloads named by the view', async () => {
  const p = await page();
  const sizes = [[{ width: 1280, height: 800 }, { theme: 'light' }], [{ width: 720, height: 480 }, { theme: 'dark' }],
    [{ width: 400, height: 300 }, { theme: 'dark', embed: '1' }], [{ width: 390, height: 844 }, { theme: 'light', embed: '0' }]];
  for (const [size, state] of sizes) {
    await show(p, state, size);
    const where = `${size.width}x${size.height} ${state.theme}`;
    for (const name of BUTTONS) assert.equal(await p.getByRole('button', { name, exact: true }).count(), 1, `${where}: button "${name}"`);
    // Keyboard: focus the first, Tab to the second, Enter on each.
    await p.getByRole('button', { name: 'Copy link' }).focus();
    await p.keyboard.press('Enter');
    await p.waitForFunction(() => /Link copied/.test(document.getElementById('share-status').textContent), null, { timeout: 5000 });
    assert.equal(await p.evaluate(() => window.posenc.lastCopied), await p.evaluate(() => window.posenc.linkUrl()));
    await p.keyboard.press('Tab');
    assert.equal(await p.evaluate(() => document.activeElement.textContent), 'Copy embed code', `${where}: Tab reaches the next button`);
    await p.keyboard.press('Enter');
    await p.waitForFunction(() => /Embed code copied/.test(document.getElementById('share-status').textContent), null, { timeout: 5000 });
    assert.match(await p.evaluate(() => window.posenc.lastCopied), /<posenc-figure /);
    assert.equal(await p.evaluate(() => document.getElementById('share-status').getAttribute('role')), 'status');
  }
  // Downloads, named by the view.
  await show(p, { theme: 'light', embed: '0' }, { width: 1280, height: 800 });
  for (const [name, file] of [['Export SVG', 'posenc-buckets.svg'], ['Export CSV', 'posenc-buckets.csv'],
    ['Export JSON', 'posenc-buckets.json'], ['Export PNG', 'posenc-buckets.png']]) {
    const [download] = await Promise.all([p.waitForEvent('download', { timeout: 20000 }), p.getByRole('button', { name }).press('Enter')]);
    assert.equal(download.suggestedFilename(), file);
  }
});

// Both ways to the clipboard: the Clipboard API, and the selected textarea a browser that refuses it gets
// (no permission, a page over plain http); either way the keyboard goes on from the button it pressed.
test('copy link keeps the keyboard where it was, with the Clipboard API and without it', async () => {
  const p = await page();
  await show(p, { theme: 'dark', embed: '0' }, { width: 1280, height: 800 });
  try {
    for (const api of ['resolves', 'refuses']) {
      await p.evaluate((a) => {
        Object.defineProperty(navigator, 'clipboard', { configurable: true, value: {
          writeText: a === 'resolves' ? () => Promise.resolve() : () => Promise.reject(new Error('not allowed')) } });
      }, api);
      await p.getByRole('button', { name: 'Copy link' }).focus();
      await p.keyboard.press('Enter');
      await p.waitForFunction(() => /Link copied/.test(document.getElementById('share-status').textContent), null, { timeout: 5000 });
      await p.keyboard.press('Tab');
      assert.equal(await p.evaluate(() => document.activeElement.textContent), 'Copy embed code', `clipboard API ${api}`);
      await p.evaluate(() => { document.getElementById('share-status').textContent = ''; });
    }
  } finally {
    // The page is shared with the next tests: they get the browser's own clipboard back.
    await p.evaluate(() => { delete navigator.clipboard; });
  }
});

test('copy embed code: the tag around the plain iframe, which asks to fit; its state and theme', async () => {
  const p = await page();
  await show(p, { view: 'buckets', scheme: 'alibi', heads: '12', theme: 'dark', embed: '0' }, { width: 1280, height: 800 });
  const code = await p.evaluate(() => window.posenc.embedCode());
  const m = code.match(/^<posenc-figure state="([^"]*)" theme="dark">\n<iframe src="([^"]*)" [^>]*data-posenc-fit><\/iframe>\n<\/posenc-figure>\n<script src="([^"]*)" async><\/script>$/);
  assert.ok(m, code);
  const state = new URLSearchParams(m[1].replace(/&amp;/g, '&'));
  assert.equal(state.get('view'), 'buckets');
  assert.equal(state.get('heads'), '12');
  assert.equal(state.get('embed'), null);
  assert.equal(state.get('theme'), null, 'the theme is the tag\'s attribute');
  const src = new URL(m[2].replace(/&amp;/g, '&'));
  assert.equal(src.searchParams.get('embed'), '1');
  assert.equal(src.searchParams.get('theme'), 'dark');
  assert.equal(m[3], `${env.server.url}/embed.js`);
  // embed.js names each view's iframe before it loads: its list is the app's views and titles.
  const source = fs.readFileSync(path.join(repo, 'web', 'embed.js'), 'utf8');
  const listed = Function(`return ${source.match(/const TITLES = (\{[\s\S]*?\});/)[1]}`)();
  const app = await p.evaluate(() => {
    const titles = Module.ccall('posenc_view_titles', 'string', [], []).split('\n');
    return Object.fromEntries(window.posenc.views().map((v, i) => [v, titles[i]]));
  });
  assert.deepEqual(listed, app);
});

test('keyboard on the canvas: Enter and Space open the Share menu and activate its items', async () => {
  const p = await page();
  for (const [key, theme] of [['Enter', 'dark'], ['Space', 'light']]) {
    await show(p, { view: 'waves', theme, embed: '0' }, { width: 720, height: 480 });
    await p.evaluate(() => { window.posenc.lastCopied = ''; });
    const canvas = await itemRect(p, 'menu.share');
    await p.focus('#canvas');
    // Alt: the menu bar; Right from the view picker reaches Share; the key opens it; ArrowDown, the key.
    await p.keyboard.press('Alt');
    await waitFrames(p, 3);
    await p.keyboard.press('ArrowRight');
    await waitFrames(p, 3);
    await p.keyboard.press(key);
    await waitFrames(p, 4);
    await p.keyboard.press('ArrowDown');
    await waitFrames(p, 3);
    await p.keyboard.press(key);
    await waitFrames(p, 4);
    const copied = await p.evaluate(() => window.posenc.lastCopied);
    assert.ok(copied === (await p.evaluate(() => window.posenc.embedCode())) || copied === (await p.evaluate(() => window.posenc.linkUrl())),
      `${key}: an item of the Share menu was activated (${canvas.x}): ${JSON.stringify(copied).slice(0, 80)}`);
  }
  assert.deepEqual(shared.errors, []);
  await shared.context.close();
});

// Copy link holds view, the app-level keys that are set and only the view's keys that differ from a fresh
// view (the embed code's rule): a changed ALiBi state, copied from the Share menu, is those keys and
// nothing else, and opening it gives exactly the state it was copied from.
test('short links: Copy link of a changed ALiBi state holds only the changed keys and reproduces the state', async () => {
  const p = await page();
  await show(p, { embed: '0', theme: 'dark', view: 'buckets', scheme: 'alibi', heads: '12', n: '48' }, { width: 1280, height: 800 });
  const full = await p.evaluate(() => window.posenc.getState());
  // The Share menu's Copy link (the app's action), as a reader clicks it.
  const share = await itemRect(p, 'menu.share');
  await p.mouse.click(share.x + share.width / 2, share.y + share.height / 2);
  await waitFrames(p, 3);
  const item = await itemRect(p, 'menu.share.copy-link');
  await p.evaluate(() => { window.posenc.lastCopied = ''; });
  await p.mouse.click(item.x + item.width / 2, item.y + item.height / 2);
  await p.waitForFunction(() => window.posenc.lastCopied, null, { timeout: 5000 });
  const link = await p.evaluate(() => window.posenc.lastCopied);
  assert.equal(link, await p.evaluate(() => window.posenc.linkUrl()), 'the menu copies window.posenc.linkUrl()');
  const url = new URL(link);
  assert.equal([...url.searchParams.keys()][0], 'view', link);
  assert.deepEqual(Object.fromEntries(url.searchParams), { view: 'buckets', scheme: 'alibi', n: '48', heads: '12', theme: 'dark' }, link);
  // The embed code's state is the same keys (one rule for both).
  const embed = new URLSearchParams(await p.evaluate(() => window.posenc.embedCode().match(/src="[^"?]*\?([^"]*)"/)[1].replace(/&amp;/g, '&')));
  embed.delete('embed');
  assert.equal(embed.toString(), url.search.slice(1));
  // Opened afresh: exactly the state it was copied from.
  const opened = await openState(env, url.search.slice(1), { frames: 2 });
  const reopened = await opened.page.evaluate(() => window.posenc.getState());
  assert.deepEqual(reopened, full);
  assert.deepEqual(opened.errors, []);
  await opened.context.close();
});
