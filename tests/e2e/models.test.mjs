// Models end to end, on one page reused throughout (setState + setViewportSize):
//  - every preset in the Model view is the model `posenc inspect --json` reads: the page's exportData('json')
//    and `posenc export --state 'view=model&model=<id>'` name the same model_type, and every layer type's
//    rotary_dim, head_dim, base, rope_type and pair classes are inspect's;
//  - two models side by side (compare=<id>, and a second loaded config) at the four sizes in both themes, the
//    differences in the description (the live region); a second model from a file (the API, and the keyboard
//    through the form's "Load second model"), Copy link and Copy embed code saying it cannot travel.
// The heap soak across every view is a benchmark with a smoke run in the suite (bench/soak.mjs,
// tests/e2e/bench-soak.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useBrowser, openState, waitFrames, itemRect, catchFileChooser, repo, table, cell, exportJson } from './harness.mjs';

const env = useBrowser();
const posenc = path.join(repo, 'build', 'native', 'posenc');
const configs = path.join(repo, 'tests', 'data', 'configs');
const presets = JSON.parse(fs.readFileSync(path.join(configs, 'presets.json'), 'utf8'));
const MiB = 2 ** 20;

// The preset's config.json with its overlay merged (as the app reads the preset), as a file for inspect.
function configFile(p) {
  if (!p.overlay) return path.join(configs, p.file);
  const c = JSON.parse(fs.readFileSync(path.join(configs, p.file), 'utf8'));
  Object.assign(c, p.overlay);
  const f = path.join(os.tmpdir(), `posenc-preset-${p.id}.json`);
  fs.writeFileSync(f, JSON.stringify(c));
  return f;
}
const run = (args) => execFileSync(posenc, args, { encoding: 'utf8', maxBuffer: 64 * MiB });
const inspect = (file) => JSON.parse(run(['inspect', file, '--json']));
const cliExport = (state) => JSON.parse(run(['export', '--state', state, '--format', 'json']));

