// OPT: O0
// CFLAGS: -std=c++17
// EXPECT-RUNTIME-ERROR: the function-local static `_ZZL5earlyvE1e` has no shadow: the static was built by a call made before any derivative
// static45: a function-local `static std::vector<double>` first built by a plain call,
// before any derivative, then read by one. At -O0 its buffer is allocated inside the
// vector's constructor, given the static's address as `this`; the pass does not follow
// that store, so the static has no shadow and the derivative stops at run time with a
// message naming the static and what to do (a shadow made lazily would need the size of
// the memory the static points to, which nothing records). It crashed with SIGSEGV before
// cxx43. At -O1 and higher the allocation is stored into the static directly and gets a
// zeroed shadow (`outside_allocations.rs`).
#include <cmath>
#include <vector>
#include "fz_cxx.h"

static const std::vector<double> &early() {
  static std::vector<double> e = [] {
    std::vector<double> t(12);
    for (int i = 0; i < 12; i++) t[i] = 2.0 - 0.1 * i;
    return t;
  }();
  return e;
}

// f = sum_i e_i x_i^3 / 3
double model(const double *x, int n) {
  const auto &e = early();
  double s = 0;
  for (int i = 0; i < n; i++) s += e[i] * x[i] * x[i] * x[i] / 3;
  return s;
}
int main() {
  const int n = 8;
  double x[n] = {0.3, -1.2, 0.7, 2.1, -0.4, 1.5, -0.9, 0.25};
  (void)early();  // built by the primal, before any derivative
  double dx[n] = {0};
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, n);
  for (int i = 0; i < n; i++) fz_check("analytic", dx[i], (2.0 - 0.1 * i) * x[i] * x[i], 1e-10);
  return fz_finish();
}
