// End-to-end, the Check view: the built-in example is diagnosed on open; a broken tensor typed into the
// Tensor field and a .npy file dropped on the page are checked, with the verdict read from the live region
// (#describe) and from the probes; window.posenc.check answers the `check` request of posenc eval.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { useBrowser, openState, focusField, waitFrames, screenshot, repo } from './harness.mjs';
import { checkRequests } from './check-requests.mjs';

const env = useBrowser();

// RoPE's reference for dim d, base b: inv_freq_i = b^(-2i/d); half layout: [f(p w_0..w_{d/2-1}), same].
const invFreq = (d, base) => Array.from({ length: d / 2 }, (_, i) => base ** (-2 * i / d));
const halfRow = (p, d, base, f) => { const h = invFreq(d, base).map((w) => f(p * w)); return [...h, ...h]; };

// The live region's text once the app has settled (the page updates it on every change and settle).
async function liveRegion(page) {
  await waitFrames(page, 3);
  return page.evaluate(() => { window.posenc.description(); return document.getElementById('describe').textContent; });
}

test('check: the view opens on a labelled example whose diagnosis is layout', async () => {
  const { page, context, errors } = await openState(env, 'view=check', { tab: 'load' });
  const live = await liveRegion(page);
  assert.match(live, /Example \(built in\)/, live);
  assert.match(live, /Verdict: mismatch/);
  assert.match(live, /Top cause: layout, explains 100%/);
  const probes = await page.evaluate(() => window.posenc.probes());
  for (const p of ['plot.error', 'plot.residual', 'plot.pairs', 'text.check.verdict', 'text.check.example', 'cause.layout',
                   'strip.check_error'])
    assert.ok(probes.includes(p), `${p} in ${probes}`);
  const d = await page.evaluate(() => window.posenc.describe());
  assert.equal(d.numbers.find((n) => n.name === 'match').value, 0);
  assert.ok(d.numbers.find((n) => n.name === 'top cause explains').value > 0.99);
  assert.equal(await page.evaluate(() => window.posenc.notices()), '');
  await page.mouse.move(1, 1);
  await screenshot(page, 'check-example.png');
  assert.deepEqual(errors, []);
  await context.close();
});

test('check: typing a cos tensor computed with the interleaved layout names layout', async () => {
  const d = 4, base = 10000, n = 4;
  const { page, context, errors } = await openState(env, `view=check&kind=cos&dim=${d}&base=${base}`, { tab: 'load' });
  // [cos p w_0, cos p w_0, cos p w_1, cos p w_1]: a port that pairs neighbours where the reference pairs halves.
  const interleavedRow = (p) => invFreq(d, base).flatMap((w) => [Math.cos(p * w), Math.cos(p * w)]);
  const rows = Array.from({ length: n }, (_, p) => interleavedRow(p).map((v) => v.toPrecision(7)).join(' '));
  // Each row goes in as one input event on the page's text element (as keystrokes would, one event each),
  // Enter between rows as a key.
  await focusField(page, 'tensor');
  for (let i = 0; i < rows.length; ++i) {
    if (i > 0) await page.keyboard.press('Enter');
    await page.keyboard.insertText(rows[i]);
  }
  await page.mouse.move(1, 1);
  // The app has taken all of it (or the assertions below say what it has).
  await page.waitForFunction((n) => { window.posenc.wake(); const s = window.posenc.getState(); return s.source === 'text' && s.tensor.split(';').length === n; },
    n, { timeout: 20000 }).catch(() => {});
  const state = await page.evaluate(() => window.posenc.getState());
  assert.equal(state.source, 'text', 'typing switches the source to the pasted text');
  // In the URL the rows are separated by ';' (a URL value holds no newline).
  assert.equal(state.tensor.split(';').length, n, state.tensor);
  const live = await liveRegion(page);
  assert.match(live, /Verdict: mismatch/, live);
  assert.match(live, /Top cause: layout/, live);
  assert.doesNotMatch(live, /Example \(built in\)/);
  assert.ok((await page.evaluate(() => window.posenc.probes())).includes('cause.layout'));
  // The same positions in the reference's half layout match.
  const good = Array.from({ length: n }, (_, p) => halfRow(p, d, base, Math.cos).map((v) => v.toPrecision(9)).join(' '));
  await page.evaluate((t) => window.posenc.setState({ tensor: t }), good.join('; '));
  const matched = await liveRegion(page);
  assert.match(matched, /Verdict: match/, matched);
  assert.equal((await page.evaluate(() => window.posenc.describe())).numbers.find((x) => x.name === 'match').value, 1);
  assert.deepEqual(errors, []);
  await context.close();
});

