// End-to-end, the Chinese interface (docs/i18n.md): lang=zh at 1280x800, 720x480, the 400x300 embed and
// the 390x844 phone, in both themes (one page reused: setState and setViewportSize, no reloads): the
// accessibility names and descriptions and the live region are Chinese, <html lang> follows the key;
// CJK glyphs are drawn (我 不 爱 你 and ? ? ? ? are different pictures), Chinese is tokenised by character
// (sentence=我不爱你 exports the tokens 我, 不, 爱, 你), and an input method's composition typed into the
// sentence field on a desktop arrives whole, drawn in the field as a preedit until it is committed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useBrowser, openState, openPhone, waitFrames, screenshot, itemRect, exportJson, focusField, PHONE, repo } from './harness.mjs';

const env = useBrowser();
const HAN = /[\u4e00-\u9fff]/;
const state = (page) => page.evaluate(() => window.posenc.getState());
// The canvas's accessible name and the text of the element that describes it (the live region).
const a11y = (page) => page.evaluate(() => {
  const canvas = document.getElementById('canvas');
  const described = document.getElementById(canvas.getAttribute('aria-describedby'));
  return { name: canvas.getAttribute('aria-label'), description: described ? described.textContent : '',
           html: document.documentElement.lang };
});
// setState resolves once the language's files are in (it returns a promise); then a few frames.
async function setState(page, partial) {
  await page.evaluate((p) => window.posenc.setState(p), partial);
  await waitFrames(page, 3);
}
// The live region's text once it has changed from `before` (it is updated after each state change).
async function liveRegionAfter(page, before) {
  await page.waitForFunction((b) => {
    window.posenc.wake();
    return document.getElementById('describe').textContent !== b;
  }, before, { timeout: 15000 });
  return page.evaluate(() => document.getElementById('describe').textContent);
}

function assertChinese(label, text) {
  assert.match(text, HAN, `${label} is Chinese: ${text.slice(0, 120)}`);
  for (const english of ['Formula:', 'Parameters:', 'Notices:', 'posenc figure: ', 'explorer'])
    assert.ok(!text.includes(english), `${label} has no English page words ("${english}"): ${text.slice(0, 160)}`);
}

test('zh: names, descriptions and the live region are Chinese at every size and theme; <html lang> follows', async () => {
  const { page, context, errors } = await openState(env, 'view=rope&lang=zh&theme=light', { tab: 'zh' });
  assert.equal((await state(page)).lang, 'zh', 'getState().lang');
  const sizes = [[1280, 800, '0'], [720, 480, '0'], [400, 300, '1']];
  for (const theme of ['light', 'dark']) {
    for (const [width, height, embed] of sizes) {
      await page.setViewportSize({ width, height });
      await setState(page, { theme, embed });
      const a = await a11y(page);
      assert.equal(a.html, 'zh', '<html lang> follows lang');
      assertChinese(`the canvas's name at ${width}x${height} ${theme}`, a.name);
      assertChinese(`its description at ${width}x${height} ${theme}`, a.description);
      // A change: the live region speaks again, in Chinese.
      const before = a.description;
      await setState(page, { factor: (await state(page)).factor === '8' ? '4' : '8' });
      assertChinese(`the live region after a change at ${width}x${height} ${theme}`, await liveRegionAfter(page, before));
      await screenshot(page, `zh-rope-${width}x${height}-${theme}${embed === '1' ? '-embed' : ''}.png`);
    }
  }
  // The form's own buttons (the second model, Share) are named in Chinese too.
  const formNames = () => page.evaluate(() => [...document.querySelectorAll('#model-files legend, #load-compare, #load-compare-note, #share legend, #share button')]
    .map((e) => e.textContent));
  for (const name of await formNames()) assertChinese(`the form's "${name}"`, name);
  // Back to English: everything follows, live.
  await setState(page, { lang: 'en', embed: '0' });
  const en = await a11y(page);
  assert.equal(en.html, 'en');
  assert.doesNotMatch(en.name, HAN, 'English again');
  assert.deepEqual(await formNames(), ['Compare', 'Load second model', 'a config.json or GGUF file to show beside the model; a link cannot carry it',
    'Share', 'Copy link', 'Copy embed code', 'Export PNG', 'Export SVG', 'Export CSV', 'Export JSON'], 'the form in English again');
  assert.deepEqual(errors, []);
  await context.close();
});

