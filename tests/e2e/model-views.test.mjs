// End-to-end, the RoPE and scores views take a model (view=rope&model=<preset id>, view=scores&model=<id>):
// the model fills the views' own keys, their exported numbers are `posenc inspect --json`'s for the same
// config.json, the URL round-trips and an edited key wins; what a view cannot show of a model (Phi-3's
// LongRoPE factors) is a drawn notice naming `model`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { useBrowser, openState, openDeepLink, assertStateRoundTrip, waitFrames, itemRect, screenshot, repo, table, column, cell, assertClose, exportJson } from './harness.mjs';

const env = useBrowser();
const posenc = path.join(repo, 'build', 'native', 'posenc');
const configs = path.join(repo, 'tests', 'data', 'configs');
const inspect = (file) => JSON.parse(execFileSync(posenc, ['inspect', path.join(configs, file), '--json'], { encoding: 'utf8' }));


test('view=rope&model=llama-3.1-8b: the keys are the model\'s, the numbers inspect\'s, an edited key wins', async () => {
  const model = inspect('llama-3.1-8b.json');
  const { page, context, errors, state } = await openDeepLink(env, 'view=rope&model=llama-3.1-8b', { shot: 'model-rope-llama-3.1-8b.png', tab: 'load' });
  assert.deepEqual(
    { dim: state.dim, base: state.base, scaling: state.scaling, factor: state.factor, orig: state.orig, target: state.target,
      low: state.low_freq_factor, high: state.high_freq_factor },
    { dim: '128', base: '500000', scaling: 'llama3', factor: '8', orig: '8192', target: '131072', low: '1', high: '4' });
  const exported = await exportJson(page);
  assertClose(column(table(exported, 'pairs'), 'inv_freq_scaled'), model.rope.inv_freq, 'inv_freq');
  assertClose([cell(table(exported, 'summary'), 'attention_scaling')], [model.rope.attention_scaling], 'attention_scaling');
  for (const probe of ['combo.model', 'text.rope.model', 'plot.angles', 'plot.ratio']) await itemRect(page, probe);
  await assertStateRoundTrip(env, state);
  // An edited key wins: the model key stays, the view says it is computed from the keys.
  await page.evaluate(() => window.posenc.setState({ base: '20000' }));
  await waitFrames(page, 2);
  const edited = await page.evaluate(() => window.posenc.getState());
  assert.equal(edited.base, '20000');
  assert.equal(edited.model, 'llama-3.1-8b');
  assert.equal(edited.scaling, 'llama3');
  assert.equal(await page.evaluate(() => window.posenc.notices()), '');
  await assertStateRoundTrip(env, edited);
  assert.deepEqual(errors, []);
  await context.close();
});

test('view=rope&model=phi-3-mini-128k: LongRoPE\'s factors cannot be keys here: a notice naming model says so', async () => {
  const { page, context, errors } = await openState(env, 'view=rope&model=phi-3-mini-128k', { tab: 'load' });
  const notices = await page.evaluate(() => window.posenc.noticeList());
  assert.deepEqual(notices.map((n) => n.key), ['model']);
  assert.match(notices[0].message, /LongRoPE/);
  assert.match(notices[0].message, /view=model/);
  await itemRect(page, 'notice');
  const state = await page.evaluate(() => window.posenc.getState());
  assert.deepEqual([state.dim, state.scaling, state.orig, state.target], ['96', 'none', '4096', '131072']);
  assert.match(await page.evaluate(() => window.posenc.description()), /Notices: .*LongRoPE/);
  await screenshot(page, 'model-rope-phi-3-longrope-notice.png');
  assert.deepEqual(errors, []);
  await context.close();
});

for (const [id, file, expect] of [
  ['gpt-neox-20b', 'gpt-neox-20b.json', { scheme: 'rope', d: '96', rotary_dim: '24', layout: 'half' }],
  ['deepseek-v3', 'deepseek-v3.json', { scheme: 'rope', d: '192', rotary_dim: '64', layout: 'interleaved', scaling: 'yarn' }],
  ['bloom', 'bloom.json', { scheme: 'alibi', d: '128', heads: '112' }],
  ['t5-base', 't5-base.json', { scheme: 't5', d: '64', buckets: '32', max_distance: '128', causal: '0' }],
]) {
  test(`view=scores&model=${id}: the scheme and its numbers are the model's`, async () => {
    const model = inspect(file);
    const { page, context, errors } = await openState(env, `view=scores&n=32&model=${id}`, { tab: 'load' });
    const state = await page.evaluate(() => window.posenc.getState());
    for (const [key, value] of Object.entries(expect)) assert.equal(state[key], value, key);
    assert.equal(Number(state.d), model.head_dim);
    const exported = await exportJson(page);
    if (model.position === 'rope' && model.rope.rope_type !== 'default')
      assertClose(column(table(exported, 'rope: frequencies'), 'inv_freq'), model.rope.inv_freq, 'inv_freq');
    if (model.position === 'alibi') assert.equal(cell(table(exported, 'alibi: slope'), 'slope'), model.alibi.slopes[0]);
    // DeepSeek-V3's softmax factor (mscale^2) is outside the view's 1/sqrt(d): said, naming model.
    const notices = await page.evaluate(() => window.posenc.noticeList());
    assert.deepEqual(notices.map((n) => n.key), id === 'deepseek-v3' ? ['model'] : []);
    await itemRect(page, 'heatmap.scores.logits');
    await itemRect(page, 'text.scores.model');
    await assertStateRoundTrip(env, state);
    await screenshot(page, `model-scores-${id}.png`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
