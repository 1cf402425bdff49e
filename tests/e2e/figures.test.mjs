// End-to-end, figures and words out of the page, on one page: window.posenc.exportSvg() of every view (both
// themes; 1280x800, 720x480, the 400x300 embed and the 390x844 phone) is an SVG string that parses, holds the
// axis titles as <text>, draws heatmaps as embedded PNGs and each curve as a path through every exported point;
// exportData of a view too large for the page resolves to null with a notice naming its size and the
// posenc export command; ALiBi's caption states the slope rule for any head count and numbers heads as its
// axis does; no description says ".."; hexadecimal, octal-looking and empty list entries are notices.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useBrowser, openState, waitFrames, artifactsDir, exportJson, table } from './harness.mjs';

const env = useBrowser();
let shared = null;
// One page for the file, moved between states and sizes.
async function page() {
  if (!shared) shared = await openState(env, 'view=waves', { frames: 2 });
  return shared.page;
}
async function show(p, state, size = null) {
  if (size) await p.setViewportSize(size);
  await p.evaluate((s) => window.posenc.setState(s), state);
  await waitFrames(p, 4);
}

// The SVG of the current view, parsed in the page: its size, texts, curve paths and images.
async function svgOf(p, options) {
  return p.evaluate(async (o) => {
    const text = await window.posenc.exportSvg(o);
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const root = doc.documentElement;
    return {
      text, error: doc.querySelector('parsererror') ? doc.querySelector('parsererror').textContent : null,
      type: typeof text, root: root.nodeName, width: Number(root.getAttribute('width')), height: Number(root.getAttribute('height')),
      texts: [...doc.querySelectorAll('text')].map((t) => t.textContent),
      curves: [...doc.querySelectorAll('path.curve')].map((c) => ({
        series: c.getAttribute('data-series'), stroke: c.getAttribute('stroke'),
        points: (c.getAttribute('d').match(/[ML]-?[\d.]+ -?[\d.]+/g) || []).map((s) => s.slice(1).split(' ').map(Number)) })),
      images: [...doc.querySelectorAll('image')].map((i) => (i.getAttribute('href') || '').slice(0, 22)),
      viewport: { w: innerWidth, h: innerHeight },
    };
  }, options || {});
}

function saveSvg(name, text) {
  fs.mkdirSync(artifactsDir, { recursive: true });
  fs.writeFileSync(path.join(artifactsDir, name), text);
}

test('exportSvg: every view, both themes, is SVG markup with its titles as text and heatmaps as images', async () => {
  const p = await page();
  const views = await p.evaluate(() => window.posenc.views());
  // A title each view's figure writes (axis or plot titles).
  const TITLE = { waves: 'position p', frequencies: 'pair k', similarity: 'position b', buckets: 'relative distance j - i',
    scores: 'key j', rope: 'pair k', permutation: 'dimension', toy: 'key position j', model: 'pair k', check: 'pair k',
    usage: 'qk_share' };
  const HEATMAP = ['waves', 'similarity', 'buckets', 'scores', 'permutation', 'toy'];
  for (const theme of ['light', 'dark']) {
    for (const view of views) {
      await show(p, { view, theme, embed: '1', controls: '0' }, { width: 1280, height: 800 });
      const svg = await svgOf(p);
      assert.equal(svg.type, 'string', `${view}: exportSvg resolves to the markup`);
      assert.equal(svg.error, null, `${view}: parses`);
      assert.equal(svg.root, 'svg');
      assert.deepEqual([svg.width, svg.height], [1280, 800], `${view}: the frame's size`);
      assert.ok(svg.text.startsWith('<?xml'), `${view}: markup, not a data: URL`);
      const all = svg.texts.join('\n');
      assert.ok(all.includes(TITLE[view]), `${view}: "${TITLE[view]}" as text in ${JSON.stringify(svg.texts.slice(0, 30))}`);
      if (HEATMAP.includes(view)) assert.ok(svg.images.some((h) => h.startsWith('data:image/png;base64')), `${view}: a heatmap image`);
      saveSvg(`svg-${view}-${theme}.svg`, svg.text);
    }
  }
});

