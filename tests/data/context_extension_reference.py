#!/usr/bin/env python3
"""Reference pair counts for posenc's context-extension recipes (core/analysis/context_extension.h), with the
plain-Python formulas of tests/data/rope_reference.py (transformers' modeling_rope_utils.py, v5 line at
zucchini-nlp/transformers@26892c16b782513fdf938920653228ef63a19d7d): for trained length L and target T,
f = T / L; counts are [full turn, interpolated, extrapolated, kept, divided by f, blended]; a pair is a full turn if L w_k >= 2 pi, else interpolated if T w'_k <= L w_k (1 + 1e-12), else
extrapolated (docs/models.md "pair classes"). Dynamic NTK (_compute_dynamic_ntk_parameters) at seq_len T:
base' = base * ((f T / L) - (f - 1)) ** (d / (d - 2)). Run: python3 tests/data/context_extension_reference.py
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rope_reference import default_inv_freq, yarn, llama3  # noqa: E402


def counts(unscaled, scaled, L, T):
    c = [0, 0, 0]
    for w, s in zip(unscaled, scaled):
        if L * w >= 2 * math.pi:
            c[0] += 1
        elif T * s <= L * w * (1 + 1e-12):
            c[1] += 1
        else:
            c[2] += 1
    return c


def changes(unscaled, scaled, f):
    c = [0, 0, 0]  # kept, divided by f, blended
    for w, s in zip(unscaled, scaled):
        if abs(s - w) <= 1e-12 * w:
            c[0] += 1
        elif abs(s - w / f) <= 1e-12 * w / f:
            c[1] += 1
        else:
            c[2] += 1
    return c


def recipes(dim, base, L, T):
    f = max(1.0, T / L)
    u = default_inv_freq(dim, base)
    out = {"none": counts(u, u, L, T) + changes(u, u, f)}
    lin = [w / f for w in u]
    out["linear"] = counts(u, lin, L, T) + changes(u, lin, f)
    dyn_base = base * ((f * T / L) - (f - 1)) ** (dim / (dim - 2))
    dyn = default_inv_freq(dim, dyn_base)
    out["dynamic"] = counts(u, dyn, L, T) + changes(u, dyn, f)
    y, att, _ = yarn(dim, base, f, L)
    out["yarn"] = counts(u, y, L, T) + changes(u, y, f)
    out["yarn_attention_factor"] = att
    l3 = llama3(dim, base, f, 1.0, 4.0, L)
    out["llama3"] = counts(u, l3, L, T) + changes(u, l3, f)
    return out


if __name__ == "__main__":
    # Llama-3.1-8B's RoPE (rotary_dim 128, rope_theta 500000, original length 8192) to 131072 (f = 16).
    print("llama", recipes(128, 500000.0, 8192, 131072))
    # Qwen2.5-7B's (128, 1e6, 32768) to 131072 (f = 4).
    print("qwen", recipes(128, 1e6, 32768, 131072))
