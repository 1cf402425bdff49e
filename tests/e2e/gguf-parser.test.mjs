// posenc's GGUF header reader against another implementation: @huggingface/gguf (npm) parses the same small
// files the tests write (tests/e2e/gguf-writer.mjs), and what it reads for the keys posenc uses equals what
// `posenc inspect --json` reports; the tensor infos it lists are the ones posenc refuses by name. No browser.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gguf as parseGguf } from '@huggingface/gguf';
import { gguf, qwen2YarnMetadata } from './gguf-writer.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const posenc = path.join(repo, 'build', 'native', 'posenc');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'posenc-gguf-parser-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name, bytes) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}
const inspect = (file) => JSON.parse(execFileSync(posenc, ['inspect', file, '--json'], { encoding: 'utf8' }));
const hf = (file) => parseGguf(file, { allowLocalFile: true });

test('a yarn GGUF: @huggingface/gguf and posenc read the same keys', async () => {
  const file = write('qwen2-yarn.gguf', gguf({
    ...qwen2YarnMetadata,
    'tokenizer.ggml.token_type': ['array', new Array(5000).fill(1)],
  }, [['token_embd.weight', [3584, 152064]], ['output_norm.weight', [3584]]], 1 << 16));
  const { metadata, tensorInfos } = await hf(file);
  const model = inspect(file);
  assert.equal(metadata.version, 3);
  assert.equal(metadata['general.architecture'], model.model_type);
  assert.equal(metadata['qwen2.attention.head_count'], model.num_attention_heads);
  assert.equal(metadata['qwen2.embedding_length'] / metadata['qwen2.attention.head_count'], model.head_dim);
  assert.equal(metadata['qwen2.rope.dimension_count'], model.rope.rotary_dim);
  assert.equal(metadata['qwen2.rope.freq_base'], model.rope.base);
  assert.equal(metadata['qwen2.rope.scaling.type'], model.rope.rope_type);
  assert.equal(metadata['qwen2.context_length'], model.rope.max_position_embeddings);
  assert.equal(metadata['qwen2.rope.scaling.original_context_length'], model.rope.original_max_position_embeddings);
  assert.equal(metadata['tokenizer.ggml.token_type'].length, 5000);  // posenc checks and drops arrays > 4096
  assert.deepEqual(tensorInfos.map((t) => t.name), ['token_embd.weight', 'output_norm.weight']);
});

test('tensors holding RoPE parameters: @huggingface/gguf lists them; posenc refuses naming them', async () => {
  for (const [name, tensor, arch] of [['phi3-longrope.gguf', 'rope_factors_long.weight', 'phi3'],
    ['llama31-rope-freqs.gguf', 'rope_freqs.weight', 'llama']]) {
    const file = write(name, gguf({
      'general.architecture': ['string', arch],
      [`${arch}.context_length`]: ['u32', 131072],
      [`${arch}.embedding_length`]: ['u32', 3072],
      [`${arch}.attention.head_count`]: ['u32', 32],
    }, [[tensor, [48]], ['token_embd.weight', [3072, 32064]]], 256));
    const { tensorInfos } = await hf(file);
    assert.ok(tensorInfos.some((t) => t.name === tensor), `${name}: ${tensor} listed`);
    const r = spawnSync(posenc, ['inspect', file, '--json'], { encoding: 'utf8' });
    assert.equal(r.status, 2, r.stderr);
    assert.equal(JSON.parse(r.stderr).field, tensor);
  }
});

test('a gptj GGUF: the same metadata; posenc follows llama.cpp (LLAMA_ROPE_TYPE_NONE)', async () => {
  const file = write('gptj.gguf', gguf({
    'general.architecture': ['string', 'gptj'],
    'gptj.context_length': ['u32', 2048],
    'gptj.embedding_length': ['u32', 4096],
    'gptj.attention.head_count': ['u32', 16],
    'gptj.rope.dimension_count': ['u32', 64],
  }));
  const { metadata } = await hf(file);
  const model = inspect(file);
  assert.equal(metadata['gptj.attention.head_count'], model.num_attention_heads);
  assert.equal(model.position, 'none');
  assert.equal(model.head_dim, 256);
});
