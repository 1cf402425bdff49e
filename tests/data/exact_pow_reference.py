#!/usr/bin/env python3
"""Correctly rounded base^exponent for tests/core/exact_pow_test.cpp, from Python's decimal at 60 digits.

The exponent is the double the C++ code computes (2i/d in binary64, e.g. 2/80 is not 0.025), taken exactly
by Decimal; decimal's ** is correctly rounded to the context's 60 digits and float(Decimal) rounds once to
nearest, so each value is base^exponent correctly rounded (a tie within 1e-60 of a halfway point aside).
Bases: every preset's rope_theta (tests/data/configs/presets.json) and the required ones; dims: every preset's
rotary dim; NTK-adjusted bases base * f^(d/(d-2)) (transformers' _compute_dynamic_ntk_parameters) as posenc's
double arithmetic computes them. Run: python3 tests/data/exact_pow_reference.py
"""
from decimal import Decimal, getcontext

getcontext().prec = 60


def cr_pow(base, exponent):
    return float(Decimal(base) ** Decimal(exponent))


BASES = [10000.0, 50000.0, 150000.0, 500000.0, 1000000.0, 5000000.0, 10000000.0]
DIMS = [64, 72, 80, 96, 112, 128, 256, 512]

cases = []
for base in BASES:
    for d in DIMS:
        for i in sorted({1, d // 8, d // 4 - 1, 3 * d // 8, d // 2 - 1} | ({31} if d == 128 else set())):
            cases.append((base, 2.0 * i / d))
for base in [10000.0, 500000.0, 1000000.0]:
    for d in [64, 128]:
        for f in [2.0, 4.0, 8.0, 32.0]:
            adjusted = base * cr_pow(f, d / (d - 2.0))
            cases.append((f, d / (d - 2.0)))
            for i in [1, d // 4, d // 2 - 1]:
                cases.append((adjusted, 2.0 * i / d))
for base, e in cases:
    print(f"    {{{base.hex()}, {e.hex()}, {cr_pow(base, e).hex()}}},")
