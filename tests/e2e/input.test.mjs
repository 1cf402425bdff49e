// End-to-end, keyboard input: clicking the canvas focuses it, Tab reaches it, and typing reaches ImGui's
// text fields (SDL reads keys from the focused canvas).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openState, itemRect, waitFrames } from './harness.mjs';

const env = useBrowser();

test('input: clicking the canvas focuses it and Tab reaches it', async () => {
  const { page, context, errors } = await openState(env, 'view=waves');
  assert.equal(await page.evaluate(() => document.getElementById('canvas').tabIndex), 0, 'the canvas is in the tab order');
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  await page.mouse.click(640, 700);
  assert.equal(await page.evaluate(() => document.activeElement && document.activeElement.id), 'canvas', 'a click focuses the canvas');
  await page.evaluate(() => document.activeElement.blur());
  for (let i = 0; i < 20; ++i) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement && document.activeElement.id) === 'canvas') break;
  }
  assert.equal(await page.evaluate(() => document.activeElement && document.activeElement.id), 'canvas', 'Tab reaches the canvas');
  assert.deepEqual(errors, []);
  await context.close();
});

test('input: typing a sentence into the permutation view', async () => {
  const { page, context, errors } = await openState(env, 'view=permutation&sentence=the%20cat%20sat');
  const r = await itemRect(page, 'input.sentence');
  await page.mouse.click(r.x + r.width / 2, r.y + r.height / 2);
  await waitFrames(page, 2);
  await page.keyboard.press('Control+A');
  await waitFrames(page, 2);
  await page.keyboard.type('a b c', { delay: 20 });
  await page.keyboard.press('Enter');
  await page.mouse.move(1, 1);
  await waitFrames(page, 3);
  assert.equal((await page.evaluate(() => window.posenc.getState())).sentence, 'a b c');
  assert.deepEqual(errors, []);
  await context.close();
});
