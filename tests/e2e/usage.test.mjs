// End-to-end, the Frequency usage view: before anything is loaded it explains itself; a weights report (the
// JSON posenc weights --json writes; docs/weights.md) is fetched from usage= (same origin only, a notice
// naming usage when it cannot be), dropped, picked from the keyboard (the form's Load files button) or given
// to window.posenc.loadWeights; a generated model folder picked and dropped (Chromium's drag from disk); the figure shows qk_share per layer x pair with the full-turn boundary and a
// masked row for a layer without positions; hover values equal the JSON's; an embed on another origin draws
// it; screenshots at the four sizes in both themes and both languages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import {
  useBrowser, openPage, sharedPage, itemRect, waitFrames, waitReady, screenshot, cellPoint, cellPixel, colorDistance, exportJson,
  table, siteDir, settledFrames, repo, catchFileChooser,
} from './harness.mjs';
import { serveStatic } from '../../scripts/static-server.mjs';
import { writeModel } from './weights-model.mjs';

const env = useBrowser();
let dir = null, site = null, blog = null;

// A weights report from its contract (docs/weights.md), seeded: inv_freq = base^(-2j/r), turns = L inv_freq /
// 2 pi; q_norm, k_norm in [0.1, 1.1); qk = q k; qk_share = qk / sum; semantic_share over turns < 1.
function report({ layers = 6, heads = 4, kvHeads = 2, rotaryDim = 32, base = 10000, trained = 4096, none = [2], seed = 5 } = {}) {
  let s = seed;
  const uniform = () => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648; };
  const pairs = { inv_freq: [], wavelength: [], turns: [] };
  for (let j = 0; j < rotaryDim / 2; ++j) {
    const w = Math.pow(base, -2 * j / rotaryDim);
    pairs.inv_freq.push(w); pairs.wavelength.push(2 * Math.PI / w); pairs.turns.push(trained * w / (2 * Math.PI));
  }
  const out = { model_type: 'llama', rotary_dim: rotaryDim, layout: 'half', pairs, layers: [], read: { tensors: 0, bytes: 0 },
    assumptions: [], unread_keys: [] };
  for (let l = 0; l < layers; ++l) {
    if (none.includes(l)) { out.layers.push({ layer: l, position: 'none', kind: 'linear_attention' }); continue; }
    const hs = [];
    for (let h = 0; h < heads; ++h) {
      const q = [], k = [], qk = [];
      // Planted structure: head h leans on the lowest frequencies by a factor growing with h.
      for (let j = 0; j < rotaryDim / 2; ++j) {
        q.push(0.1 + uniform() + (j >= rotaryDim / 2 - 3 ? h : 0)); k.push(0.1 + uniform()); qk.push(q[j] * k[j]);
      }
      const sum = qk.reduce((a, b) => a + b, 0), share = qk.map((x) => x / sum);
      const semantic = share.reduce((a, x, j) => a + (pairs.turns[j] < 1 ? x : 0), 0);
      const top = share.map((x, j) => j).sort((a, b) => share[b] - share[a] || a - b).slice(0, 8);
      hs.push({ head: h, kv_head: Math.floor(h / (heads / kvHeads)), q_norm: q, k_norm: k, qk, qk_share: share, semantic_share: semantic, top_pairs: top });
    }
    out.layers.push({ layer: l, position: 'rope', kind: 'full_attention', heads: hs });
    out.read.tensors += 2;
  }
  return out;
}
const REPORT = report();
const PAIRS = REPORT.rotary_dim / 2, LAYERS = REPORT.layers.length;
// Pairs with turns >= 1: left of the boundary (the pairs are already in frequency order here).
const BOUNDARY = REPORT.pairs.turns.filter((t) => t >= 1).length;


