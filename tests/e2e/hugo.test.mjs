// End-to-end, a real blog: Debian's Hugo (0.111, installed by scripts/bootstrap) builds tests/e2e/hugo-site, a
// minimal layout with no theme, whose post holds posenc figures written three ways: the shortcode shipped in
// docs/hugo (no unsafe HTML needed), the raw <posenc-figure> tag (dropped unless goldmark's unsafe is on) and a
// hand-written iframe. Served on another origin and read in a 720 px window in both colour schemes and on a
// 390x844 phone: the figures load, fit their frames, take their theme, an iframe the author sized keeps its
// height, the text below a figure does not move as it starts, and the reader scrolls past (the wheel; one
// finger starting on a heatmap moves the page, two fingers there zoom the map and move the page by none).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import {
  useBrowser, openPage, repo, siteDir, screenshot, PHONE, touch, settledScroll, settledFrames, scrolledFrom, cellPixel, colorDistance,
} from './harness.mjs';
import { serveStatic } from '../../scripts/static-server.mjs';
import { writeModel } from './weights-model.mjs';

const env = useBrowser();
const SHORTCODE = path.join(repo, 'docs', 'hugo', 'layouts', 'shortcodes', 'posenc.html');
let blog = null, dir = null, safeHtml = '', usageSite = null, usageReport = null;

// Builds the site into `out` (HUGO_* variables set params.posenc and goldmark's unsafe); returns the post.
function hugo(src, out, site, unsafe) {
  const r = spawnSync('hugo', ['--quiet', '--source', src, '--destination', out], {
    encoding: 'utf8', timeout: 60000,
    env: { ...process.env, HUGO_PARAMS_POSENC: site + '/', HUGO_MARKUP_GOLDMARK_RENDERER_UNSAFE: String(unsafe) },
  });
  assert.equal(r.status, 0, `hugo failed (scripts/bootstrap installs Debian's hugo): ${r.stderr} ${r.error || ''}`);
  return fs.readFileSync(path.join(out, 'posts', 'embeds', 'index.html'), 'utf8');
}

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'posenc-hugo-'));
  const src = path.join(dir, 'src');
  fs.cpSync(path.join(repo, 'tests', 'e2e', 'hugo-site'), src, { recursive: true });
  fs.mkdirSync(path.join(src, 'layouts', 'shortcodes'), { recursive: true });
  fs.copyFileSync(SHORTCODE, path.join(src, 'layouts', 'shortcodes', 'posenc.html'));
  // The explorer on 127.0.0.1 (the harness's server), the blog on localhost: another origin.
  await new Promise((r) => { const t = setInterval(() => { if (env.server) { clearInterval(t); r(); } }, 20); });
  const site = env.server.url;
  // A posenc site that keeps a real weights report beside the page (usage= names it by a relative URL): build/web's
  // files linked into a folder with figures/llama-tiny.json, what posenc weights --json wrote for a generated model.
  const usageRoot = path.join(dir, 'posenc-with-figures');
  fs.mkdirSync(path.join(usageRoot, 'figures'), { recursive: true });
  for (const name of fs.readdirSync(siteDir)) fs.symlinkSync(path.join(siteDir, name), path.join(usageRoot, name));
  writeModel(path.join(dir, 'llama-tiny'));
  const cli = spawnSync(path.join(repo, 'build', 'native', 'posenc'), ['weights', path.join(dir, 'llama-tiny'), '--json'], { encoding: 'utf8' });
  assert.equal(cli.status, 0, cli.stderr);
  usageReport = JSON.parse(cli.stdout);
  fs.writeFileSync(path.join(usageRoot, 'figures', 'llama-tiny.json'), cli.stdout);
  usageSite = await serveStatic(usageRoot, 0);
  const post = path.join(src, 'content', 'posts', 'embeds.md');
  fs.writeFileSync(post, fs.readFileSync(post, 'utf8').replaceAll('POSENC_SITE', site).replaceAll('POSENC_USAGE_SITE', usageSite.url));
  safeHtml = hugo(src, path.join(dir, 'safe'), site, false);
  hugo(src, path.join(dir, 'public'), site, true);
  blog = await serveStatic(path.join(dir, 'public'), 0);
});
after(async () => { await blog?.close(); await usageSite?.close(); if (dir) fs.rmSync(dir, { recursive: true, force: true }); });

