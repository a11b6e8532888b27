// OPT: O0 O1 O2 O3
// A loop whose trip count is an argument: Horner evaluation of a polynomial
// with coefficient array c[0..n] (c active too) at an active point x.
#include "fz_test.h"

double horner(const double *c, int n, double x) {
  double r = c[n];
  for (int i = n - 1; i >= 0; i--) r = r * x + c[i];
  return r;
}

#define NMAX 12

int main(void) {
  fz_seed(37);
  double c[NMAX + 1], dc[NMAX + 1], want[NMAX + 1];
  fz_fill(c, NMAX + 1, -1, 1);
  for (int n = 0; n <= NMAX; n += 3) {
    double x = fz_uniform(-1.2, 1.2);
    fz_zero(dc, NMAX + 1);
    double dxv = __enzyme_autodiff((void *)horner, enzyme_dup, c, dc, enzyme_const, n, x);
    double wx = 0;
    for (int k = 1; k <= n; k++) wx += k * c[k] * pow(x, k - 1);
    for (int k = 0; k <= NMAX; k++) want[k] = k <= n ? pow(x, k) : 0.0;
    char what[40];
    snprintf(what, sizeof what, "dx n=%d", n);
    fz_check(what, dxv, wx, 1e-10);
    snprintf(what, sizeof what, "dc n=%d", n);
    fz_check_arr(what, dc, want, NMAX + 1, 1e-10);
  }
  return fz_finish();
}