before(async () => {
  // The explorer's site with the report beside it (usage= names a same-origin URL): build/web's files
  // linked into a temporary folder, the JSON added.
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'posenc-usage-'));
  const root = path.join(dir, 'site');
  fs.mkdirSync(path.join(root, 'figures'), { recursive: true });
  for (const name of fs.readdirSync(siteDir)) fs.symlinkSync(path.join(siteDir, name), path.join(root, name));
  fs.writeFileSync(path.join(root, 'figures', 'report.json'), JSON.stringify(REPORT));
  fs.writeFileSync(path.join(root, 'figures', 'bad.json'), JSON.stringify({ ...REPORT, layers: [{ ...REPORT.layers[0], heads: [{ ...REPORT.layers[0].heads[0], qk_share: [2] }] }] }));
  fs.writeFileSync(path.join(dir, 'report.json'), JSON.stringify(REPORT));
  writeModel(path.join(dir, 'llama-tiny'));
  site = await serveStatic(root, 0);
  // A blog on another origin embedding the figure.
  const blogRoot = path.join(dir, 'blog');
  fs.mkdirSync(blogRoot);
  fs.writeFileSync(path.join(blogRoot, 'index.html'), `<!doctype html><html><head><meta charset="utf-8"><title>blog</title>
<link rel="icon" href="data:,"></head><body style="max-width:720px;margin:0 auto"><p>What a trained model does with its positions.</p>
<iframe id="usage" src="${site.url}/?view=usage&amp;usage=figures/report.json&amp;embed=1" width="100%" height="420" style="border:0"
 title="posenc: frequency usage"></iframe></body></html>`);
  blog = await serveStatic(blogRoot, 0);
});
after(async () => { await site?.close(); await blog?.close(); if (dir) fs.rmSync(dir, { recursive: true, force: true }); });

// The page on the site that serves the report (the file's shared page; sharedPage reads env.server).
const onSite = (query, viewport = {}) => sharedPage({ ...env, server: site, shared: env.usageShared ??= new Map() }, query, viewport);
// Loaded: the figure is drawn (a small embed shows the map alone, without the summary line), or a notice.
const loaded = (page) => page.waitForFunction(() => window.posenc.probes().includes('heatmap.usage_share') ||
  window.posenc.noticeList().some((n) => n.key === 'usage'), null, { timeout: 30000 });
const readoutAt = async (page, probe, rows, cols, row, col) => {
  const r = await itemRect(page, probe);
  const [x, y] = cellPoint(r, rows, cols, row, col);
  await page.mouse.move(x, y);
  await waitFrames(page, 3);
  return page.evaluate(() => window.posenc.readout());
};
const numberAfter = (text, name) => Number(new RegExp(`${name} = ([-0-9.e+]+)`).exec(text)?.[1]);

test('usage: before anything is loaded the view says what it shows and how to load a model', async () => {
  const { page, errors } = await onSite('view=usage');
  const probes = await page.evaluate(() => window.posenc.probes());
  for (const p of ['text.usage.intro', 'text.usage.how', 'button.usage_folder', 'button.usage_files']) assert.ok(probes.includes(p), p);
  const live = await page.evaluate(() => window.posenc.description());
  assert.match(live, /Frequency usage/);
  assert.deepEqual(await page.evaluate(() => window.posenc.noticeList()), []);
  assert.deepEqual(errors, []);
});

