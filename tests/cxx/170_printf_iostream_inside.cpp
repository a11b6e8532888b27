// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Printing from inside the differentiated function (sweep19), as users debug: `printf`
// of active values, `std::cout << ... << std::endl` with doubles, ints and strings,
// `std::cerr`, and a `std::ostringstream` whose text is printed at the end. The output is
// a side effect of the primal only (it must appear, and the derivative must not change).
// Oracles: the analytic gradient, and the primal's printed lines counted by the caller.
#include "fz_cxx.h"
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

static int calls = 0;

double energy(const double *x, int n) {
  double e = 0;
  std::ostringstream log;
  for (int i = 0; i < n; i++) {
    double t = x[i] * x[i] * std::exp(0.1 * x[i]);
    if (i == 0) std::printf("energy: x[0] = %.3f term = %.4f\n", x[i], t);
    e += t;
    log << " " << i << ":" << t;
  }
  std::cout << "energy total " << e << " over " << n << " terms" << std::endl;
  std::cerr << "log:" << log.str() << "\n";
  calls++;
  return e;
}

int main() {
  const int n = 4;
  double x[n] = {0.5, -1.0, 2.0, 0.25}, dx[n] = {0};
  __enzyme_autodiff<void>((void *)energy, enzyme_dup, x, dx, enzyme_const, n);
  for (int i = 0; i < n; i++)
    fz_check("d/dx_i x^2 e^{0.1x}", dx[i], (2 * x[i] + 0.1 * x[i] * x[i]) * std::exp(0.1 * x[i]), 1e-13);
  double v[n] = {1, 0, 0, 0};
  double t = __enzyme_fwddiff<double>((void *)energy, enzyme_dup, x, v, enzyme_const, n);
  fz_check("forward e_0", t, dx[0], 1e-13);
  fz_check("the primal ran (and printed) in each derivative", calls >= 2 ? 1.0 : 0.0, 1.0, 0);
  return fz_finish();
}
