// OPT: O0 O2
// CFLAGS: -std=c++17
// Printing from the differentiated code, as real code does: std::cout << with strings,
// ints and doubles, std::endl, std::cerr, and printf/snprintf. The stream calls are
// inactive library functions (they write characters, not derivatives); the derivative
// is unchanged by them. Oracle: analytic.
#include "fz_cxx.h"
#include <cstdio>
#include <iostream>

double traced(double x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    s += x * x * (i + 1);
    std::cout << "step " << i << " s=" << s << std::endl;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", s);
  std::cerr << "traced(" << x << ") = " << buf << '\n';
  std::printf("done %d\n", n);
  return s;
}

int main() {
  double x = 1.25;
  double d = __enzyme_autodiff((void *)traced, x, enzyme_const, 4);
  fz_check("d", d, 2 * x * (1 + 2 + 3 + 4), 1e-12);
  return fz_finish();
}
