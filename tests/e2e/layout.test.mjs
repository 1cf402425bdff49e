// End-to-end, layout from the frame's size: every view at a desktop window (1280x800), a blog column
// (720x480), a small embed (400x300, embed=1) and a phone (390x844, touch, deviceScaleFactor 3).
// Checks by probe: no text or control rectangle overlaps a plot, no two plots overlap, the small embed's
// main figure covers at least half the frame, every view is reachable by tapping the phone's view picker;
// and the app-level keys figure= and controls=compact, window.posenc.probes() and posenc_describe().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, sharedPage, openState, PHONE, waitFrames, screenshot } from './harness.mjs';

const env = useBrowser();

// The main figure of every view (docs/views.md, "Figures and probe names": what a small embed shows alone).
const MAIN_FIGURE = {
  waves: 'pe', frequencies: 'wavelength', similarity: 'similarity', buckets: 'buckets',
  scores: 'total', rope: 'angles', permutation: 'outputs', toy: 'rope', model: 'wavelength', check: 'error',
  usage: 'share',
};
// The usage view draws its introduction until a weights report is loaded (usage.test.mjs draws it loaded).
const EMPTY_UNTIL_LOADED = new Set(['usage']);

const SIZES = [
  { name: 'desktop', width: 1280, height: 800, query: '' },
  { name: 'column', width: 720, height: 480, query: '' },
  { name: 'embed', width: 400, height: 300, query: '&embed=1' },
  { name: 'phone', width: 390, height: 844, query: '', phone: true },
];

// A size's page: a phone is PHONE (touch, mobile, deviceScaleFactor 3), the others a plain viewport. The
// layout is the subject, not the load: one page per device kind, brought to each state and size in turn.
const open = (query, size) => sharedPage(env, query, size.phone ? PHONE : { width: size.width, height: size.height });

// Every probe drawn in the last frame with its rectangle (page CSS pixels).
async function probeRects(page) {
  return page.evaluate(() => window.posenc.probes().map((name) => ({ name, r: window.posenc.itemRect(name) }))
    .filter((p) => p.r && p.r.width > 0 && p.r.height > 0));
}

const area = (r) => Math.max(0, r.width) * Math.max(0, r.height);
function overlap(a, b) {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 1 && h > 1 ? w * h : 0;  // touching edges (1 px) do not count
}
const isPlot = (name) => name.startsWith('plot.');
const isText = (name) => name.startsWith('text.') || name === 'notice' ||
  /^(slider|input|check|combo|button|menu)\./.test(name) || name.startsWith('menu.');

function assertNoOverlap(probes, where) {
  const plots = probes.filter((p) => isPlot(p.name));
  const texts = probes.filter((p) => isText(p.name));
  for (const t of texts)
    for (const p of plots)
      assert.equal(overlap(t.r, p.r), 0, `${where}: ${t.name} ${JSON.stringify(t.r)} overlaps ${p.name} ${JSON.stringify(p.r)}`);
  // Two plots may be the same figure under two names (plot.waves = plot.curves); distinct ones never overlap.
  for (let i = 0; i < plots.length; ++i)
    for (let j = i + 1; j < plots.length; ++j) {
      const a = plots[i].r, b = plots[j].r;
      const same = Math.abs(a.x - b.x) < 1 && Math.abs(a.y - b.y) < 1 && Math.abs(a.width - b.width) < 1 && Math.abs(a.height - b.height) < 1;
      if (!same) assert.equal(overlap(a, b), 0, `${where}: ${plots[i].name} overlaps ${plots[j].name}`);
    }
}

