// OPT: O0 O1 O2 O3
// From random differential testing: -O2 folds `memmove(G + 4, G + 5, 8)` of a constant
// into `store i64 <bits of 0.5>` — an integer constant stored over doubles. Its adjoint
// is simply killed; this used to be reported as an ambiguous integer access.
// Oracle: analytic (G does not depend on the inputs, so only x and y contribute).
#include "fz_test.h"

double G[9];

double f(double *x, double *y, int n, double a) {
  for (int q = 0; q < 9; q++) G[q] = 0.1 * q;
  double sa[9];
  for (int q = 0; q < 9; q++) sa[q] = y[q] * a;
  memmove(G + 4, G + 5, sizeof(double));
  double ret = 0;
  for (int q = 0; q < n; q++) ret += x[q] * 0.6515 + sin(y[q]) + sa[q] * -0.3863 + G[q] * 0.8117;
  return ret;
}

int main(void) {
  fz_seed(141);
  double x[9], y[9], dx[9] = {0}, dy[9] = {0};
  fz_fill(x, 9, -1, 1);
  fz_fill(y, 9, -1, 1);
  double a = 0.7;
  double da = __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, 9, a);
  double want_da = 0;
  for (int q = 0; q < 9; q++) {
    fz_check("dx", dx[q], 0.6515, 1e-12);
    fz_check("dy", dy[q], cos(y[q]) - 0.3863 * a, 1e-12);
    want_da += -0.3863 * y[q];
  }
  fz_check("da", da, want_da, 1e-12);
  return fz_finish();
}
