// End-to-end, line breaking (docs/i18n.md "Line breaking"): every view at 390x844 (the phone) and
// 1280x800, in English and Chinese, drawn through the app's one wrap (app/line_break.h). From the lines as
// drawn (window.posenc.drawnText()): no line begins with closing punctuation or ends with opening
// punctuation, no number and no Latin word is split across two lines, except where a single run wider
// than the line had to be cut (a line marked forced). Plus the states where readers met the old breaks,
// looked at as phone screenshots (build/test-artifacts/line-break-*.png).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, sharedPage, waitFrames, screenshot, PHONE } from './harness.mjs';

const env = useBrowser();
const HAN = /[\u4e00-\u9fff]/;
const CLOSING = /^[。，、；：！？）」』】.,;:!?)\]}]/;
const OPENING = /[（「『【([{]$/;
// A break between `a` and `b` that cuts a number: digits with their point, comma, exponent or percent.
const splitsNumber = (a, b) => (/[0-9][.,]?$/.test(a) && /^[0-9%]/.test(b)) || (/[0-9.]e[+-]?$/i.test(a) && /^[-+]?[0-9]/.test(b));
// ... or a Latin word (letters and digits on both sides).
const splitsWord = (a, b) => /[A-Za-z0-9]$/.test(a) && /^[A-Za-z0-9]/.test(b);

// Every line break drawn in the last frame that is checked: [previous line, next line] within one text,
// not at a forced cut; numbers and words are judged where the wrap dropped no blank. Returns {breaks,
// failures, lines, han}.
function judge(drawn) {
  const failures = [];
  let breaks = 0, lines = 0, han = 0;
  for (const t of drawn.texts) {
    lines += t.lines.length;
    for (const l of t.lines) if (HAN.test(l)) ++han;
    for (let i = 1; i < t.lines.length; ++i) {
      const [a, b] = [t.lines[i - 1], t.lines[i]];
      if (t.ends[i - 1] === 'forced') continue;
      if (CLOSING.test(b)) failures.push(`a line begins with closing punctuation: "${a}" | "${b}"`);
      if (OPENING.test(a)) failures.push(`a line ends with opening punctuation: "${a}" | "${b}"`);
      if (t.ends[i - 1] !== 'break' && t.ends[i - 1] !== 'space') continue;
      ++breaks;
      if (t.ends[i - 1] === 'space') continue;
      if (splitsNumber(a, b)) failures.push(`a number is split: "${a}" | "${b}"`);
      else if (splitsWord(a, b)) failures.push(`a Latin word is split: "${a}" | "${b}"`);
    }
  }
  return { breaks, failures, lines, han };
}

// The phone's CSS size and touch, drawn at 1 device pixel per CSS pixel: where a line breaks is decided in
// CSS pixels (the atlas's scale only sharpens glyphs), and a 3x frame costs software rendering 9x the
// pixels. The states readers reported are also judged and screenshot at the phone's own 3x.
const SIZES = [['phone', { ...PHONE, deviceScaleFactor: 1 }], ['desktop', { width: 1280, height: 800 }]];
// The states readers reported, then every view's default.
const NAMED = ['view=permutation', 'view=model&model=gemma-4-31b', 'view=check&model=llama-3.1-8b'];

for (const [size, viewport] of SIZES) {
  test(`line breaks at ${viewport.width}x${viewport.height}: every view, English and Chinese`, async () => {
    const { page, errors } = await sharedPage(env, 'view=waves', viewport);
    const views = await page.evaluate(() => window.posenc.views());
    const states = [...NAMED, ...views.filter((v) => !['permutation'].includes(v)).map((v) => `view=${v}`)];
    let breaks = 0, zhWrapped = 0, han = 0;
    for (const lang of ['en', 'zh']) {
      for (const state of states) {
        await sharedPage(env, `${state}&lang=${lang}`, viewport);
        // lang=zh resolves once the catalogue and the glyphs are in; then the frames that draw with them.
        await page.evaluate((l) => window.posenc.setState({ lang: l }), lang);
        await waitFrames(page, 4);
        const drawn = await page.evaluate(() => window.posenc.drawnText());
        assert.equal(drawn.truncated, false, `${state} ${lang} ${size}: every text recorded`);
        assert.ok(drawn.texts.length > 5, `${state} ${lang} ${size}: texts drawn (${drawn.texts.length})`);
        const j = judge(drawn);
        assert.deepEqual(j.failures, [], `${state}&lang=${lang} at ${size}`);
        breaks += j.breaks;
        if (lang === 'zh') {
          han += j.han;
          zhWrapped += drawn.texts.filter((t) => t.wrapped && t.lines.length > 1 && t.lines.some((l) => HAN.test(l))).length;
        }
      }
    }
    if (size === 'phone') {
      // The reported states on the phone itself (3 device pixels per CSS pixel), judged and looked at.
      const phone = await sharedPage(env, 'view=waves', PHONE);
      for (const state of NAMED) {
        await sharedPage(env, `${state}&lang=zh`, PHONE);
        await phone.page.evaluate(() => window.posenc.setState({ lang: 'zh' }));
        await waitFrames(phone.page, 4);
        const j = judge(await phone.page.evaluate(() => window.posenc.drawnText()));
        assert.deepEqual(j.failures, [], `${state}&lang=zh at 3x`);
        assert.ok(j.han > 5, `${state}&lang=zh at 3x: Chinese lines drawn (${j.han})`);
        await screenshot(phone.page, `line-break-${state.replace(/[=&]/g, '-')}-zh-phone.png`);
      }
      assert.deepEqual(phone.errors, []);
    }
    // The check can fail: wrapped Chinese paragraphs were drawn and broken.
    assert.ok(han > 50, `Chinese lines drawn (${han})`);
    assert.ok(zhWrapped > 5, `wrapped Chinese texts of several lines (${zhWrapped})`);
    assert.ok(breaks > 20, `line breaks checked (${breaks})`);
    assert.deepEqual(errors, []);
  });
}
