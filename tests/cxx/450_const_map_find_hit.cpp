// OPT: O0 O2
// A constant `std::map<int, double>` of coefficients looked up with `find` (one key present,
// one absent) beside the active array, as code reads a sparse table. Oracle: the analytic
// gradient, central differences, forward vs reverse (dot product), the map unchanged.
#include "fz_cxx.h"
#include <cmath>
#include <map>

double model(const double *x, const std::map<int, double> &cm, int n) {
  double t = 0;
  for (int i = 0; i < n; i++) t += x[i] * x[i];
  auto hit = cm.find(4);  // present: 2.5
  if (hit != cm.end()) t += hit->second * std::sin(x[1]);
  auto miss = cm.find(3);  // absent
  if (miss != cm.end()) t += miss->second * x[2];
  else t += 0.5 * x[2];
  return t;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 3;
  std::map<int, double> cm;
  for (int i = 0; i < 4; i++) cm[2 * i] = 0.5 + i;
  const std::map<int, double> cm0 = cm;
  double x[n] = {0.4, -0.7, 1.1}, dx[n] = {0}, fd[n];
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, &cm, enzyme_const, n);
  fz_check("enzyme_const map unchanged", cm == cm0 ? 1 : 0, 1, 0);
  double want[n] = {2 * x[0], 2 * x[1] + 2.5 * std::cos(x[1]), 2 * x[2] + 0.5};
  fz_check_arr("d/dx analytic", dx, want, n, 1e-12);
  fz_fd_grad_of([&] { return model(x, cm0, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  double v[n] = {0.5, -0.2, 0.3}, dv = 0;
  for (int k = 0; k < n; k++) dv += want[k] * v[k];
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, v, enzyme_const, &cm, enzyme_const, n);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  fz_check("enzyme_const map unchanged (forward)", cm == cm0 ? 1 : 0, 1, 0);
  return fz_finish();
}
