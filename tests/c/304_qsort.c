// OPT: O0 O2
// qsort of doubles with a comparator function inside the differentiated function (a
// median-of-window filter); the derivative follows the permutation. Oracle: finite
// differences (distinct inputs, away from ties).
#include "fz_test.h"

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double median_energy(const double *x, int n) {
  double w[16];
  for (int i = 0; i < n; i++) w[i] = x[i] * (1.0 + 0.01 * i);
  qsort(w, n, sizeof(double), cmp_double);
  double s = 0;
  for (int i = 0; i < n; i++) s += w[i] * w[i] * (i + 1);
  return s;
}

static double X[8];
static double eval(void *c) { return median_energy((const double *)c, 8); }

int main(void) {
  double dx[8], fd[8];
  for (int i = 0; i < 8; i++) X[i] = (i % 2 ? 1 : -1) * (0.1 + 0.13 * i);
  fz_zero(dx, 8);
  __enzyme_autodiff((void *)median_energy, enzyme_dup, X, dx, enzyme_const, 8);
  fz_fd_grad(eval, X, X, 8, fd);
  fz_check_arr("dx", dx, fd, 8, 1e-6);
  return fz_finish();
}