// The export of the Model view against the model response: the model's table name, and per RoPE entry its
// summary's name (rope_type, layout), rotary_dim, head_dim (the layer type's own width), base and pair classes.
function assertSameModel(exported, model, label) {
  assert.equal(table(exported, 'model: ').name, `model: ${model.model_type} (${model.position})`, label);
  const ropes = model.layers ? Object.entries(model.layers).map(([k, v]) => [`layers.${k}`, v]) : model.rope ? [['rope', model.rope]] : [];
  for (const [name, r] of ropes) {
    const s = table(exported, `${name}: summary`);
    assert.equal(s.name, `${name}: summary (${r.rope_type}, ${r.layout})`, `${label} ${name}`);
    assert.equal(cell(s, 'rotary_dim'), r.rotary_dim, `${label} ${name} rotary_dim`);
    assert.equal(cell(s, 'head_dim'), r.head_dim, `${label} ${name} head_dim`);
    assert.ok(Math.abs(cell(s, 'base') - r.base) <= 1e-9 * r.base, `${label} ${name} base`);
    const c = r.pairs_at_max;
    assert.deepEqual(
      ['full_turns', 'less_than_once', 'interpolated', 'extrapolated', 'no_rotation'].map((k) => cell(s, k)),
      [c.full_turn, c.less_than_once, c.interpolated, c.extrapolated, c.no_rotation], `${label} ${name} pair classes`);
  }
  const tables = exported.tables.filter((t) => / summary \(/.test(t.name) && !t.name.startsWith('compare'));
  assert.equal(tables.length, ropes.length, `${label}: one summary per layer type`);
}

let shared = null;  // {page, context, errors}: opened once
async function page() {
  if (!shared) shared = await openState(env, 'view=model');
  return shared.page;
}
async function setState(p, state) {
  await p.evaluate((s) => window.posenc.setState(s), state);
}

test('every preset in the Model view is what posenc inspect reads (page and posenc export)', async () => {
  const p = await page();
  for (const preset of presets) {
    const model = inspect(configFile(preset));
    const state = `view=model&model=${preset.id}`;
    assertSameModel(cliExport(state), model, `posenc export ${preset.id}`);
    await setState(p, { view: 'model', model: preset.id });
    assertSameModel(await exportJson(p), model, `page ${preset.id}`);
    const notices = await p.evaluate(() => window.posenc.notices());
    assert.doesNotMatch(notices, /edited/, preset.id);
  }
  assert.deepEqual(shared.errors, []);
});

test('two models side by side: both cards, the differences in the description, at every size and theme', async () => {
  const p = await page();
  await setState(p, { view: 'model', model: 'llama-3.1-8b', compare: 'qwen2-7b' });
  await waitFrames(p, 2);
  const exported = await exportJson(p);
  assert.equal(table(exported, 'compare model: ').name, 'compare model: qwen2 (rope)');
  assert.equal(cell(table(exported, 'compare: differences'), 'rope.base'), 500000);
  const description = await p.evaluate(() => window.posenc.description());
  assert.match(description, /Compared with Qwen2-7B: differences: .*rope\.base 500000 vs 1000000/);
  for (const [width, height, theme, embed] of [[1280, 800, 'dark', false], [720, 480, 'light', false], [400, 300, 'dark', true],
                                               [390, 844, 'light', false]]) {
    await p.setViewportSize({ width, height });
    await setState(p, { theme, embed: embed ? '1' : '0', controls: embed ? '0' : '1' });
    await waitFrames(p, 3);
    if (!embed) for (const probe of ['card.model', 'card.compare', 'text.model.differences']) await itemRect(p, probe);
  }
  await p.setViewportSize({ width: 1280, height: 800 });
  await setState(p, { theme: 'dark', embed: '0', controls: '1' });
  // The state round-trips with compare; compare= (empty) drops it.
  assert.equal((await p.evaluate(() => window.posenc.getState())).compare, 'qwen2-7b');
  await setState(p, { compare: '' });
  assert.ok(!(await exportJson(p)).tables.some((t) => t.name.startsWith('compare')));
  assert.deepEqual(shared.errors, []);
});

// One compare: the page lists the differences `posenc inspect A B` gives (one function, compare_models, at
// one length), in its order, each value as inspect prints it, and a value posenc assumed marked "(assumed)"
// exactly where inspect's JSON entry lists that side in `assumed`. Two presets, and a config of a model type
// posenc has no rule for (its head_dim, base, ... are assumed) against Llama 3.2 1B.
const UNKNOWN_MODEL = { model_type: 'mystery-lm', hidden_size: 2048, num_attention_heads: 16, num_hidden_layers: 8,
  max_position_embeddings: 4096 };
// inspect's differences as its text prints them ("what: a vs b", "(assumed)" after an assumed value).
function inspectDifferences(fileA, fileB) {
  const json = JSON.parse(run(['inspect', fileA, fileB, '--json'])).differences;
  const text = run(['inspect', fileA, fileB]);
  const lines = text.slice(text.indexOf('\ndifferences') + 1).split('\n').slice(1).filter((l) => l.includes(' vs '));
  assert.equal(lines.length, json.length, `inspect's text and JSON list as many differences:\n${text}`);
  return json.map((d, i) => ({ ...d, line: lines[i].trim().replace(/^([^:]+): /, '$1 ') }));
}
// The page's differences, from the description's "Compared with X: differences: a; b; c."
async function pageDifferences(p) {
  const description = await p.evaluate(() => window.posenc.description());
  const m = description.match(/Compared with [^:]*: differences: (.*?)\.(?: |$)/);
  assert.ok(m, `the description lists the differences: ${description}`);
  return m[1].split('; ');
}
test('one compare: the page lists the same differences as posenc inspect A B, assumed values marked', async () => {
  const p = await page();
  const write = (name, config) => {
    const f = path.join(os.tmpdir(), `posenc-compare-${name}.json`);
    fs.writeFileSync(f, JSON.stringify(config));
    return f;
  };
  const pairs = [
    ['presets', configFile(presets.find((x) => x.id === 'llama-3.1-8b')), configFile(presets.find((x) => x.id === 'qwen2-7b')),
      () => setState(p, { view: 'model', model: 'llama-3.1-8b', compare: 'qwen2-7b' })],
    ['unknown model type', write('unknown', UNKNOWN_MODEL), path.join(configs, 'llama-3.2-1b.json'), async () => {
      await setState(p, { view: 'model', model: 'none', compare: '' });
      await p.evaluate((t) => window.posenc.loadModel(t), JSON.stringify(UNKNOWN_MODEL));
      await p.evaluate((t) => window.posenc.loadCompareModel(t), fs.readFileSync(path.join(configs, 'llama-3.2-1b.json'), 'utf8'));
    }],
  ];
  let assumed = 0;
  for (const [label, a, b, show] of pairs) {
    const expected = inspectDifferences(a, b);
    assert.ok(expected.length > 0, `${label}: inspect finds differences`);
    await show();
    await waitFrames(p, 2);
    const shown = await pageDifferences(p);
    assert.deepEqual(shown, expected.map((d) => d.line), `${label}: the page's differences are inspect's`);
    for (const [i, d] of expected.entries()) {
      const marks = (shown[i].match(/\(assumed\)/g) || []).length;
      assert.equal(marks, (d.assumed || []).length, `${label} ${d.what}: "(assumed)" where inspect's JSON says assumed`);
      assumed += marks;
    }
  }
  assert.ok(assumed > 0, 'the unknown model type has assumed values, marked');
  await setState(p, { view: 'model', model: 'llama-3.1-8b', compare: '' });
  assert.deepEqual(shared.errors, []);
});

// The second model from a file: through the API, and by the keyboard alone (Shift+Tab from the figure to the
// form's "Load second model" button, Enter opens the file picker) at 1280x800 and on the phone; Copy link and Copy embed code say
// (toast and live region) that the file cannot travel in a link.
// Shift+Tab from the figure (the canvas) back through the form's Share buttons to the element `id`.
async function tabBackTo(p, id) {
  await p.focus('#canvas');
  for (let i = 0; i < 12; ++i) {
    await p.keyboard.press('Shift+Tab');
    if (await p.evaluate((x) => document.activeElement && document.activeElement.id === x, id)) return i + 1;
  }
  throw new Error(`Shift+Tab from the canvas never reached #${id}`);
}
test('a second model loaded from a file: compare=custom, and Copy link says it cannot travel', async () => {
  const p = await page();
  await setState(p, { view: 'model', model: 'llama-3.1-8b' });
  const text = fs.readFileSync(path.join(configs, 'gemma-3-1b-it.json'), 'utf8');
  const notices = await p.evaluate((t) => window.posenc.loadCompareModel(t), text);
  assert.ok(notices.some((n) => n.key === 'compare' && /cannot|not the file/.test(n.message)), JSON.stringify(notices));
  assert.equal((await p.evaluate(() => window.posenc.getState())).compare, 'custom');
  assert.equal(table(await exportJson(p), 'compare model: ').name, 'compare model: gemma3_text (rope)');
  assert.match(await p.evaluate(() => window.posenc.description()), /differences: /);
  assert.match(await p.evaluate(() => window.posenc.copyLinkMessage()), /second model .* cannot travel/);
  for (const [name, said] of [['Copy link', /^Link copied; the second model .* cannot travel/],
    ['Copy embed code', /^Embed code copied; the second model .* cannot travel/]]) {
    await p.getByRole('button', { name, exact: true }).focus();
    await p.keyboard.press('Enter');
    await p.waitForFunction((re) => new RegExp(re).test(document.getElementById('share-status').textContent), said.source, { timeout: 5000 });
    assert.match(await p.evaluate(() => document.getElementById('toast').textContent), said, `${name}: the toast`);
  }
  // A preset to compare with: Copy link says nothing more.
  await setState(p, { compare: 'qwen2-7b' });
  assert.equal(await p.evaluate(() => window.posenc.copyLinkMessage()), 'Link copied');
  // By the keyboard, at the desktop size and on the phone, both themes.
  for (const [width, height, theme, file, modelType] of [[1280, 800, 'dark', 'gemma-3-1b-it.json', 'gemma3_text'],
    [390, 844, 'light', 'qwen2-7b.json', 'qwen2']]) {
    await p.setViewportSize({ width, height });
    await setState(p, { compare: '', theme });
    await waitFrames(p, 2);
    assert.equal(await p.getByRole('button', { name: 'Load second model', exact: true }).count(), 1);
    const picker = await catchFileChooser(p);
    await tabBackTo(p, 'load-compare');
    await p.keyboard.press('Enter');
    await (await picker.opened).setFiles(path.join(configs, file));
    await p.waitForFunction(() => window.posenc.getState().compare === 'custom', null, { timeout: 10000 });
    assert.equal(table(await exportJson(p), 'compare model: ').name, `compare model: ${modelType} (rope)`, `${width}x${height}`);
    for (const probe of ['card.model', 'card.compare']) await itemRect(p, probe);
  }
  // Only the Model view has the button.
  await setState(p, { view: 'rope' });
  assert.equal(await p.getByRole('button', { name: 'Load second model', exact: true }).count(), 0);
  await p.setViewportSize({ width: 1280, height: 800 });
  await setState(p, { view: 'model', theme: 'dark' });
  assert.deepEqual(shared.errors, []);
});