// A version-1 .npy of float32 rows (numpy/lib/format.py: magic, version, header length, dict padded to 64).
function npyFloat32(rows) {
  const shape = `(${rows.length}, ${rows[0].length})`;
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': ${shape}, }`;
  while ((10 + header.length + 1) % 64) header += ' ';
  header += '\n';
  const data = new Float32Array(rows.flat());
  const out = new Uint8Array(10 + header.length + data.byteLength);
  out.set([0x93, 78, 85, 77, 80, 89, 1, 0, header.length & 0xff, header.length >> 8]);
  for (let i = 0; i < header.length; ++i) out[10 + i] = header.charCodeAt(i);
  out.set(new Uint8Array(data.buffer), 10 + header.length);
  return Array.from(out);
}

test('check: a .npy dropped on the page with positions off by one names position_offset', async () => {
  const d = 16, base = 10000, n = 24;
  const { page, context, errors } = await openState(env, `view=check&kind=cos&dim=${d}&base=${base}`, { tab: 'load' });
  const rows = Array.from({ length: n }, (_, p) => halfRow(p + 1, d, base, Math.cos));  // positions 1..n for 0..n-1
  await page.evaluate(async (bytes) => {
    const file = new File([new Uint8Array(bytes)], 'cos.npy', { type: 'application/octet-stream' });
    const dt = new DataTransfer();
    dt.items.add(file);
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, npyFloat32(rows));
  await page.waitForFunction(() => window.posenc.getState().source === 'file', null, { timeout: 20000 });
  const live = await liveRegion(page);
  assert.match(live, /Top cause: position_offset/, live);
  assert.equal(await page.evaluate(() => window.posenc.notices()), '');
  // A file that is not a tensor becomes the view's error naming `tensor`.
  await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['1 2\n3 x'], 'bad.txt', { type: 'text/plain' }));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  });
  await page.waitForFunction(() => window.posenc.noticeList().some((x) => x.key === 'tensor'), null, { timeout: 20000 });
  const notice = (await page.evaluate(() => window.posenc.noticeList())).find((x) => x.key === 'tensor');
  assert.match(notice.message, /the dropped file: tensor/, notice.message);
  assert.deepEqual(errors, []);
  await context.close();
});

test('check: window.posenc.check answers the check request with the known cause', async () => {
  const { page, context, errors } = await openState(env, 'view=waves', { tab: 'load' });
  const d = 8, base = 10000, positions = [0, 1, 2, 3, 4, 5, 6, 7];
  // cos computed with the interleaved layout where the reference is half: [c0, c0, c1, c1, ...].
  const actual = positions.map((p) => invFreq(d, base).flatMap((w) => [Math.cos(p * w), Math.cos(p * w)]));
  const request = { op: 'check', reference: { dim: d, base, layout: 'half' }, kind: 'cos', positions, actual };
  const out = await page.evaluate((r) => window.posenc.check(r), request);
  assert.equal(out.match, false);
  assert.equal(out.diagnosis[0].cause, 'layout');
  assert.ok(out.diagnosis[0].explains > 0.99);
  assert.deepEqual(Object.keys(out), ['match', 'max_abs_error', 'max_rel_error', 'tolerance', 'worst', 'diagnosis']);
  // The reference's own cos matches; a wrong shape names `actual`.
  const exact = positions.map((p) => halfRow(p, d, base, Math.cos));
  const ok = await page.evaluate((r) => window.posenc.check(r), { ...request, actual: exact });
  assert.equal(ok.match, true);
  assert.deepEqual(ok.diagnosis, []);
  const bad = await page.evaluate((r) => window.posenc.check(r), { ...request, actual: exact.slice(1) });
  assert.equal(bad.field, 'actual', JSON.stringify(bad));
  assert.deepEqual(errors, []);
  await context.close();
});

// ---------------------------------------------------------------- one page for the rest


// The same answer up to the maths library's last bits: equal keys (in order), strings (but the sentences of
// message and fix), booleans and lengths; numbers within 1e-12 relative, or 1e-12 absolute (an error of a
// matching tensor is rounding noise near 1e-14, whose last bits differ between libm and wasm's maths).
function assertSameAnswer(a, b, where) {
  if (typeof a === 'number' && typeof b === 'number') {
    const scale = Math.max(Math.abs(a), Math.abs(b));
    assert.ok(Math.abs(a - b) <= 1e-12 * scale + 1e-12, `${where}: ${a} vs ${b}`);
    return;
  }
  assert.equal(typeof a, typeof b, where);
  if (Array.isArray(a)) {
    assert.equal(a.length, b.length, `${where} length`);
    a.forEach((v, i) => assertSameAnswer(v, b[i], `${where}[${i}]`));
  } else if (a && typeof a === 'object') {
    assert.deepEqual(Object.keys(a), Object.keys(b), `${where} keys`);
    // Which element is worst is arbitrary when every error is rounding noise (a match far inside its tolerance).
    const noise = a.match === true && b.match === true && a.max_abs_error < 1e-9 && b.max_abs_error < 1e-9;
    for (const k of Object.keys(a)) {
      if (k === 'message' || k === 'fix' || (noise && k === 'worst')) continue;
      assertSameAnswer(a[k], b[k], `${where}.${k}`);
    }
  } else {
    assert.equal(a, b, where);
  }
}

