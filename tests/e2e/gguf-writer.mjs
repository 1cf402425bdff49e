// Small GGUF v3 files for the tests (the layout of ggml's docs/gguf.md): metadata {key: [type, value]}
// (u32, f32, string, or array of u32), tensor infos [name, dims] (type f32, offset 0), then `dataBytes` zero
// bytes standing in for the tensor data.
const T = { u32: 4, f32: 6, string: 8, array: 9 };

export function gguf(metadata, tensors = [], dataBytes = 0) {
  const parts = [];
  const u32 = (v) => { const b = Buffer.alloc(4); b.writeUInt32LE(v); parts.push(b); };
  const u64 = (v) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); parts.push(b); };
  const f32 = (v) => { const b = Buffer.alloc(4); b.writeFloatLE(v); parts.push(b); };
  const str = (s) => { const b = Buffer.from(s, 'utf8'); u64(b.length); parts.push(b); };
  parts.push(Buffer.from('GGUF'));
  u32(3);
  u64(tensors.length);
  u64(Object.keys(metadata).length);
  for (const [key, [type, value]] of Object.entries(metadata)) {
    str(key);
    u32(T[type]);
    if (type === 'u32') u32(value);
    else if (type === 'f32') f32(value);
    else if (type === 'string') str(value);
    else {
      u32(T.u32);
      u64(value.length);
      const b = Buffer.alloc(4 * value.length);
      value.forEach((x, i) => b.writeUInt32LE(x, 4 * i));
      parts.push(b);
    }
  }
  for (const [name, dims] of tensors) {
    str(name);
    u32(dims.length);
    dims.forEach(u64);
    u32(0);  // f32
    u64(0);
  }
  parts.push(Buffer.alloc(dataBytes));
  return Buffer.concat(parts);
}

// A Qwen2-7B-like GGUF header with the 128K YaRN recipe's keys (llama.cpp's names; NEOX layout, half),
// shared by the tests that read GGUF files.
export const qwen2YarnMetadata = {
  'general.architecture': ['string', 'qwen2'],
  'qwen2.context_length': ['u32', 131072],
  'qwen2.embedding_length': ['u32', 3584],
  'qwen2.attention.head_count': ['u32', 28],
  'qwen2.rope.dimension_count': ['u32', 128],
  'qwen2.rope.freq_base': ['f32', 1000000],
  'qwen2.rope.scaling.type': ['string', 'yarn'],
  'qwen2.rope.scaling.factor': ['f32', 4],
  'qwen2.rope.scaling.original_context_length': ['u32', 32768],
};
