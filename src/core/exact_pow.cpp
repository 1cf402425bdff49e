#include "core/exact_pow.h"

#include <cmath>

namespace posenc {

namespace {

// A double-double: the unevaluated sum hi + lo with |lo| <= ulp(hi) / 2 (Dekker 1971, Knuth TAOCP 4.2.2).
struct Dd {
  double hi;
  double lo;
};

Dd two_sum(double a, double b) {
  const double s = a + b;
  const double v = s - a;
  return {s, (a - (s - v)) + (b - v)};
}

Dd fast_two_sum(double a, double b) {  // |a| >= |b|
  const double s = a + b;
  return {s, b - (s - a)};
}

Dd two_prod(double a, double b) {
  const double p = a * b;
  return {p, std::fma(a, b, -p)};
}

Dd add(Dd a, Dd b) {
  const Dd s = two_sum(a.hi, b.hi);
  const Dd t = two_sum(a.lo, b.lo);
  Dd r = fast_two_sum(s.hi, s.lo + t.hi);
  return fast_two_sum(r.hi, r.lo + t.lo);
}

Dd mul(Dd a, Dd b) {
  const Dd p = two_prod(a.hi, b.hi);
  return fast_two_sum(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi));
}

Dd mul(Dd a, double b) {
  const Dd p = two_prod(a.hi, b);
  return fast_two_sum(p.hi, p.lo + a.lo * b);
}

Dd div(Dd a, Dd b) {  // two correction steps of the quotient's long division
  const double q1 = a.hi / b.hi;
  Dd r = add(a, mul(b, -q1));
  const double q2 = r.hi / b.hi;
  r = add(r, mul(b, -q2));
  const double q3 = r.hi / b.hi;
  const Dd q = fast_two_sum(q1, q2);
  return add(q, {q3, 0.0});
}

// ln 2 to 107 bits (hi is the double nearest ln 2, lo the double nearest the rest).
constexpr Dd kLn2{0x1.62e42fefa39efp-1, 0x1.abc9e3b39803fp-56};

// ln(base) for base > 0 finite normal: base = m * 2^k with m in [sqrt(1/2), sqrt(2)), ln m = 2 atanh(s) with
// s = (m - 1) / (m + 1), |s| <= 0.172, so s^2 <= 0.0295 and 24 odd terms reach 1e-36.
Dd log_dd(double base) {
  int k = 0;
  double m = std::frexp(base, &k);  // m in [0.5, 1), exact
  if (m < 0x1.6a09e667f3bcdp-1) {
    m *= 2;  // exact
    --k;
  }
  const Dd s = div({m - 1.0, 0.0}, two_sum(m, 1.0));  // m - 1 is exact (Sterbenz)
  const Dd s2 = mul(s, s);
  Dd series{0.0, 0.0};
  for (int n = 47; n >= 1; n -= 2) series = add(mul(series, s2), div({1.0, 0.0}, {static_cast<double>(n), 0.0}));
  const Dd ln_m = mul(mul(series, s), 2.0);
  return add(mul(kLn2, static_cast<double>(k)), ln_m);
}

// exp(y) = 2^k exp(r), r = y - k ln 2 with |r| <= 0.347; the Taylor series to r^30/30! reaches 1e-32.
// Returns exp(r) and k.
Dd exp_dd(Dd y, int& k) {
  const double kd = std::nearbyint(y.hi / kLn2.hi);
  k = static_cast<int>(kd);
  const Dd r = add(y, mul(kLn2, -kd));
  Dd sum{1.0, 0.0};
  for (int n = 30; n >= 1; --n) sum = add({1.0, 0.0}, div(mul(sum, r), {static_cast<double>(n), 0.0}));
  return sum;
}

}  // namespace

double correctly_rounded_pow(double base, double exponent) {
  if (!(base > 0) || !std::isfinite(base) || !std::isfinite(exponent) || !std::isnormal(base)) return std::pow(base, exponent);
  if (exponent == 0 || base == 1) return 1.0;
  const Dd ln_base = log_dd(base);
  const Dd y = mul(ln_base, exponent);
  // Outside the normal range the final ldexp would round a second time: leave those to std::pow.
  if (!(std::fabs(y.hi) < 700.0)) return std::pow(base, exponent);
  int k = 0;
  const Dd e = exp_dd(y, k);
  return std::ldexp(e.hi + e.lo, k);  // hi + lo rounds once; the power of 2 is exact for a normal result
}

}  // namespace posenc
