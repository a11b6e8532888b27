// OPT: O0 O2
// CFLAGS: -std=c++17 -I/usr/include/eigen3
// Eigen `Map<const MatrixXd>` over constant data (an `enzyme_const` buffer) times an
// active vector mapped with `Map<const VectorXd>`: y = A x, f = y.dot(y) + b.dot(x). Oracle:
// the analytic gradient 2 A^T A x + b, central differences, forward/reverse dot product,
// and the constant buffers unchanged. A regression test (cxx36): refused at -O0 before
// ("memory holding pointers is copied from a pointer that is constant or differentiable
// depending on the run": the copies of the `Map` objects, pointer and sizes, no floats).
#include "fz_cxx.h"
#include <Eigen/Dense>

double model(const double *x, const double *a, const double *b, int n) {
  Eigen::Map<const Eigen::MatrixXd> A(a, n, n);
  Eigen::Map<const Eigen::VectorXd> X(x, n), B(b, n);
  Eigen::VectorXd y = A * X;
  return y.dot(y) + B.dot(X);
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 3;
  double x[n] = {0.3, -0.5, 0.8}, dx[n] = {0}, fd[n], want[n] = {0};
  double a[n * n] = {0.5, -0.25, 0.1, 0.3, 0.7, -0.4, -0.6, 0.2, 0.9}, b[n] = {0.1, -0.2, 0.3};
  double a0[n * n], b0[n];
  for (int i = 0; i < n * n; i++) a0[i] = a[i];
  for (int i = 0; i < n; i++) b0[i] = b[i];
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, a, enzyme_const, b,
                          enzyme_const, n);
  bool same = true;
  for (int i = 0; i < n * n; i++) same = same && a[i] == a0[i];
  for (int i = 0; i < n; i++) same = same && b[i] == b0[i];
  fz_check("enzyme_const buffers unchanged", same ? 1 : 0, 1, 0);
  double y[n] = {0};
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) y[i] += a0[i + n * j] * x[j];  // column major
  for (int j = 0; j < n; j++) {
    want[j] = b0[j];
    for (int i = 0; i < n; i++) want[j] += 2 * a0[i + n * j] * y[i];
  }
  fz_check_arr("d/dx analytic", dx, want, n, 1e-12);
  fz_fd_grad_of([&] { return model(x, a0, b0, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  double v[n] = {0.5, -0.2, 0.3}, dv = 0;
  for (int k = 0; k < n; k++) dv += want[k] * v[k];
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, v, enzyme_const, a,
                                       enzyme_const, b, enzyme_const, n);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  return fz_finish();
}
