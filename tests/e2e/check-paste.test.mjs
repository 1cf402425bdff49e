// End-to-end, the Check view's input: a 64-row tensor pasted with Ctrl+V (the clipboard holding the text)
// into the canvas's Tensor field and into the parameter form's textarea is read whole, in each of the
// readers' text forms (rows with blanks, commas or ';', '#' comment lines, JSON); the source becomes the
// pasted text; the verdict on the page equals `posenc check` on the same text; and after an edit the page
// never shows the verdict of the tensor it replaced (between the edit and the new verdict it says none).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useBrowser, openState, focusField, openControls, itemRect, waitFrames, screenshot, repo } from './harness.mjs';

const env = useBrowser();
const posenc = path.join(repo, 'build', 'native', 'posenc');
const DIM = 64, BASE = 10000, ROWS = 64;
const QUERY = `view=check&kind=cos&dim=${DIM}&base=${BASE}`;

// RoPE's cos for dim d, base b (transformers' RotaryEmbedding: inv_freq_i = b^(-2i/d), emb = cat(freqs, freqs)
// for the half layout; modeling_rope_utils.py _compute_default_rope_parameters), at positions 0..ROWS-1.
const invFreq = Array.from({ length: DIM / 2 }, (_, i) => BASE ** (-2 * i / DIM));
const halfRow = (p) => { const h = invFreq.map((w) => Math.cos(p * w)); return [...h, ...h]; };
// A port that pairs neighbours where the reference pairs halves (transformers #25199): [c0, c0, c1, c1, ...].
const interleavedRow = (p) => invFreq.flatMap((w) => [Math.cos(p * w), Math.cos(p * w)]);
const rowsOf = (f) => Array.from({ length: ROWS }, (_, p) => f(p).map((v) => v.toPrecision(9)));

// The readers' text forms of one tensor (docs/cli.md, "posenc check": rows separated by whitespace, commas
// or semicolons, '#' comment lines; JSON arrays of rows).
const asRows = (rows) => rows.map((r) => r.join(' ')).join('\n') + '\n';
const asCsv = (rows) => '# cos from a port, 64 positions x 64 dims\n' + rows.map((r) => r.join(', ')).join('\r\n');
const asJson = (rows) => '[\n' + rows.map((r) => ' [' + r.map(Number).join(', ') + ']').join(',\n') + '\n]\n';

// `posenc check` on the text as a file: its JSON and, from its text output, how close a MATCH's worst
// element came to its tolerance (the number the view's description gives).
function cliCheck(text) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'posenc-paste-'));
  const file = path.join(dir, 'cos.txt');
  fs.writeFileSync(file, text);
  const args = ['check', '--reference', JSON.stringify({ dim: DIM, base: BASE }), '--kind', 'cos', '--actual', file];
  const json = spawnSync(posenc, [...args, '--json'], { encoding: 'utf8' });
  const human = spawnSync(posenc, args, { encoding: 'utf8' });
  fs.rmSync(dir, { recursive: true });
  assert.ok(json.status === 0 || json.status === 1, `posenc check: ${json.stderr}`);
  const out = JSON.parse(json.stdout);
  const ratio = /worst element at (\S+) (of|x) its/.exec(human.stdout);
  assert.ok(ratio, human.stdout);
  return { ...out, ratio: Number(ratio[1]) };
}

// What the page says: the source, the live region and its verdict sentence, the numbers
// (window.posenc.describe) and the probes, read at once.
async function pageVerdict(page) {
  await waitFrames(page, 2);
  return page.evaluate(() => {
    const d = window.posenc.describe();
    const s = window.posenc.getState();
    const live = window.posenc.description();
    const verdict = /Verdict: (.*?)\.(?= Top cause|$)/.exec(d.formula);
    const num = (n) => (d.numbers.find((x) => x.name === n) || {}).value;
    return { source: s.source, live, verdict: verdict ? verdict[1] : null,
      match: num('match'), maxAbs: num('max abs error'), probes: window.posenc.probes() };
  });
}

