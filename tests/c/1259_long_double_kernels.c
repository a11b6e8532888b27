// OPT: O0 O1 O2 O3
// `long double` kernels (x87 80-bit): a Horner polynomial, expl/logl/sqrtl, an
// accumulation over a long double array through pointers (enzyme_dup of long double
// buffers), and a typed hook returning long double for an active long double scalar.
// Oracle: analytic derivatives evaluated in long double, compared at ~1e-15 relative.
#include "fz_test.h"

extern long double __enzyme_autodiff_ld(void *, long double);

long double kern(long double x) {
  static const long double c[5] = {1.0L, -0.5L, 0.25L, 3.0L, -0.125L};
  long double p = c[4];
  for (int k = 3; k >= 0; k--) p = p * x + c[k];
  return p * expl(0.5L * x) + logl(1.0L + x * x) + sqrtl(2.0L + x);
}

long double kern_d(long double x) {
  static const long double c[5] = {1.0L, -0.5L, 0.25L, 3.0L, -0.125L};
  long double p = c[4], dp = 0;
  for (int k = 3; k >= 0; k--) {
    dp = dp * x + p;
    p = p * x + c[k];
  }
  return dp * expl(0.5L * x) + 0.5L * p * expl(0.5L * x) + 2 * x / (1 + x * x) +
         0.5L / sqrtl(2.0L + x);
}

void accumulate(const long double *a, long double *out, int n) {
  long double s = 0, q = 1;
  for (int i = 0; i < n; i++) {
    s += a[i] * a[i];
    q *= (1 + a[i] / 8);
  }
  *out = s * q;
}

int main(void) {
  long double xs[3] = {0.3L, -0.7L, 1.9L};
  char nm[48];
  for (int k = 0; k < 3; k++) {
    long double d = __enzyme_autodiff_ld((void *)kern, xs[k]);
    snprintf(nm, sizeof nm, "kern'(%g)", (double)xs[k]);
    fz_check(nm, (double)d, (double)kern_d(xs[k]), 1e-13);
  }
  long double a[5] = {0.5L, -1.25L, 2.0L, 0.75L, -0.3L}, da[5] = {0}, out, dout = 1;
  __enzyme_autodiff((void *)accumulate, enzyme_dup, a, da, enzyme_dup, &out, &dout,
                    enzyme_const, 5);
  long double s = 0, q = 1;
  for (int i = 0; i < 5; i++) s += a[i] * a[i], q *= (1 + a[i] / 8);
  for (int i = 0; i < 5; i++) {
    long double want = 2 * a[i] * q + s * q / (1 + a[i] / 8) / 8;
    snprintf(nm, sizeof nm, "d a[%d]", i);
    fz_check(nm, (double)da[i], (double)want, 1e-13);
  }
  fz_check("out primal", (double)out, (double)(s * q), 1e-15);
  return fz_finish();
}
