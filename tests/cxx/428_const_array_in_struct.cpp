// OPT: O0 O2
// CFLAGS: -std=c++20
// `std::array`s in an `enzyme_const` struct (a 3x3 matrix as `std::array<std::array<double,
// 3>, 3>`, a bias `std::array<double, 3>`, read by index, range-for and `std::inner_product`),
// with an active input. Oracle: the analytic gradient, central differences, forward/reverse
// dot product, and the constant struct unchanged.
#include "fz_cxx.h"
#include <array>
#include <cmath>
#include <numeric>

struct Layer {
  std::array<std::array<double, 3>, 3> W;
  std::array<double, 3> b;
  int act;
};

double model(const double *x, const Layer *L, int n) {
  double s = 0;
  for (int i = 0; i < 3; i++) {
    double z = std::inner_product(L->W[i].begin(), L->W[i].end(), x, L->b[i]);
    s += L->act ? std::tanh(z) : z;
  }
  for (double bi : L->b) s += bi * x[n - 1] * x[n - 1];
  return s;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 3;
  double x[n] = {0.3, -0.5, 0.8}, dx[n] = {0}, fd[n], want[n] = {0};
  Layer L{{{{0.5, -0.25, 0.1}, {0.3, 0.7, -0.4}, {-0.6, 0.2, 0.9}}}, {0.1, -0.2, 0.05}, 1};
  const Layer L0 = L;
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, &L, enzyme_const, n);
  fz_check("enzyme_const struct unchanged", L.W == L0.W && L.b == L0.b ? 1 : 0, 1, 0);
  for (int i = 0; i < 3; i++) {
    double z = L0.b[i];
    for (int j = 0; j < 3; j++) z += L0.W[i][j] * x[j];
    double t = std::tanh(z);
    for (int j = 0; j < 3; j++) want[j] += (1 - t * t) * L0.W[i][j];
  }
  want[n - 1] += 2 * (0.1 - 0.2 + 0.05) * x[n - 1];
  fz_check_arr("d/dx analytic", dx, want, n, 1e-12);
  fz_fd_grad_of([&] { return model(x, &L0, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  double v[n] = {0.5, -0.2, 0.3}, dv = 0;
  for (int k = 0; k < n; k++) dv += want[k] * v[k];
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, v, enzyme_const, &L,
                                       enzyme_const, n);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  return fz_finish();
}