test('zh: the phone (390x844, touch) in both themes', async () => {
  const { page, context, errors } = await openPhone(env, 'view=permutation&lang=zh&theme=dark');
  for (const theme of ['dark', 'light']) {
    await setState(page, { theme });
    const a = await a11y(page);
    assertChinese(`the phone's canvas name (${theme})`, a.name);
    assertChinese(`the phone's description (${theme})`, a.description);
    const before = a.description;
    await setState(page, { shuffle: theme === 'dark' ? '3' : '5' });
    assertChinese(`the phone's live region after a change (${theme})`, await liveRegionAfter(page, before));
    await screenshot(page, `zh-permutation-phone-${theme}.png`);
  }
  assert.equal(PHONE.width, 390);
  assert.deepEqual(errors, []);
  await context.close();
});

test('zh: CJK glyphs are drawn, Chinese is one token per character, an IME composition arrives whole', async () => {
  const { page, context, errors } = await openState(env, 'view=permutation&sentence=%E6%88%91%20%E4%B8%8D%20%E7%88%B1%20%E4%BD%A0', { tab: 'zh' });
  // The same layout with four CJK characters and with four question marks: different pictures (the
  // characters are not drawn as "?").
  await page.mouse.move(1, 1);
  await waitFrames(page, 3);
  const cjk = await page.screenshot();
  await setState(page, { sentence: '? ? ? ?' });
  const marks = await page.screenshot();
  assert.notDeepEqual(cjk, marks, 'sentence=我 不 爱 你 and sentence=? ? ? ? render different pixels');
  assert.equal(await page.evaluate(() => window.posenc.notices()), '', 'no glyph is missing');
  // Unspaced Chinese: one token per character, in the export.
  await setState(page, { sentence: '我不爱你' });
  const exported = await exportJson(page);
  assert.deepEqual(exported.tokens, ['我', '不', '爱', '你'], 'tokens of sentence=我不爱你');
  // The seeds' shuffle: 不我爱你 (the example sentence's seed).
  await setState(page, { shuffle: '4' });
  assert.deepEqual((await exportJson(page)).tokens_shuffled, ['不', '我', '爱', '你']);

  // A desktop input method: the field opened with the mouse takes text through the page's text input,
  // where the IME composes (compositionstart / update / end); the committed text arrives whole.
  const field = await itemRect(page, 'input.sentence');
  await page.mouse.click(field.x + field.width / 2, field.y + field.height / 2);
  await waitFrames(page, 3);
  assert.equal(await page.evaluate(() => document.activeElement && document.activeElement.id), 'text-entry',
    'the text input has the focus while the field is edited');
  await page.keyboard.press('Control+A');
  const cdp = await context.newCDPSession(page);
  for (const [composing, committed] of [['wo', '我'], ['bu', '不'], ['ai', '爱'], ['ni', '你']]) {
    for (let k = 1; k <= composing.length; ++k)
      await cdp.send('Input.imeSetComposition', { text: composing.slice(0, k), selectionStart: k, selectionEnd: k });
    await cdp.send('Input.insertText', { text: committed });
  }
  await waitFrames(page, 6);
  await page.keyboard.press('Enter');
  await page.mouse.move(1, 1);
  await waitFrames(page, 4);
  assert.equal((await state(page)).sentence, '我不爱你', 'the composed text arrived whole (no pinyin, no lost characters)');
  assert.deepEqual((await exportJson(page)).tokens, ['我', '不', '爱', '你']);
  await cdp.detach();
  assert.deepEqual(errors, []);
  await context.close();
});

