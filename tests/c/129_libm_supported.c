// OPT: O0 O1 O2 O3
// libm functions that compile (subset of q32): fmod, frexp/ldexp/scalbn,
// sin+cos of the same argument (LLVM may form sincos), repeated multiply and
// pow with integer exponents (powi), float variants, lrint-free rounding.
#include "fz_test.h"

double f_fmod(double x) { return fmod(x * x, 0.7) * 3.0 + fmod(5.0, x + 2.0); }
double f_ldexp(double x) { int e; double m = frexp(x * 3.0, &e); return ldexp(x, 3) + scalbn(x, -2) + m * m; }
double f_sincos(double x) { return sin(x) * 3.0 + cos(x) * sin(x) + cos(x); }
double f_powi(double x) { double r = 1; for (int i = 0; i < 5; i++) r *= x; return r + pow(x, 3.0) + pow(x, -2.0) + pow(x, 0.5); }
double f_sincosf(double x) { float y = (float)x; return (double)(sinf(y) * cosf(y) + fmodf(y * 3.0f, 0.9f)); }
double f_minmax(double x) { return fmax(x, 0.5) * fmin(x * x, 0.3) + fabs(x - 0.6) + copysign(x, -1.0); }

int main(void) {
  double xs[3] = {0.37, 0.81, 0.53};
  for (int k = 0; k < 3; k++) {
    double x = xs[k];
#define T(fn, tol) fz_check(#fn, __enzyme_autodiff((void *)fn, x), fz_fd1(fn, x), tol)
    T(f_fmod, 1e-6); T(f_ldexp, 1e-6); T(f_sincos, 1e-6); T(f_powi, 1e-6); T(f_minmax, 1e-6);
    fz_check("f_sincosf", __enzyme_autodiff((void *)f_sincosf, x), cos(2 * x) + 3.0, 1e-5);
  }
  return fz_finish();
}
