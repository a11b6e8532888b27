// OPT: O0 O2
// CFLAGS: -std=c++17
// `<functional>`'s transparent operator objects in `<numeric>`/`<algorithm>` calls, as
// users pass them instead of lambdas: `std::transform(a, b, out, std::plus<>{})`,
// `std::minus<>`, `std::multiplies<>` and `std::negate<>` into a scratch vector,
// `std::inner_product` with the default operations, with `(std::plus<>, std::multiplies<>)`
// spelled out and with `(std::plus<>, <squared difference lambda>)`, and `std::accumulate`
// with `std::multiplies<>` (a product). Reverse mode for the pointer inputs, forward mode
// along a direction (dot-product identity), both against central finite differences and
// the analytic gradient.
#include "fz_cxx.h"
#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <vector>

double combine(const double *x, const double *y, int n) {
  std::vector<double> s(n), d(n), p(n);
  std::transform(x, x + n, y, s.begin(), std::plus<>{});
  std::transform(x, x + n, y, d.begin(), std::minus<>{});
  std::transform(s.begin(), s.end(), d.begin(), p.begin(), std::multiplies<>{});  // x^2 - y^2
  std::transform(p.begin(), p.end(), p.begin(), std::negate<>{});                // y^2 - x^2
  double dot = std::inner_product(x, x + n, y, 0.0);
  double dot2 = std::inner_product(s.begin(), s.end(), d.begin(), 0.0, std::plus<>{},
                                   std::multiplies<>{});  // sum x^2 - y^2
  double sq = std::inner_product(x, x + n, y, 0.0, std::plus<>{},
                                 [](double a, double b) { return (a - b) * (a - b); });
  double prod = std::accumulate(s.begin(), s.begin() + 3, 1.0, std::multiplies<>{});
  double neg = std::accumulate(p.begin(), p.end(), 0.0, std::plus<>{});
  return dot + 0.5 * dot2 + 0.25 * sq + 0.1 * prod + 0.3 * neg;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 6;
  double x[n] = {0.4, -1.2, 0.9, 1.5, -0.3, 0.8}, y[n] = {1.1, 0.2, -0.7, 0.5, 1.3, -0.6};
  double dx[n] = {0}, dy[n] = {0}, fx[n], fy[n], wx[n], wy[n];
  __enzyme_autodiff<void>((void *)combine, enzyme_dup, x, dx, enzyme_dup, y, dy,
                          enzyme_const, n);
  // analytic: f = x.y + 0.5 sum(x^2 - y^2) + 0.25 |x - y|^2 + 0.1 prod_{i<3}(x_i + y_i)
  //             + 0.3 sum(y^2 - x^2)
  double pr = 1;
  for (int i = 0; i < 3; i++) pr *= x[i] + y[i];
  for (int i = 0; i < n; i++) {
    wx[i] = y[i] + x[i] + 0.5 * (x[i] - y[i]) - 0.6 * x[i];
    wy[i] = x[i] - y[i] - 0.5 * (x[i] - y[i]) + 0.6 * y[i];
    if (i < 3) {
      wx[i] += 0.1 * pr / (x[i] + y[i]);
      wy[i] += 0.1 * pr / (x[i] + y[i]);
    }
  }
  fz_check_arr("d/dx analytic", dx, wx, n, 1e-10);
  fz_check_arr("d/dy analytic", dy, wy, n, 1e-10);
  fz_fd_grad_of([&] { return combine(x, y, n); }, x, n, fx);
  fz_fd_grad_of([&] { return combine(x, y, n); }, y, n, fy);
  fz_check_arr("d/dx finite differences", dx, fx, n, 1e-6);
  fz_check_arr("d/dy finite differences", dy, fy, n, 1e-6);
  double vx[n] = {0.3, -0.1, 0.7, 0.2, -0.5, 0.4}, vy[n] = {-0.2, 0.6, 0.1, -0.4, 0.3, 0.9};
  double jv = __enzyme_fwddiff<double>((void *)combine, enzyme_dup, x, vx, enzyme_dup, y, vy,
                                       enzyme_const, n);
  double want = 0;
  for (int i = 0; i < n; i++) want += dx[i] * vx[i] + dy[i] * vy[i];
  fz_check("forward J.v == <grad, v>", jv, want, 1e-10);
  return fz_finish();
}