for (const size of SIZES) {
  test(`${size.name} ${size.width}x${size.height}: every view draws its plots with no text or control over them`, async () => {
    const probe = await open('view=waves' + size.query, size);
    const views = await probe.page.evaluate(() => window.posenc.views());
    assert.ok(views.length >= 8);
    for (const view of views) {
      const { page, errors } = await open(`view=${view}${size.query}`, size);
      const probes = await probeRects(page);
      if (EMPTY_UNTIL_LOADED.has(view)) {
        assert.ok(probes.some((p) => p.name === `text.${view}.intro`), `${size.name} ${view}: its introduction drawn`);
        assertNoOverlap(probes, `${size.name} ${view}`);
        assert.deepEqual(errors, []);
        continue;
      }
      const plots = probes.filter((p) => isPlot(p.name));
      assert.ok(plots.length >= 1, `${size.name} ${view}: at least one plot drawn (${probes.map((p) => p.name)})`);
      assertNoOverlap(probes, `${size.name} ${view}`);
      // The main figure is drawn at a readable size (at least 120 px each way where it is visible).
      const main = probes.find((p) => p.name === `plot.${MAIN_FIGURE[view]}`);
      assert.ok(main, `${size.name} ${view}: plot.${MAIN_FIGURE[view]} drawn`);
      // Where the content scrolls (column, phone) part of it may be below the fold; else it is readable.
      if (size.name === 'desktop' || size.name === 'embed')
        assert.ok(main.r.width >= 120 && main.r.height >= 100, `${size.name} ${view}: main figure ${JSON.stringify(main.r)}`);
      await page.mouse.move(1, 1);
      await waitFrames(page, 1);
      await screenshot(page, `layout-${size.name}-${view}.png`);
      assert.deepEqual(errors, []);
    }
  });
}

test('400x300 embed without controls: the main figure covers at least half the frame', async () => {
  const size = { width: 400, height: 300 };
  for (const [view, figure] of Object.entries(MAIN_FIGURE)) {
    if (EMPTY_UNTIL_LOADED.has(view)) continue;
    const { page, errors } = await open(`view=${view}&embed=1&controls=0`, size);
    const r = await page.evaluate((n) => window.posenc.itemRect(n), `plot.${figure}`);
    assert.ok(r, `${view}: plot.${figure} drawn`);
    assert.ok(area(r) >= 0.5 * 400 * 300, `${view}: plot.${figure} covers ${(area(r) / (400 * 300)).toFixed(3)} of the frame`);
    assert.deepEqual(errors, []);
  }
});

// The rectangle of probe `name` once it is drawn (the app kept awake meanwhile), or null after 30 s.
const drawnRect = (page, name) => page.waitForFunction((n) => { window.posenc.wake(); return window.posenc.itemRect(n); },
  name, { timeout: 30000 }).then((h) => h.jsonValue()).catch(() => null);

test('phone: every view is reachable by tapping the view picker', async () => {
  const size = { width: 390, height: 844, phone: true };
  const { page, errors } = await open('view=waves', size);
  const views = await page.evaluate(() => window.posenc.views());
  for (const view of [...views.slice(1), views[0]]) {
    const picker = await page.evaluate(() => window.posenc.itemRect('menu.view'));
    assert.ok(picker, 'the view picker is drawn');
    assert.ok(picker.x + picker.width <= 390, `the picker is on screen: ${JSON.stringify(picker)}`);
    await page.touchscreen.tap(picker.x + picker.width / 2, picker.y + picker.height / 2);
    // Waits on the app (the entry's probe, the view), not on a count of frames: on a loaded machine the
    // menu can take more than a few frames to open.
    const entry = await drawnRect(page, `menu.view.${view}`);
    assert.ok(entry, `menu.view.${view} is drawn once the picker is open`);
    assert.ok(entry.x >= 0 && entry.x + entry.width <= 391 && entry.y + entry.height <= 845, `menu.view.${view} on screen`);
    await page.touchscreen.tap(entry.x + entry.width / 2, entry.y + entry.height / 2);
    await page.waitForFunction((v) => { window.posenc.wake(); return window.posenc.getState().view === v; }, view, { timeout: 30000 })
      .catch(() => {});
    assert.equal((await page.evaluate(() => window.posenc.getState())).view, view, `tapping menu.view.${view}`);
    // The menu closed (its entries gone) before the picker is tapped again.
    await page.waitForFunction((n) => { window.posenc.wake(); return !window.posenc.itemRect(n); }, `menu.view.${view}`, { timeout: 30000 });
  }
  assert.deepEqual(errors, []);
});