describe('check: one page reused', () => {
  let page, context, errors;
  before(async () => ({ page, context, errors } = await openState(env, 'view=check')));
  after(async () => { assert.deepEqual(errors, []); await context.close(); });

  test('twenty requests answer the same through posenc eval and window.posenc.check', async (t) => {
    const posenc = path.join(repo, 'build', 'native', 'posenc');
    if (!fs.existsSync(posenc)) { t.skip('no native build/native/posenc'); return; }
    const requests = checkRequests();
    assert.equal(requests.length, 20);
    const kinds = new Set(requests.map((r) => r.request.kind));
    const types = new Set(requests.map((r) => (r.request.reference.scaling || { type: 'none' }).type));
    assert.equal(kinds.size, 5);
    assert.equal(types.size, 8);
    const pageAnswers = await page.evaluate((rs) => rs.map((r) => window.posenc.check(r.request)), requests);
    let mismatches = 0;
    requests.forEach((r, i) => {
      const run = spawnSync(posenc, ['eval', '-'], { input: JSON.stringify(r.request), encoding: 'utf8' });
      assert.equal(run.status, 0, `${r.name}: ${run.stderr}`);
      const native = JSON.parse(run.stdout);
      assert.ok(!('error' in pageAnswers[i]), `${r.name}: ${JSON.stringify(pageAnswers[i])}`);
      assertSameAnswer(pageAnswers[i], native, r.name);
      if (!native.match) ++mismatches;
    });
    assert.ok(mismatches >= 8, `enough mismatches to compare diagnoses (${mismatches})`);
  });

  test('window.posenc.check answers {error, field} for any argument', async () => {
    const answers = await page.evaluate(() => {
      const ok = { op: 'check', reference: { dim: 8, base: 10000 }, kind: 'cos', positions: [0, 1], actual: [[1, 1, 1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1, 1, 1]] };
      const cyclic = { ...ok };
      cyclic.actual = [];
      cyclic.actual.push(cyclic.actual);
      const getter = { ...ok };
      Object.defineProperty(getter, 'positions', { enumerable: true, get() { throw new Error('boom'); } });
      const big = { ...ok, positions: '0:1000', actual: Array.from({ length: 1000 }, () => new Array(1000).fill(0.5)) };
      return {
        cyclic: window.posenc.check(cyclic),
        bigint: window.posenc.check({ ...ok, positions: [0n, 1n] }),
        getter: window.posenc.check(getter),
        nan: window.posenc.check({ ...ok, actual: [[NaN, 1, 1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1, 1, 1]] }),
        undef: window.posenc.check(undefined),
        number: window.posenc.check(42),
        million: window.posenc.check(big),
      };
    });
    for (const [name, a] of Object.entries(answers)) {
      assert.ok(typeof a.error === 'string' && a.error.length > 0, `${name}: ${JSON.stringify(a).slice(0, 300)}`);
      assert.ok('field' in a, name);
      if (typeof a.field === 'string') assert.doesNotMatch(a.field, /\[/, `${name}: a field without an index`);
    }
    assert.equal(answers.cyclic.field, 'actual');
    assert.equal(answers.bigint.field, 'positions');
    assert.equal(answers.getter.field, 'positions');
    assert.equal(answers.nan.field, 'actual');
    assert.equal(answers.million.field, 'actual');  // 10^6 numbers of the wrong shape (dim 8): answered, named
  });

  test('setState takes rows separated by newlines; the live region says the shape and the verdict', async () => {
    const d = 8, n = 6;
    const rows = Array.from({ length: n }, (_, p) => halfRow(p, d, 10000, Math.cos).map((v) => v.toPrecision(12)).join(' '));
    await page.evaluate((s) => window.posenc.setState(s), { kind: 'cos', dim: String(d), base: '10000', source: 'text', tensor: rows.join('\n') });
    assert.equal(await page.evaluate(() => window.posenc.notices()), '');
    const state = await page.evaluate(() => window.posenc.getState());
    assert.equal(state.tensor.split(';').length, n, 'rows kept (a URL value writes them as "; ")');
    const live = await liveRegion(page);
    assert.match(live, /Verdict: match/, live);
    assert.match(live, /cos tensor 6 x 8/, live);
    assert.doesNotMatch(live, /0\.9999/, 'the tensor itself is not read aloud');
  });
});
