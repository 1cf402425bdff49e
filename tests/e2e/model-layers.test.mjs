// End-to-end, the Model view's layer strip, M-RoPE split, context-extension panel and unread keys: a
// Llama 4 (Scout-style) and a Qwen2-VL config.json pasted on the canvas; the strip read from the export,
// the live region and the probes (one per layer) must say exactly what `posenc eval` op `model` says per
// layer; the keys posenc does not read are notices naming them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { useBrowser, openState, waitFrames, itemRect, screenshot, repo, exportJson, table, column } from './harness.mjs';

const env = useBrowser();
const posenc = path.join(repo, 'build', 'native', 'posenc');
const modelOp = (config) => JSON.parse(execFileSync(posenc, ['eval', '-'], { input: JSON.stringify({ op: 'model', config }), encoding: 'utf8' }));

import { llama4, qwen2vl, scoutNope, pasteConfig as paste } from './model-configs.mjs';

const KINDS = ['full', 'sliding', 'chunked', 'linear'];
const RULES = ['none', 'llama4_temperature', 'llama4_scaling_beta'];

// The exported layer table against the model op's per_layer, cell by cell.
function assertLayers(exported, perLayer) {
  const t = table(exported, 'layers (');
  assert.equal(t.rows.length, perLayer.length);
  perLayer.forEach((want, i) => {
    const row = Object.fromEntries(t.columns.map((c, k) => [c, t.rows[i][k]]));
    assert.equal(row.layer, i);
    assert.equal(KINDS[row.attention], want.attention, `layer ${i} attention`);
    assert.equal(row.window, want.window ?? 0, `layer ${i} window`);
    assert.equal(row.rope ? 'rope' : 'none', want.position, `layer ${i} position`);
    assert.equal(Boolean(row.sinks), Boolean(want.sinks), `layer ${i} sinks`);
    assert.equal(RULES[row.query_scale], want.query_scale?.rule ?? 'none', `layer ${i} query scale`);
  });
}

test('Llama 4 (Scout) pasted: every layer as the model op says, NoPE every 4th, chunks elsewhere; unread keys named', async () => {
  const model = modelOp(llama4);
  assert.equal(model.per_layer.length, 48);
  const { page, context, errors } = await openState(env, 'view=toy', { tab: 'toy' });
  await paste(page, llama4);
  assertLayers(await exportJson(page), model.per_layer);
  // The exact kinds, independently of the model op: layer i has no RoPE and full attention iff (i + 1) % 4 == 0.
  const t = table(await exportJson(page), 'layers (');
  assert.deepEqual(column(t, 'attention').map((a) => KINDS[a]), scoutNope.map((r) => (r ? 'chunked' : 'full')));
  assert.deepEqual(column(t, 'rope'), scoutNope);
  // One probe per cell, and the live region says it in words.
  for (let i = 0; i < 48; ++i) await itemRect(page, `strip.layer.${i}`);
  assert.equal(await page.evaluate(() => window.posenc.itemRect('strip.layer.48')), null);
  await itemRect(page, 'strip.legend');
  const live = await page.evaluate(() => window.posenc.description());
  assert.match(live, /48 layers\. Layers 0-2, 4-6, 8-10, .*44-46: chunked attention \(chunk 8192\), RoPE, causal\./);
  assert.match(live, /Layers 3, 7, \.\.\., 47 \(every 4th from 3\): full attention, NoPE, causal, query scale llama4_temperature \(floor_scale 8192, attn_scale 0\.1\)\./);
  // describe(): the strip's words are in the formula (the numbers stay the card's 3-6).
  const described = await page.evaluate(() => window.posenc.describe());
  assert.match(described.formula, /Layers 3, 7, \.\.\., 47 \(every 4th from 3\): full attention, NoPE/);
  assert.ok(described.numbers.length >= 3 && described.numbers.length <= 6, JSON.stringify(described.numbers));
  // A cell's tooltip (the hover readout) names its layer.
  const cellRect = await itemRect(page, 'strip.layer.3');
  await page.mouse.move(cellRect.x + cellRect.width / 2, cellRect.y + cellRect.height / 2);
  await waitFrames(page, 3);
  assert.match(await page.evaluate(() => window.posenc.readout()), /layer 3: full attention, NoPE, causal, query scale llama4_temperature/);
  await page.mouse.move(2, 2);
  // unread_keys: a notice per key, and the line in the view.
  assert.deepEqual(model.unread_keys, ['vision_config.rope_theta']);
  const notices = await page.evaluate(() => window.posenc.noticeList());
  assert.deepEqual(notices.map((n) => n.key), model.unread_keys);
  await itemRect(page, 'text.model.unread');
  // The context extension: the target defaults to twice max_position_embeddings; Scout's llama3 factor 16
  // from 8192 covers 131072, so at 2 x 10485760 some pairs extrapolate as configured, none under linear.
  const ext = table(await exportJson(page), 'context extension to 20971520 from 8192');
  const linear = ext.rows.find((r) => r[0] === 1);
  assert.equal(linear[ext.columns.indexOf('factor')], 20971520 / 8192);
  assert.equal(linear[ext.columns.indexOf('extrapolated')], 0);
  await screenshot(page, 'model-layers-llama4-pasted.png');
  assert.deepEqual(errors, []);
  await context.close();
});

