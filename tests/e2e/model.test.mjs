// End-to-end, the Model view: a preset (?view=model&model=<id>) and a pasted config.json
// (window.posenc.loadModel) show the numbers `posenc inspect --json` gives for the same config, in the
// exported JSON and through the view's probes; a bad config is a notice naming its key path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useBrowser, openState, openInParent, waitFrames, itemRect, screenshot, repo } from './harness.mjs';

const env = useBrowser();
const posenc = path.join(repo, 'build', 'native', 'posenc');

function inspect(file) {
  return JSON.parse(execFileSync(posenc, ['inspect', file, '--json'], { encoding: 'utf8' }));
}

function table(exported, prefix) {
  const t = exported.tables.find((x) => x.name.startsWith(prefix));
  assert.ok(t, `table ${prefix} in ${exported.tables.map((x) => x.name).join(', ')}`);
  return t;
}
const cell = (t, row, column) => t.rows[row][t.columns.indexOf(column)];

// The view's export against one rope object of the `model` response.
function assertRope(exported, name, rope) {
  const summary = table(exported, `${name}: summary`);
  assert.ok(summary.name.includes(rope.rope_type) && summary.name.includes(rope.layout), summary.name);
  for (const key of ['rotary_dim', 'base', 'attention_scaling', 'softmax_scale', 'max_position_embeddings',
    'original_max_position_embeddings']) assert.equal(cell(summary, 0, key), rope[key], `${name} ${key}`);
  const pairs = table(exported, `${name}: pairs`);
  assert.deepEqual(pairs.rows.map((r) => r[pairs.columns.indexOf('inv_freq')]), rope.inv_freq, `${name} inv_freq`);
}

function assertMatches(exported, model) {
  const head = table(exported, 'model: ');
  assert.equal(cell(head, 0, 'head_dim'), model.head_dim);
  assert.equal(cell(head, 0, 'num_attention_heads'), model.num_attention_heads);
  assert.ok(head.name.includes(`(${model.position})`), head.name);
  if (model.layers) for (const [name, rope] of Object.entries(model.layers)) assertRope(exported, `layers.${name}`, rope);
  else if (model.rope) assertRope(exported, 'rope', model.rope);
  if (model.alibi) assert.deepEqual(table(exported, 'alibi: slopes').rows.map((r) => r[1]), model.alibi.slopes);
}

async function assertProbes(page, names) {
  for (const name of names) {
    const r = await itemRect(page, name);
    assert.ok(r && r.width > 50 && r.height > 10, `probe ${name}: ${JSON.stringify(r)}`);
  }
}

