// OPT: O0 O1 O2 O3
// A fixed-size stack array (double tmp[8]) holding intermediates.
#include "fz_test.h"

double f(const double *x, double a) {
  double tmp[8];
  for (int i = 0; i < 8; i++) tmp[i] = a * x[i];
  for (int i = 1; i < 8; i++) tmp[i] += tmp[i - 1] * 0.5;
  double s = 0.0;
  for (int i = 0; i < 8; i++) s += tmp[i] * tmp[i];
  return s;
}

struct ctx { double *x; double a; };
static double eval(void *c) { struct ctx *k = c; return f(k->x, k->a); }

int main(void) {
  fz_seed(43);
  double x[8], dx[8], fd[8];
  fz_fill(x, 8, -1, 1);
  double a = fz_uniform(0.5, 2);
  fz_zero(dx, 8);
  double da = __enzyme_autodiff((void *)f, enzyme_dup, x, dx, a);
  struct ctx c = {x, a};
  fz_fd_grad(eval, &c, x, 8, fd);
  fz_check_arr("dx fd", dx, fd, 8, 1e-6);
  fz_check("da fd", da, fz_fd_ptr(eval, &c, &c.a), 1e-6);
  /* f is homogeneous of degree 2 in a: df/da = 2 f / a */
  fz_check("da analytic", da, 2.0 * f(x, a) / a, 1e-10);
  return fz_finish();
}
