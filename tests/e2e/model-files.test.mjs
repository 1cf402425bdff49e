// End-to-end, loading a model from a file in the page: the "Load config.json / GGUF" button (a hidden file
// input), a file dropped on the page, config.json text pasted on the focused canvas. A GGUF is read through
// Blob.slice prefixes of its start only (1 MiB, then 4x more while the header goes on), never the whole
// file. The views' numbers (export, live region, probes) are `posenc inspect --json`'s for the same file.
// The GGUF files are written here (GGUF v3 layout, ggml's docs/gguf.md), with tensor infos and zero bytes
// standing in for the tensor data.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useBrowser, openState, waitFrames, itemRect, catchFileChooser, screenshot, repo, table, column, cell, assertClose, exportJson } from './harness.mjs';
import { gguf, qwen2YarnMetadata } from './gguf-writer.mjs';

const env = useBrowser();
const posenc = path.join(repo, 'build', 'native', 'posenc');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'posenc-model-files-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const MiB = 1 << 20;

function inspect(file) {
  return JSON.parse(execFileSync(posenc, ['inspect', file, '--json'], { encoding: 'utf8' }));
}

// A Qwen2-7B-like GGUF with the 128K YaRN recipe's keys (llama.cpp names): NEOX layout (half).
const qwenMeta = qwen2YarnMetadata;
const tensors = [['token_embd.weight', [3584, 152064]], ['blk.0.attn_q.weight', [3584, 3584]]];
// 16 MiB "tensor data": the page must stop at the header.
const qwenGguf = path.join(dir, 'qwen2-yarn.gguf');
fs.writeFileSync(qwenGguf, gguf(qwenMeta, tensors, 16 * MiB));
// The same with 1.6 MB of metadata (a tokenizer-sized array): the first 1 MiB read is not enough.
const bigGguf = path.join(dir, 'qwen2-yarn-big-header.gguf');
fs.writeFileSync(bigGguf, gguf({ ...qwenMeta, 'tokenizer.ggml.token_type': ['array', new Array(400000).fill(1)] }, tensors, 16 * MiB));
// Phi-3-mini-128k as convert_hf_to_gguf.py writes it: LongRoPE's factors are tensors.
const phiGguf = path.join(dir, 'phi3-longrope.gguf');
fs.writeFileSync(phiGguf, gguf({
  'general.architecture': ['string', 'phi3'],
  'phi3.context_length': ['u32', 131072],
  'phi3.rope.scaling.original_context_length': ['u32', 4096],
  'phi3.embedding_length': ['u32', 3072],
  'phi3.attention.head_count': ['u32', 32],
  'phi3.rope.dimension_count': ['u32', 96],
}, [['rope_factors_long.weight', [48]], ['rope_factors_short.weight', [48]]], 4096));
// A config.json (Llama-3.1-8B's positional keys).
const llamaConfig = {
  model_type: 'llama', hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 131072, rope_theta: 500000.0,
  rope_scaling: { factor: 8.0, low_freq_factor: 1.0, high_freq_factor: 4.0, original_max_position_embeddings: 8192, rope_type: 'llama3' },
};
const llamaJson = path.join(dir, 'config.json');
fs.writeFileSync(llamaJson, JSON.stringify(llamaConfig));


// Waits until the page's state is a loaded model (model=custom) in `view`.
async function waitLoaded(page, view) {
  await page.waitForFunction((v) => {
    const s = window.posenc.getState();
    return s.view === v && s.model === 'custom';
  }, view, { timeout: 20000 });
  await waitFrames(page, 2);
}

// The Model view's export and live region against `posenc inspect --json`.
async function assertModelView(page, model) {
  const exported = await exportJson(page);
  const summary = table(exported, 'rope: summary');
  for (const key of ['rotary_dim', 'base', 'attention_scaling', 'softmax_scale', 'max_position_embeddings',
    'original_max_position_embeddings']) assertClose([cell(summary, key)], [model.rope[key]], key);
  assertClose(column(table(exported, 'rope: pairs'), 'inv_freq'), model.rope.inv_freq, 'inv_freq');
  const described = await page.evaluate(() => window.posenc.describe());
  const number = (name) => described.numbers.find((n) => n.name === name)?.value;
  assert.equal(number('head_dim'), model.head_dim);
  assert.equal(number('rotary dims'), model.rope.rotary_dim);
  assertClose([number('attention scaling (cos/sin)')], [model.rope.attention_scaling], 'described attention scaling');
  const live = await page.evaluate(() => window.posenc.description());
  assert.match(live, new RegExp(`head_dim: ${model.head_dim}`));
}

