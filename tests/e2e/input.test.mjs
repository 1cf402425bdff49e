// End-to-end, keyboard input: clicking the canvas focuses it, Tab reaches it, and typing reaches ImGui's
// text fields (SDL reads keys from the focused canvas).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, sharedPage, openControls, itemRect, waitFrames, screenshot, typeIntoField } from './harness.mjs';

const env = useBrowser();
// Input is the subject, not the load: one page for the file, brought to each test's state (sharedPage).
const open = (query, viewport) => sharedPage(env, query, viewport);

test('input: clicking the canvas focuses it and Tab reaches it', async () => {
  const { page, errors } = await open('view=waves');
  assert.equal(await page.evaluate(() => document.getElementById('canvas').tabIndex), 0, 'the canvas is in the tab order');
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  await page.mouse.click(640, 700);
  assert.equal(await page.evaluate(() => document.activeElement && document.activeElement.id), 'canvas', 'a click focuses the canvas');
  await page.evaluate(() => document.activeElement.blur());
  for (let i = 0; i < 60; ++i) {  // the view links and the parameter form come first
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement && document.activeElement.id) === 'canvas') break;
  }
  assert.equal(await page.evaluate(() => document.activeElement && document.activeElement.id), 'canvas', 'Tab reaches the canvas');
  assert.deepEqual(errors, []);
});

test('input: typing a sentence into the permutation view', async () => {
  const { page, errors } = await open('view=permutation&sentence=the%20cat%20sat');
  const r = await itemRect(page, 'input.sentence');
  await page.mouse.click(r.x + r.width / 2, r.y + r.height / 2);
  await waitFrames(page, 2);
  await page.keyboard.press('Control+A');
  await waitFrames(page, 2);
  await page.keyboard.type('a b c');
  await page.keyboard.press('Enter');
  await page.mouse.move(1, 1);
  await waitFrames(page, 3);
  assert.equal((await page.evaluate(() => window.posenc.getState())).sentence, 'a b c');
  assert.deepEqual(errors, []);
});

// Ctrl+click on the slider at `key`, select all, type `text`, Enter; returns the state after.
async function ctrlClickType(page, key, text) {
  const r = await itemRect(page, `slider.${key}`);
  await page.keyboard.down('Control');
  await page.mouse.click(r.x + r.width * 0.8, r.y + r.height / 2);
  await page.keyboard.up('Control');
  await waitFrames(page, 2);
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
  await page.mouse.move(1, 1);
  await waitFrames(page, 3);
  return page.evaluate(() => window.posenc.getState());
}

test('input: ctrl+click on a slider opens its text field (Ctrl held before the canvas had focus)', async () => {
  const { page, errors } = await open('view=waves&n=64');
  // Nothing focused: the Ctrl key goes to the page, only the click reaches (and focuses) the canvas.
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  assert.equal((await ctrlClickType(page, 'n', '100')).n, '100', 'ctrl+click, type 100, Enter: n = 100 (not dragged to 80%)');
  assert.equal(new URL(page.url()).searchParams.get('n'), '100', 'the URL follows');
  // Again with the canvas focused (Ctrl reaches SDL as a key this time).
  assert.equal((await ctrlClickType(page, 'n', '257')).n, '257');
  assert.equal(await page.evaluate(() => window.posenc.notices()), '');
  assert.deepEqual(errors, []);
});

test('input: typed slider values out of range or not numbers end clamped or unchanged, never NaN', async () => {
  const { page, errors } = await open('view=waves&n=64&d=128&base=10000');
  assert.equal((await ctrlClickType(page, 'n', '99999')).n, '4096', 'above the range: clamped to 4096');
  assert.equal((await ctrlClickType(page, 'n', '-5')).n, '1', 'below the range: clamped to 1');
  assert.equal((await ctrlClickType(page, 'n', 'abc')).n, '1', 'letters are not typed: unchanged');
  assert.equal((await ctrlClickType(page, 'n', '*1000000')).n, '4096', 'a product past the range: clamped');
  assert.equal((await ctrlClickType(page, 'd', '13')).d, '12', 'an even parameter stays even');
  assert.equal((await ctrlClickType(page, 'base', '1e999')).base, '1e+07', 'infinity: clamped to the top');
  const state = await page.evaluate(() => window.posenc.getState());
  for (const [k, v] of Object.entries(state)) assert.doesNotMatch(v, /nan|inf/i, `${k}=${v}`);
  assert.deepEqual(errors, []);

  // 0 times infinity is NaN, which no clamp catches: the value stays.
  const toy = await open('view=toy&theta=0');
  assert.equal((await ctrlClickType(toy.page, 'theta', '*1e999')).theta, '0');
  assert.equal((await ctrlClickType(toy.page, 'theta', '1.5')).theta, '1.5');
  assert.equal(await toy.page.evaluate(() => window.posenc.notices()), '');
  assert.deepEqual(toy.errors, []);
});

