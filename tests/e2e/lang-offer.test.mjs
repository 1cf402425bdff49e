// End-to-end, Chinese is findable (docs/i18n.md): a browser whose first language is Chinese, opening `/`
// with no lang key, gets a one-line offer in Chinese (a region with two buttons a keyboard reaches);
// accepting switches to Chinese and `/` opens in Chinese from then on; "Keep English" ends the offer; an
// embed in that browser never offers nor switches (its author's lang, or English, wins); the Language menu
// says "Language · 语言" in both interface languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, waitReady, waitFrames, screenshot } from './harness.mjs';

const env = useBrowser();

async function zhBrowser(path, { width = 1280, height = 800 } = {}) {
  const context = await env.browser.newContext({ viewport: { width, height }, locale: 'zh-CN' });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${env.server.url}${path}`);
  await waitReady(page);
  await waitFrames(page, 2);
  return { context, page, errors };
}
const offerShown = (page) => page.evaluate(() => !document.getElementById('lang-offer').hidden);

test('lang offer: a zh-CN browser on / sees the offer in Chinese, accepts, and reloads in Chinese', async () => {
  const { context, page, errors } = await zhBrowser('/');
  try {
    assert.equal(await page.evaluate(() => navigator.languages[0]), 'zh-CN');
    assert.ok(await offerShown(page), 'the offer shows');
    const region = page.getByRole('region', { name: '语言 · Language' });
    assert.equal(await region.count(), 1);
    assert.match(await region.innerText(), /简体中文/);
    assert.equal(await region.getAttribute('lang'), 'zh');
    assert.equal(await page.evaluate(() => window.posenc.getState().lang), undefined, 'nothing switched by itself');
    await screenshot(page, 'lang-offer-1280.png');
    // Reached by the keyboard: the switch button takes the focus and Enter.
    await page.getByRole('button', { name: '切换到中文' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.posenc.getState().lang === 'zh', null, { timeout: 20000 });
    assert.equal(await offerShown(page), false, 'the offer is gone');
    assert.equal(await page.evaluate(() => localStorage.getItem('posenc:lang')), 'zh');
    // Later visits to / open in Chinese, and offer nothing.
    await page.goto(`${env.server.url}/`);
    await waitReady(page);
    await waitFrames(page, 2);
    assert.equal((await page.evaluate(() => window.posenc.getState())).lang, 'zh');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh');
    assert.equal(await offerShown(page), false);
    assert.deepEqual(await page.evaluate(() => window.posenc.noticeList()), []);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('lang offer: "Keep English" ends it for good; a lang key in the address is never overruled', async () => {
  const { context, page, errors } = await zhBrowser('/?view=rope', { width: 390, height: 844 });
  try {
    assert.ok(await offerShown(page));
    await screenshot(page, 'lang-offer-390.png');
    await page.getByRole('button', { name: 'Keep English' }).click();
    assert.equal(await offerShown(page), false);
    assert.equal(await page.evaluate(() => localStorage.getItem('posenc:lang')), 'en');
    await page.goto(`${env.server.url}/?view=rope`);
    await waitReady(page);
    assert.equal(await offerShown(page), false, 'not offered again');
    assert.equal((await page.evaluate(() => window.posenc.getState())).lang, undefined);
    // An explicit lang=en: no offer whatever the browser says.
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${env.server.url}/?view=rope&lang=en`);
    await waitReady(page);
    assert.equal(await offerShown(page), false);
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('lang offer: an embed with lang=en in a zh-CN browser that chose Chinese stays English and offers nothing', async () => {
  const { context, page, errors } = await zhBrowser('/?view=waves&embed=1&lang=en');
  try {
    assert.equal(await offerShown(page), false);
    await page.evaluate(() => localStorage.setItem('posenc:lang', 'zh'));
    for (const q of ['view=waves&embed=1&lang=en', 'view=waves&embed=1']) {
      await page.goto(`${env.server.url}/?${q}`);
      await waitReady(page);
      await waitFrames(page, 2);
      assert.equal(await offerShown(page), false, `${q}: no offer`);
      assert.notEqual((await page.evaluate(() => window.posenc.getState())).lang, 'zh', `${q}: stays English`);
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
    }
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test('the Language menu says "Language · 语言" in both interface languages', async () => {
  const { context, page } = await zhBrowser('/?view=waves&lang=en');
  try {
    const form = async () => page.evaluate(() => {
      const label = [...document.querySelectorAll('#params .param-label')].find((l) => /Language/.test(l.textContent));
      return label ? label.textContent : null;
    });
    for (const lang of ['en', 'zh']) {
      await page.evaluate((l) => window.posenc.setState({ lang: l }), lang);
      await waitFrames(page, 3);
      const r = await page.evaluate(() => window.posenc.itemRect('menu.lang'));
      assert.ok(r && r.width > 60, `menu.lang is wide enough for both scripts: ${JSON.stringify(r)}`);
      await screenshot(page, `lang-menu-${lang}.png`);
      const label = await form();
      if (label !== null) assert.match(label, /^Language · 语言/, `${lang}: the form's control`);
      // The English menu's 语言 fetched no CJK face (its glyphs are compiled in).
      if (lang === 'en') {
        assert.deepEqual(await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => /cjk/.test(n))), []);
        assert.deepEqual(await page.evaluate(() => window.posenc.noticeList()), [], 'no missing glyphs');
      }
    }
  } finally { await context.close(); }
});