test('figure= shows one plot alone, round-trips, and a bad name is a notice', async () => {
  const size = { width: 1280, height: 800 };
  const { page, errors } = await open('view=scores&scheme=sinusoidal&figure=weights', size);
  assert.equal((await page.evaluate(() => window.posenc.getState())).figure, 'weights');
  assert.equal(await page.evaluate(() => window.posenc.notices()), '');
  const probes = await page.evaluate(() => window.posenc.probes());
  assert.ok(probes.includes('plot.weights'), 'the weights alone');
  assert.ok(!probes.includes('plot.total'), 'no total beside it');
  const r = await page.evaluate(() => window.posenc.itemRect('plot.weights'));
  assert.ok(area(r) > 0.4 * 1280 * 800 * 0.5, `the figure fills the content: ${JSON.stringify(r)}`);
  // Each term of the sinusoidal scheme is a figure too.
  await page.evaluate(() => window.posenc.setState({ figure: 'content-position' }));
  await waitFrames(page, 2);
  assert.equal(await page.evaluate(() => window.posenc.notices()), '');
  assert.ok((await page.evaluate(() => window.posenc.probes())).includes('plot.content-position'));
  await page.evaluate(() => window.posenc.setState({ figure: 'nope' }));
  await waitFrames(page, 2);
  const notices = await page.evaluate(() => window.posenc.noticeList());
  assert.deepEqual(notices.map((n) => n.key), ['figure']);
  assert.match(notices[0].message, /figure="nope" is not a figure of the scores view \(total, weights/);
  assert.deepEqual(errors, []);
});

test('controls=compact is a third value of controls: a strip above the plots; 0/1/true/false still work', async () => {
  // A fresh page: the strip's first state (open or closed) is decided at load, from the controls key.
  const { page, context, errors } = await openState(env, 'view=waves&controls=compact');
  assert.equal((await page.evaluate(() => window.posenc.getState())).controls, 'compact');
  const slider = await page.evaluate(() => window.posenc.itemRect('slider.n'));
  const plot = await page.evaluate(() => window.posenc.itemRect('plot.pe'));
  assert.ok(slider && plot, 'controls and plot drawn');
  assert.ok(slider.y + slider.height <= plot.y, 'the controls strip is above the plots');
  assert.ok(plot.width > 1280 * 0.8, 'plots at full width');
  for (const [value, shown] of [['0', false], ['false', false], ['1', true], ['true', true]]) {
    await page.evaluate((v) => window.posenc.setState({ controls: v }), value);
    await waitFrames(page, 2);
    assert.equal(!!(await page.evaluate(() => window.posenc.itemRect('slider.n'))), shown, `controls=${value}`);
  }
  await page.evaluate(() => window.posenc.setState({ controls: 'sideways' }));
  await waitFrames(page, 2);
  assert.deepEqual((await page.evaluate(() => window.posenc.noticeList())).map((n) => n.key), ['controls']);
  assert.deepEqual(errors, []);
  await context.close();
});

test('probes() lists the names drawn in the last frame', async () => {
  const { page, errors } = await open('view=rope', { width: 1280, height: 800 });
  const names = await page.evaluate(() => window.posenc.probes());
  for (const n of ['slider.dim', 'slider.base', 'combo.scaling', 'check.compare', 'plot.angles', 'plot.ratio',
    'plot.decay', 'plot.rotation', 'menu.view', 'menu.view.rope', 'menu.share', 'text.caption'])
    assert.ok(names.includes(n), `${n} in probes(): ${names}`);
  assert.deepEqual(errors, []);
});

test('posenc_describe(): title, formula in words, params and the numbers that matter, updated by setState', async () => {
  const { page, errors } = await open('view=rope&scaling=linear&factor=4&orig=2048&target=8192', { width: 1280, height: 800 });
  const describe = () => page.evaluate(() => JSON.parse(window.Module.ccall('posenc_describe', 'string', [], [])));
  const d = await describe();
  assert.equal(d.title, 'RoPE');
  assert.ok(d.formula.length > 40 && /rotat/.test(d.formula), d.formula);
  assert.equal(d.params.scaling, 'linear');
  const names = d.numbers.map((n) => n.name);
  for (const n of ['pairs turned fully in training', 'pairs interpolated', 'pairs extrapolated', 'attention scaling'])
    assert.ok(names.includes(n), `${n} in ${names}`);
  const sum = d.numbers.slice(0, 3).reduce((s, n) => s + n.value, 0);
  assert.ok(sum > 0);
  await page.evaluate(() => window.posenc.setState({ view: 'buckets', scheme: 't5', num_buckets: '32', max_distance: '128' }));
  await waitFrames(page, 2);
  const t5 = await describe();
  assert.equal(t5.title, 'Bias buckets');
  const bucket = (dist) => t5.numbers.find((n) => n.name === `bucket of distance ${dist}`).value;
  // Bidirectional T5, 32 buckets: distance 1 is exact (bucket 16 + 1), 100 is in the log range.
  assert.equal(bucket(1), 17);
  assert.ok(bucket(10) > bucket(1) && bucket(100) > bucket(10) && bucket(100) < 32);
  await page.evaluate(() => window.posenc.setState({ view: 'permutation', pe: 'none' }));
  await waitFrames(page, 2);
  const perm = await describe();
  const row = perm.numbers.find((n) => n.name === "max |O'[r] - O[perm r]|");
  assert.ok(row && row.value < 1e-4, `no PE: the shuffled rows are the same (${JSON.stringify(row)})`);
  for (const view of await page.evaluate(() => window.posenc.views())) {
    await page.evaluate((v) => window.posenc.setState({ view: v }), view);
    await waitFrames(page, 1);
    const dv = await describe();
    assert.ok(dv.formula.length > 20, `${view}: formula in words`);
    if (EMPTY_UNTIL_LOADED.has(view)) continue;  // no numbers before a report is loaded
    assert.ok(dv.numbers.length >= 3 && dv.numbers.length <= 6, `${view}: 3-6 numbers, got ${dv.numbers.length}`);
  }
  assert.deepEqual(errors, []);
});

test('a long notice takes one line, with a "more" toggle', async () => {
  const long = 'x'.repeat(50);
  const query = 'view=waves&' + Array.from({ length: 12 }, (_, i) => `unknown${i}=${long}`).join('&');
  const { page, errors } = await open(query, { width: 1280, height: 800 });
  const notice = await page.evaluate(() => window.posenc.itemRect('notice'));
  assert.ok(notice && notice.height < 24, `one line: ${JSON.stringify(notice)}`);
  const more = await page.evaluate(() => window.posenc.itemRect('button.notice_more'));
  assert.ok(more, 'a "more" button');
  const plotBefore = await page.evaluate(() => window.posenc.itemRect('plot.curves'));
  assert.ok(plotBefore.y < 120, `the view is not pushed down: ${JSON.stringify(plotBefore)}`);
  await page.mouse.move(more.x + more.width / 2, more.y + more.height / 2);
  await waitFrames(page, 2);
  await page.mouse.down();
  await waitFrames(page, 2);
  await page.mouse.up();
  await waitFrames(page, 2);
  await waitFrames(page, 3);
  const open_ = await page.evaluate(() => window.posenc.itemRect('notice'));
  assert.ok(open_.height > notice.height, 'more shows every line');
  assert.deepEqual(errors, []);
});
