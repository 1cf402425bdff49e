// The correctly rounded power base^exponent from IEEE-exact operations only (+, -, *, /, fma), so the page
// (emscripten's musl libm) and the CLI (glibc) compute every RoPE frequency to the same bit: emscripten
// 3.1.6's pow(500000, 62/128) is one ulp off glibc's, which is correctly rounded there.
#pragma once

namespace posenc {

// base^exponent rounded to nearest double, for base > 0 finite and exponent finite, with a normal result:
// ln(base) and exp(y) in double-double (about 1e-30 relative) and one final rounding. Any other input
// (base <= 0, a non-finite argument, an overflowing or subnormal result) is std::pow's, whose special
// values IEEE 754 fixes on every platform.
double correctly_rounded_pow(double base, double exponent);

}  // namespace posenc