const postUrl = () => `${blog.url.replace('127.0.0.1', 'localhost')}/posts/embeds/`;

test('hugo: the shortcode needs no unsafe HTML, the raw tag does', () => {
  // Without unsafe: the shortcode's figure (tag, fallback iframe asking to fit, embed.js once) is there,
  // the raw tag is dropped.
  assert.match(safeHtml, /<posenc-figure state="view=scores&amp;n=32" theme="dark">\s*<iframe src="[^"]*\/index\.html\?view=scores&amp;n=32&amp;embed=1&amp;theme=dark"[^>]*data-posenc-fit/);
  assert.equal(safeHtml.match(/embed\.js/g).length, 1, 'embed.js once per page');
  assert.match(safeHtml, /raw HTML omitted/);
  assert.ok(!/state="view=buckets/.test(safeHtml), 'the raw tag needs markup.goldmark.renderer.unsafe');
});

// Scrolls `box` into view and waits until its iframe (`sel`) holds a drawn, settled embed; returns its frame.
async function drawn(page, box, sel = `${box} > iframe`) {
  await page.evaluate((s) => document.querySelector(s).scrollIntoView({ block: 'center' }), box);
  const handle = await page.waitForSelector(sel, { state: 'attached', timeout: 20000 });
  for (let attempt = 0; ; ++attempt) {
    try {
      const frame = await handle.contentFrame();
      await frame.waitForFunction(() => window.posenc && window.posenc.frameCount() > 0, null, { timeout: 60000, polling: 100 });
      await settledFrames(frame);
      return frame;
    } catch (e) {
      if (attempt > 10 || !/destroyed|navigat|detached/i.test(String(e))) throw e;
    }
  }
}
// How far below the top of `box` the paragraph `id` starts.
const below = (page, box, id) => page.evaluate(([b, i]) => document.getElementById(i).getBoundingClientRect().top -
  document.querySelector(b).getBoundingClientRect().top, [box, id]);
const SHORTCODE_FIG = 'posenc-figure:not(#tag)';
// Every probe of the embed lies inside its frame, and its document does not scroll.
async function fits(frame, label) {
  const { w, h, probes, scrolls } = await frame.evaluate(() => ({
    w: innerWidth, h: innerHeight, scrolls: document.scrollingElement.scrollHeight > innerHeight,
    probes: window.posenc.probes().map((n) => [n, window.posenc.itemRect(n)]),
  }));
  assert.equal(scrolls, false, `${label}: the embed's document does not scroll`);
  for (const [n, r] of probes) assert.ok(r.y + r.height <= h + 1 && r.x + r.width <= w + 1, `${label}: ${n} inside ${w}x${h}: ${JSON.stringify(r)}`);
}

for (const scheme of ['light', 'dark']) {
  test(`hugo (${scheme} reader, 720 px): the figures load, fit, take their theme; authors' heights hold; the wheel scrolls on`, async () => {
    const { page, context, errors } = await openPage(env.browser, postUrl(), { width: 720, height: 800 });
    await page.emulateMedia({ colorScheme: scheme });
    try {
      await page.waitForFunction(() => window.posencEmbeds && customElements.get('posenc-figure'), null, { timeout: 20000 });
      // The tag's iframe: made near the viewport with the embed code's title, at the height it reserved.
      const afterTag = await below(page, '#tag', 'after-tag');
      const tag = await drawn(page, '#tag');
      const info = await page.evaluate(() => {
        const f = document.querySelector('#tag > iframe');
        return { src: f.src, title: f.title, label: f.getAttribute('aria-label'), fit: f.hasAttribute('data-posenc-fit'), h: f.getBoundingClientRect().height };
      });
      assert.equal(info.src, `${env.server.url}/index.html?view=buckets&scheme=alibi&heads=12&embed=1&theme=light`);
      assert.equal(info.title, 'posenc: Bias buckets');
      assert.equal(info.label, 'posenc: Bias buckets (interactive)');
      assert.ok(info.fit, 'the tag\'s iframe fits its embed');
      await new Promise((r) => setTimeout(r, 400));  // a posenc:height message, if any, has landed
      assert.equal(await below(page, '#tag', 'after-tag'), afterTag, 'the text below the tag did not move as the figure started');
      await fits(tag, 'tag');
      assert.equal(await tag.evaluate(() => document.body.classList.contains('light')), true, 'theme="light"');

      // The shortcode's figure (theme dark) and the bare iframe (the reader's scheme), which keeps its 420 px.
      const shortcode = await drawn(page, SHORTCODE_FIG);
      await fits(shortcode, 'shortcode');
      assert.equal(await shortcode.evaluate(() => document.body.classList.contains('light')), false, 'theme="dark"');
      const bare = await drawn(page, '#bare', '#bare');
      assert.equal(await page.evaluate(() => document.getElementById('bare').getBoundingClientRect().height), 420, 'an unmarked iframe keeps its height');
      await fits(bare, 'bare');
      assert.equal(await bare.evaluate(() => document.body.classList.contains('light')), scheme === 'light', 'no theme: the reader\'s');

      // The wheel over the shortcode's heatmap scrolls the post.
      const box = await (await page.$(`${SHORTCODE_FIG} > iframe`)).boundingBox();
      const map = await shortcode.evaluate(() => window.posenc.itemRect('plot.total'));
      await page.evaluate(() => document.querySelector('posenc-figure:not(#tag)').scrollIntoView({ block: 'start' }));
      const y0 = await settledScroll(page);
      const box2 = await (await page.$(`${SHORTCODE_FIG} > iframe`)).boundingBox();
      await page.mouse.move(box2.x + map.x + map.width / 2, box2.y + map.y + map.height / 2);
      await page.mouse.wheel(0, 300);
      assert.ok(await scrolledFrom(page, y0) > y0 + 100, `the wheel over the map scrolled the post (${box.y})`);
      await page.evaluate(() => document.querySelector('#tag').scrollIntoView({ block: 'start' }));
      await settledScroll(page);
      await screenshot(page, `hugo-post-720-${scheme}.png`);
      assert.deepEqual(errors, []);
    } finally { await context.close(); }
  });
}

test('hugo on a phone: one finger on a heatmap scrolls the post, two fingers zoom the map and leave the post', async () => {
  const { page, context, errors, cdp } = await openPage(env.browser, postUrl(), { ...PHONE, cdp: true });
  try {
    const frame = await drawn(page, SHORTCODE_FIG);
    // The heatmap about a third of the way down the screen.
    await page.evaluate((sel) => { const f = document.querySelector(sel); scrollTo(0, f.getBoundingClientRect().top + scrollY - 60); }, `${SHORTCODE_FIG} > iframe`);
    const y0 = await settledScroll(page);
    const box = await (await page.$(`${SHORTCODE_FIG} > iframe`)).boundingBox();
    const map = await frame.evaluate(() => window.posenc.itemRect('plot.total'));
    assert.ok(map && map.width > 150, `the embed shows its heatmap: ${JSON.stringify(map)}`);
    const x = box.x + map.x + map.width / 2, y = box.y + map.y + map.height * 0.8, travel = 200;
    // One finger, up by `travel`: the post follows the finger (the browser's own scroll chaining).
    await touch(cdp, 'touchStart', [[x, y]]);
    for (let s = 1; s <= 10; ++s) await touch(cdp, 'touchMove', [[x, y - travel * s / 10]]);
    await touch(cdp, 'touchEnd', []);
    const y1 = await scrolledFrom(page, y0);
    assert.ok(y1 - y0 >= travel / 2, `a one-finger swipe starting on the heatmap moved the post ${y1 - y0} px of ${travel}`);
    await frame.waitForFunction(() => /two fingers/i.test(document.getElementById('toast').textContent), null, { timeout: 5000 });
    assert.deepEqual(await frame.evaluate(() => window.posenc.zoom('plot.total')), { x: 0, y: 0, width: 1, height: 1 }, 'one finger does not pan the map');
    // Two fingers spread on the map: the map zooms, the post stays. The swipe's fling carried the map off
    // the top of the screen (200 px of finger move the post ~490 px): the reader brings it back first.
    await page.evaluate(([sel, cy]) => { const f = document.querySelector(sel); scrollTo(0, f.getBoundingClientRect().top + scrollY + cy - innerHeight / 2); },
      [`${SHORTCODE_FIG} > iframe`, map.y + map.height / 2]);
    const y2 = await settledScroll(page);
    const box3 = await (await page.$(`${SHORTCODE_FIG} > iframe`)).boundingBox();
    const mx = box3.x + map.x + map.width / 2, my = box3.y + map.y + map.height / 2;
    assert.ok(my > 100 && my < PHONE.height - 100, `the fingers go down on screen: ${my}`);
    await touch(cdp, 'touchStart', [[mx - 15, my], [mx + 15, my]]);
    for (let s = 1; s <= 8; ++s) await touch(cdp, 'touchMove', [[mx - 15 - 45 * s / 8, my], [mx + 15 + 45 * s / 8, my]]);
    await touch(cdp, 'touchEnd', []);
    assert.equal(await settledScroll(page), y2, 'a pinch on the heatmap moves the post by none');
    assert.equal(await frame.evaluate(() => document.scrollingElement.scrollTop), 0, 'nor the embed\'s own document');
    await frame.waitForFunction(() => { window.posenc.wake(); return window.posenc.zoom('plot.total').width < 0.9; }, null, { timeout: 10000 });
    await screenshot(page, 'hugo-post-phone.png');
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('hugo: a usage= embed draws a real posenc weights report kept on the posenc site, from the blog\'s origin', async () => {
  const { page, context, errors } = await openPage(env.browser, postUrl(), { width: 720, height: 800 });
  try {
    const frame = await drawn(page, '#usage', '#usage');
    await frame.waitForFunction(() => window.posenc.probes().includes('heatmap.usage_share') ||
      window.posenc.noticeList().length > 0, null, { timeout: 30000 });
    assert.deepEqual(await frame.evaluate(() => window.posenc.noticeList()), []);
    await settledFrames(frame);
    const layers = usageReport.layers.length, pairs = usageReport.rotary_dim / 2;
    assert.match(await frame.evaluate(() => window.posenc.description()), new RegExp(`${layers} layers`));
    // The figure is drawn: the map's cells, read off the blog's own screenshot, are coloured by their shares
    // (the report's mean shares differ cell to cell, so do the colours), none the page's background.
    const box = await (await page.$('#usage')).boundingBox();
    const map = await frame.evaluate(() => window.posenc.itemRect('heatmap.usage_share'));
    assert.ok(map && map.width > 100 && map.height > 40, `the embed shows its map: ${JSON.stringify(map)}`);
    const png = await screenshot(page, 'hugo-usage-embed.png');
    const onPage = { x: box.x + map.x, y: box.y + map.y, width: map.width, height: map.height };
    const cells = [];
    for (let l = 0; l < layers; ++l) for (let j = 0; j < pairs; ++j) cells.push(cellPixel(png, onPage, layers, pairs, l, j));
    const background = cellPixel(png, { x: box.x, y: box.y, width: 4, height: 4 }, 1, 1, 0, 0);
    let spread = 0;
    for (const a of cells) for (const b of cells) spread = Math.max(spread, colorDistance(a, b));
    assert.ok(spread > 40, `the cells differ in colour: ${JSON.stringify(cells)}`);
    assert.ok(cells.every((c) => colorDistance(c, background) > 10), `no cell is the background ${background}: ${JSON.stringify(cells)}`);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});
