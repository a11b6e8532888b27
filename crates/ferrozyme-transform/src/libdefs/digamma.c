/* The digamma function psi(x) = d/dx log Gamma(x), which the derivatives of lgamma and
 * tgamma use (`ferrozyme_rules::special::digamma` is the same algorithm in Rust, with
 * its tests). Compiled to digamma.ll by tools/gen_libdefs.sh; the transform links it
 * into a module (internal) the first time a rule needs it (`lower.rs`).
 *
 * Poles (NaN) at 0, -1, -2, ...; for x < 0 the reflection psi(x) = psi(1 - x) -
 * pi / tan(pi x); then psi(x) = psi(x + 1) - 1/x up to x >= 10, where the asymptotic
 * series log x - 1/(2x) - sum B_2k / (2k x^2k) to x^-14 is accurate to ~1e-16. */
double __builtin_log(double);
double __builtin_tan(double);
double __builtin_floor(double);

double __fz_digamma(double x) {
  const double pi = 3.14159265358979323846;
  double r = 0.0;
  if (x != x || (x <= 0.0 && x == __builtin_floor(x)))
    return __builtin_nan("");
  if (x < 0.0) {
    r = -pi / __builtin_tan(pi * x);
    x = 1.0 - x;
  }
  while (x < 10.0) {
    r -= 1.0 / x;
    x += 1.0;
  }
  double f = 1.0 / (x * x);
  double t = f * (-1.0 / 12.0 +
                  f * (1.0 / 120.0 +
                       f * (-1.0 / 252.0 +
                            f * (1.0 / 240.0 +
                                 f * (-1.0 / 132.0 + f * (691.0 / 32760.0 + f * (-1.0 / 12.0)))))));
  return r + __builtin_log(x) - 0.5 / x + t;
}