// The page's verdict equals posenc check's on the same text: every row read (the shape), match, max |error|,
// the top cause, and for a MATCH "within tolerance (worst element at x of it)" with x as posenc check computes it.
function assertSameVerdict(v, cli, label) {
  assert.equal(v.source, 'text', `${label}: the source is the pasted text`);
  assert.ok(v.verdict, `${label}: a verdict in ${v.live}`);
  assert.doesNotMatch(v.live, /Example \(built in\)/, label);
  assert.equal(v.match, cli.match ? 1 : 0, `${label}: ${v.verdict}`);
  assert.ok(Math.abs(v.maxAbs - cli.max_abs_error) <= 1e-12 + 1e-9 * cli.max_abs_error, `${label}: ${v.maxAbs} vs ${cli.max_abs_error}`);
  assert.match(v.verdict, new RegExp(`^${cli.match ? 'match' : 'mismatch'}, cos tensor ${ROWS} x ${DIM}`), label);
  if (cli.match) {
    const x = /within tolerance \(worst element at (\S+) of it\)/.exec(v.verdict);
    assert.ok(x, `${label}: ${v.verdict}`);
    assert.ok(Math.abs(Number(x[1]) - cli.ratio) <= 1e-5 * cli.ratio + 1e-12, `${label}: x = ${x[1]} vs ${cli.ratio}`);
    assert.ok(Number(x[1]) <= 1, label);
  } else {
    assert.match(v.live, new RegExp(`Top cause: ${cli.diagnosis[0].cause},`), label);
    assert.ok(v.probes.includes(`cause.${cli.diagnosis[0].cause}`), label);
  }
}

// Samples, at every animation frame until `done` is in the page, what the reader sees as the input (the
// form's textarea, or the app's tensor that its field shows) beside the app's verdict. Resolves to the list.
async function recordFrames(page, from) {
  await page.evaluate((textarea) => {
    window.__samples = [];
    const area = () => document.querySelector('textarea[data-param="tensor"]');
    const tick = () => {
      const d = window.posenc.describe();
      const m = d.numbers.find((x) => x.name === 'match');
      window.__samples.push({
        input: textarea ? area().value : window.posenc.getState().tensor,
        source: window.posenc.getState().source,
        match: m ? m.value : null,
        formula: d.formula,
      });
      if (!window.__stop) requestAnimationFrame(tick);
    };
    window.__stop = false;
    requestAnimationFrame(tick);
  }, from === 'form');
}
async function stopRecording(page) {
  return page.evaluate(() => { window.__stop = true; return window.__samples; });
}

// No sample after the edit shows the old verdict: the input then is the old text (nothing edited yet), or
// the verdict is none (cannot be checked yet) or the new one's.
function assertNeverStale(samples, oldText, oldMatch, label) {
  const norm = (t) => t.replace(/;\s*/g, '\n').replace(/\s+/g, ' ').trim();
  let edited = 0;
  for (const s of samples) {
    if (norm(s.input) === norm(oldText)) continue;
    ++edited;
    assert.equal(s.source, 'text', `${label}: an edited tensor is the pasted text, never the example's`);
    assert.ok(s.match === null || s.match !== oldMatch, `${label}: the old verdict with the new input: ${s.formula}`);
  }
  assert.ok(edited > 0, `${label}: frames after the edit were seen`);
}

