// OPT: O0 O1 O2 O3
// libm functions users reach for that the older libm programs do not cover together:
// tgamma/lgamma (rules through the digamma function, linked as `__fz_digamma`), the
// Bessel functions j0/j1/y0/y1, erf/erfc, expm1/log1p, exp2/log2/log10, cbrt, hypot, atan2 (both
// arguments active), pow with an active exponent, fdim, fma, asinh/acosh/atanh,
// remainder, and float variants (tgammaf, erff, hypotf, atan2f). Each derivative
// against central finite differences of the primal and, where short, a hand-written
// formula; forward mode against reverse mode; the second derivative of lgamma (forward
// over reverse and reverse over reverse, which differentiate `__fz_digamma` itself)
// against the trigamma series.
// Before sweep9, tgamma, lgamma, remainder and the Bessel functions were
// missing-derivative errors.
#include "fz_test.h"

double f_gamma(double x) { return tgamma(x) + 2.0 * lgamma(x + 1.5); }
double f_erf(double x) { return erf(x) * 3.0 - erfc(0.5 * x); }
double f_exp1(double x) { return expm1(x) * log1p(x * x); }
double f_exp2(double x) { return exp2(x) + log2(x + 3.0) - 0.5 * log10(x + 4.0); }
double f_cbrt(double x) { return cbrt(x * x + 1.0) + cbrt(x - 5.0); }
double f_hyp(double x) { return asinh(x) + acosh(x + 2.0) + atanh(0.5 * x); }
double f_rem(double x) { return remainder(7.0 * x, 1.3) + fdim(x, 0.2) + fdim(0.1, x); }
double f_fma(double x) { return fma(x, x + 1.0, sin(x)) + fma(2.0, x, 3.0); }
extern float __enzyme_autodiff_f(void *, ...);
double f_bessel(double x) { return j0(x) + j1(2.0 * x) + y0(x + 1.0) + 3.0 * y1(x + 0.5); }
double f_lgam(double x) { return lgamma(x); }
extern double __enzyme_fwddiff(void *, ...);
double d_lgam(double x) { return __enzyme_autodiff((void *)f_lgam, x); }
double f_mix(double x) { return lgamma(x) * j0(x) + tgamma(x); }
double d_mix(double x) { return __enzyme_autodiff((void *)f_mix, x); }

float g_float(float x) { return tgammaf(x + 1.0f) + erff(x) + hypotf(x, 2.0f) + atan2f(x, 1.5f); }

double h2(double x, double y) { return hypot(x, y) * atan2(y, x) + pow(x, y); }

int main(void) {
  double xs[3] = {0.37, 0.81, 0.53};
  for (int k = 0; k < 3; k++) {
    double x = xs[k];
#define T(fn, tol) fz_check(#fn, __enzyme_autodiff((void *)fn, x), fz_fd1(fn, x), tol)
    T(f_gamma, 1e-6); T(f_erf, 1e-6); T(f_exp1, 1e-6); T(f_exp2, 1e-6);
    T(f_cbrt, 1e-6); T(f_hyp, 1e-6); T(f_rem, 1e-6); T(f_fma, 1e-6); T(f_bessel, 1e-6);
    fz_check("bessel analytic", __enzyme_autodiff((void *)f_bessel, x),
             -j1(x) + 2.0 * (j0(2 * x) - j1(2 * x) / (2 * x)) - y1(x + 1.0) +
                 3.0 * (y0(x + 0.5) - y1(x + 0.5) / (x + 0.5)), 1e-12);
    fz_check("fwd gamma", __enzyme_fwddiff((void *)f_gamma, x, 1.0),
             __enzyme_autodiff((void *)f_gamma, x), 1e-13);
    fz_check("fwd bessel", __enzyme_fwddiff((void *)f_bessel, x, 1.0),
             __enzyme_autodiff((void *)f_bessel, x), 1e-13);
    // psi'(x) = sum_k 1/(x+k)^2: 200000 terms plus the tail 1/(x+N) - 1/(2(x+N)^2)
    double tri = 0.0;
    for (int j = 199999; j >= 0; j--) tri += 1.0 / ((x + j) * (x + j));
    tri += 1.0 / (x + 200000.0) - 0.5 / ((x + 200000.0) * (x + 200000.0));
    fz_check("lgamma second derivative (fwd over rev)", __enzyme_fwddiff((void *)d_lgam, x, 1.0), tri, 1e-9);
    fz_check("lgamma second derivative (rev over rev)", __enzyme_autodiff((void *)d_lgam, x), tri, 1e-9);
    // second derivative of lgamma * j0 + tgamma: reverse over reverse vs forward over
    // reverse vs central differences of the first derivative
    double rr = __enzyme_autodiff((void *)d_mix, x);
    fz_check("mix rev over rev vs fwd over rev", rr, __enzyme_fwddiff((void *)d_mix, x, 1.0), 1e-12);
    fz_check("mix rev over rev vs fd", rr, fz_fd1(d_mix, x), 1e-6);
    // analytic
    double de = 3.0 * 2.0 / sqrt(M_PI) * exp(-x * x) + 0.5 * 2.0 / sqrt(M_PI) * exp(-0.25 * x * x);
    fz_check("erf analytic", __enzyme_autodiff((void *)f_erf, x), de, 1e-12);
    double dc = (2.0 * x / 3.0) * pow(x * x + 1.0, -2.0 / 3.0) + (1.0 / 3.0) * pow(5.0 - x, -2.0 / 3.0);
    fz_check("cbrt analytic", __enzyme_autodiff((void *)f_cbrt, x), dc, 1e-12);
    float xf = (float)x;
    float gf = __enzyme_autodiff_f((void *)g_float, xf);
    double xd = xf, eps = 1e-3;
    double want = (tgamma(xd + 1 + eps) - tgamma(xd + 1 - eps)) / (2 * eps) +
                  2.0 / sqrt(M_PI) * exp(-xd * xd) + xd / hypot(xd, 2.0) + 1.5 / (xd * xd + 2.25);
    fz_check("float variants", gf, want, 2e-4);
    // two active arguments (atan2 and pow differentiated in both)
    double y = 0.9 + 0.1 * k;
    fz_grad2 g = __enzyme_autodiff2((void *)h2, x, y);
    double r = hypot(x, y), th = atan2(y, x);
    fz_check("h2 dx", g.d0, x / r * th + r * (-y / (r * r)) + y * pow(x, y - 1.0), 1e-12);
    fz_check("h2 dy", g.d1, y / r * th + r * (x / (r * r)) + pow(x, y) * log(x), 1e-12);
  }
  return fz_finish();
}
