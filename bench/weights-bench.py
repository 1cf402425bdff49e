#!/usr/bin/env python3
"""Times `posenc weights` on a generated model the size of Llama-3.1-8B's attention: 32 layers, q 4096 x 4096,
k 1024 x 4096 (BF16: 1.34 GB of q/k, plus v/o so that the file is not only what is read), and on the same shapes
as a Q4_K GGUF. The models go to a scratch folder (default /tmp/posenc-weights-bench, kept between runs: the
second run times reading, not writing). Not a test: nothing is asserted but that posenc answers.

    bench/weights-bench.py --posenc build/native/src/cli/posenc         # the full-size figures
    bench/weights-bench.py --posenc ... --smoke                         # 2 small layers: the CTest weights_bench_smoke
"""
import argparse
import json
import os
import struct
import subprocess
import sys
import time

import numpy as np


def bf16_bytes(rng, rows, cols, scale):
    a = (rng.standard_normal((rows, cols), dtype=np.float32) * scale).view(np.uint32)
    return ((a + 0x7FFF + ((a >> 16) & 1)) >> 16).astype("<u2").tobytes()


def write_safetensors(path, layers, hidden, q_rows, k_rows, rng):
    header, offset, names = {}, 0, []
    for i in range(layers):
        for name, shape in (("input_layernorm.weight", (hidden,)), ("self_attn.q_proj.weight", (q_rows, hidden)),
                            ("self_attn.k_proj.weight", (k_rows, hidden)), ("self_attn.v_proj.weight", (k_rows, hidden)),
                            ("self_attn.o_proj.weight", (hidden, q_rows))):
            n = int(np.prod(shape)) * 2
            full = "model.layers.%d.%s" % (i, name)
            header[full] = {"dtype": "BF16", "shape": list(shape), "data_offsets": [offset, offset + n]}
            names.append((full, shape))
            offset += n
    text = json.dumps(header).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text)
        for full, shape in names:
            if len(shape) == 1:
                f.write(np.ones(shape, dtype=np.float32).view(np.uint32).__rshift__(16).astype("<u2").tobytes())
            else:
                f.write(bf16_bytes(rng, shape[0], shape[1], 0.02))


def q4k_bytes(rng, rows, cols):
    """Random Q4_K super-blocks (144 bytes per 256 values) with finite fp16 scales d, dmin."""
    blocks = rows * cols // 256
    b = rng.integers(0, 256, (blocks, 144), dtype=np.uint8)
    d = np.full(blocks, 0.001, dtype="<f2").view(np.uint8).reshape(blocks, 2)
    b[:, 0:2] = d
    b[:, 2:4] = d
    return b.tobytes()


def write_gguf(path, layers, hidden, heads, kv_heads, rng):
    def s(text):
        t = text.encode()
        return struct.pack("<Q", len(t)) + t
    meta = [("general.architecture", 8, "llama"), ("llama.context_length", 4, 131072), ("llama.embedding_length", 4, hidden),
            ("llama.block_count", 4, layers), ("llama.attention.head_count", 4, heads),
            ("llama.attention.head_count_kv", 4, kv_heads), ("llama.rope.dimension_count", 4, hidden // heads)]
    kv = b""
    for key, typ, value in meta:
        kv += s(key) + struct.pack("<I", typ) + (s(value) if typ == 8 else struct.pack("<I", value))
    hd = hidden // heads
    tensors = []
    for i in range(layers):
        tensors += [("blk.%d.attn_norm.weight" % i, 0, [hidden], lambda: np.ones(hidden, "<f4").tobytes()),
                    ("blk.%d.attn_q.weight" % i, 12, [hidden, heads * hd], lambda: q4k_bytes(rng, heads * hd, hidden)),
                    ("blk.%d.attn_k.weight" % i, 12, [hidden, kv_heads * hd], lambda: q4k_bytes(rng, kv_heads * hd, hidden))]
    infos, offset, sizes = b"", 0, []
    for name, typ, ne, _ in tensors:
        n = ne[0] * 4 if typ == 0 else ne[0] * ne[1] // 256 * 144
        infos += s(name) + struct.pack("<I", len(ne)) + b"".join(struct.pack("<Q", x) for x in ne) + struct.pack("<IQ", typ, offset)
        offset += n + (32 - n % 32) % 32
        sizes.append(n)
    head = b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(meta)) + kv + infos
    head += b"\0" * ((32 - len(head) % 32) % 32)
    with open(path, "wb") as f:
        f.write(head)
        for (_, _, _, make), n in zip(tensors, sizes):
            f.write(make())
            f.write(b"\0" * ((32 - n % 32) % 32))


def timed(posenc, path):
    start = time.monotonic()
    r = subprocess.run([posenc, "weights", path, "--json"], capture_output=True, text=True)
    elapsed = time.monotonic() - start
    if r.returncode != 0:
        sys.exit("posenc weights failed: " + r.stderr)
    out = json.loads(r.stdout)
    return elapsed, out["read"]["bytes"], len(out["layers"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--posenc", required=True)
    ap.add_argument("--dir", default="/tmp/posenc-weights-bench")
    ap.add_argument("--smoke", action="store_true")
    a = ap.parse_args()
    layers, hidden, heads, kv_heads = (2, 256, 4, 2) if a.smoke else (32, 4096, 32, 8)
    hd = hidden // heads
    d = os.path.join(a.dir, "smoke" if a.smoke else "llama-8b-shapes")
    os.makedirs(d, exist_ok=True)
    rng = np.random.default_rng(8)
    st = os.path.join(d, "model.safetensors")
    if not os.path.exists(st):
        with open(os.path.join(d, "config.json"), "w") as f:
            json.dump({"model_type": "llama", "hidden_size": hidden, "num_attention_heads": heads,
                       "num_key_value_heads": kv_heads, "num_hidden_layers": layers, "max_position_embeddings": 131072,
                       "rope_theta": 500000.0,
                       "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                        "original_max_position_embeddings": 8192}}, f)
        write_safetensors(st + ".tmp", layers, hidden, heads * hd, kv_heads * hd, rng)
        os.replace(st + ".tmp", st)
    gg = os.path.join(a.dir, ("smoke" if a.smoke else "llama-8b-shapes") + "-q4_k.gguf")
    if not os.path.exists(gg):
        write_gguf(gg + ".tmp", layers, hidden, heads, kv_heads, rng)
        os.replace(gg + ".tmp", gg)
    for label, path in (("BF16 safetensors", d), ("Q4_K GGUF", gg)):
        seconds, read, n = timed(a.posenc, path)
        print("posenc weights %s: %d layers, %.3f GB read in %.2f s" % (label, n, read / 1e9, seconds))


if __name__ == "__main__":
    main()
