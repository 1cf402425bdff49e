// End-to-end, the parameter form (web/param-form.js): the current view's declared parameters as a real,
// labelled HTML form. Keyboard only (no mouse at all: only page.keyboard) changes n, the scheme and a
// text field in three views, and the form's live region says each new value; the accessibility tree
// names every control with its value; the form follows the app; both themes at 1280x800, 720x480 and
// the phone, with screenshots of the form open.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openState, waitFrames, screenshot, PHONE } from './harness.mjs';

const env = useBrowser();

const active = (page) => page.evaluate(() => {
  const el = document.activeElement;
  return el ? { param: el.getAttribute('data-param'), tag: el.tagName, type: el.type || '', id: el.id } : null;
});

// Presses Tab (Shift+Tab with `back`) until the element with data-param="key" has the focus.
async function tabTo(page, key, { back = false, limit = 80 } = {}) {
  for (let i = 0; i < limit; ++i) {
    const a = await active(page);
    if (a && a.param === key) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  assert.fail(`Tab never reached data-param="${key}" (focus on ${JSON.stringify(await active(page))})`);
}

const state = (page) => page.evaluate(() => window.posenc.getState());
const status = (page) => page.evaluate(() => document.getElementById('param-status').textContent);

// Waits until the app's state has `key` = `value` and the form's live region says `said`.
async function settled(page, key, value, said) {
  await page.waitForFunction(([k, v, s]) => {
    window.posenc.wake();
    return window.posenc.getState()[k] === v && document.getElementById('param-status').textContent.includes(s);
  }, [key, value, said], { timeout: 15000 }).catch(async () => {
    assert.fail(`${key}: state ${JSON.stringify((await state(page))[key])}, want ${value}; status "${await status(page)}", want "${said}"`);
  });
  await waitFrames(page, 2);
}

test('param form: keyboard only changes n, the scheme and a text field in three views; the live region says each value', async () => {
  // PE waves: the range of n (ArrowRight: one more), the encoding (ArrowDown: the next choice), dims (typed).
  {
    const { page, context, errors } = await openState(env, 'view=waves&n=64&scheme=sinusoidal&dims=0,1', { tab: 'form' });
    await tabTo(page, 'n');
    assert.equal((await active(page)).type, 'range');
    await page.keyboard.press('ArrowRight');
    await settled(page, 'n', '65', 'Sequence length n: 65');
    assert.ok(await page.evaluate(() => document.body.classList.contains('form-open')), 'the form shows while focused');
    await tabTo(page, 'scheme', { back: true });
    assert.equal((await active(page)).tag, 'SELECT');
    const choices = await page.evaluate(() => [...document.querySelector('[data-param="scheme"]').options].map((o) => o.value));
    const next = choices[choices.indexOf('sinusoidal') + 1];
    await page.keyboard.press('ArrowDown');
    await settled(page, 'scheme', next, 'Encoding: ');
    await tabTo(page, 'dims');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('0,2,5');
    await page.keyboard.press('Enter');
    await settled(page, 'dims', '0,2,5', '0,2,5');
    // Text the parameter cannot take stays in the field, marked invalid and described by the notice.
    await page.keyboard.press('Control+A');
    await page.keyboard.type('0,1,35,999');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('[data-param="dims"]').getAttribute('aria-invalid') === 'true',
      null, { timeout: 15000 });
    const field = await page.evaluate(() => {
      const el = document.querySelector('[data-param="dims"]');
      const msg = document.getElementById(el.getAttribute('aria-describedby'));
      return { value: el.value, msg: msg && msg.textContent };
    });
    assert.equal(field.value, '0,1,35,999', 'the refused text stays in the field');
    assert.match(field.msg, /dims/, `the field is described by its notice: ${field.msg}`);
    assert.equal((await state(page)).dims, '0,2,5', 'the app keeps its value');
    assert.match(await status(page), /dims/, 'the live region says what happened');
    assert.deepEqual(errors, []);
    await context.close();
  }
  // Scores: the scheme select (its rows follow the scheme; the focus stays on it) and n.
  {
    const { page, context, errors } = await openState(env, 'view=scores&scheme=t5&n=32', { tab: 'form' });
    const keys = () => page.evaluate(() => [...document.querySelectorAll('#params [data-param]')].map((e) => e.getAttribute('data-param')));
    assert.ok((await keys()).includes('buckets'), 'T5: the bucket count has a control');
    await tabTo(page, 'scheme');
    const choices = await page.evaluate(() => [...document.querySelector('[data-param="scheme"]').options].map((o) => o.value));
    const next = choices[choices.indexOf('t5') + 1];
    await page.keyboard.press('ArrowDown');
    await settled(page, 'scheme', next, 'Scheme: ');
    await page.waitForFunction(() => { window.posenc.wake(); return !document.querySelector('#params [data-param="buckets"]'); }, null, { timeout: 15000 });
    assert.equal((await active(page)).param, 'scheme', 'the focus stays on the scheme while the rows change');
    await tabTo(page, 'n');
    await page.keyboard.press('ArrowLeft');
    await settled(page, 'n', '31', 'Sequence length n: 31');
    assert.deepEqual(errors, []);
    await context.close();
  }
  // Permutation: the sentence (a text field), then the canvas is reached and left with Tab.
  {
    const { page, context, errors } = await openState(env, 'view=permutation&sentence=the%20cat%20sat', { tab: 'form' });
    await tabTo(page, 'sentence');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('a b c d');
    await page.keyboard.press('Enter');
    await settled(page, 'sentence', 'a b c d', 'a b c d');
    for (let i = 0; i < 40 && (await active(page)).id !== 'canvas'; ++i) await page.keyboard.press('Tab');
    assert.equal((await active(page)).id, 'canvas', 'Tab reaches the canvas after the form');
    assert.ok(!(await page.evaluate(() => document.body.classList.contains('form-open'))), 'the form hides with the focus');
    await page.keyboard.press('Shift+Tab');
    assert.notEqual((await active(page)).id, 'canvas', 'Shift+Tab leaves the canvas (no keyboard trap)');
    assert.deepEqual(errors, []);
    await context.close();
  }
});