test('usage: usage= fetches the report; the figure, the boundary, the masked layer; hover values equal the JSON', async () => {
  const { page, errors } = await onSite('view=usage&usage=figures/report.json');
  await loaded(page);
  assert.deepEqual(await page.evaluate(() => window.posenc.noticeList()), []);
  await waitFrames(page, 3);
  const png = await screenshot(page, 'usage-report.png');
  const share = await itemRect(page, 'heatmap.usage_share');
  await itemRect(page, 'heatmap.usage_semantic');
  await itemRect(page, 'line.usage_boundary');
  // The masked row (layer 2, linear attention) is one colour, unlike its neighbours.
  const masked = cellPixel(png, share, LAYERS, PAIRS, 2, 3), masked2 = cellPixel(png, share, LAYERS, PAIRS, 2, 12);
  assert.ok(colorDistance(masked, masked2) < 10, `masked row uniform: ${masked} vs ${masked2}`);
  // The boundary: the pixel on the column edge at BOUNDARY is the line's colour (text), not a cell's.
  const edgeX = share.x + BOUNDARY * share.width / PAIRS, midY = share.y + (0.5) * share.height / LAYERS;
  const lineColor = png.data.slice(((Math.round(midY) * png.width) + Math.round(edgeX)) * 4, ((Math.round(midY) * png.width) + Math.round(edgeX)) * 4 + 3);
  const beside = cellPixel(png, share, LAYERS, PAIRS, 0, BOUNDARY);
  assert.ok(colorDistance([...lineColor], beside) > 30, `the boundary is drawn at pair rank ${BOUNDARY}: ${[...lineColor]} vs ${beside}`);

  // Hover, mean over heads: pair j = rank (frequencies already in order), layer 0.
  for (const [row, col] of [[0, 0], [3, BOUNDARY], [5, PAIRS - 1]]) {
    const text = await readoutAt(page, 'heatmap.usage_share', LAYERS, PAIRS, row, col);
    const layer = REPORT.layers[row];
    const mean = layer.heads.reduce((a, h) => a + h.qk_share[col], 0) / layer.heads.length;
    assert.match(text, new RegExp(`layer ${row}, pair j = ${col}`), text);
    assert.equal(numberAfter(text, 'inv_freq'), REPORT.pairs.inv_freq[col], text);
    assert.equal(numberAfter(text, 'turns'), REPORT.pairs.turns[col], text);
    assert.ok(Math.abs(numberAfter(text, 'qk_share') - mean) <= 1e-15, `${text} vs ${mean}`);
  }
  const none = await readoutAt(page, 'heatmap.usage_share', LAYERS, PAIRS, 2, 4);
  assert.match(none, /layer 2: no positions \(linear_attention\)/, none);
  // One head: the JSON's numbers exactly.
  await page.evaluate(() => window.posenc.setState({ head: '3' }));
  await waitFrames(page, 3);
  for (const [row, col] of [[1, 2], [4, PAIRS - 2]]) {
    const text = await readoutAt(page, 'heatmap.usage_share', LAYERS, PAIRS, row, col);
    const h = REPORT.layers[row].heads[3];
    assert.match(text, /head 3 \(kv_head 1\)/, text);
    for (const name of ['qk_share', 'q_norm', 'k_norm', 'qk']) assert.equal(numberAfter(text, name), h[name][col], `${name}: ${text}`);
  }
  // The semantic map: each head's semantic_share and top pairs.
  const heads = REPORT.layers[0].heads.length;
  const text = await readoutAt(page, 'heatmap.usage_semantic', LAYERS, heads, 4, 2);
  assert.equal(numberAfter(text, 'semantic_share'), REPORT.layers[4].heads[2].semantic_share, text);
  assert.match(text, new RegExp(`top_pairs = \\[${REPORT.layers[4].heads[2].top_pairs.join(', ')}\\]`), text);
  // The export holds the map in double precision.
  const exported = await exportJson(page);
  const t = table(exported, 'qk_share_head_3');
  assert.equal(t.rows[1][1 + 2], REPORT.layers[1].heads[3].qk_share[2]);
  assert.equal(t.rows[2][1], null, 'the layer without positions has no numbers');
  assert.equal(table(exported, 'semantic_share').rows[4][1 + 2], REPORT.layers[4].heads[2].semantic_share);
  const live = await page.evaluate(() => window.posenc.description());
  assert.match(live, /6 layers \(5 with RoPE\), 16 pairs/, live);
  assert.deepEqual(errors, []);
});

test('usage: a URL off the site, a missing file or a malformed report is a notice naming usage', async () => {
  const { page, errors } = await onSite('view=usage');
  const notice = async (usage, pattern) => {
    await page.evaluate((u) => window.posenc.setState({ usage: u }), usage);
    await page.waitForFunction(() => window.posenc.noticeList().some((n) => n.key === 'usage'), null, { timeout: 20000 });
    const n = (await page.evaluate(() => window.posenc.noticeList())).find((x) => x.key === 'usage');
    assert.match(n.message, pattern, `${usage}: ${n.message}`);
  };
  await notice('https://example.com/r.json', /scheme/);
  await notice('//example.com/r.json', /another site/);
  await notice('figures/missing.json', /HTTP 404/);
  await notice('figures/bad.json', /layers\[0\]\.heads\[0\]\.q_norm|qk_share/);
  assert.deepEqual(errors.filter((e) => !/404/.test(e)), []);
});

