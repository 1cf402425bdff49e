#!/usr/bin/env python3
"""Small models with planted structure for `posenc weights`, and what it must answer, computed here with numpy in
double precision, independently of posenc's C++ (tests/integration/weights_test.cpp runs this, then the binary).

    python3 tests/data/weights_reference.py OUT_DIR     # writes OUT_DIR/<case>/... and OUT_DIR/manifest.json

Every case is a model folder or file, the posenc arguments, and either the expected JSON numbers or the expected
error field. The definitions followed (docs/weights.md):
  q_norm[j] = || diag(q-norm gain on the pair's rows) . W_q[pair rows] . diag(input-norm gain) ||_F   (per q head)
  k_norm[j] likewise on head h's KV head (GQA: h // (heads / kv_heads); MLA: 0), qk = q_norm k_norm,
  qk_share = qk / sum(qk), turns = trained_length inv_freq / 2 pi, semantic_share = sum of qk_share over turns < 1,
  top_pairs = the 8 largest qk_share, largest first.
Sources of the layouts written here:
  safetensors: huggingface/safetensors docs ("8 bytes: little-endian header size N, N bytes of JSON, the data").
  GGUF: ggml docs/gguf.md and ggml/src/gguf.cpp (ggml-org/llama.cpp @01243c587feceaa5d6a6c2305535ef2f549c48b8);
  block layouts ggml/src/ggml-common.h, their arithmetic ggml/src/ggml-quants.c dequantize_row_* (same commit),
  re-derived below in numpy float32, which rounds every operation as C does without contraction.
  llama.cpp's converter permutes llama-family q/k rows: convert_hf_to_gguf.py LlamaModel.permute
  (ggml-org/llama.cpp @00342301d01add50835550e8a916f12097d94517).
"""
import json
import math
import os
import struct
import sys

import numpy as np

RNG = np.random.default_rng(20261206)

# ------------------------------------------------------------------------------------------------ bfloat16 / files


