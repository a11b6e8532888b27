// OPT: O0 O1 O2 O3
// `_Complex double` arithmetic kernels: a polynomial evaluated by Horner in complex
// arithmetic (`__muldc3` at -O0), a complex division, cexp, and |z|^2 of the result,
// with the complex inputs in `double _Complex` arrays (enzyme_dup of the arrays: the
// shadow holds d/dRe + i d/dIm of the real loss), and complex coefficients as const.
// Oracle: Wirtinger calculus: for real L(z), dRe + i dIm = 2 dL/dconj(z), checked against
// central differences of the real and imaginary parts.
#include <complex.h>
#include "fz_test.h"

enum { N = 3, D = 4 };

double loss(const double _Complex *z, const double _Complex *coef, int n, int d) {
  double L = 0;
  for (int k = 0; k < n; k++) {
    double _Complex p = coef[d - 1];
    for (int j = d - 2; j >= 0; j--) p = p * z[k] + coef[j];
    double _Complex q = p / (1.0 + 0.5 * z[k] * z[k]) + cexp(0.3 * z[k]);
    L += creal(q * conj(q)) * (k + 1);
  }
  return L;
}

static double _Complex g_z[N], g_c[D];
static double eval(void *c) {
  (void)c;
  return loss(g_z, g_c, N, D);
}

int main(void) {
  g_z[0] = 0.4 + 0.3 * I;
  g_z[1] = -0.8 + 0.1 * I;
  g_z[2] = 0.2 - 0.9 * I;
  g_c[0] = 1.0 - 0.5 * I;
  g_c[1] = 0.25 + 0.75 * I;
  g_c[2] = -0.5;
  g_c[3] = 0.1 * I;
  double _Complex dz[N] = {0};
  __enzyme_autodiff((void *)loss, enzyme_dup, g_z, dz, enzyme_const, g_c, enzyme_const, N,
                    enzyme_const, D);
  char nm[48];
  for (int k = 0; k < N; k++) {
    double *re = (double *)&g_z[k];
    snprintf(nm, sizeof nm, "d Re z[%d]", k);
    fz_check(nm, creal(dz[k]), fz_fd_ptr(eval, NULL, re), 1e-6);
    snprintf(nm, sizeof nm, "d Im z[%d]", k);
    fz_check(nm, cimag(dz[k]), fz_fd_ptr(eval, NULL, re + 1), 1e-6);
  }
  /* coefficients active too */
  double _Complex dz2[N] = {0}, dc[D] = {0};
  __enzyme_autodiff((void *)loss, enzyme_dup, g_z, dz2, enzyme_dup, g_c, dc, enzyme_const, N,
                    enzyme_const, D);
  for (int j = 0; j < D; j++) {
    double *re = (double *)&g_c[j];
    snprintf(nm, sizeof nm, "d Re c[%d]", j);
    fz_check(nm, creal(dc[j]), fz_fd_ptr(eval, NULL, re), 1e-6);
    snprintf(nm, sizeof nm, "d Im c[%d]", j);
    fz_check(nm, cimag(dc[j]), fz_fd_ptr(eval, NULL, re + 1), 1e-6);
  }
  for (int k = 0; k < N; k++) fz_check("same dz twice", cabs(dz2[k] - dz[k]), 0, 1e-12);
  return fz_finish();
}
