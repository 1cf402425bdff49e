// End-to-end, phone text entry (390x844, touch, isMobile, deviceScaleFactor 3): a tap on one of the app's
// text fields focuses the page's hidden text element (#text-entry) over it, so a phone shows its keyboard;
// text, Backspace and Enter typed into that element (never into the canvas, which has no focus meanwhile)
// reach the field; Enter applies it, and the focus goes back to the canvas. A text field opened with the
// mouse on a desktop takes the same element (an input method composes there: zh.test.mjs), and what is
// typed arrives as typed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, waitFrames, screenshot, openState, itemRect, openPhone, tap, longPress } from './harness.mjs';

const env = useBrowser();
const rect = (page, name) => page.evaluate((n) => window.posenc.itemRect(n), name);
const state = (page) => page.evaluate(() => window.posenc.getState());
const focused = (page) => page.evaluate(() => document.activeElement && (document.activeElement.id || document.activeElement.tagName));

// The field's rectangle, opening the narrow layout's Controls panel first when the field is not drawn.
async function fieldRect(page, cdp, name) {
  let r = await rect(page, name);
  if (!r) {
    const toggle = await rect(page, 'button.controls');
    assert.ok(toggle, `${name} is drawn or there is a Controls toggle`);
    await tap(page, cdp, toggle.x + toggle.width / 2, toggle.y + toggle.height / 2);
    r = await rect(page, name);
  }
  assert.ok(r, `${name} is on screen`);
  return r;
}

// Frames until the app has caught up with the queued keys (one key per frame).
const settle = (page) => waitFrames(page, 8);

// A phone keyboard's commit of `text` into the focused element, then its Enter ("done").
async function typeAndEnter(page, text) {
  await page.keyboard.insertText(text);
  await settle(page);
  await page.keyboard.press('Enter');
  await settle(page);
}

test('phone keyboard: tapping the sentence field focuses the hidden text element; typing, Backspace and Enter reach the app', async () => {
  const { page, context, errors, cdp } = await openPhone(env, 'view=permutation&sentence=the%20cat%20sat');
  const r = await fieldRect(page, cdp, 'input.sentence');
  await tap(page, cdp, r.x + r.width / 2, r.y + r.height / 2);
  assert.equal(await focused(page), 'text-entry', 'the hidden text element has the focus (a phone shows its keyboard)');
  const entry = await page.evaluate(() => {
    const e = document.getElementById('text-entry'), b = e.getBoundingClientRect(), s = getComputedStyle(e);
    return { x: b.x, y: b.y, width: b.width, height: b.height, label: e.getAttribute('aria-label'), hidden: e.hidden,
             ariaHidden: e.getAttribute('aria-hidden'), opacity: s.opacity, fontSize: s.fontSize, inputMode: e.inputMode,
             enterKeyHint: e.enterKeyHint, autocapitalize: e.getAttribute('autocapitalize'), autocorrect: e.getAttribute('autocorrect') };
  });
  assert.ok(Math.abs(entry.x - r.x) < 2 && Math.abs(entry.y - r.y) < 2 && Math.abs(entry.width - r.width) < 2,
    `the element lies over the field: ${JSON.stringify(entry)} vs ${JSON.stringify(r)}`);
  assert.match(entry.label, /sentence/, 'its label names the field');
  assert.match(entry.label, /the cat sat/, 'and says what it holds');
  assert.equal(entry.ariaHidden, null, 'a focused element is not aria-hidden');
  assert.equal(entry.opacity, '0');
  assert.equal(entry.fontSize, '16px', 'iOS does not zoom into it');
  assert.equal(entry.inputMode, 'text');
  assert.equal(entry.enterKeyHint, 'done');
  assert.equal(entry.autocapitalize, 'off');
  assert.equal(entry.autocorrect, 'off');
  await screenshot(page, 'phone-keyboard-active.png');

  // The field's text is selected on a tap: what a phone keyboard types replaces it.
  await page.keyboard.insertText('a b x');                       // CDP Input.insertText (an IME's commit)
  await settle(page);
  assert.equal(await focused(page), 'text-entry', 'the canvas never gets the focus while typing');
  assert.equal((await state(page)).sentence, 'a b x', 'the text replaced the field\'s (the field applies as it is typed)');
  await page.keyboard.press('Backspace');                        // deletes the element's sentinel: one Backspace
  await settle(page);
  assert.match((await state(page)).sentence, /^a b ?$/, 'Backspace on the "empty" element deleted the x');
  await cdp.send('Input.imeSetComposition', { text: 'ç', selectionStart: 1, selectionEnd: 1 });  // a word composed...
  await settle(page);
  assert.equal((await state(page)).sentence, 'a b ç', 'a word being composed shows as it is composed');
  await cdp.send('Input.insertText', { text: 'c' });             // ...and committed as something else
  await settle(page);
  assert.equal((await state(page)).sentence, 'a b c');
  assert.equal(await focused(page), 'text-entry');
  // A tap inside the field being edited (to place the caret, or to bring a put-away keyboard back)
  // keeps it open and the element focused.
  await tap(page, cdp, r.x + r.width - 10, r.y + r.height / 2);
  await settle(page);
  assert.equal(await focused(page), 'text-entry', 'a tap inside the open field keeps the element focused');
  assert.equal((await state(page)).sentence, 'a b c');
  await page.keyboard.press('Enter');
  await settle(page);
  assert.equal((await state(page)).sentence, 'a b c');
  assert.equal(await focused(page), 'canvas', 'after Enter the element lost the focus (the keyboard closes) to the canvas');
  assert.equal(await page.evaluate(() => document.getElementById('text-entry').hidden), true);
  await screenshot(page, 'phone-keyboard-applied.png');
  assert.deepEqual(errors, []);
  await context.close();
});