def to_bf16(a):
    """float32 values rounded to bfloat16 (round to nearest even), as uint16 bits."""
    bits = np.asarray(a, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def bf16_values(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def encode(a, dtype):
    """(bytes, the float32 values those bytes hold) of a float array in F32 / F16 / BF16."""
    a = np.asarray(a, dtype=np.float32)
    if dtype == "F32":
        return a.astype("<f4").tobytes(), a.astype(np.float32)
    if dtype == "F16":
        h = a.astype("<f2")
        return h.tobytes(), h.astype(np.float32)
    if dtype == "BF16":
        b = to_bf16(a)
        return b.astype("<u2").tobytes(), bf16_values(b)
    if dtype == "F64":
        return a.astype("<f8").tobytes(), a
    raise ValueError(dtype)


def write_safetensors(path, tensors, header_len_override=None, truncate_to=None):
    """tensors: [(name, dtype, shape, data bytes)]. Returns {name: (absolute offset, bytes)} and the header size."""
    header, offset, blobs = {}, 0, []
    for name, dtype, shape, data in tensors:
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
        blobs.append(data)
    text = json.dumps(header).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    n = len(text) if header_len_override is None else header_len_override
    out = struct.pack("<Q", n) + text + b"".join(blobs)
    if truncate_to is not None:
        out = out[:truncate_to]
    with open(path, "wb") as f:
        f.write(out)
    return 8 + len(text)


# ------------------------------------------------------------------------------------------------ ggml blocks

QK_K = 256
GGML = {"F32": 0, "F16": 1, "Q4_0": 2, "Q4_1": 3, "Q5_0": 6, "Q5_1": 7, "Q8_0": 8, "Q4_K": 12, "Q5_K": 13, "Q6_K": 14,
        "BF16": 30}
BLOCK = {"Q8_0": (32, 34), "Q4_0": (32, 18), "Q4_1": (32, 20), "Q5_0": (32, 22), "Q5_1": (32, 24), "Q4_K": (256, 144),
         "Q5_K": (256, 176), "Q6_K": (256, 210)}


def f16_bytes(v):
    return np.asarray(v, dtype="<f2").tobytes()


def random_blocks(qtype, n_blocks, scale):
    """n_blocks random blocks of `qtype` whose scales are `scale` times a random factor (the planted size)."""
    out = bytearray()
    for _ in range(n_blocks):
        d = np.float16(scale * RNG.uniform(0.5, 1.0))
        m = np.float16(scale * RNG.uniform(-1.0, 1.0))
        rand = lambda n: RNG.integers(0, 256, n, dtype=np.uint8).tobytes()
        if qtype == "Q8_0":
            out += f16_bytes(d) + rand(32)
        elif qtype == "Q4_0":
            out += f16_bytes(d) + rand(16)
        elif qtype == "Q4_1":
            out += f16_bytes(d) + f16_bytes(m) + rand(16)
        elif qtype == "Q5_0":
            out += f16_bytes(d) + rand(4) + rand(16)
        elif qtype == "Q5_1":
            out += f16_bytes(d) + f16_bytes(m) + rand(4) + rand(16)
        elif qtype in ("Q4_K", "Q5_K"):
            dmin = np.float16(abs(float(m)) / 8)
            out += f16_bytes(np.float16(float(d) / 32)) + f16_bytes(dmin) + rand(12) + (rand(32) if qtype == "Q5_K" else b"") + rand(128)
        elif qtype == "Q6_K":
            out += rand(128) + rand(64) + rand(16) + f16_bytes(np.float16(float(d) / 64))
        else:
            raise ValueError(qtype)
    return bytes(out)


def half(b, at):
    return np.frombuffer(b[at:at + 2], dtype="<f2").astype(np.float32)[0]


def scale_min_k4(j, q):
    if j < 4:
        return q[j] & 63, q[j + 4] & 63
    return (q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4), (q[j + 4] >> 4) | ((q[j] >> 6) << 4)


def decode_block(qtype, b):
    """One block as float32 values, every operation in float32 (ggml-quants.c dequantize_row_*)."""
    f = np.float32
    y = np.zeros(BLOCK[qtype][0], dtype=np.float32)
    if qtype == "Q8_0":
        d = half(b, 0)
        return np.frombuffer(b[2:34], dtype=np.int8).astype(np.float32) * d
    if qtype in ("Q4_0", "Q4_1"):
        d = half(b, 0)
        qs = np.frombuffer(b[2:18] if qtype == "Q4_0" else b[4:20], dtype=np.uint8).astype(np.int32)
        if qtype == "Q4_0":
            y[:16] = ((qs & 0xF) - 8).astype(np.float32) * d
            y[16:] = ((qs >> 4) - 8).astype(np.float32) * d
        else:
            m = half(b, 2)
            y[:16] = (qs & 0xF).astype(np.float32) * d + m
            y[16:] = (qs >> 4).astype(np.float32) * d + m
        return y
    if qtype in ("Q5_0", "Q5_1"):
        d = half(b, 0)
        at = 2 if qtype == "Q5_0" else 4
        qh = struct.unpack("<I", b[at:at + 4])[0]
        qs = np.frombuffer(b[at + 4:at + 20], dtype=np.uint8).astype(np.int32)
        for j in range(16):
            xh0 = ((qh >> j) << 4) & 0x10
            xh1 = (qh >> (j + 12)) & 0x10
            x0 = (int(qs[j]) & 0xF) | xh0
            x1 = (int(qs[j]) >> 4) | xh1
            if qtype == "Q5_0":
                y[j] = f(x0 - 16) * d
                y[j + 16] = f(x1 - 16) * d
            else:
                m = half(b, 2)
                y[j] = f(x0) * d + m
                y[j + 16] = f(x1) * d + m
        return y
    if qtype in ("Q4_K", "Q5_K"):
        d, dmin = half(b, 0), half(b, 2)
        scales = list(b[4:16])
        qh = list(b[16:48]) if qtype == "Q5_K" else None
        ql = list(b[48:176] if qtype == "Q5_K" else b[16:144])
        out = []
        for g in range(4):
            sc1, m1 = scale_min_k4(2 * g, scales)
            sc2, m2 = scale_min_k4(2 * g + 1, scales)
            d1, mm1 = d * f(sc1), dmin * f(m1)
            d2, mm2 = d * f(sc2), dmin * f(m2)
            u1, u2 = 1 << (2 * g), 2 << (2 * g)
            for l in range(32):
                q = ql[32 * g + l] & 0xF
                if qh is not None and qh[l] & u1:
                    q += 16
                out.append(d1 * f(q) - mm1)
            for l in range(32):
                q = ql[32 * g + l] >> 4
                if qh is not None and qh[l] & u2:
                    q += 16
                out.append(d2 * f(q) - mm2)
        return np.array(out, dtype=np.float32)
    if qtype == "Q6_K":
        ql, qh = list(b[0:128]), list(b[128:192])
        sc = np.frombuffer(b[192:208], dtype=np.int8)
        d = half(b, 208)
        for n in range(2):
            for l in range(32):
                i = l // 16
                L, H, S = ql[64 * n:], qh[32 * n:], sc[8 * n:]
                q1 = ((L[l] & 0xF) | (((H[l] >> 0) & 3) << 4)) - 32
                q2 = ((L[l + 32] & 0xF) | (((H[l] >> 2) & 3) << 4)) - 32
                q3 = ((L[l] >> 4) | (((H[l] >> 4) & 3) << 4)) - 32
                q4 = ((L[l + 32] >> 4) | (((H[l] >> 6) & 3) << 4)) - 32
                y[128 * n + l] = d * f(S[i]) * f(q1)
                y[128 * n + l + 32] = d * f(S[i + 2]) * f(q2)
                y[128 * n + l + 64] = d * f(S[i + 4]) * f(q3)
                y[128 * n + l + 96] = d * f(S[i + 6]) * f(q4)
        return y
    raise ValueError(qtype)


def quantized_matrix(qtype, rows, cols, row_scale):
    """(bytes, float32 values [rows, cols]) of a random matrix in `qtype`, row r's scales x row_scale[r]."""
    vals, bpr = BLOCK[qtype]
    data, out = bytearray(), np.zeros((rows, cols), dtype=np.float32)
    for r in range(rows):
        row = random_blocks(qtype, cols // vals, row_scale[r])
        data += row
        size = BLOCK[qtype][1]
        out[r] = np.concatenate([decode_block(qtype, row[i * size:(i + 1) * size]) for i in range(cols // vals)])
    return bytes(data), out


def write_gguf(path, metadata, tensors, alignment=32):
    """metadata: [(key, type, value)] with type 'u32' / 'f32' / 'str'; tensors: [(name, ggml type, ne list, bytes)].
    Returns the header size (bytes up to the end of the tensor infos)."""
    def s(text):
        t = text.encode()
        return struct.pack("<Q", len(t)) + t
    kv = b""
    for key, typ, value in metadata:
        kv += s(key)
        if typ == "u32":
            kv += struct.pack("<II", 4, value)
        elif typ == "f32":
            kv += struct.pack("<If", 6, value)
        elif typ == "str":
            kv += struct.pack("<I", 8) + s(value)
    infos, blobs, offset = b"", b"", 0
    for name, typ, ne, data in tensors:
        infos += s(name) + struct.pack("<I", len(ne)) + b"".join(struct.pack("<Q", d) for d in ne)
        infos += struct.pack("<IQ", GGML[typ], offset)
        pad = (alignment - len(data) % alignment) % alignment
        blobs += data + b"\0" * pad
        offset += len(data) + pad
    head = b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(metadata)) + kv + infos
    header_size = len(head)
    head += b"\0" * ((alignment - len(head) % alignment) % alignment)
    with open(path, "wb") as f:
        f.write(head + blobs)
    return header_size


# ------------------------------------------------------------------------------------------------ the numbers


def default_inv_freq(dim, base):
    return 1.0 / base ** (np.arange(0, dim, 2, dtype=np.float64) / dim)


def llama3_inv_freq(dim, base, factor, low, high, original):
    """transformers modeling_rope_utils._compute_llama3_parameters, in double."""
    inv = default_inv_freq(dim, base)
    low_wl, high_wl = original / low, original / high
    out = []
    for f in inv:
        wl = 2 * math.pi / f
        if wl < high_wl:
            out.append(f)
        elif wl > low_wl:
            out.append(f / factor)
        else:
            smooth = (original / wl - low) / (high - low)
            out.append((1 - smooth) * f / factor + smooth * f)
    return np.array(out)


def pairs_json(inv, trained):
    return {"inv_freq": list(inv), "wavelength": [2 * math.pi / f if f > 0 else None for f in inv],
            "turns": list(trained * inv / (2 * math.pi))}


def pair_rows(layout, rd, offset):
    n = rd // 2
    if layout == "half":
        return [(offset + j, offset + j + n) for j in range(n)]
    return [(offset + 2 * j, offset + 2 * j + 1) for j in range(n)]


def head_numbers(wq, wk, g_in_q, g_in_k, qgain, kgain, rows, turns):
    """wq, wk: one head's rows [head_dim, cols] in double; the gains over columns and over the head's rows."""
    q = wq * g_in_q[None, :] * qgain[:, None]
    k = wk * g_in_k[None, :] * kgain[:, None]
    qn = [math.sqrt(float(np.sum(q[[a, b]] ** 2))) for a, b in rows]
    kn = [math.sqrt(float(np.sum(k[[a, b]] ** 2))) for a, b in rows]
    qk = [x * y for x, y in zip(qn, kn)]
    total = sum(qk)
    share = [x / total for x in qk]
    semantic = sum(s for s, t in zip(share, turns) if t < 1)
    top = sorted(range(len(share)), key=lambda j: (-share[j], j))[:8]
    return {"q_norm": qn, "k_norm": kn, "qk": qk, "qk_share": share, "semantic_share": semantic, "top_pairs": top}


def planted_rows(heads, hd, strong, weak=1.0, big=6.0):
    """A scale per row: rows in `strong` (indices within a head) `big`, the rest `weak`."""
    s = np.full(heads * hd, weak)
    for h in range(heads):
        for r in strong:
            s[h * hd + r] = big * (1 + 0.25 * h)
    return s


def random_matrix(rows, cols, row_scale):
    return (RNG.standard_normal((rows, cols)) * 0.05 * row_scale[:, None]).astype(np.float32)


# ------------------------------------------------------------------------------------------------ the cases

CASES = []


def case(name, args, expected=None, error_field=None, error_text=None):
    CASES.append({"name": name, "args": args, "expected": expected, "error_field": error_field, "error_text": error_text})


HF_NAMES = {"norm": "input_layernorm.weight", "q": "self_attn.q_proj.weight", "k": "self_attn.k_proj.weight",
            "v": "self_attn.v_proj.weight", "q_norm": "self_attn.q_norm.weight", "k_norm": "self_attn.k_norm.weight",
            "o": "self_attn.o_proj.weight"}
GPTJ_NAMES = {"norm": "ln_1.weight", "q": "attn.q_proj.weight", "k": "attn.k_proj.weight", "v": "attn.v_proj.weight",
              "o": "attn.out_proj.weight"}


def hf_model(out, name, config, layers, dtype="BF16", shards=1, extra=None, prefix="model.layers.{}.", names=HF_NAMES):
    """A transformers-layout model folder. layers: [dict(q=..., k=..., norm=..., q_norm=..., k_norm=...)] of float32
    arrays (HF row order), or None for a layer without RoPE (whose tensors are still written). Returns the
    expected result (numbers from the values the chosen dtype holds)."""
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "config.json"), "w") as f:
        json.dump(config, f)
    tensors, stored = [], {}
    for i, l in enumerate(layers):
        for key, tname in names.items():
            if key in l and l[key] is not None:
                data, vals = encode(l[key], dtype)
                full = prefix.format(i) + tname
                tensors.append((full, dtype, l[key].shape, data))
                stored[full] = vals.astype(np.float64)
    if extra:
        for full, arr in extra:
            data, vals = encode(arr, dtype)
            tensors.append((full, dtype, arr.shape, data))
            stored[full] = vals.astype(np.float64)
    # Shards: tensors split in order; an index when there is more than one.
    per = math.ceil(len(tensors) / shards)
    header_bytes, offsets = 0, {}
    weight_map = {}
    for s in range(shards):
        part = tensors[s * per:(s + 1) * per]
        fname = "model.safetensors" if shards == 1 else "model-%05d-of-%05d.safetensors" % (s + 1, shards)
        hb = write_safetensors(os.path.join(d, fname), part)
        header_bytes += hb
        for t in part:
            weight_map[t[0]] = fname
    if shards > 1:
        with open(os.path.join(d, "model.safetensors.index.json"), "w") as f:
            json.dump({"metadata": {"total_size": 0}, "weight_map": weight_map}, f)
    return d, stored, header_bytes


def fused_model(out, name, config, dtype, norm_name, norm, fused_name, fused):
    """A model folder: config.json and one safetensors file of a layer norm and a fused projection (qkv as the
    family stores it). Returns the folder, the header's bytes and the stored values of the fused projection and the
    norm."""
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "config.json"), "w") as f:
        json.dump(config, f)
    fused_bytes, fused_vals = encode(fused, dtype)
    norm_bytes, norm_vals = encode(norm, dtype)
    hb = write_safetensors(os.path.join(d, "model.safetensors"),
                           [(norm_name, dtype, norm.shape, norm_bytes), (fused_name, dtype, fused.shape, fused_bytes)])
    return d, hb, fused_vals, norm_vals


def expected_hf(config, stored, layers_rope, dtype_bytes, header_bytes, layout, rd, offset, inv, trained, one_plus=False,
                qk_one_plus=False, kinds=None, prefix="model.layers.{}.", KV=None, own_pairs=None, names=HF_NAMES, kv_of=None):
    H, hidden = config["num_attention_heads"], config["hidden_size"]
    hd = config.get("head_dim") or hidden // H
    KV = KV or config.get("num_key_value_heads", H)
    turns = trained * inv / (2 * math.pi)
    rows = pair_rows(layout, rd, offset)
    layers, tensors, read = [], 0, header_bytes
    for i, rope in enumerate(layers_rope):
        kind = kinds[i] if kinds else "full"
        if not rope:
            layers.append({"layer": i, "position": "none", "kind": kind})
            continue
        p = prefix.format(i)
        g = stored[p + names["norm"]]
        g = 1 + g if one_plus else g
        wq, wk = stored[p + names["q"]], stored[p + names["k"]]
        qn = stored.get(p + names.get("q_norm", "-"))
        kn = stored.get(p + names.get("k_norm", "-"))
        if qn is not None and qk_one_plus:
            qn, kn = 1 + qn, 1 + kn
        KVl = (kv_of or {}).get(i, KV)
        tensors += 3 + (qn is not None) + (kn is not None)
        read += hidden * dtype_bytes + (H + KVl) * rd * hidden * dtype_bytes
        read += (len(qn) * dtype_bytes if qn is not None else 0) + (len(kn) * dtype_bytes if kn is not None else 0)
        layer_inv = own_pairs[i] if own_pairs and i in own_pairs else inv
        layer_turns = trained * layer_inv / (2 * math.pi)
        heads = []
        for h in range(H):
            kvh = h // (H // KVl)
            qg = np.ones(hd) if qn is None else (qn if len(qn) == hd else qn[h * hd:(h + 1) * hd])
            kg = np.ones(hd) if kn is None else (kn if len(kn) == hd else kn[kvh * hd:(kvh + 1) * hd])
            num = head_numbers(wq[h * hd:(h + 1) * hd], wk[kvh * hd:(kvh + 1) * hd], g, g, qg, kg, rows, layer_turns)
            heads.append(dict(head=h, kv_head=kvh, **num))
        entry = {"layer": i, "position": "rope", "kind": kind, "heads": heads}
        if own_pairs and i in own_pairs:
            entry["pairs"] = pairs_json(layer_inv, trained)
        layers.append(entry)
    return {"rotary_dim": rd, "layout": layout, "pairs": pairs_json(inv, trained), "layers": layers,
            "read": {"tensors": tensors, "bytes": read}}


def llama_layers(n, H, KV, hd, hidden, strong, rng_norm=True):
    out = []
    for _ in range(n):
        out.append({
            "norm": (1 + 0.3 * RNG.standard_normal(hidden)).astype(np.float32),
            "q": random_matrix(H * hd, hidden, planted_rows(H, hd, strong)),
            "k": random_matrix(KV * hd, hidden, planted_rows(KV, hd, strong)),
            "v": random_matrix(KV * hd, hidden, np.ones(KV * hd)),
            "o": random_matrix(hidden, H * hd, np.ones(hidden)),
        })
    return out


def main(out):
    os.makedirs(out, exist_ok=True)

    # 1. Llama 3.1 style: BF16, GQA (4 heads, 2 KV heads), llama3 scaling, the lowest-frequency pairs planted large.
    H, KV, hd, hidden = 4, 2, 16, 64
    config = {"model_type": "llama", "hidden_size": hidden, "num_attention_heads": H, "num_key_value_heads": KV,
              "head_dim": hd, "num_hidden_layers": 2, "max_position_embeddings": 8192, "rope_theta": 500000.0,
              "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                               "original_max_position_embeddings": 1024}}
    layers = llama_layers(2, H, KV, hd, hidden, strong=[7, 15])
    d, stored, hb = hf_model(out, "llama_bf16_gqa", config, layers, "BF16")
    inv = llama3_inv_freq(hd, 500000.0, 8.0, 1.0, 4.0, 1024)
    exp = expected_hf(config, stored, [True, True], 2, hb, "half", hd, 0, inv, 1024)
    exp["model_type"] = "llama"
    case("llama_bf16_gqa", [d, "--json"], exp)
    exp1 = dict(exp, layers=[exp["layers"][1]])
    exp1["read"] = {"tensors": 3, "bytes": hb + (hidden * 2 + (H + KV) * hd * hidden * 2)}
    case("llama_layers_1", [d, "--json", "--layers", "1"], exp1)

    # 2. Qwen3: F16, QK-norm (per-dim gains over head_dim), sharded in 3 with an index.
    config = {"model_type": "qwen3", "hidden_size": hidden, "num_attention_heads": H, "num_key_value_heads": KV,
              "head_dim": hd, "num_hidden_layers": 2, "max_position_embeddings": 4096, "rope_theta": 1000000.0}
    layers = llama_layers(2, H, KV, hd, hidden, strong=[0, 8])
    for l in layers:
        l["q_norm"] = (1 + 0.5 * RNG.standard_normal(hd)).astype(np.float32)
        l["k_norm"] = (1 + 0.5 * RNG.standard_normal(hd)).astype(np.float32)
    d, stored, hb = hf_model(out, "qwen3_f16_sharded", config, layers, "F16", shards=3)
    inv = default_inv_freq(hd, 1000000.0)
    exp = expected_hf(config, stored, [True, True], 2, hb, "half", hd, 0, inv, 4096)
    exp["model_type"] = "qwen3"
    case("qwen3_f16_sharded_qk_norm", [d, "--json"], exp)

    # 3. GPT-J: F32, interleaved pairs, partial rotary at the front (rotary_dim 8 of 16).
    config = {"model_type": "gptj", "n_embd": hidden, "n_head": H, "hidden_size": hidden, "num_attention_heads": H,
              "n_layer": 1, "num_hidden_layers": 1, "n_positions": 2048, "max_position_embeddings": 2048,
              "rotary_dim": 8}
    layers = llama_layers(1, H, H, hd, hidden, strong=[6, 7])
    d, stored, hb = hf_model(out, "gptj_f32_partial", config, layers, "F32", prefix="transformer.h.{}.", names=GPTJ_NAMES)
    inv = default_inv_freq(8, 10000.0)
    exp = expected_hf(config, stored, [True], 4, hb, "interleaved", 8, 0, inv, 2048, KV=H, prefix="transformer.h.{}.",
                      names=GPTJ_NAMES)
    exp["model_type"] = "gptj"
    case("gptj_f32_interleaved_partial_front", [d, "--json"], exp)

    # 4. Gemma 3: BF16, (1 + w) gains on the input norm and the q/k norms, local (sliding, base 10000) and global
    # (base 1e6) layers: the sliding layer carries its own pairs.
    config = {"model_type": "gemma3_text", "hidden_size": hidden, "num_attention_heads": H, "num_key_value_heads": KV,
              "head_dim": hd, "num_hidden_layers": 2, "max_position_embeddings": 32768, "rope_theta": 1000000.0,
              "rope_local_base_freq": 10000.0, "sliding_window": 512, "query_pre_attn_scalar": 16,
              "layer_types": ["sliding_attention", "full_attention"]}
    layers = llama_layers(2, H, KV, hd, hidden, strong=[3, 11])
    for l in layers:
        l["norm"] = (0.3 * RNG.standard_normal(hidden)).astype(np.float32)
        l["q_norm"] = (0.4 * RNG.standard_normal(hd)).astype(np.float32)
        l["k_norm"] = (0.4 * RNG.standard_normal(hd)).astype(np.float32)
    d, stored, hb = hf_model(out, "gemma3_bf16", config, layers, "BF16")
    inv = default_inv_freq(hd, 1000000.0)
    exp = expected_hf(config, stored, [True, True], 2, hb, "half", hd, 0, inv, 32768, one_plus=True, qk_one_plus=True,
                      kinds=["sliding", "full"], own_pairs={0: default_inv_freq(hd, 10000.0)})
    exp["model_type"] = "gemma3_text"
    case("gemma3_one_plus_local_global", [d, "--json"], exp)

    # 5. SmolLM3: a NoPE layer (no_rope_layers [1, 0]) listed without numbers.
    config = {"model_type": "smollm3", "hidden_size": hidden, "num_attention_heads": H, "num_key_value_heads": KV,
              "num_hidden_layers": 2, "max_position_embeddings": 4096, "rope_theta": 2000000.0, "no_rope_layers": [1, 0]}
    layers = llama_layers(2, H, KV, hd, hidden, strong=[1])
    d, stored, hb = hf_model(out, "smollm3_nope", config, layers, "BF16")
    inv = default_inv_freq(hd, 2000000.0)
    exp = expected_hf(config, stored, [True, False], 2, hb, "half", hd, 0, inv, 4096)
    exp["model_type"] = "smollm3"
    case("smollm3_nope_layer", [d, "--json"], exp)

    # 5b. Qwen2-VL: M-RoPE sections [2, 3, 3] over the 8 pairs, each pair marked with its axis (contiguous sections).
    config = {"model_type": "qwen2_vl", "hidden_size": hidden, "num_attention_heads": H, "num_key_value_heads": KV,
              "num_hidden_layers": 1, "max_position_embeddings": 32768, "rope_theta": 1000000.0,
              "rope_scaling": {"type": "mrope", "mrope_section": [2, 3, 3]}}
    layers = llama_layers(1, H, KV, hd, hidden, strong=[5])
    d, stored, hb = hf_model(out, "qwen2_vl_mrope", config, layers, "BF16", prefix="model.language_model.layers.{}.")
    inv = default_inv_freq(hd, 1000000.0)
    exp = expected_hf(config, stored, [True], 2, hb, "half", hd, 0, inv, 32768, prefix="model.language_model.layers.{}.")
    exp["model_type"] = "qwen2_vl"
    exp["pairs"]["mrope_axis"] = ["t", "t", "h", "h", "h", "w", "w", "w"]
    case("qwen2_vl_mrope_sections", [d, "--json"], exp)

    # 6. Phi-3: fused qkv_proj [q | k | v], partial rotary (partial_rotary_factor 0.5, at the front), F32.
    phi = {"model_type": "phi3", "hidden_size": hidden, "num_attention_heads": H, "num_key_value_heads": KV,
           "num_hidden_layers": 1, "max_position_embeddings": 4096, "rope_theta": 10000.0, "partial_rotary_factor": 0.5}
    hd_phi = hidden // H
    q = random_matrix(H * hd_phi, hidden, planted_rows(H, hd_phi, [2, 10]))
    k = random_matrix(KV * hd_phi, hidden, planted_rows(KV, hd_phi, [2, 10]))
    v = random_matrix(KV * hd_phi, hidden, np.ones(KV * hd_phi))
    norm = (1 + 0.3 * RNG.standard_normal(hidden)).astype(np.float32)
    qkv = np.concatenate([q, k, v])
    dphi, hb, qkv_vals, n_vals = fused_model(out, "phi3_fused", phi, "F32", "model.layers.0.input_layernorm.weight", norm,
                                             "model.layers.0.self_attn.qkv_proj.weight", qkv)
    stored = {"model.layers.0.input_layernorm.weight": n_vals.astype(np.float64),
              "model.layers.0.self_attn.q_proj.weight": qkv_vals[:H * hd_phi].astype(np.float64),
              "model.layers.0.self_attn.k_proj.weight": qkv_vals[H * hd_phi:(H + KV) * hd_phi].astype(np.float64)}
    rd = hd_phi // 2
    exp = expected_hf(phi, stored, [True], 4, hb, "half", rd, 0, default_inv_freq(rd, 10000.0), 4096)
    exp["read"]["tensors"] = 2
    exp["model_type"] = "phi3"
    case("phi3_fused_qkv_partial_front", [dphi, "--json"], exp)

    # 7. GPT-NeoX: query_key_value with q, k, v within each head, rotary_pct 0.25.
    neox = {"model_type": "gpt_neox", "hidden_size": hidden, "num_attention_heads": H, "num_hidden_layers": 1,
            "max_position_embeddings": 2048, "rotary_emb_base": 10000, "rotary_pct": 0.25}
    hd_n = hidden // H
    q = random_matrix(H * hd_n, hidden, planted_rows(H, hd_n, [0, 2]))
    k = random_matrix(H * hd_n, hidden, planted_rows(H, hd_n, [0, 2]))
    v = random_matrix(H * hd_n, hidden, np.ones(H * hd_n))
    fused = np.concatenate([np.concatenate([q[h * hd_n:(h + 1) * hd_n], k[h * hd_n:(h + 1) * hd_n],
                                            v[h * hd_n:(h + 1) * hd_n]]) for h in range(H)])
    dn, hb, fv, nv = fused_model(out, "gpt_neox_fused", neox, "F16", "gpt_neox.layers.0.input_layernorm.weight", norm,
                                 "gpt_neox.layers.0.attention.query_key_value.weight", fused)
    fv = fv.astype(np.float64)
    stored = {"model.layers.0.input_layernorm.weight": nv.astype(np.float64),
              "model.layers.0.self_attn.q_proj.weight": np.concatenate([fv[h * 3 * hd_n:h * 3 * hd_n + hd_n] for h in range(H)]),
              "model.layers.0.self_attn.k_proj.weight": np.concatenate([fv[h * 3 * hd_n + hd_n:h * 3 * hd_n + 2 * hd_n] for h in range(H)])}
    rd = int(hd_n * 0.25)
    exp = expected_hf(neox, stored, [True], 2, hb, "half", rd, 0, default_inv_freq(rd, 10000.0), 2048)
    exp["read"]["tensors"] = 2
    exp["model_type"] = "gpt_neox"
    case("gpt_neox_fused_per_head", [dn, "--json"], exp)

    # 8. DeepSeek-V3 MLA: q_b_proj after q_a_layernorm, the rope part at the back of each q head, k's rope rows the
    # last qk_rope_head_dim of kv_a_proj_with_mqa (input-norm gain), shared by every head; interleaved pairs.
    nope, rope_d, q_lora, kv_lora = 8, 8, 32, 16
    ds = {"model_type": "deepseek_v3", "hidden_size": hidden, "num_attention_heads": H, "num_key_value_heads": H,
          "num_hidden_layers": 1, "max_position_embeddings": 4096, "rope_theta": 10000.0, "q_lora_rank": q_lora,
          "kv_lora_rank": kv_lora, "qk_nope_head_dim": nope, "qk_rope_head_dim": rope_d, "v_head_dim": 8,
          "first_k_dense_replace": 1, "n_routed_experts": 4, "num_experts_per_tok": 2}
    hdm = nope + rope_d
    qb = random_matrix(H * hdm, q_lora, planted_rows(H, hdm, [nope + 6, nope + 7]))
    qan = (1 + 0.3 * RNG.standard_normal(q_lora)).astype(np.float32)
    kva = random_matrix(kv_lora + rope_d, hidden, np.concatenate([np.ones(kv_lora), [1, 1, 1, 1, 1, 1, 5, 5]]))
    inn = (1 + 0.3 * RNG.standard_normal(hidden)).astype(np.float32)
    dd = os.path.join(out, "deepseek_v3_mla")
    os.makedirs(dd, exist_ok=True)
    with open(os.path.join(dd, "config.json"), "w") as f:
        json.dump(ds, f)
    parts = [("model.layers.0.input_layernorm.weight", inn), ("model.layers.0.self_attn.q_a_layernorm.weight", qan),
             ("model.layers.0.self_attn.q_a_proj.weight", random_matrix(q_lora, hidden, np.ones(q_lora))),
             ("model.layers.0.self_attn.q_b_proj.weight", qb), ("model.layers.0.self_attn.kv_a_proj_with_mqa.weight", kva)]
    enc = {n: encode(a, "BF16") for n, a in parts}
    hb = write_safetensors(os.path.join(dd, "model.safetensors"), [(n, "BF16", a.shape, enc[n][0]) for n, a in parts])
    val = {n: enc[n][1].astype(np.float64) for n, _ in parts}
    inv = default_inv_freq(rope_d, 10000.0)
    turns = 4096 * inv / (2 * math.pi)
    rows = pair_rows("interleaved", rope_d, nope)
    kpe = np.zeros((hdm, hidden))
    kpe[nope:] = val["model.layers.0.self_attn.kv_a_proj_with_mqa.weight"][kv_lora:]
    heads = []
    for h in range(H):
        num = head_numbers(val["model.layers.0.self_attn.q_b_proj.weight"][h * hdm:(h + 1) * hdm], kpe,
                           val["model.layers.0.self_attn.q_a_layernorm.weight"], val["model.layers.0.input_layernorm.weight"],
                           np.ones(hdm), np.ones(hdm), rows, turns)
        heads.append(dict(head=h, kv_head=0, **num))
    exp = {"model_type": "deepseek_v3", "rotary_dim": rope_d, "layout": "interleaved", "pairs": pairs_json(inv, 4096),
           "layers": [{"layer": 0, "position": "rope", "kind": "full", "heads": heads}],
           "read": {"tensors": 4, "bytes": hb + (hidden + q_lora) * 2 + H * rope_d * q_lora * 2 + rope_d * hidden * 2}}
    case("deepseek_v3_mla_rope_at_back", [dd, "--json"], exp)

    # 9. A llama GGUF: q/k rows permuted by the converter, every quantization type, norms in F32 / F16 / BF16.
    gguf_hidden, gH, gKV, ghd = 256, 4, 2, 32
    types = [("Q4_K", "Q5_K", "F32"), ("Q6_K", "Q8_0", "F16"), ("Q4_0", "Q4_1", "BF16"), ("Q5_0", "Q5_1", "F32")]
    meta = [("general.architecture", "str", "llama"), ("llama.context_length", "u32", 4096),
            ("llama.embedding_length", "u32", gguf_hidden), ("llama.block_count", "u32", len(types)),
            ("llama.attention.head_count", "u32", gH), ("llama.attention.head_count_kv", "u32", gKV),
            ("llama.attention.key_length", "u32", ghd), ("llama.attention.value_length", "u32", ghd),
            ("llama.rope.dimension_count", "u32", ghd), ("llama.rope.freq_base", "f32", 10000.0),
            ("llama.attention.layer_norm_rms_epsilon", "f32", 1e-5)]

    def permute(w, n_head):  # convert_hf_to_gguf.py LlamaModel.permute
        return w.reshape(n_head, 2, w.shape[0] // n_head // 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)

    def unpermute(w, n_head):
        return w.reshape(n_head, w.shape[0] // n_head // 2, 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)

    tensors, layers_out, plan_bytes = [], [], 0
    inv = default_inv_freq(ghd, 10000.0)
    turns = 4096 * inv / (2 * math.pi)
    for i, (qt, kt, nt) in enumerate(types):
        # Planted in HF order (pairs 14, 15: the lowest frequencies), then permuted as the converter does.
        q_scale = permute(planted_rows(gH, ghd, [14, 15, 30, 31])[:, None], gH)[:, 0]
        k_scale = permute(planted_rows(gKV, ghd, [14, 15, 30, 31])[:, None], gKV)[:, 0]
        qb_, qv = quantized_matrix(qt, gH * ghd, gguf_hidden, q_scale * 0.02)
        kb_, kv_ = quantized_matrix(kt, gKV * ghd, gguf_hidden, k_scale * 0.02)
        nb_, nv = encode(1 + 0.3 * RNG.standard_normal(gguf_hidden), nt)
        vb, _ = quantized_matrix("Q8_0", gKV * ghd, gguf_hidden, np.ones(gKV * ghd) * 0.02)
        tensors += [("blk.%d.attn_norm.weight" % i, nt, [gguf_hidden], nb_),
                    ("blk.%d.attn_q.weight" % i, qt, [gguf_hidden, gH * ghd], qb_),
                    ("blk.%d.attn_k.weight" % i, kt, [gguf_hidden, gKV * ghd], kb_),
                    ("blk.%d.attn_v.weight" % i, "Q8_0", [gguf_hidden, gKV * ghd], vb)]
        plan_bytes += len(nb_) + len(qb_) + len(kb_)
        wq = unpermute(qv.astype(np.float64), gH)
        wk = unpermute(kv_.astype(np.float64), gKV)
        g = nv.astype(np.float64)
        heads = []
        for h in range(gH):
            kvh = h // (gH // gKV)
            num = head_numbers(wq[h * ghd:(h + 1) * ghd], wk[kvh * ghd:(kvh + 1) * ghd], g, g, np.ones(ghd), np.ones(ghd),
                               pair_rows("half", ghd, 0), turns)
            heads.append(dict(head=h, kv_head=kvh, **num))
        layers_out.append({"layer": i, "position": "rope", "kind": "full", "heads": heads})
    gpath = os.path.join(out, "llama_quantized.gguf")
    write_gguf(gpath, meta, tensors)
    size = os.path.getsize(gpath)
    prefix = min(size, 64 << 10)
    exp = {"model_type": "llama", "rotary_dim": ghd, "layout": "interleaved", "pairs": pairs_json(inv, 4096),
           "layers": layers_out, "read": {"tensors": 3 * len(types), "bytes": prefix + plan_bytes},
           "assumption_whats": ["layout"]}
    case("llama_gguf_permuted_every_quant", [gpath, "--json"], exp)

    # 10. CodeGen: qkv_proj fused as transformers CodeGenAttention splits it: reshaped to (mp_num = 4, -1), each
    # block [query | value | key] of H / 4 heads (local_dim rows each), block m's local head l being head
    # m * H / 4 + l (_split_heads); interleaved pairs over rotary_dim 4 of head_dim 8, at the front.
    cg_H, cg_hd, cg_hidden, cg_rd, mp = 8, 8, 64, 4, 4
    cg = {"model_type": "codegen", "n_embd": cg_hidden, "n_head": cg_H, "n_layer": 1, "n_positions": 2048, "n_ctx": 2048,
          "rotary_dim": cg_rd, "activation_function": "gelu_new", "vocab_size": 100}
    fused = random_matrix(3 * cg_H * cg_hd, cg_hidden, np.linspace(0.5, 4.0, 3 * cg_H * cg_hd))
    cnorm = (1 + 0.3 * RNG.standard_normal(cg_hidden)).astype(np.float32)
    dcg, hb, fv, nv = fused_model(out, "codegen_fused", cg, "F32", "transformer.h.0.ln_1.weight", cnorm,
                                  "transformer.h.0.attn.qkv_proj.weight", fused)
    blocks = fv.astype(np.float64).reshape(mp, 3, cg_H // mp * cg_hd, cg_hidden)  # (mp, [query, value, key], local, in)
    stored = {"transformer.h.0.ln_1.weight": nv.astype(np.float64),
              "transformer.h.0.attn.q_proj.weight": blocks[:, 0].reshape(cg_H * cg_hd, cg_hidden),
              "transformer.h.0.attn.k_proj.weight": blocks[:, 2].reshape(cg_H * cg_hd, cg_hidden)}
    cfg_std = dict(cg, hidden_size=cg_hidden, num_attention_heads=cg_H)
    exp = expected_hf(cfg_std, stored, [True], 4, hb, "interleaved", cg_rd, 0, default_inv_freq(cg_rd, 10000.0), 2048,
                      prefix="transformer.h.{}.", names=GPTJ_NAMES)
    exp["read"]["tensors"] = 2
    exp["model_type"] = "codegen"
    case("codegen_fused_mp4", [dcg, "--json"], exp)

    # 11. Gemma 4 with attention_k_eq_v: its full layer has num_global_key_value_heads KV heads and no v_proj
    # (transformers Gemma4TextAttention: use_alternative_attention, value_states = key_states), k_proj read as
    # always; its sliding layer keeps num_key_value_heads and a v_proj. Plain-w gains, QK-norm over head_dim.
    g4 = {"model_type": "gemma4_text", "hidden_size": hidden, "num_attention_heads": H, "num_key_value_heads": KV,
          "num_global_key_value_heads": 1, "attention_k_eq_v": True, "head_dim": hd, "num_hidden_layers": 2,
          "max_position_embeddings": 8192, "sliding_window": 512, "layer_types": ["sliding_attention", "full_attention"],
          "rope_parameters": {"sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
                              "full_attention": {"rope_type": "default", "rope_theta": 1000000.0}}}
    layers = llama_layers(2, H, KV, hd, hidden, strong=[4, 12])
    layers[1]["k"] = random_matrix(1 * hd, hidden, planted_rows(1, hd, [4, 12]))
    del layers[1]["v"]
    for l in layers:
        l["q_norm"] = (1 + 0.4 * RNG.standard_normal(hd)).astype(np.float32)
        l["k_norm"] = (1 + 0.4 * RNG.standard_normal(hd)).astype(np.float32)
    d, stored, hb = hf_model(out, "gemma4_k_eq_v", g4, layers, "BF16")
    exp = expected_hf(g4, stored, [True, True], 2, hb, "half", hd, 0, default_inv_freq(hd, 1000000.0), 8192,
                      kinds=["sliding", "full"], own_pairs={0: default_inv_freq(hd, 10000.0)}, kv_of={1: 1})
    exp["model_type"] = "gemma4_text"
    exp["assumption_whats_absent"] = ["qk_norm"]
    case("gemma4_attention_k_eq_v", [d, "--json"], exp)

    # 12. Qwen3 (QK-norm) whose files hold no q/k norm gains: read with gains 1, an assumption says so.
    q3 = {"model_type": "qwen3", "hidden_size": hidden, "num_attention_heads": H, "num_key_value_heads": KV,
          "head_dim": hd, "num_hidden_layers": 1, "max_position_embeddings": 4096, "rope_theta": 1000000.0}
    layers = llama_layers(1, H, KV, hd, hidden, strong=[2])
    d, stored, hb = hf_model(out, "qwen3_no_qk_norm", q3, layers, "BF16")
    exp = expected_hf(q3, stored, [True], 2, hb, "half", hd, 0, default_inv_freq(hd, 1000000.0), 4096)
    exp["model_type"] = "qwen3"
    exp["assumption_whats"] = ["qk_norm"]
    case("qwen3_missing_qk_norm_assumed_one", [d, "--json"], exp)

    # 13. An absorbed-MLA DeepSeek GGUF as llama.cpp's converter writes it (convert_hf_to_gguf.py DeepseekV2Model:
    # attn_kv_b split into attn_k_b / attn_v_b, key_length = kv_lora_rank + rope, key_length_mla = nope + rope,
    # head_count_kv 1): q's rope rows from attn_q_b (attn_q_a_norm's gain), k's from the last rope rows of
    # attn_kv_a_mqa (attn_norm's gain), shared by every head; pairs interleaved (rope type norm, not permuted).
    a_H, a_nope, a_rope, a_qlora, a_kvlora, a_hidden = 4, 8, 8, 32, 16, 64
    a_hd = a_nope + a_rope
    ameta = [("general.architecture", "str", "deepseek2"), ("deepseek2.context_length", "u32", 4096),
             ("deepseek2.embedding_length", "u32", a_hidden), ("deepseek2.block_count", "u32", 1),
             ("deepseek2.attention.head_count", "u32", a_H), ("deepseek2.attention.head_count_kv", "u32", 1),
             ("deepseek2.attention.q_lora_rank", "u32", a_qlora), ("deepseek2.attention.kv_lora_rank", "u32", a_kvlora),
             ("deepseek2.attention.key_length", "u32", a_kvlora + a_rope), ("deepseek2.attention.value_length", "u32", a_kvlora),
             ("deepseek2.attention.key_length_mla", "u32", a_hd), ("deepseek2.attention.value_length_mla", "u32", 8),
             ("deepseek2.rope.dimension_count", "u32", a_rope), ("deepseek2.rope.freq_base", "f32", 10000.0),
             ("deepseek2.attention.layer_norm_rms_epsilon", "f32", 1e-6)]
    qb = random_matrix(a_H * a_hd, a_qlora, planted_rows(a_H, a_hd, [a_nope + 4, a_nope + 5]))
    kva = random_matrix(a_kvlora + a_rope, a_hidden, np.concatenate([np.ones(a_kvlora), [4, 4, 1, 1, 1, 1, 1, 1]]))
    parts = [("blk.0.attn_norm.weight", (1 + 0.3 * RNG.standard_normal(a_hidden)).astype(np.float32), "F32"),
             ("blk.0.attn_q_a_norm.weight", (1 + 0.3 * RNG.standard_normal(a_qlora)).astype(np.float32), "F32"),
             ("blk.0.attn_q_a.weight", random_matrix(a_qlora, a_hidden, np.ones(a_qlora)), "F16"),
             ("blk.0.attn_q_b.weight", qb, "F16"),
             ("blk.0.attn_kv_a_mqa.weight", kva, "BF16"),
             ("blk.0.attn_k_b.weight", random_matrix(a_H * a_kvlora, a_nope, np.ones(a_H * a_kvlora)), "F16"),
             ("blk.0.attn_v_b.weight", random_matrix(a_H * 8, a_kvlora, np.ones(a_H * 8)), "F16")]
    agg, aval = [], {}
    for n, arr, ty in parts:
        b, v = encode(arr, ty)
        agg.append((n, ty, list(reversed(arr.shape)), b))
        aval[n] = v.astype(np.float64)
    apath = os.path.join(out, "deepseek2_absorbed_mla.gguf")
    write_gguf(apath, ameta, agg)
    ainv = default_inv_freq(a_rope, 10000.0)
    aturns = 4096 * ainv / (2 * math.pi)
    kpe = np.zeros((a_hd, a_hidden))
    kpe[a_nope:] = aval["blk.0.attn_kv_a_mqa.weight"][a_kvlora:]
    heads = []
    for h in range(a_H):
        num = head_numbers(aval["blk.0.attn_q_b.weight"][h * a_hd:(h + 1) * a_hd], kpe, aval["blk.0.attn_q_a_norm.weight"],
                           aval["blk.0.attn_norm.weight"], np.ones(a_hd), np.ones(a_hd),
                           pair_rows("interleaved", a_rope, a_nope), aturns)
        heads.append(dict(head=h, kv_head=0, **num))
    asize = os.path.getsize(apath)
    exp = {"model_type": "deepseek2", "rotary_dim": a_rope, "layout": "interleaved", "pairs": pairs_json(ainv, 4096),
           "layers": [{"layer": 0, "position": "rope", "kind": "full", "heads": heads}],
           "read": {"tensors": 4, "bytes": min(asize, 64 << 10) + a_hidden * 4 + a_qlora * 4 + a_H * a_rope * a_qlora * 2
                    + a_rope * a_hidden * 2}}
    case("deepseek2_gguf_absorbed_mla", [apath, "--json"], exp)
    # The same without key_length_mla: key_length is the absorbed MQA head, so the q/k head width is unknown.
    bmeta = [m for m in ameta if m[0] != "deepseek2.attention.key_length_mla"]
    bpath = os.path.join(out, "deepseek2_absorbed_no_key_length_mla.gguf")
    write_gguf(bpath, bmeta, agg)
    case("bad_absorbed_mla_without_key_length_mla", [bpath, "--json"], error_field="deepseek2.attention.key_length_mla",
         error_text="kv_lora_rank")

    # Bad files: each exits 2 naming the tensor or field.
    bad = os.path.join(out, "bad")
    os.makedirs(bad, exist_ok=True)
    small = {"model_type": "llama", "hidden_size": 16, "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 8,
             "num_hidden_layers": 1, "max_position_embeddings": 128, "rope_theta": 10000.0}

    def bad_model(name, tensors_, cfg=small, **kw):
        dd_ = os.path.join(bad, name)
        os.makedirs(dd_, exist_ok=True)
        with open(os.path.join(dd_, "config.json"), "w") as f:
            json.dump(cfg, f)
        write_safetensors(os.path.join(dd_, "model.safetensors"), tensors_, **kw)
        return dd_

    def t(name, arr, dtype="F32"):
        return (name, dtype, arr.shape, encode(arr, dtype)[0])

    good = [t("model.layers.0.input_layernorm.weight", np.ones(16, np.float32)),
            t("model.layers.0.self_attn.q_proj.weight", np.ones((16, 16), np.float32)),
            t("model.layers.0.self_attn.k_proj.weight", np.ones((8, 16), np.float32))]
    full_size = write_safetensors(os.path.join(bad, "probe.safetensors"), good) + 4 * (16 + 256 + 128)
    case("bad_truncated", [bad_model("truncated", good, truncate_to=full_size - 100), "--json"],
         error_field="model.layers.0.self_attn.k_proj.weight", error_text="past the end")
    case("bad_dtype", [bad_model("dtype", good[:1] + [t("model.layers.0.self_attn.q_proj.weight", np.ones((16, 16)), "F64")]
                                 + good[2:]), "--json"], error_field="model.layers.0.self_attn.q_proj.weight", error_text="F64")
    case("bad_shape", [bad_model("shape", good[:2] + [t("model.layers.0.self_attn.k_proj.weight", np.ones((16, 16), np.float32))]),
                       "--json"], error_field="model.layers.0.self_attn.k_proj.weight", error_text="shape")
    case("bad_missing", [bad_model("missing", good[:2]), "--json"], error_field="tensors",
         error_text="model.layers.0.self_attn.k_proj.weight")
    # A declared size past the file: data_offsets beyond the data.
    dpast = os.path.join(bad, "past")
    os.makedirs(dpast, exist_ok=True)
    with open(os.path.join(dpast, "config.json"), "w") as f:
        json.dump(small, f)
    header = {"model.layers.0.input_layernorm.weight": {"dtype": "F32", "shape": [16], "data_offsets": [0, 64]},
              "model.layers.0.self_attn.q_proj.weight": {"dtype": "F32", "shape": [16, 16], "data_offsets": [64, 1088]},
              "model.layers.0.self_attn.k_proj.weight": {"dtype": "F32", "shape": [8, 16], "data_offsets": [1088, 1600]}}
    text = json.dumps(header).encode()
    with open(os.path.join(dpast, "model.safetensors"), "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"\0" * 1100)
    case("bad_declared_past_file", [dpast, "--json"], error_field="model.layers.0.self_attn.k_proj.weight",
         error_text="past the end")
    # A 2 GB header length: refused before anything is read.
    case("bad_2gb_header", [bad_model("huge_header", good, header_len_override=2 << 30), "--json"],
         error_field=os.path.join(bad, "huge_header", "model.safetensors"), error_text="header")
    case("bad_layers", [bad_model("layers", good), "--json", "--layers", "0,3"], error_field="layers", error_text="layer 3")
    # A truncated GGUF header.
    with open(gpath, "rb") as f:
        head = f.read(200)
    tg = os.path.join(bad, "truncated.gguf")
    with open(tg, "wb") as f:
        f.write(head)
    case("bad_gguf_truncated", [tg, "--json"], error_field=tg, error_text="GGUF header")

    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(CASES, f)


if __name__ == "__main__":
    main(sys.argv[1])
