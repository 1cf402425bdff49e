// End-to-end, the Chinese interface's font (posenc-cjk.ttf, docs/i18n.md "CJK glyphs") never holds the app:
// with lang=zh and the font delayed 20 s (a route that waits before it serves the file) the first frame comes
// about as fast as English's, measured in the same test (the median of three loads within English's + 1 s),
// its Chinese characters drawn as boxes with a notice that the font is loading; when the font arrives the app
// rebuilds its atlas and draws the glyphs (the notice goes, the picture changes). A font that cannot be
// fetched (a network error, an HTTP 404) is named in a notice. Loading is the subject: a fresh page per load.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage, screenshot, waitFrames, changedFraction } from './harness.mjs';

const env = useBrowser();
const FONT = '**/posenc-cjk.ttf';
const FONT_DELAY_MS = 20000;
const LOADING = /中文字体正在加载/;  // the loading notice in the Chinese interface
// The browser's own console line for a fetch that failed (what the failure cases cause on purpose).
const fetchFailure = (e) => /Failed to load resource/.test(e);

// A fresh page at /?query, with `route` on the font's URL when given; resolves once the first frame is drawn,
// with its time (the performance mark posenc:ready, ms from navigation start, as bench/startup.mjs reads it).
async function load(query, route) {
  const { page, context, errors } = await openPage(env.browser, 'about:blank');
  if (route) await page.route(FONT, route);
  await page.goto(`${env.server.url}/?${query}`);
  await page.waitForFunction(() => performance.getEntriesByName('posenc:ready').length > 0, null, { timeout: 60000 });
  const ms = await page.evaluate(() => performance.getEntriesByName('posenc:ready')[0].startTime);
  return { page, context, errors, ms };
}
const notices = (page) => page.evaluate(() => window.posenc.noticeList());
const drawnHan = (page) => page.evaluate(() => window.posenc.drawnText().texts
  .some((t) => t.lines.some((l) => /[\u4e00-\u9fff]/.test(l))));

test('zh: the first frame never waits for the Chinese font; its glyphs come when it arrives', async (t) => {
  // Each load's font request, held FONT_DELAY_MS before it is served: when it was asked for and served.
  const delayed = () => {
    const font = { asked: 0, served: 0 };
    font.route = async (route) => {
      font.asked = Date.now();
      await new Promise((resolve) => setTimeout(resolve, FONT_DELAY_MS));
      font.served = Date.now();
      await route.continue().catch(() => { /* the page was closed meanwhile */ });
    };
    return font;
  };
  // English under the same route (an English page never asks for the font): a route makes every request
  // of the page pass through the test's process, which both loads then pay alike. Three loads of each,
  // alternating, their medians compared (as bench/startup.mjs does): one load's time is noise on a busy
  // machine. The last zh page stays open for the font's arrival.
  await (await load('', delayed().route)).context.close();  // starts the browser's processes: not counted
  const times = { en: [], zh: [] };
  let last = null, font = null;
  for (let i = 0; i < 3; ++i) {
    const en = delayed();
    const english = await load('', en.route);
    await english.context.close();
    assert.equal(en.asked, 0, 'an English page does not fetch the Chinese font');
    times.en.push(english.ms);
    if (last) await last.context.close();
    font = delayed();
    last = await load('lang=zh', font.route);
    assert.ok(font.asked > 0, 'the page asked for the font at start');
    assert.equal(font.served, 0, 'the first frame came before the font');
    times.zh.push(last.ms);
  }
  const median = (a) => [...a].sort((x, y) => x - y)[1];
  const { page, context, errors } = last;
  t.diagnostic(`first frame: English ${times.en.map(Math.round)} ms, lang=zh with the font delayed ${times.zh.map(Math.round)} ms`);
  assert.ok(median(times.zh) <= median(times.en) + 1000,
    `first frame with lang=zh and the font delayed ${FONT_DELAY_MS} ms: ${times.zh.map(Math.round)} ms; English: ${times.en.map(Math.round)} ms (medians compared)`);
  assert.equal(await page.evaluate(() => document.getElementById('status').className), 'hidden', '"Loading posenc…" is gone');
  // Chinese text is drawn (as boxes), with the notice that says why.
  await waitFrames(page, 2);
  assert.ok(await drawnHan(page), 'the first frames draw the Chinese interface');
  const waiting = await notices(page);
  assert.ok(waiting.some((n) => n.key === 'text' && LOADING.test(n.message)), `a loading notice: ${JSON.stringify(waiting)}`);
  await page.mouse.move(1, 1);
  await waitFrames(page, 2);
  const boxes = await screenshot(page, 'zh-font-loading.png');

  // The font arrives: the atlas is rebuilt, the glyphs drawn, the notice gone; nothing is missing.
  await page.waitForFunction((pattern) => {
    window.posenc.wake();
    return !window.posenc.noticeList().some((n) => new RegExp(pattern).test(n.message));
  }, LOADING.source, { timeout: FONT_DELAY_MS + 30000 });
  assert.ok(font.served > 0, 'the notice went when the font was served');
  await waitFrames(page, 3);
  const after = await notices(page);
  assert.ok(!after.some((n) => n.key === 'text'), `no font notice once the font is in: ${JSON.stringify(after)}`);
  const glyphs = await screenshot(page, 'zh-font-arrived.png');
  // The menu bar's Chinese titles (the top 40 px): boxes before, glyphs after.
  const menu = { x: 0, y: 0, width: boxes.width, height: 40 };
  assert.ok(changedFraction(boxes, glyphs, menu, 2) > 0.005, 'the menu bar changed when the glyphs came');
  assert.deepEqual(errors, []);
  await context.close();
});

test('zh: a font that cannot be fetched is named in a notice', async () => {
  for (const [how, route, words] of [
    ['a network error', (r) => r.abort('failed'), /posenc-cjk\.ttf: network error/],
    ['HTTP 404', (r) => r.fulfill({ status: 404, body: 'not found' }), /posenc-cjk\.ttf: HTTP 404/],
  ]) {
    const { page, context, errors } = await load('lang=zh', route);
    await page.waitForFunction(() => { window.posenc.wake(); return /posenc-cjk\.ttf/.test(window.posenc.notices()); },
      null, { timeout: 20000 });
    const list = await notices(page);
    const named = list.find((n) => words.test(n.message));
    assert.ok(named && named.key === 'text', `${how}: a notice names the font and why: ${JSON.stringify(list)}`);
    assert.match(named.message, /无法加载中文字体/, `${how}: in the interface's language`);
    assert.ok(!list.some((n) => LOADING.test(n.message)), `${how}: no longer "loading"`);
    assert.deepEqual(errors.filter((e) => !fetchFailure(e)), [], `${how}: no other console errors`);
    await context.close();
  }
});