test('Qwen2-VL pasted: 28 full RoPE layers (sliding window off), M-RoPE 16/24/24 split, text vs image positions', async () => {
  const model = modelOp(qwen2vl);
  assert.deepEqual(model.rope.mrope_section, [16, 24, 24]);
  const { page, context, errors } = await openState(env, 'view=toy', { tab: 'toy' });
  await paste(page, qwen2vl);
  const exported = await exportJson(page);
  assertLayers(exported, model.per_layer);
  assert.deepEqual(column(table(exported, 'layers ('), 'attention'), Array(28).fill(0));
  assert.deepEqual(column(table(exported, 'layers ('), 'rope'), Array(28).fill(1));
  assert.match(await page.evaluate(() => window.posenc.description()), /28 layers\. Every layer: full attention, RoPE, causal\./);
  // The split: pairs 0-15 t, 16-39 h, 40-63 w (Qwen2-VL apply_multimodal_rotary_pos_emb).
  const axes = column(table(exported, 'mrope: axis per pair'), 'axis');
  assert.deepEqual(axes, [...Array(16).fill(0), ...Array(24).fill(1), ...Array(24).fill(2)]);
  // The M-RoPE panel sits below the plots: shown alone (figure=mrope) to reach its probes.
  await page.evaluate(() => window.posenc.setState({ figure: 'mrope' }));
  await waitFrames(page, 2);
  await itemRect(page, 'mrope.bar');
  assert.match(await page.evaluate(() => window.posenc.description()), /contiguous: pairs 0-15 t, 16-39 h, 40-63 w/);
  // Text positions: t = h = w for every token (M-RoPE is 1-D RoPE).
  let pos = table(exported, 'mrope: example positions (text)');
  for (const r of pos.rows) assert.ok(r[1] === r[0] && r[2] === r[0] && r[3] === r[0], JSON.stringify(r));
  // Image positions: a 4 x 6 grid after 3 text tokens: t = 3, h = 3 + row, w = 3 + column; text after at 9.
  await page.evaluate(() => window.posenc.setState({ mrope_positions: 'image' }));
  await waitFrames(page, 2);
  pos = table(await exportJson(page), 'mrope: example positions (image)');
  assert.deepEqual(pos.rows[3].slice(1), [3, 3, 3]);
  assert.deepEqual(pos.rows[3 + 6 * 3 + 5].slice(1), [3, 6, 8]);
  assert.deepEqual(pos.rows[27].slice(1), [9, 9, 9]);
  const state = await page.evaluate(() => window.posenc.getState());
  assert.equal(state.mrope_positions, 'image');
  assert.equal(state.model, 'custom');
  await itemRect(page, 'plot.mrope');
  await screenshot(page, 'model-layers-qwen2-vl-pasted.png');
  assert.deepEqual(errors, []);
  await context.close();
});
