// OPT: O0
// IGNORE: at -O0 a lambda capturing an int by reference reads it through a pointer kept in the closure; type analysis does not follow that pointer to the caller's int slot, so the load is refused as ambiguous (cannot-deduce-type; difftest C++ seeds 112, 116, 118, 136, 144). Passes at -O1 and above.
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
