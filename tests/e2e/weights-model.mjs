// A small generated model for the page's weights reader (the usage view's e2e and the blog's usage= embed): a
// 2-layer llama (hidden 32, 4 heads of 8, 2 KV heads), F32 safetensors with seeded values, and its config.json.
import fs from 'node:fs';
import path from 'node:path';

export function writeModel(folder) {
  const hidden = 32, heads = 4, kv = 2, hd = 8, layers = 2;
  let s = 7;
  const u = () => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648 - 0.5; };
  const header = {}, datas = [];
  let off = 0;
  for (let l = 0; l < layers; ++l) {
    for (const [name, shape] of [[`model.layers.${l}.self_attn.q_proj.weight`, [heads * hd, hidden]],
      [`model.layers.${l}.self_attn.k_proj.weight`, [kv * hd, hidden]], [`model.layers.${l}.input_layernorm.weight`, [hidden]]]) {
      const n = shape.reduce((a, b) => a * b, 1), f = new Float32Array(n);
      for (let i = 0; i < n; ++i) f[i] = name.includes('layernorm') ? 1 + 0.2 * u() : u();
      header[name] = { dtype: 'F32', shape, data_offsets: [off, off + 4 * n] };
      off += 4 * n;
      datas.push(Buffer.from(f.buffer));
    }
  }
  let h = JSON.stringify(header);
  while (h.length % 8) h += ' ';
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(h.length));
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, 'model.safetensors'), Buffer.concat([len, Buffer.from(h), ...datas]));
  fs.writeFileSync(path.join(folder, 'config.json'), JSON.stringify({ model_type: 'llama', hidden_size: hidden,
    num_attention_heads: heads, num_key_value_heads: kv, num_hidden_layers: layers, max_position_embeddings: 64,
    rope_theta: 10000, rms_norm_eps: 1e-5, intermediate_size: 64, vocab_size: 100 }));
}