test('usage: a report dropped, picked from the keyboard, and through window.posenc.loadWeights', async () => {
  const { page, errors } = await onSite('view=usage');
  const text = JSON.stringify(REPORT);
  await page.evaluate((t) => {
    const dt = new DataTransfer();
    dt.items.add(new File([t], 'llama.usage.json', { type: 'application/json' }));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, text);
  await loaded(page);
  assert.deepEqual(await page.evaluate(() => window.posenc.noticeList()), []);
  assert.equal((await page.evaluate(() => window.posenc.getState())).usage ?? '', '', 'a file is not in the link');
  // The keyboard: Tab into the form to the Weights group's Load files button, Enter opens the picker.
  await page.evaluate(() => window.posenc.setState({ view: 'waves' }));
  await page.evaluate(() => window.posenc.setState({ view: 'usage' }));
  await waitFrames(page, 2);
  const picker = await catchFileChooser(page);
  await page.focus('#canvas');
  let focused = '';
  for (let i = 0; i < 60 && focused !== 'load-weights-files'; ++i) {
    await page.keyboard.press('Tab');
    focused = await page.evaluate(() => document.activeElement && document.activeElement.id);
  }
  assert.equal(focused, 'load-weights-files', 'the Load files button is reached with Tab');
  await page.keyboard.press('Enter');
  await (await picker.opened).setFiles(path.join(dir, 'report.json'));
  await page.waitForFunction(() => window.posenc.description().includes('6 layers'), null, { timeout: 20000 });
  // loadWeights resolves to the report as the CLI writes it.
  const json = await page.evaluate((t) => window.posenc.loadWeights([new File([t], 'r.json')]), text);
  assert.deepEqual(json, REPORT);
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  assert.deepEqual(errors, []);
});

test('usage: a generated model folder picked from the keyboard reads to the CLI\'s JSON; hover equals it', async () => {
  const cli = spawnSync(path.join(repo, 'build', 'native', 'posenc'), ['weights', path.join(dir, 'llama-tiny'), '--json'], { encoding: 'utf8' });
  assert.equal(cli.status, 0, cli.stderr);
  const expected = JSON.parse(cli.stdout);
  const { page, errors } = await onSite('view=usage');
  const picker = await catchFileChooser(page);
  await page.focus('#canvas');
  let focused = '';
  for (let i = 0; i < 60 && focused !== 'load-weights-folder'; ++i) {
    await page.keyboard.press('Tab');
    focused = await page.evaluate(() => document.activeElement && document.activeElement.id);
  }
  assert.equal(focused, 'load-weights-folder', 'the Load model folder button is reached with Tab');
  await page.keyboard.press('Enter');
  await (await picker.opened).setFiles(path.join(dir, 'llama-tiny'));
  await page.waitForFunction(() => window.posenc.description().includes('2 layers'), null, { timeout: 30000 });
  assert.deepEqual(await page.evaluate(() => window.posenc.noticeList()), []);
  // Nothing but the headers and the q/k/norm ranges was read.
  const reads = await page.evaluate(() => window.posenc.fileReads);
  assert.ok(reads.length > 0);
  // Hover: head 1 of layer 1, pair 2 (already in frequency order) shows the CLI's numbers.
  await page.evaluate(() => window.posenc.setState({ head: '1' }));
  await waitFrames(page, 3);
  const text = await readoutAt(page, 'heatmap.usage_share', 2, 4, 1, 2);
  const h = expected.layers[1].heads[1];
  for (const name of ['qk_share', 'q_norm', 'k_norm', 'qk']) assert.equal(numberAfter(text, name), h[name][2], `${name}: ${text}`);
  // window.posenc.loadWeights gives the CLI's JSON for the same files (read.bytes: the same ranges).
  const files = ['config.json', 'model.safetensors'].map((n) => [n, fs.readFileSync(path.join(dir, 'llama-tiny', n)).toString('base64')]);
  const json = await page.evaluate((list) => window.posenc.loadWeights(list.map(([n, b]) => new File([Uint8Array.from(atob(b), (c) => c.charCodeAt(0))], n))), files);
  assert.deepEqual(json, expected);
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  assert.deepEqual(errors, []);
});

test('usage: a generated model folder dropped from disk reads to the CLI\'s JSON, every number', async () => {
  // A reader's drop of a folder: Chromium's own drag of files from disk (CDP Input.dispatchDragEvent with the
  // folder's path), so the page gets a DataTransfer whose item's webkitGetAsEntry() is a directory entry, and
  // walks it as it walks a real drop (a synthetic DataTransfer cannot carry a directory).
  const cli = spawnSync(path.join(repo, 'build', 'native', 'posenc'), ['weights', path.join(dir, 'llama-tiny'), '--json'], { encoding: 'utf8' });
  assert.equal(cli.status, 0, cli.stderr);
  const expected = JSON.parse(cli.stdout);
  const { page, errors } = await onSite('view=usage');
  await page.evaluate(() => window.posenc.setState({ view: 'usage', head: '-1' }));
  // Another report first (the file's page may hold this model from the check before), so the drop is seen.
  await page.evaluate((t) => window.posenc.loadWeights([new File([t], 'r.json')]), JSON.stringify(REPORT));
  await page.waitForFunction(() => window.posenc.description().includes('6 layers'), null, { timeout: 20000 });
  // What the drop hands the page: one item, a directory entry named as the folder.
  await page.evaluate(() => {
    window.droppedEntries = [];
    window.addEventListener('drop', (e) => {
      for (const item of e.dataTransfer.items) {
        const entry = item.webkitGetAsEntry && item.webkitGetAsEntry();
        window.droppedEntries.push(entry ? { name: entry.name, directory: entry.isDirectory } : null);
      }
    }, { capture: true, once: true });
  });
  const cdp = await page.context().newCDPSession(page);
  const data = { items: [], files: [path.join(dir, 'llama-tiny')], dragOperationsMask: 1 };
  const [x, y] = [400, 300];
  for (const type of ['dragEnter', 'dragOver', 'drop']) await cdp.send('Input.dispatchDragEvent', { type, x, y, data });
  await page.waitForFunction(() => window.posenc.description().includes('2 layers'), null, { timeout: 30000 });
  assert.deepEqual(await page.evaluate(() => window.droppedEntries), [{ name: 'llama-tiny', directory: true }]);
  assert.deepEqual(await page.evaluate(() => window.posenc.noticeList()), []);
  // Every number the view holds equals the CLI's: qk_share of each head (pairs by frequency: here pair j is
  // rank j) and semantic_share, from the view's export.
  const heads = expected.layers[0].heads.length;
  for (let h = 0; h < heads; ++h) {
    await page.evaluate((head) => window.posenc.setState({ head: String(head) }), h);
    await waitFrames(page, 2);
    const t = table(await exportJson(page), `qk_share_head_${h}`);
    expected.layers.forEach((layer, l) => layer.heads[h].qk_share.forEach((v, j) => assert.equal(t.rows[l][1 + j], v, `layer ${l} head ${h} pair ${j}`)));
  }
  const semantic = table(await exportJson(page), 'semantic_share');
  expected.layers.forEach((layer, l) => layer.heads.forEach((hd, h) => assert.equal(semantic.rows[l][1 + h], hd.semantic_share, `layer ${l} head ${h}`)));
  await cdp.detach();
  await page.evaluate(() => window.posenc.setState({ head: '-1' }));
  assert.deepEqual(errors, []);
});

test('usage: an embed on another origin draws the report named by usage=', async () => {
  const { page, context, errors } = await openPage(env.browser, `${blog.url.replace('127.0.0.1', 'localhost')}/`, { width: 720, height: 600 });
  const frame = (await page.$('#usage')).contentFrame ? await (await page.$('#usage')).contentFrame() : null;
  await frame.waitForFunction(() => window.posenc && window.posenc.probes && window.posenc.probes().includes('heatmap.usage_share'), null, { timeout: 30000 });
  await settledFrames(frame);
  assert.deepEqual(await frame.evaluate(() => window.posenc.noticeList()), []);
  await page.screenshot({ path: 'build/test-artifacts/usage-blog-embed.png' });
  assert.deepEqual(errors, []);
  await context.close();
});

test('usage: screenshots at the four sizes, both themes, both languages', async () => {
  const sizes = [['desktop', 1280, 800, ''], ['column', 720, 480, ''], ['embed', 400, 300, '&embed=1'], ['phone', 390, 844, '']];
  for (const lang of ['en', 'zh']) {
    for (const theme of ['dark', 'light']) {
      for (const [name, width, height, extra] of sizes) {
        const { page, errors } = await onSite(`view=usage&usage=figures/report.json&theme=${theme}&lang=${lang}${extra}`, { width, height });
        if (lang === 'zh') await page.evaluate(() => window.posenc.setState({}));
        await loaded(page);
        await page.mouse.move(1, 1);
        await waitFrames(page, 3);
        await screenshot(page, `usage-${name}-${width}x${height}-${theme}-${lang}.png`);
        await itemRect(page, 'heatmap.usage_share');
        assert.deepEqual(await page.evaluate(() => window.posenc.noticeList()), [], `${name} ${theme} ${lang}`);
        assert.deepEqual(errors, []);
      }
    }
  }
  await waitReady((await onSite('view=usage')).page);
});