// A browser may run no frame for a while (a busy GPU process, a throttled tab) while keys keep arriving:
// they queue, and once frames resume the app takes all of them in order, one key release per frame.
test('input: keys typed while no frame runs are all taken, in order, when frames resume', async () => {
  const { page, errors } = await open('view=waves&n=32');
  const r = await itemRect(page, 'slider.n');
  await page.keyboard.down('Control');
  await page.mouse.click(r.x + r.width * 0.8, r.y + r.height / 2);
  await page.keyboard.up('Control');
  await waitFrames(page, 2);
  await page.evaluate(() => {  // animation frames held back (the main loop runs on them) until released
    const raf = window.requestAnimationFrame.bind(window), held = [];
    window.requestAnimationFrame = (cb) => { held.push(cb); return 0; };
    window.releaseFrames = () => { window.requestAnimationFrame = raf; held.forEach((cb) => raf(cb)); };
  });
  await page.keyboard.press('Control+A');
  await page.keyboard.type('*1000');
  // The same key twice: its second press comes in the frame its first release does, and must stay a press.
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('0');
  await page.keyboard.press('Enter');
  await page.mouse.move(1, 1);
  assert.ok(await page.evaluate(() => window.Module._posenc_input_pending()) >= 9, 'the keys wait in the queue (a frame already asked for may have taken a few)');
  await page.evaluate(() => window.releaseFrames());
  await waitFrames(page, 3);
  assert.equal(await page.evaluate(() => window.Module._posenc_input_pending()), 0);
  assert.equal((await page.evaluate(() => window.posenc.getState())).n, '3200', '32 * 100: two 0s taken back (two presses of one key), one typed again');
  assert.deepEqual(errors, []);
});

test('input: arrow keys step the focused slider (the one last clicked, dragged or entered)', async () => {
  const { page, errors } = await open('view=waves&n=64&d=128&base=10000');
  const state = () => page.evaluate(() => window.posenc.getState());
  const press = async (key) => { await page.keyboard.press(key); await waitFrames(page, 2); return state(); };
  assert.equal((await ctrlClickType(page, 'n', '100')).n, '100');
  assert.equal(await page.evaluate(() => window.posenc.focusedSlider()), 'n', 'the slider just entered is focused');
  assert.equal((await press('ArrowRight')).n, '101');
  assert.equal((await press('ArrowLeft')).n, '100');
  assert.equal((await press('ArrowUp')).n, '101');
  assert.equal((await press('ArrowDown')).n, '100');
  assert.equal((await press('Shift+ArrowRight')).n, '110', 'Shift: 10 units');
  assert.equal(new URL(page.url()).searchParams.get('n'), '110', 'through the parameter: the URL follows');
  // An even parameter steps by 2; a slider clicked (not moved) becomes the focused one.
  const d = await itemRect(page, 'slider.d');
  await page.keyboard.down('Control');
  await page.mouse.click(d.x + d.width / 2, d.y + d.height / 2);
  await page.keyboard.up('Control');
  await page.keyboard.press('Escape');  // leave the text field unchanged: d stays 128
  await waitFrames(page, 2);
  assert.equal(await page.evaluate(() => window.posenc.focusedSlider()), 'd');
  assert.equal((await press('ArrowRight')).d, '130');
  assert.equal((await press('ArrowLeft')).d, '128');
  assert.equal((await state()).n, '110', 'n is no longer stepped');
  // A logarithmic real slider steps by the 100th root of its range (rounded to 3 digits): 10000 -> 11700.
  assert.equal((await ctrlClickType(page, 'base', '10000')).base, '10000');
  assert.equal((await press('ArrowRight')).base, '11700');
  assert.equal((await press('ArrowLeft')).base, '10000');
  // At the end of the range a step does nothing.
  await ctrlClickType(page, 'n', '4096');
  assert.equal((await press('ArrowRight')).n, '4096');
  // Clicking something else (the heatmap) leaves no slider focused: arrows change nothing.
  const plot = await itemRect(page, 'plot.pe');
  await page.mouse.click(plot.x + plot.width / 2, plot.y + plot.height / 2);
  await waitFrames(page, 2);
  assert.equal(await page.evaluate(() => window.posenc.focusedSlider()), '');
  const before = await state();
  assert.deepEqual(await press('ArrowLeft'), before);
  assert.equal(await page.evaluate(() => window.posenc.notices()), '');
  assert.deepEqual(errors, []);
});

