#!/usr/bin/env python3
"""Reference values for posenc's RoPE tests, computed with plain Python math (double precision) from the
formulas of Hugging Face transformers' src/transformers/modeling_rope_utils.py:

  _compute_yarn_parameters, _compute_longrope_parameters  (transformers v5 line, as read at
  zucchini-nlp/transformers@26892c16b782513fdf938920653228ef63a19d7d; the v4 file at
  huggingface/transformers@ef46806472a64b0013ed413781e3afed82bfa047 has the same inv_freq formulas)

and DeepSeek-V3's softmax scale (modeling_deepseek_v3.py DeepseekV3Attention: scaling = qk_head_dim**-0.5,
times get_mscale(factor, mscale_all_dim)**2). The reference computes inv_freq in float32 (torch); these are the
same operations in double, which is what posenc computes. Run: python3 tests/data/rope_reference.py
"""
import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def default_inv_freq(dim, base):
    return [1.0 / base ** ((2 * i) / dim) for i in range(dim // 2)]


def get_mscale(scale, mscale=1.0):
    if scale <= 1:
        return 1.0
    return 0.1 * mscale * math.log(scale) + 1.0


def yarn(dim, base, factor, original, beta_fast=32, beta_slow=1, attention_factor=None, mscale=None,
         mscale_all_dim=None, truncate=True):
    if attention_factor is None:
        if mscale and mscale_all_dim:
            attention_factor = get_mscale(factor, mscale) / get_mscale(factor, mscale_all_dim)
        else:
            attention_factor = get_mscale(factor)

    def find_correction_dim(num_rotations):
        return (dim * math.log(original / (num_rotations * 2 * math.pi))) / (2 * math.log(base))

    low = find_correction_dim(beta_fast)
    high = find_correction_dim(beta_slow)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, dim - 1)
    if low == high:
        high += 0.001
    out = []
    for i in range(dim // 2):
        pos_freq = base ** ((2 * i) / dim)
        extrapolation, interpolation = 1.0 / pos_freq, 1.0 / (factor * pos_freq)
        ramp = min(max((i - low) / (high - low), 0.0), 1.0)
        extrapolation_factor = 1 - ramp
        out.append(interpolation * (1 - extrapolation_factor) + extrapolation * extrapolation_factor)
    return out, attention_factor, (low, high)


def longrope(dim, base, short_factor, long_factor, original, max_pos, seq_len=None, factor=None,
             attention_factor=None):
    if factor is None:
        factor = max_pos / original
    if attention_factor is None:
        attention_factor = 1.0 if factor <= 1.0 else math.sqrt(1 + math.log(factor) / math.log(original))
    ext = long_factor if (seq_len and seq_len > original) else short_factor
    return [1.0 / (ext[i] * base ** ((2 * i) / dim)) for i in range(dim // 2)], attention_factor


def llama3(dim, base, factor, low_freq_factor, high_freq_factor, original):
    """_compute_llama3_parameters."""
    out = []
    low_wavelen, high_wavelen = original / low_freq_factor, original / high_freq_factor
    for w in default_inv_freq(dim, base):
        wavelen = 2 * math.pi / w
        if wavelen < high_wavelen:
            out.append(w)
        elif wavelen > low_wavelen:
            out.append(w / factor)
        else:
            smooth = (original / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
            out.append((1 - smooth) * w / factor + smooth * w)
    return out


def rope_rotate(x, pos, inv_freq, layout, scaling=1.0):
    """Rotates the first 2*len(inv_freq) dims of x (half: pairs (i, i+r/2); interleaved: (2i, 2i+1))."""
    out = list(x)
    half = len(inv_freq)
    for i, w in enumerate(inv_freq):
        c, s = math.cos(pos * w) * scaling, math.sin(pos * w) * scaling
        i0, i1 = (i, i + half) if layout == "half" else (2 * i, 2 * i + 1)
        out[i0] = x[i0] * c - x[i1] * s
        out[i1] = x[i1] * c + x[i0] * s
    return out


def main():
    with open(os.path.join(HERE, "configs", "phi-3-mini-128k-instruct.json")) as f:
        phi3 = json.load(f)
    rs = phi3["rope_scaling"]
    ref = {}
    short, att = longrope(96, 10000.0, rs["short_factor"], rs["long_factor"], 4096, 131072, seq_len=4096)
    long_, att_l = longrope(96, 10000.0, rs["short_factor"], rs["long_factor"], 4096, 131072, seq_len=4097)
    ref["phi3_longrope"] = {"short": [short[0], short[10], short[47]], "long": [long_[0], long_[10], long_[47]],
                            "attention_factor": att}
    q, qa, qr = yarn(128, 1e6, 4.0, 32768)
    ref["qwen25_yarn"] = {"inv_freq": [q[0], q[20], q[30], q[40], q[63]], "attention_factor": qa, "range": qr}
    d, da, dr = yarn(64, 10000.0, 40.0, 4096, mscale=1.0, mscale_all_dim=1.0)
    ref["deepseek_v3_yarn"] = {"inv_freq": [d[0], d[10], d[20], d[31]], "attention_factor": da, "range": dr,
                               "softmax_scale": 192 ** -0.5 * get_mscale(40.0, 1.0) ** 2}
    _, m_att, _ = yarn(64, 10000.0, 40.0, 4096, mscale=0.707, mscale_all_dim=1.0)
    ref["yarn_mscale_ratio"] = m_att
    _, e_att, _ = yarn(64, 10000.0, 40.0, 4096, attention_factor=0.5, mscale=0.707, mscale_all_dim=1.0)
    ref["yarn_explicit_attention_factor"] = e_att
    t, ta, tr = yarn(128, 1e6, 4.0, 32768, truncate=False)
    ref["yarn_truncate_false"] = {"inv_freq": [t[0], t[20], t[30], t[40], t[63]], "range": tr}
    x = [float(v) for v in range(1, 9)]
    inv4 = default_inv_freq(4, 10000.0)
    ref["partial_half"] = rope_rotate(x, 3, inv4, "half")
    ref["partial_interleaved"] = rope_rotate(x, 3, inv4, "interleaved")
    neox = default_inv_freq(24, 10000.0)  # GPT-NeoX-20B: int(96 * 0.25) = 24 rotary dims
    ref["neox_inv_freq"] = [neox[0], neox[5], neox[11]]
    l3 = llama3(128, 500000.0, 8.0, 1.0, 4.0, 8192)  # Llama-3.1-8B
    ref["llama31_inv_freq"] = [l3[0], l3[20], l3[40], l3[45], l3[63]]
    print(json.dumps(ref, indent=1))


if __name__ == "__main__":
    main()
