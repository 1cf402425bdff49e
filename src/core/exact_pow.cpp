#include "core/exact_pow.h"

#include <array>
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
  // 1/n for the odd n of the series, computed once (the same division as in the loop: the same bits).
  static const auto inverse_odd = [] {
    std::array<Dd, 24> t{};
    for (int n = 47; n >= 1; n -= 2) t[static_cast<size_t>(n / 2)] = div({1.0, 0.0}, {static_cast<double>(n), 0.0});
    return t;
  }();
  Dd series{0.0, 0.0};
  for (int n = 47; n >= 1; n -= 2) series = add(mul(series, s2), inverse_odd[static_cast<size_t>(n / 2)]);
  const Dd ln_m = mul(mul(series, s), 2.0);
  return add(mul(kLn2, static_cast<double>(k)), ln_m);
}

// exp(y) = 2^k exp(j/64) exp(t): r = y - k ln 2 with |r| <= 0.347, j = round(64 r), t = r - j/64 with
// |t| <= 1/128. exp(j/64) comes from a table of the 45 values, each the Taylor series to x^30/30! (1e-32);
// exp(t) is the series to t^13/13! (the rest < 1e-33) by Horner's rule with 1/n! as double-doubles.
// Returns exp(r) and k.
Dd exp_taylor(Dd x, int terms) {  // for the table: |x| <= 0.36
  Dd sum{1.0, 0.0};
  for (int n = terms; n >= 1; --n) sum = add({1.0, 0.0}, div(mul(sum, x), {static_cast<double>(n), 0.0}));
  return sum;
}

constexpr int kExpTableHalf = 23;  // |j| <= 64 * 0.347 < 23

Dd exp_dd(Dd y, int& k) {
  static const auto table = [] {
    std::array<Dd, 2 * kExpTableHalf + 1> t{};
    for (int j = -kExpTableHalf; j <= kExpTableHalf; ++j)
      t[static_cast<size_t>(j + kExpTableHalf)] = exp_taylor({j / 64.0, 0.0}, 30);  // j/64 is exact
    return t;
  }();
  static const auto inverse_factorial = [] {
    std::array<Dd, 14> c{};
    c[0] = {1.0, 0.0};
    for (int n = 1; n < 14; ++n) c[static_cast<size_t>(n)] = div(c[static_cast<size_t>(n - 1)], {static_cast<double>(n), 0.0});
    return c;
  }();
  const double kd = std::nearbyint(y.hi / kLn2.hi);
  k = static_cast<int>(kd);
  const Dd r = add(y, mul(kLn2, -kd));
  const double j = std::nearbyint(r.hi * 64.0);
  const Dd t = add(r, {-j / 64.0, 0.0});
  Dd sum = inverse_factorial[13];
  for (int n = 12; n >= 0; --n) sum = add(mul(sum, t), inverse_factorial[static_cast<size_t>(n)]);
  return mul(table[static_cast<size_t>(static_cast<int>(j) + kExpTableHalf)], sum);
}

}  // namespace

CorrectlyRoundedPowers::CorrectlyRoundedPowers(double base)
    : base_(base), exact_(base > 0 && std::isfinite(base) && std::isnormal(base)) {
  if (!exact_ || base == 1) return;
  const Dd ln_base = log_dd(base);
  ln_hi_ = ln_base.hi;
  ln_lo_ = ln_base.lo;
}

double CorrectlyRoundedPowers::operator()(double exponent) const {
  if (!exact_ || !std::isfinite(exponent)) return std::pow(base_, exponent);
  if (exponent == 0 || base_ == 1) return 1.0;
  const Dd y = mul(Dd{ln_hi_, ln_lo_}, exponent);
  // Outside the normal range the final ldexp would round a second time: leave those to std::pow.
  if (!(std::fabs(y.hi) < 700.0)) return std::pow(base_, exponent);
  int k = 0;
  const Dd e = exp_dd(y, k);
  return std::ldexp(e.hi + e.lo, k);  // hi + lo rounds once; the power of 2 is exact for a normal result
}

double correctly_rounded_pow(double base, double exponent) { return CorrectlyRoundedPowers(base)(exponent); }

}  // namespace posenc