test('phone keyboard: a number field (seed) offers a number keyboard; a tap elsewhere closes it', async () => {
  const { page, context, errors, cdp } = await openPhone(env, 'view=permutation&seed=3');
  const r = await fieldRect(page, cdp, 'input.seed');
  await tap(page, cdp, r.x + r.width / 2, r.y + r.height / 2);
  assert.equal(await focused(page), 'text-entry');
  assert.equal(await page.evaluate(() => document.getElementById('text-entry').inputMode), 'decimal');
  await typeAndEnter(page, '17');
  assert.equal((await state(page)).seed, '17', 'the selected 3 was replaced');
  assert.equal(await focused(page), 'canvas');

  // Open it again with a slower tap (0.45 s: too slow for the page to focus the element inside the touch's
  // own handler, still a tap for the app): the element gets the focus when the app reports the open field.
  await tap(page, cdp, r.x + r.width / 2, r.y + r.height / 2, 0.45);
  assert.equal(await focused(page), 'text-entry');
  // Then a tap outside the field: the field closes and the canvas has the focus again.
  await tap(page, cdp, 380, r.y + r.height / 2 + 200);
  await settle(page);
  assert.equal(await focused(page), 'canvas', 'a tap elsewhere closes the field and the keyboard');
  assert.equal((await state(page)).seed, '17');
  assert.deepEqual(errors, []);
  await context.close();
});

test('phone keyboard: a long-press lifted on a slider opens its text field (a phone has no ctrl+click)', async () => {
  const { page, context, errors, cdp } = await openPhone(env, 'view=scores&n=32');
  const r = await fieldRect(page, cdp, 'slider.n');
  await longPress(page, cdp, r.x + r.width * 0.8, r.y + r.height / 2);
  assert.equal((await state(page)).n, '32', 'the long-press moved nothing');
  assert.equal(await focused(page), 'text-entry', 'the slider\'s text field is open and the phone keyboard up');
  assert.equal(await page.evaluate(() => document.getElementById('text-entry').inputMode), 'decimal');
  await typeAndEnter(page, '64');
  assert.equal((await state(page)).n, '64', 'the typed value replaced the selected 32');
  assert.equal(await focused(page), 'canvas');
  assert.equal(await page.evaluate(() => window.posenc.focusedSlider()), 'n', 'entered: the focused slider');
  // A tap on the slider is a click as before: no text field.
  await tap(page, cdp, r.x + r.width * 0.8, r.y + r.height / 2);
  assert.equal(await focused(page), 'canvas');
  assert.deepEqual(errors, []);
  await context.close();
});

test('desktop: a mouse click on a text field focuses the text element (an IME composes there); typing and Enter apply', async () => {
  const { page, context, errors } = await openState(env, 'view=permutation&sentence=the%20cat%20sat');
  const r = await itemRect(page, 'input.sentence');
  await page.mouse.click(r.x + r.width / 2, r.y + r.height / 2);
  await waitFrames(page, 3);
  assert.equal(await focused(page), 'text-entry');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('a dog ran');
  await page.keyboard.press('Enter');
  await waitFrames(page, 4);
  assert.equal((await page.evaluate(() => window.posenc.getState())).sentence, 'a dog ran');
  assert.equal(await focused(page), 'canvas', 'Enter closes the field: the canvas has the focus again');
  assert.deepEqual(errors, []);
  await context.close();
});
