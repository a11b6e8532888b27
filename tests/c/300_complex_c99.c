// OPT: O0 O2
// C99 double _Complex arithmetic: multiply (__muldc3), divide (__divdc3), cabs, cexp;
// the complex values come from a double array. The helpers have no IR: derivative code
// calls Ferrozyme's differentiable definitions of them (transform's libdefs). (Until
// those existed this was tests/errors/complex_muldc3.c.) Oracle: finite differences.
#include <complex.h>
#include "fz_test.h"

double f(const double *p, int n) {
  double _Complex z = 1.0;
  for (int k = 0; k < n; k++) {
    double _Complex w = p[2 * k] + I * p[2 * k + 1];
    z = z * w + 0.1 * w * w;
  }
  return creal(z) * cimag(z) + creal(z);
}

double fdiv(const double *p) {
  double _Complex a = p[0] + I * p[1], b = p[2] + I * p[3];
  double _Complex q = a / b;
  return creal(q) + 2.0 * cimag(q);
}

double fabsexp(const double *p) {
  double _Complex a = p[0] + I * p[1];
  return cabs(a) + creal(cexp(a)) * cimag(cexp(a));
}

#define N 5
struct ctx { double *p; int w; };
static double eval(void *c) {
  struct ctx *k = c;
  if (k->w == 0) return f(k->p, N);
  if (k->w == 1) return fdiv(k->p);
  return fabsexp(k->p);
}

int main(void) {
  fz_seed(108);
  double p[2 * N], dp[2 * N], fd[2 * N];
  fz_fill(p, 2 * N, -1, 1);
  fz_zero(dp, 2 * N);
  __enzyme_autodiff((void *)f, enzyme_dup, p, dp, enzyme_const, N);
  struct ctx c = {p, 0};
  fz_fd_grad(eval, &c, p, 2 * N, fd);
  fz_check_arr("dcmul", dp, fd, 2 * N, 1e-6);

  fz_zero(dp, 4);
  __enzyme_autodiff((void *)fdiv, enzyme_dup, p, dp);
  c.w = 1;
  fz_fd_grad(eval, &c, p, 4, fd);
  fz_check_arr("dcdiv", dp, fd, 4, 1e-6);

  fz_zero(dp, 2);
  __enzyme_autodiff((void *)fabsexp, enzyme_dup, p, dp);
  c.w = 2;
  fz_fd_grad(eval, &c, p, 2, fd);
  fz_check_arr("dcabs_cexp", dp, fd, 2, 1e-6);
  return fz_finish();
}