// The accessibility tree (CDP Accessibility.getFullAXTree): role, name and value of each node.
async function axNodes(page) {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  await cdp.detach();
  return nodes.filter((n) => !n.ignored).map((n) => ({
    role: n.role && n.role.value, name: n.name && n.name.value,
    value: n.value && n.value.value,
    checked: ((n.properties || []).find((p) => p.name === 'checked') || {}).value?.value,
    valuetext: ((n.properties || []).find((p) => p.name === 'valuetext') || {}).value?.value,
  }));
}

const SIZES = [
  { name: '1280x800', opts: { width: 1280, height: 800 } },
  { name: '720x480', opts: { width: 720, height: 480 } },
  { name: 'phone', opts: PHONE },
];

for (const theme of ['dark', 'light']) {
  for (const size of SIZES) {
    test(`param form: the accessibility tree lists each control with its name and value (${theme}, ${size.name})`, async () => {
      // The form is the subject, not the load: one page per device kind (sharedPage), brought to each theme
      // and size. No form control keeps the focus from the test before (the form shows while one has it).
      const { page, context, errors } = await openState(env, `view=scores&scheme=rope&n=48&theme=${theme}`, { ...size.opts, reuse: true });
      if (await page.evaluate(() => { const had = !!document.activeElement?.closest('#params'); if (had) document.activeElement.blur(); return had; }))
        await page.waitForFunction(() => { window.posenc.wake(); return !document.body.classList.contains('form-open'); }, null, { timeout: 15000 });
      await waitFrames(page, 3);
      const form = await page.evaluate(() => JSON.parse(Module.ccall('posenc_form', 'string', [], [])));
      const shown = form.params.filter((p) => p.shown);
      assert.ok(shown.some((p) => p.key === 'base') && !shown.some((p) => p.key === 'buckets'), 'RoPE: base, not T5 buckets');
      // The description names only the parameters that matter for the scheme.
      const words = await page.evaluate(() => window.posenc.description());
      assert.match(words, /base = /);
      assert.doesNotMatch(words, /max_distance|buckets|deberta|clip =/, `no other scheme's parameters: ${words}`);
      const nodes = await axNodes(page);
      const roleOf = { integer: 'slider', real: 'slider', choice: 'combobox', flag: 'checkbox', text: 'textbox', numbers: 'textbox' };
      for (const p of shown) {
        const checkbox = p.kind === 'flag' || (p.kind === 'choice' && p.widget === 'checkbox');
        const role = checkbox ? 'checkbox' : roleOf[p.kind];
        const node = nodes.find((n) => n.name === p.label && n.role === role);
        assert.ok(node, `${p.key}: a ${role} named "${p.label}"`);
        if (checkbox) {
          const on = p.kind === 'flag' ? p.value === '1' : p.value === p.choices[1].name;
          assert.equal(node.checked, on ? 'true' : 'false', `${p.key} checked`);
        } else if (p.kind === 'choice') {
          assert.equal(node.value, p.choices.find((c) => c.name === p.value).label, `${p.key} value`);
        } else if (role === 'slider') {
          // The exact value (a logarithmic real's own slider says it in aria-valuenow).
          assert.equal(String(node.value), p.value, `${p.key} value`);
          const exact = nodes.find((n) => n.name === `${p.label}, exact value` && n.role === 'spinbutton');
          assert.ok(exact, `${p.key}: its exact number field`);
          assert.equal(String(exact.value), p.value, `${p.key} exact value`);
        } else {
          assert.equal(String(node.value ?? ''), p.value, `${p.key} value`);
        }
      }
      // The view links are named by the views' titles.
      const links = nodes.filter((n) => n.role === 'link').map((n) => n.name);
      assert.ok(links.includes('RoPE') && !links.includes('rope'), `view links: ${links.join(', ')}`);
      // Focused, the form shows below the figure (the canvas shrinks; nothing covers it).
      await page.focus('[data-param="n"]');
      await waitFrames(page, 3);
      const box = await page.evaluate(() => {
        const c = document.getElementById('canvas').getBoundingClientRect(), f = document.getElementById('params').getBoundingClientRect();
        return { canvasBottom: c.bottom, formTop: f.top, formHeight: f.height, vh: innerHeight };
      });
      assert.ok(box.formHeight > 40 && box.canvasBottom <= box.formTop + 0.5, `form below the canvas: ${JSON.stringify(box)}`);
      await screenshot(page, `param-form-${theme}-${size.name}.png`);
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
}

test('param form: follows the app (setState, its own controls) and sets the app', async () => {
  const { page, context, errors } = await openState(env, 'view=waves&n=64', { tab: 'form' });
  await page.evaluate(() => window.posenc.setState({ n: '100' }));
  await page.waitForFunction(() => { window.posenc.wake(); return document.querySelector('[data-param="n"]').value === '100'; }, null, { timeout: 15000 });
  assert.equal(await page.evaluate(() => document.querySelector('[data-param-exact="n"]').value), '100');
  // The exact field: typed and committed (change), as a keyboard user would.
  await page.focus('[data-param-exact="n"]');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('200');
  await page.keyboard.press('Tab');
  await settled(page, 'n', '200', 'Sequence length n: 200');
  // A view without the controls (controls=0) has no form either.
  const hidden = await openState(env, 'view=waves&embed=1&controls=0', { tab: 'hidden' });
  assert.equal(await hidden.page.evaluate(() => document.getElementById('params').hidden), true);
  await hidden.context.close();
  assert.deepEqual(errors, []);
  await context.close();
});
