// OPT: O0 O2 O3
// CFLAGS: -std=c++17
// A `std::vector<double>` grown by `push_back` from active values, then read backwards:
// Horner's rule over `rbegin()`/`rend()`, and `std::accumulate` over reverse iterators
// with a discount. At -O1 and up the reverse loop is a pointer stepping by -8 down to the
// buffer's start, and nothing else says what the reallocated buffer holds (the new
// element is stored at a byte distance `end - begin`): `push_back`'s `memmove` of the old
// buffer was refused as an untyped copy ("cannot deduce the type of the memory copied
// here"). Type analysis now takes a fresh allocation compared with a pointer walking
// doubles for an array of doubles (`types/engine/compared.rs`).
// Oracle: the analytic gradient, central differences, forward/reverse dot products.
#include "fz_cxx.h"
#include <cmath>
#include <iterator>
#include <numeric>
#include <vector>

double model(const double *x, int n) {
  std::vector<double> c;
  for (int i = 0; i < n; i++) c.push_back(x[i] * x[i]);
  double y = 0;
  for (auto it = c.rbegin(); it != c.rend(); ++it) y = y * 0.5 + *it;
  double d = std::accumulate(c.rbegin(), c.rend(), 0.0,
                             [](double acc, double v) { return 0.9 * acc + std::sin(v); });
  return y + d;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 7;
  double x[n], dx[n] = {0}, fd[n], want[n];
  for (int i = 0; i < n; i++) x[i] = 0.3 + 0.2 * i - 0.1 * (i % 2);
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, n);
  // y = sum_i 0.5^i c_i ; d = sum_i 0.9^i sin(c_i), c_i = x_i^2
  for (int i = 0; i < n; i++)
    want[i] = 2 * x[i] * (std::pow(0.5, i) + std::pow(0.9, i) * std::cos(x[i] * x[i]));
  fz_check_arr("d/dx analytic", dx, want, n, 1e-12);
  fz_fd_grad_of([&] { return model(x, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  double v[n], dv = 0;
  for (int i = 0; i < n; i++) v[i] = std::cos(1.0 + i);
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, v, enzyme_const, n);
  for (int i = 0; i < n; i++) dv += dx[i] * v[i];
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  return fz_finish();
}