describe('check: pasted tensors', () => {
  let page, context, errors;
  before(async () => {
    ({ page, context, errors } = await openState(env, QUERY, { reuse: true }));
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.url });
  });
  after(() => assert.deepEqual(errors, []));

  const clipboard = (text) => page.evaluate((t) => navigator.clipboard.writeText(t), text);

  test('Ctrl+V into the canvas field: 64 rows read whole in every text form, the verdict is posenc check\'s', async (t) => {
    if (!fs.existsSync(posenc)) { t.skip('no native build/native/posenc'); return; }
    await page.evaluate((q) => window.posenc.setState(Object.fromEntries(new URLSearchParams(q))), QUERY + '&source=example&tensor=');
    const example = await pageVerdict(page);
    assert.equal(example.source, 'example');
    assert.match(example.live, /Example \(built in\)/);
    assert.equal(example.match, 0, 'the example is a mismatch');
    const cases = [['rows, mismatch', asRows(rowsOf(interleavedRow))], ['comma rows, match', asCsv(rowsOf(halfRow))],
      ['JSON, mismatch', asJson(rowsOf(interleavedRow))], ['rows, match', asRows(rowsOf(halfRow))]];
    for (const [label, text] of cases) {
      await focusField(page, 'tensor');
      await page.keyboard.press('Control+A');
      await clipboard(text);
      const before = await page.evaluate(() => window.posenc.getState().tensor);
      await page.keyboard.press('Control+V');
      await page.mouse.move(1, 1);
      // (The field stays active: Escape would revert it, as ImGui's fields do.)
      await page.waitForFunction((was) => { window.posenc.wake(); const s = window.posenc.getState(); return s.source === 'text' && s.tensor !== was; },
        before, { timeout: 20000 }).catch(() => {});
      assertSameVerdict(await pageVerdict(page), cliCheck(text), `canvas, ${label}`);
    }
    await screenshot(page, 'check-paste-canvas.png');
  });

  test('Ctrl+V into the form\'s textarea: read whole, source pasted, the verdict is posenc check\'s', async (t) => {
    if (!fs.existsSync(posenc)) { t.skip('no native build/native/posenc'); return; }
    for (const [label, text] of [['rows, mismatch', asRows(rowsOf(interleavedRow))], ['JSON, match', asJson(rowsOf(halfRow))]]) {
      await page.evaluate((q) => window.posenc.setState(Object.fromEntries(new URLSearchParams(q))), QUERY + '&source=example&tensor=');
      await waitFrames(page, 2);
      const area = page.locator('textarea[data-param="tensor"]');
      await area.focus();
      await clipboard(text);
      await page.keyboard.press('Control+V');
      assertSameVerdict(await pageVerdict(page), cliCheck(text), `form, ${label}`);
      await area.blur();
      assertSameVerdict(await pageVerdict(page), cliCheck(text), `form after it loses focus, ${label}`);
    }
  });

  test('after an edit the verdict of the replaced tensor is never on the page', async () => {
    const match = asRows(rowsOf(halfRow)), mismatch = asRows(rowsOf(interleavedRow));
    // The form: a matching tensor, then one number deleted (none: rows of different lengths), then the
    // mismatching tensor pasted over it.
    await page.evaluate((s) => window.posenc.setState(s), { source: 'text', tensor: match });
    assert.equal((await pageVerdict(page)).match, 1);
    const area = page.locator('textarea[data-param="tensor"]');
    await area.focus();
    await recordFrames(page, 'form');
    await page.keyboard.press('Control+End');
    await page.keyboard.insertText(' 1');  // a 65th number in the last row
    const half = await pageVerdict(page);
    assert.equal(half.match, undefined, `no verdict for a half-edited tensor: ${half.live}`);
    assert.match(half.live, /cannot be checked yet/, half.live);
    await page.keyboard.press('Control+A');
    await clipboard(mismatch);
    await page.keyboard.press('Control+V');
    const after = await pageVerdict(page);
    assert.equal(after.match, 0, after.live);
    assertNeverStale(await stopRecording(page), match, 1, 'form');
    await area.blur();
    // The canvas field: from the mismatch, a character typed (none), then the matching tensor pasted.
    await focusField(page, 'tensor');
    await recordFrames(page, 'canvas');
    await page.keyboard.press('Control+End');
    await page.keyboard.insertText(' 1');
    const typed = await pageVerdict(page);
    assert.equal(typed.match, undefined, `no verdict for a half-typed tensor: ${typed.live}`);
    await page.keyboard.press('Control+A');
    await clipboard(match);
    await page.keyboard.press('Control+V');
    await page.waitForFunction(() => { window.posenc.wake(); return window.posenc.describe().numbers.some((x) => x.name === 'match' && x.value === 1); },
      null, { timeout: 20000 });
    assertNeverStale(await stopRecording(page), mismatch, 0, 'canvas');
  });

  test('screenshots after a paste: 1280x800 and a 390x844 phone', async () => {
    await page.evaluate((s) => window.posenc.setState(s), { source: 'text', tensor: asRows(rowsOf(halfRow)) });
    await page.mouse.move(1, 1);
    await waitFrames(page, 3);
    await itemRect(page, 'text.check.verdict');
    await screenshot(page, 'check-paste-1280.png');
    // A page of its own: the shared one's controls strip was scrolled by the tests above (the tensor field).
    // (The 64 rows go in by setState: in the address they would pass a static host's URL limit.)
    const phone = await openState(env, QUERY, { width: 390, height: 844 });
    await phone.page.evaluate((s) => window.posenc.setState(s), { source: 'text', tensor: asRows(rowsOf(interleavedRow)) });
    await waitFrames(phone.page, 3);
    await itemRect(phone.page, 'text.check.verdict');
    await screenshot(phone.page, 'check-paste-390.png');
    // The narrow layout's controls panel, opened: the source the paste chose is on its first screen.
    await openControls(phone.page, 'combo.source');
    await phone.page.mouse.move(1, 1);
    await waitFrames(phone.page, 3);
    await screenshot(phone.page, 'check-paste-390-controls.png');
    assert.deepEqual(phone.errors, []);
    await phone.context.close();
  });
});