for (const [id, file] of [['phi-3-mini-128k', 'phi-3-mini-128k-instruct.json'], ['gemma-3-1b', 'gemma-3-1b-it.json'],
  ['bloom', 'bloom.json']]) {
  test(`preset ${id}: the view's numbers are posenc inspect --json's`, async () => {
    const configFile = path.join(repo, 'tests', 'data', 'configs', file);
    const model = inspect(configFile);
    // The numbers are the subject, not the load: the file's shared page brought to the preset (sharedPage).
    const { page, context, errors } = await openState(env, `view=model&model=${id}`, { reuse: true });
    assert.deepEqual(await page.evaluate(() => window.posenc.noticeList()), []);
    const exported = JSON.parse(await page.evaluate(() => window.posenc.exportData('json')));
    assert.equal(exported.view, 'model');
    assertMatches(exported, model);
    await assertProbes(page, model.position === 'rope' ? ['combo.model', 'plot.ratio', 'plot.wavelength'] : ['combo.model', 'plot.slopes']);
    await screenshot(page, `model-${id}.png`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('a pasted config.json (loadModel with its text) shows posenc inspect --json numbers and keeps them in the URL', async () => {
  const config = {
    model_type: 'qwen2', hidden_size: 3584, num_attention_heads: 28, max_position_embeddings: 131072, rope_theta: 1000000.0,
    rope_scaling: { type: 'yarn', factor: 4.0, original_max_position_embeddings: 32768 },
  };
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'posenc-model-')), 'config.json');
  fs.writeFileSync(file, JSON.stringify(config));
  const model = inspect(file);
  const { page, context, errors } = await openState(env, 'view=toy', { tab: 'load' });
  const notices = await page.evaluate((text) => window.posenc.loadModel(text), JSON.stringify(config));
  assert.deepEqual(notices, []);
  await waitFrames(page, 2);
  const state = await page.evaluate(() => window.posenc.getState());
  assert.equal(state.view, 'model');
  assert.equal(state.model, 'custom');
  assert.equal(Number(state.base), 1000000);
  assert.equal(state.rope_type, 'yarn');
  const exported = JSON.parse(await page.evaluate(() => window.posenc.exportData('json')));
  assertMatches(exported, model);
  await assertProbes(page, ['combo.model', 'plot.ratio', 'plot.wavelength']);
  await screenshot(page, 'model-loaded-yarn.png');
  // The same state from the URL alone (a shared link) gives the same RoPE numbers.
  const query = new URLSearchParams(state).toString();
  const again = await openState(env, query, { tab: 'again' });
  assertRope(JSON.parse(await again.page.evaluate(() => window.posenc.exportData('json'))), 'rope', model.rope);
  await again.context.close();
  // A wrong type is a notice naming the key path; nothing crashes.
  const bad = await page.evaluate(() => window.posenc.loadModel('{"model_type": "llama", "hidden_size": 4096, ' +
    '"num_attention_heads": 32, "max_position_embeddings": 4096, "rope_scaling": {"rope_type": "linear", "factor": "four"}}'));
  assert.deepEqual(bad.map((n) => n.key), ['rope_scaling.factor']);
  const binary = await page.evaluate(() => window.posenc.loadModel(new Uint8Array([71, 71, 85, 70, 3, 0]).buffer));
  assert.equal(binary.length, 1);
  assert.deepEqual(errors, []);
  await context.close();
});

// The state a fresh page gives for ?view=model&model=<id> (without app-level keys).
async function freshState(id) {
  const fresh = await openState(env, `view=model&model=${id}`, { frames: 1, tab: 'fresh' });
  return fresh.page.evaluate(() => window.posenc.getState());
}

test('switching models by setState or posenc:setState gives exactly the fresh ?model=<id> state', async () => {
  // The app in a page's iframe: the page's posenc:setState is what a blog sends to its embed.
  const { page: top, frame: page, context, errors, postState } = await openInParent(env, 'view=model&model=llama-3.1-8b');
  for (const [id, how] of [['bloom', 'setState'], ['t5-base', 'message'], ['phi-3-mini-128k', 'setState'],
    ['deberta-v3-base', 'message'], ['llama-3.1-8b', 'setState']]) {
    if (how === 'setState') await page.evaluate((m) => window.posenc.setState({ model: m }), id);
    else {
      await postState({ model: id });
      await page.waitForFunction((m) => window.posenc.getState().model === m, id);
    }
    await waitFrames(page, 2);
    assert.deepEqual(await page.evaluate(() => window.posenc.getState()), await freshState(id), `${how} model=${id}`);
    // The only notices: the config keys posenc does not read (T5's n_positions, ...), one each.
    const presets = JSON.parse(fs.readFileSync(path.join(repo, 'tests', 'data', 'configs', 'presets.json'), 'utf8'));
    const unread = inspect(path.join(repo, 'tests', 'data', 'configs', presets.find((p) => p.id === id).file)).unread_keys;
    assert.deepEqual((await page.evaluate(() => window.posenc.noticeList())).map((n) => n.key), unread, id);
    assert.equal(await page.evaluate(() => window.posenc.itemRect('text.model.edited')), null, `${id} is not "edited"`);
  }
  await page.evaluate(() => window.posenc.setState({ model: 'bloom' }));
  await waitFrames(page, 2);
  const card = await page.evaluate(() => window.posenc.describe());
  assert.equal(card.params.position, 'alibi');
  assert.equal(card.params.heads, '112');
  await screenshot(top, 'model-switched-to-bloom.png');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a failed load at any point is a notice naming the key; the previous model stays as it was', async () => {
  const bad = JSON.stringify({ model_type: 'llama', hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 131072,
    rope_theta: 500000.0, rope_scaling: { rope_type: 'llama3', factor: '8.0', original_max_position_embeddings: 8192 } });
  for (const theme of ['dark', 'light']) {
    const { page, context, errors } = await openState(env, `view=model&model=llama-3.1-8b&theme=${theme}`, { tab: 'load' });
    // After a switch by setState (the path a blog page's posenc:setState takes), and on a fresh page.
    for (const before of ['bloom', 'phi-3-mini-128k']) {
      await page.evaluate((m) => window.posenc.setState({ model: m }), before);
      await waitFrames(page, 2);
      const state = await page.evaluate(() => window.posenc.getState());
      const exported = await page.evaluate(() => window.posenc.exportData('json'));
      const notices = await page.evaluate((text) => window.posenc.loadModel(text), bad);
      assert.deepEqual(notices.map((n) => n.key), ['rope_scaling.factor'], before);
      assert.match(notices[0].message, /loading the model/);
      await waitFrames(page, 2);
      assert.deepEqual(await page.evaluate(() => window.posenc.getState()), state, `${before}: the state is unchanged`);
      assert.equal(await page.evaluate(() => window.posenc.exportData('json')), exported, `${before}: the numbers are unchanged`);
      assert.equal(await page.evaluate(() => window.posenc.itemRect('text.model.edited')), null, `${before}: not "edited"`);
      await itemRect(page, 'notice');
      assert.match(await page.evaluate(() => window.posenc.description()), /Notices: .*rope_scaling\.factor/);
      await screenshot(page, `model-failed-load-after-${before}-${theme}.png`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  }
});

// The pairs' classes: LongRoPE counted with the factors in force at the length named (Phi-3-mini-128k at
// 131072: the long factors, as `posenc inspect --seq-len 131072` reads them), and no "interpolated" for a
// model without scaling (Gemma-3-1B at its trained length: its slow pairs turn less than once there).
test('pair classes: LongRoPE at each length with its factors there; nothing interpolated without a scaling', async () => {
  const configs = path.join(repo, 'tests', 'data', 'configs');
  const long = JSON.parse(execFileSync(posenc, ['inspect', path.join(configs, 'phi-3-mini-128k-instruct.json'), '--json',
    '--seq-len', '131072'], { encoding: 'utf8' })).rope;
  const d = long.rotary_dim, plain = long.inv_freq.map((_, k) => 1 / Math.pow(long.base, (2 * k) / d));
  const counts = [0, 0, 0];
  plain.forEach((w, k) => {
    // The core's pair_behaviour: full turn; interpolated only where the factors slow the pair, else it turns
    // less than once (counted apart); else beyond the trained angles.
    const trained = 4096 * w;
    if (trained >= 2 * Math.PI) counts[0]++;
    else if (131072 * long.inv_freq[k] > trained * (1 + 1e-12)) counts[2]++;
    else if (long.inv_freq[k] < w * (1 - 1e-12)) counts[1]++;
  });
  assert.equal(counts[2], 0, 'the long factors keep every pair within the trained angles');
  for (const theme of ['dark', 'light']) {
    const { page, context, errors } = await openState(env, `view=model&model=phi-3-mini-128k&theme=${theme}`, { tab: 'load' });
    const summary = table(JSON.parse(await page.evaluate(() => window.posenc.exportData('json'))), 'rope: summary');
    assert.deepEqual(['full_turns', 'interpolated', 'extrapolated'].map((c) => cell(summary, 0, c)), counts);
    const numbers = (await page.evaluate(() => window.posenc.describe())).numbers;
    const at = (name) => numbers.find((n) => n.name === name)?.value;
    assert.equal(at('pairs at 131072 (long factors) that interpolated (kept within the trained angles)'), counts[1]);
    assert.equal(at('pairs at 131072 (long factors) that complete a full turn within the trained length'), counts[0]);
    await itemRect(page, 'text.model.pairs.4096');
    await itemRect(page, 'text.model.pairs.131072');
    await screenshot(page, `model-phi-3-longrope-${theme}.png`);

    await page.evaluate(() => window.posenc.setState({ model: 'gemma-3-1b' }));
    await waitFrames(page, 2);
    const live = await page.evaluate(() => window.posenc.description());
    assert.doesNotMatch(live, /interpolated/);
    assert.match(live, /turn less than once within the trained length: \d+/);
    await screenshot(page, `model-gemma-3-1b-${theme}.png`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});
