// OPT: O0
// A lambda capturing a loop index and a length by reference, and a double array, used
// inside the differentiated function (difftest's "lambda" feature). Oracle: analytic.
#include <cmath>
#include "../c/fz_test.h"

double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    auto term = [&](double u) -> double { return u * x[(i + 1) % n] + (double)i; };
    s += term(x[i]);
  }
  return s;
}

int main() {
  fz_seed(90);
  double x[5], dx[5];
  fz_fill(x, 5, -1, 1);
  fz_zero(dx, 5);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 5);
  for (int i = 0; i < 5; i++) fz_check("grad", dx[i], x[(i + 1) % 5] + x[(i + 4) % 5], 1e-12);
  return fz_finish();
}
