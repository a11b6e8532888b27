// OPT: O0 O1 O2
// CFLAGS: -std=c++17
// `std::accumulate` over a `std::vector<double>` copy of the input with a lambda that
// captures by reference: an active scale factor, a running count of positive terms and a
// side sum written inside the fold (both read after it), and `std::inner_product` with
// two lambdas; `std::transform` into a second vector first. Oracle: the analytic
// gradient and central differences.
#include "fz_cxx.h"
#include <cmath>
#include <numeric>
#include <vector>
#include <algorithm>

double fold(const double *x, int n, double scale) {
  std::vector<double> v(x, x + n), sq(n);
  std::transform(v.begin(), v.end(), sq.begin(), [](double a) { return a * a; });
  int positives = 0;
  double side = 0.0;
  double total = std::accumulate(v.begin(), v.end(), 0.0, [&](double acc, double a) {
    if (a > 0) positives++;
    side += scale * a;
    return acc + scale * std::exp(0.5 * a);
  });
  double ip = std::inner_product(v.begin(), v.end(), sq.begin(), 0.0,
                                 [](double a, double b) { return a + b; },
                                 [&scale](double a, double b) { return a * b * scale; });
  return total + side * side + positives * ip;
}

extern int enzyme_dup, enzyme_const, enzyme_out;

int main() {
  const int n = 6;
  double x[n] = {0.4, -0.9, 1.3, 0.2, -0.1, 0.7}, dx[n] = {0}, fd[n], want[n], s = 1.7;
  double ds = __enzyme_autodiff<double>((void *)fold, enzyme_dup, x, dx, enzyme_const, n,
                                        enzyme_out, s);
  int pos = 0;
  double side = 0, ip = 0, sume = 0;
  for (int i = 0; i < n; i++) {
    pos += x[i] > 0;
    side += s * x[i];
    ip += s * x[i] * x[i] * x[i];
    sume += std::exp(0.5 * x[i]);
  }
  for (int i = 0; i < n; i++)
    want[i] = 0.5 * s * std::exp(0.5 * x[i]) + 2 * side * s + pos * 3 * s * x[i] * x[i];
  fz_check_arr("d/dx analytic", dx, want, n, 1e-10);
  fz_check("d/dscale analytic", ds, sume + 2 * side * side / s + pos * ip / s, 1e-10);
  fz_fd_grad_of([&] { return fold(x, n, s); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  fz_check("d/dscale finite differences", ds, fz_fd([&] { return fold(x, n, s); }, s), 1e-6);
  return fz_finish();
}