// While an input method composes, its pinyin is drawn in the field after the caret (the preedit, probed
// as text.preedit) and the field's value is unchanged; the commit replaces it with the characters.
test('zh: the IME preedit is drawn in the field while composing, never typed; the commit leaves no preedit', async () => {
  const { page, context, errors } = await openState(env, `view=permutation&lang=zh&sentence=${encodeURIComponent('我不')}`,
    { reuse: true });
  await focusField(page, 'sentence');
  await page.keyboard.press('End');
  await waitFrames(page, 2);
  const cdp = await context.newCDPSession(page);
  const drawnData = () => page.evaluate(() => window.posenc.drawnText().texts.filter((t) => t.data).map((t) => t.lines.join('')));
  try {
    for (const composing of ['w', 'wo']) {
      await cdp.send('Input.imeSetComposition', { text: composing, selectionStart: composing.length, selectionEnd: composing.length });
      await waitFrames(page, 3);
      const drawn = await drawnData();
      assert.ok(drawn.includes(composing), `the preedit "${composing}" is drawn: ${JSON.stringify(drawn)}`);
      assert.ok(drawn.includes('我不'), `the field still shows its value: ${JSON.stringify(drawn)}`);
      assert.equal((await state(page)).sentence, '我不', 'composing changes no value');
      // Drawn in the field, after its text.
      const preedit = await itemRect(page, 'text.preedit'), field = await itemRect(page, 'input.sentence');
      assert.ok(preedit.y >= field.y - 1 && preedit.y + preedit.height <= field.y + field.height + 3 &&
        preedit.x > field.x + 8 && preedit.x < field.x + field.width, `preedit ${JSON.stringify(preedit)} in ${JSON.stringify(field)}`);
    }
    await screenshot(page, 'zh-ime-preedit.png');
    await cdp.send('Input.insertText', { text: '我' });
    await waitFrames(page, 4);
    assert.equal((await state(page)).sentence, '我不我', 'the commit is typed');
    const drawn = await drawnData();
    assert.ok(!drawn.includes('wo') && !drawn.includes('w'), `no preedit left: ${JSON.stringify(drawn)}`);
    assert.ok(!(await page.evaluate(() => window.posenc.probes())).includes('text.preedit'), 'no text.preedit probe');
    await page.keyboard.press('Enter');
    await waitFrames(page, 3);
    assert.equal((await state(page)).sentence, '我不我');
  } finally {
    await cdp.detach();
  }
  assert.deepEqual(errors, []);
});

// Chinese polish: every view's description and canvas name end their sentences once, in Chinese (no "。。",
// no Latin ". " after Chinese); the embed code's iframe is named in Chinese; the view links follow a live
// switch; embed.js names a lang=zh embed's iframe in Chinese, with the app's own titles.
test('zh: full stops once and Chinese, the embed code and the view links in Chinese after a live switch', async () => {
  const { page, context, errors } = await openState(env, 'view=waves&lang=en', { tab: 'zh' });
  const links = () => page.evaluate(() => [...document.querySelectorAll('#views a')].map((a) => a.textContent));
  const english = await links();
  assert.ok(english.includes('PE waves'), `English view links: ${english}`);
  await setState(page, { lang: 'zh' });
  await page.waitForFunction(() => { window.posenc.wake(); return [...document.querySelectorAll('#views a')].some((a) => /[\u4e00-\u9fff]/.test(a.textContent)); },
    null, { timeout: 15000 });
  const titles = await page.evaluate(() => Module.ccall('posenc_view_titles', 'string', [], []).split('\n'));
  assert.deepEqual(await links(), titles, 'the view links are the app\'s Chinese titles');
  assert.ok(titles.includes('位置编码波形'));
  const LATIN_STOP_AFTER_CJK = /[\u3000-\u9fff\uff00-\uffef]\.(\s|$)/;
  for (const view of await page.evaluate(() => window.posenc.views())) {
    await setState(page, { view });
    const text = await page.evaluate(() => window.posenc.description());
    const name = (await a11y(page)).name;
    for (const [what, s] of [['description', text], ['canvas name', name]]) {
      assert.ok(!s.includes('。。'), `${view}: the ${what} has no doubled full stop: ${s.slice(0, 200)}`);
      assert.doesNotMatch(s, LATIN_STOP_AFTER_CJK, `${view}: the ${what} has no Latin full stop after Chinese: ${s.slice(0, 200)}`);
    }
  }
  const code = await page.evaluate(() => window.posenc.embedCode());
  const label = code.match(/aria-label="([^"]*)"/)[1];
  assert.match(label, /（可交互）$/, `the embed code's aria-label is Chinese: ${label}`);
  assert.ok(!label.includes('interactive'));
  // embed.js: its Chinese titles are the app's.
  const source = fs.readFileSync(path.join(repo, 'web', 'embed.js'), 'utf8');
  const listed = Function(`return ${source.match(/const TITLES_ZH = (\{[\s\S]*?\});/)[1]}`)();
  const views = await page.evaluate(() => window.posenc.views());
  assert.deepEqual(listed, Object.fromEntries(views.map((v, i) => [v, titles[i]])));
  // Back to English: the links follow again.
  await setState(page, { lang: 'en' });
  await page.waitForFunction(() => { window.posenc.wake(); return [...document.querySelectorAll('#views a')].some((a) => a.textContent === 'PE waves'); },
    null, { timeout: 15000 });
  assert.deepEqual(errors, []);
  await context.close();
});
