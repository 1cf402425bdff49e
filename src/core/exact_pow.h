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

// The same powers of one base: ln(base) is computed once (a RoPE table's frequencies share their base; the
// tensor check's fits evaluate thousands of tables). powers(e) == correctly_rounded_pow(base, e), bit for bit.
class CorrectlyRoundedPowers {
 public:
  explicit CorrectlyRoundedPowers(double base);
  double operator()(double exponent) const;

 private:
  double base_;
  bool exact_;                    // base > 0, finite and normal: the double-double path
  double ln_hi_ = 0, ln_lo_ = 0;  // ln(base) as a double-double
};

}  // namespace posenc
