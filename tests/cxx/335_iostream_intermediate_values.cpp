// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Printing intermediate values from inside the differentiated function, the way users
// debug: `std::cout << x` with `std::setprecision`/`std::fixed`/`std::scientific`
// manipulators and `std::setw`, `std::cerr` of an active value, `printf("%g")` in a
// loop, `std::ostringstream` building a log line whose length feeds an integer branch
// (inactive), and `std::endl` flushes. The output goes to stdout/stderr (the harness only
// reads `ok`/`PASS` lines). Oracle: analytic.
#include "fz_cxx.h"
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>

extern int enzyme_dup, enzyme_const, enzyme_out;

double traced(const double *x, int n) {
  double s = 0;
  std::ostringstream log;
  for (int i = 0; i < n; i++) {
    double t = std::sin(x[i]) * x[i];
    s += t;
    std::cout << "  step " << std::setw(2) << i << " t=" << std::setprecision(6) << std::fixed << t
              << " s=" << std::scientific << s << '\n';
    printf("  printf s=%g x=%.3f\n", s, x[i]);
    log << i << ":" << t << ";";
  }
  std::cerr << "  (stderr) final s=" << s << std::endl;
  std::string line = log.str();
  if (line.size() > 1000) s *= 2.0;  // never: the log is short
  std::cout << std::defaultfloat;
  return s * s;
}

int main() {
  const int n = 4;
  double x[n] = {0.3, -1.2, 0.75, 2.1}, dx[n] = {0};
  __enzyme_autodiff<void>((void *)traced, enzyme_dup, x, dx, enzyme_const, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += std::sin(x[i]) * x[i];
  for (int i = 0; i < n; i++) {
    char b[32];
    snprintf(b, sizeof b, "d/dx[%d]", i);
    fz_check(b, dx[i], 2 * s * (std::cos(x[i]) * x[i] + std::sin(x[i])), 1e-12);
  }
  return fz_finish();
}