test('input: arrow keys step the sliders views draw themselves (RoPE pos, DeBERTa bucket sizes in twos)', async () => {
  const rope = await open('view=rope&dim=128&pos=1000&play=0');
  const press = async (page, key) => {
    await page.keyboard.press(key);
    await waitFrames(page, 2);
    return page.evaluate(() => window.posenc.getState());
  };
  assert.equal((await ctrlClickType(rope.page, 'pos', '2000')).pos, '2000');
  assert.equal(await rope.page.evaluate(() => window.posenc.focusedSlider()), 'pos');
  assert.equal((await press(rope.page, 'ArrowRight')).pos, '2001');
  assert.equal((await press(rope.page, 'Shift+ArrowLeft')).pos, '1991');
  assert.deepEqual(rope.errors, []);

  const scores = await open('view=scores&scheme=deberta&deberta_buckets=256');
  assert.equal((await ctrlClickType(scores.page, 'deberta_buckets', '64')).deberta_buckets, '64');
  assert.equal(await scores.page.evaluate(() => window.posenc.focusedSlider()), 'deberta_buckets');
  assert.equal((await press(scores.page, 'ArrowRight')).deberta_buckets, '66', 'even sizes: a step is 2');
  assert.equal((await press(scores.page, 'ArrowLeft')).deberta_buckets, '64');
  assert.equal(await scores.page.evaluate(() => window.posenc.notices()), '');
  assert.deepEqual(scores.errors, []);
});

test('input: text a field cannot take stays in it with the reason, and is a notice (never dropped silently)', async () => {
  for (const [size, theme] of [[{ width: 1280, height: 800 }, 'dark'], [{ width: 720, height: 900 }, 'light']]) {
    const { page, errors } = await open(`view=waves&d=128&dims=0,1,8,32&theme=${theme}`, size);
    await openControls(page, 'input.dims');
    for (const [typed, why] of [['0,1,35,999', /has dimension 999, not below d = 128/], ['0,1,2,3,4,5,6', /more than 6 dimensions/],
      ['0,1,x', /not a comma list of dimensions/]]) {
      const { state, notices } = await typeIntoField(page, 'dims', typed);
      const dims = notices.filter((n) => n.key === 'dims');
      assert.equal(dims.length, 1, `${typed}: one notice for dims: ${JSON.stringify(notices)}`);
      assert.match(dims[0].message, why);
      assert.ok(dims[0].message.includes(`"${typed}"`), `${typed}: the notice quotes what was typed: ${dims[0].message}`);
      assert.ok(dims[0].message.includes(`not applied (dims is ${state.dims})`), `${typed}: and what is used: ${dims[0].message}`);
      await itemRect(page, 'notice');
      await screenshot(page, `input-dims-rejected-${typed.replace(/,/g, '_')}-${size.width}-${theme}.png`);
    }
    // Valid text is taken and the notice goes.
    const { state, notices } = await typeIntoField(page, 'dims', '0,2,4');
    assert.equal(state.dims, '0,2,4');
    assert.deepEqual(notices, []);
    // So does a rejected text when the value changes by other means.
    await typeIntoField(page, 'dims', '0,1,999');
    await page.evaluate(() => window.posenc.setState({ dims: '3' }));
    await waitFrames(page, 3);
    assert.deepEqual(await page.evaluate(() => window.posenc.noticeList()), []);
    assert.deepEqual(errors, []);
    }
});

test('input: a sentence of 18 words is not cut to 16: it stays, with the reason and a notice', async () => {
  const { page, errors } = await open('view=permutation&sentence=the%20cat%20sat');
  // Typed in three pieces (16 words, then one word more at a time), each in a frame of its own.
  const words = ['one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen',
    ' seventeen', ' eighteen'];
  const { state, notices } = await typeIntoField(page, 'sentence', words);
  assert.equal(notices.length, 1, JSON.stringify(notices));
  assert.equal(notices[0].key, 'sentence');
  assert.match(notices[0].message, /more than 16 tokens: not applied/);  // tokens: each CJK character is one
  assert.ok(notices[0].message.includes('"one two three'), notices[0].message);
  assert.equal(state.sentence.split(' ').length, 16, 'the view uses the 16 words it took while they were typed');
  await screenshot(page, 'input-sentence-18-words.png');
  assert.deepEqual(errors, []);
});