test('the Load button opens a file picker; a config.json from it fills the Model view (posenc inspect --json numbers)', async () => {
  const model = inspect(llamaJson);
  const { page, context, errors } = await openState(env, 'view=model&model=gpt2', { tab: 'load' });
  const button = await itemRect(page, 'button.load_model');
  const picker = await catchFileChooser(page);
  await page.mouse.click(button.x + button.width / 2, button.y + button.height / 2);
  const chooser = await picker.opened;
  assert.equal(chooser.multiple, false);
  await chooser.setFiles(llamaJson);
  await waitLoaded(page, 'model');
  assert.deepEqual(await page.evaluate(() => window.posenc.noticeList()), []);
  await assertModelView(page, model);
  await screenshot(page, 'model-file-picker-config.png');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a GGUF from the file input is read only up to its header, in growing prefixes (never the whole file)', async () => {
  for (const [file, expectedReads] of [[qwenGguf, [4, MiB]], [bigGguf, [4, MiB, 4 * MiB]]]) {
    const model = inspect(file);
    assert.equal(model.rope.rope_type, 'yarn');
    const size = fs.statSync(file).size;
    const { page, context, errors } = await openState(env, 'view=model', { tab: 'load' });
    await page.setInputFiles('#model-file', file);
    await waitLoaded(page, 'model');
    assert.deepEqual(await page.evaluate(() => window.posenc.noticeList()), []);
    await assertModelView(page, model);
    const reads = await page.evaluate(() => window.posenc.fileReads.map((r) => r[1]));
    assert.deepEqual(reads, expectedReads, `${path.basename(file)}: slices read`);
    assert.ok(Math.max(...reads) < size, `never the whole ${size}-byte file`);
    await screenshot(page, `model-file-${path.basename(file)}.png`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('a GGUF dropped on the page fills the RoPE view it was dropped on', async () => {
  const model = inspect(qwenGguf);
  const { page, context, errors } = await openState(env, 'view=rope&model=llama-3.1-8b', { tab: 'load' });
  const bytes = fs.readFileSync(qwenGguf).subarray(0, 2 * MiB).toString('base64');  // header + some "data"
  await page.evaluate((b64) => {
    const raw = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([raw], 'qwen2-yarn.gguf'));
    const canvas = document.getElementById('canvas');
    canvas.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    canvas.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, bytes);
  await waitLoaded(page, 'rope');
  const state = await page.evaluate(() => window.posenc.getState());
  assert.equal(state.scaling, 'yarn');
  assert.equal(state.factor, '4');
  assert.equal(state.orig, '32768');
  assert.equal(state.target, '131072');
  assert.equal(Number(state.base), 1e6);
  const exported = await exportJson(page);
  assertClose(column(table(exported, 'pairs'), 'inv_freq_scaled'), model.rope.inv_freq, 'inv_freq');
  assertClose([cell(table(exported, 'summary'), 'attention_scaling')], [model.rope.attention_scaling], 'attention_scaling');
  assert.ok(await page.evaluate(() => window.posenc.itemRect('text.rope.model')), 'the model line is drawn');
  await screenshot(page, 'model-file-drop-rope.png');
  assert.deepEqual(errors, []);
  await context.close();
});

test('config.json text pasted on the focused canvas fills the scores view', async () => {
  const model = inspect(llamaJson);
  const { page, context, errors } = await openState(env, 'view=scores&n=24', { tab: 'load' });
  await page.focus('#canvas');
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', text);
    document.getElementById('canvas').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, JSON.stringify(llamaConfig, null, 2));
  await waitLoaded(page, 'scores');
  const state = await page.evaluate(() => window.posenc.getState());
  assert.equal(state.scheme, 'rope');
  assert.equal(state.d, String(model.head_dim));
  assert.equal(state.scaling, 'llama3');
  const freqs = table(await exportJson(page), 'rope: frequencies');
  assertClose(column(freqs, 'inv_freq'), model.rope.inv_freq, 'inv_freq');
  assert.deepEqual(await page.evaluate(() => window.posenc.noticeList()), []);
  // Text that is not a JSON object is left alone (ImGui's own fields take their pastes).
  await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.setData('text/plain', 'hello');
    document.getElementById('canvas').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  });
  assert.equal((await page.evaluate(() => window.posenc.getState())).model, 'custom');
  await screenshot(page, 'model-file-paste-scores.png');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a LongRoPE GGUF (factors in tensors) is refused with a notice naming the tensor', async () => {
  assert.throws(() => inspect(phiGguf), /rope_factors_long/);
  const { page, context, errors } = await openState(env, 'view=model', { tab: 'load' });
  await page.setInputFiles('#model-file', phiGguf);
  await page.waitForFunction(() => window.posenc.noticeList().length > 0, null, { timeout: 20000 });
  const notices = await page.evaluate(() => window.posenc.noticeList());
  assert.deepEqual(notices.map((n) => n.key), ['rope_factors_long.weight']);
  assert.match(notices[0].message, /LongRoPE/);
  // A notice (the Model view keeps the model it showed), and the live region reads it.
  assert.match(await page.evaluate(() => window.posenc.description()), /rope_factors_long\.weight/);
  await screenshot(page, 'model-file-longrope-refused.png');
  assert.deepEqual(errors, []);
  await context.close();
});

// The page's limits are the app's (src/app/file_limits.h, read through posenc_file_limits): a config.json of
// exactly the app's config_json limit is copied in and read; one byte more is refused before the copy, with the
// notice naming its size. A copy of the limit in the page that drifted either way fails one of the two.
test('a config.json at the app\'s limit is read and one byte more is refused before the copy', async () => {
  const { page, context, errors } = await openState(env, 'view=model&model=llama-3.1-8b', { tab: 'load' });
  const limits = await page.evaluate(() => JSON.parse(window.Module.ccall('posenc_file_limits', 'string', [], [])));
  assert.equal(limits.config_json, 8 * MiB);
  const config = '{"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "num_hidden_layers": 2, ' +
    '"max_position_embeddings": 8192, "rope_theta": 500000.0}';
  const load = (size) => page.evaluate(([c, n]) => window.posenc.loadModel(c + ' '.repeat(n - c.length)), [config, size]);
  const over = await load(limits.config_json + 1);
  assert.deepEqual(over.map((n) => n.key), ['model']);
  assert.match(over[0].message, new RegExp(`the file is ${limits.config_json + 1} bytes; the limit is .*8 MiB for config\\.json`));
  assert.equal((await page.evaluate(() => window.posenc.getState())).model, 'llama-3.1-8b', 'the preset stays');
  const at = await load(limits.config_json);
  assert.deepEqual(at.filter((n) => /bytes; the limit/.test(n.message)), [], 'no size notice at the limit');
  await waitLoaded(page, 'model');
  assert.deepEqual(errors, []);
  await context.close();
});

// Nothing over the limits is copied into the app's memory: a 50 MB config.json (text or bytes) is a notice
// naming its size, and a GGUF in memory is read through prefixes up to its header, as a file is.
test('loadModel refuses an oversized config before copying it into wasm memory', async () => {
  const { page, context, errors } = await openState(env, 'view=model&model=llama-3.1-8b');
  const heap = () => page.evaluate(() => window.Module.HEAPU8.length);
  const before = await heap();
  const state = await page.evaluate(() => window.posenc.getState());
  for (const kind of ['text', 'bytes']) {
    const notices = await page.evaluate((k) => {
      const text = '{"model_type": "llama", "pad": "' + 'x'.repeat(50 * 1000 * 1000) + '"}';
      return window.posenc.loadModel(k === 'text' ? text : new TextEncoder().encode(text).buffer);
    }, kind);
    assert.deepEqual(notices.map((n) => n.key), ['model'], kind);
    assert.match(notices[0].message, /the file is 50000034 bytes; the limit is .*8 MiB for config\.json/, kind);
    assert.deepEqual(await page.evaluate(() => window.posenc.getState()), state, `${kind}: the model stays`);
  }
  const model = inspect(qwenGguf);
  // 16 MiB of "tensor data" after the header, fetched by the page (not copied through the test's protocol).
  await page.route('**/posenc-test-model.gguf', (route) => route.fulfill({ body: fs.readFileSync(qwenGguf) }));
  const loaded = await page.evaluate(async () =>
    window.posenc.loadModel(await (await fetch('/posenc-test-model.gguf')).arrayBuffer()));
  assert.deepEqual(loaded, []);
  await waitLoaded(page, 'model');
  await assertModelView(page, model);
  const after = await heap();
  assert.ok(after - before <= 4 * MiB, `wasm memory ${before} -> ${after} (the 8 MiB limit, not 50 MB)`);
  assert.deepEqual(errors, []);
  await context.close();
});
