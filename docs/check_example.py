"""Dump a RoPE cos table the way a port computes it, then check it with `posenc check` (numpy only).

    python3 docs/check_example.py [path/to/posenc] [--fp16-angles]

Without --fp16-angles the table is computed as transformers does in float32 and matches (exit 0); with it
the angles are rounded to float16 and posenc names the cause, angle_precision (exit 1).
"""
import json
import subprocess
import sys

import numpy as np

dim, base = 128, 500000.0
positions = np.arange(512)
inv_freq = 1.0 / (base ** (np.arange(0, dim, 2, dtype=np.float32) / np.float32(dim)))  # float32
angles = np.outer(positions.astype(np.float32), inv_freq)  # float32 products p * inv_freq
if "--fp16-angles" in sys.argv:
    angles = angles.astype(np.float16).astype(np.float32)  # the bug: angles in half precision
emb = np.concatenate([angles, angles], axis=-1)  # rotate_half layout: cat(freqs, freqs)
np.save("cos.npy", np.cos(emb).astype(np.float32))

args = [a for a in sys.argv[1:] if not a.startswith("--")]
posenc = args[0] if args else "posenc"
reference = json.dumps({"dim": dim, "base": base})
result = subprocess.run([posenc, "check", "--reference", reference, "--kind", "cos", "--actual", "cos.npy"])
sys.exit(result.returncode)