test('exportSvg: curve paths go through every exported point, on the figure\'s axes; sizes follow the frame', async () => {
  const p = await page();
  for (const [state, name] of [[{ view: 'frequencies', d: '32', embed: '1', controls: '0', theme: 'light' }, 'frequency'],
    [{ view: 'buckets', scheme: 'alibi', heads: '12', n: '48', embed: '1', controls: '0', theme: 'dark' }, 'bias_curves']]) {
    await show(p, state, { width: 1280, height: 800 });
    const svg = await svgOf(p);
    const t = table(await exportJson(p), name);
    const log = state.view === 'frequencies';
    for (let s = 1; s < t.columns.length; ++s) {
      const curve = svg.curves.find((c) => c.series === t.columns[s]);
      // Above 8 heads the legend names five heads on a colour scale; the others are unnamed paths (counted below).
      if (!curve && state.view === 'buckets') continue;
      assert.ok(curve, `${name}: a path for ${t.columns[s]}`);
      const data = t.rows.filter((r) => r[s] !== null).map((r) => [r[0], log ? Math.log10(r[s]) : r[s]]);
      // ALiBi's heads are drawn as three points each (|j - i| is linear on each side): the exported
      // values at those distances lie on the path.
      const pts = curve.points;
      if (state.view === 'frequencies') assert.equal(pts.length, data.length, `${t.columns[s]}: a point per exported value`);
      const [a, b] = [data[0], data[data.length - 1]], [pa, pb] = [pts[0], pts[pts.length - 1]];
      const sx = (pb[0] - pa[0]) / (b[0] - a[0]), sy = (pb[1] - pa[1]) / ((b[1] - a[1]) || 1);
      for (const [x, y] of data) {
        const px = pa[0] + sx * (x - a[0]);
        const k = pts.findIndex((q) => Math.abs(q[0] - px) < 0.02);
        if (state.view === 'frequencies' || k >= 0) {
          assert.ok(k >= 0, `${t.columns[s]}: x = ${x} is a vertex`);
          if (b[1] !== a[1]) assert.ok(Math.abs(pts[k][1] - (pa[1] + sy * (y - a[1]))) < 0.02, `${t.columns[s]}: (${x}, ${y}) on the axes`);
        }
      }
    }
    if (state.view === 'buckets') {
      // Twelve heads: a colour scale (twelve strokes), the legend names heads 0 and 11 (numbered as the axis).
      assert.equal(new Set(svg.curves.filter((c) => /^h = |^$/.test(c.series)).map((c) => c.stroke)).size >= 12, true);
      for (const h of ['h = 0', 'h = 11']) assert.ok(svg.texts.includes(h), `the legend names ${h}`);
    }
  }
  // The other sizes: the SVG is the frame's.
  for (const [size, state] of [[{ width: 720, height: 480 }, { view: 'scores', theme: 'dark', embed: '0', controls: '1' }],
    [{ width: 400, height: 300 }, { view: 'similarity', theme: 'light', embed: '1' }],
    [{ width: 390, height: 844 }, { view: 'rope', theme: 'dark', embed: '0' }]]) {
    await show(p, state, size);
    const svg = await svgOf(p);
    assert.equal(svg.error, null);
    assert.deepEqual([svg.width, svg.height], [size.width, size.height]);
    saveSvg(`svg-${state.view}-${size.width}x${size.height}.svg`, svg.text);
  }
  await p.setViewportSize({ width: 1280, height: 800 });
});

test('exportData: a view too large for the page resolves to null with a notice naming its size and the command', async () => {
  const p = await page();
  await show(p, { view: 'scores', n: '2048', embed: '0', controls: '1', theme: 'light' });
  const result = await p.evaluate(async () => {
    try { return { value: await window.posenc.exportData('json') }; } catch (e) { return { error: e instanceof Error ? e.message : typeof e }; }
  });
  assert.deepEqual(result, { value: null }, 'refused: null');
  const notice = (await p.evaluate(() => window.posenc.noticeList())).find((n) => n.key === 'export');
  assert.ok(notice, 'a notice says why');
  assert.match(notice.message, /\d+ values \(about \d+ MB of JSON\)/);
  // The state in the command is the view's whole state, keys in alphabetical order.
  assert.match(notice.message, /posenc export --state '(?=[^']*\bview=scores\b)(?=[^']*\bn=2048\b)[^']*' --format json -o scores\.json/);
  assert.match(await p.evaluate(() => window.posenc.notices()), /posenc export/);
  // A view within the bound exports as before.
  await show(p, { view: 'scores', n: '32' });
  assert.equal(table(await exportJson(p), 'logits').rows.length, 32);
});

test('ALiBi: the caption states the slope rule for any head count, heads numbered from 0 as the axis', async () => {
  const p = await page();
  await show(p, { view: 'buckets', scheme: 'alibi', heads: '12', n: '48', embed: '0', controls: '1', theme: 'dark' });
  const d = await p.evaluate(() => window.posenc.describe());
  assert.match(d.formula, /largest power of two/);
  assert.match(d.formula, /odd-numbered slopes of 2P heads/);
  assert.match(d.formula, /h = 0 to H - 1/);
  const slopes = table(await exportJson(p), 'slopes');
  // Press et al.'s get_slopes(12): 2^-1 .. 2^-8 for heads 0..7, then 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5.
  assert.equal(slopes.rows[8][0], 8);
  assert.ok(Math.abs(slopes.rows[8][1] - Math.SQRT1_2) < 1e-15, `head 8: ${slopes.rows[8][1]}`);
  const numbers = Object.fromEntries(d.numbers.map((n) => [n.name, n.value]));
  assert.equal(numbers['slope of head 0'], 0.5);
  assert.ok(Math.abs(numbers['slope of head H - 1'] - 2 ** -3.5) < 1e-15);
});

test('words: no description says ".."; hex, octal-looking and empty list entries are notices naming their key', async () => {
  const p = await page();
  const views = await p.evaluate(() => window.posenc.views());
  const states = views.map((view) => ({ view }));
  states.push({ view: 'model', model: 'llama-4-scout-17b-16e' }, { view: 'scores', model: 'gpt-oss-20b', layer: '0' },
    { view: 'buckets', scheme: 't5' }, { view: 'buckets', scheme: 'alibi', heads: '12' });
  for (const s of states) {
    await show(p, s);
    const text = await p.evaluate(() => window.posenc.description());
    assert.ok(!/\.\./.test(text.replace(/\.\.\./g, '…')), `${JSON.stringify(s)}: ${text.match(/.{0,40}\.\..{0,20}/)}`);
  }
  for (const [state, key] of [[{ view: 'waves', d: '0x10' }, 'd'], [{ view: 'waves', base: '0x10' }, 'base'],
    [{ view: 'waves', n: '010' }, 'n'], [{ view: 'waves', dims: ',' }, 'dims'], [{ view: 'waves', dims: '1,,2' }, 'dims'],
    [{ view: 'rope', factor: '0x8' }, 'factor']]) {
    await show(p, state);
    const notices = await p.evaluate(() => window.posenc.noticeList());
    assert.ok(notices.some((n) => n.key === key), `${JSON.stringify(state)}: a notice for ${key}: ${JSON.stringify(notices)}`);
  }
  assert.deepEqual(shared.errors, []);
  await shared.context.close();
});
