// OPT: O0 O2
// CFLAGS: -std=c++17 -I/usr/include/eigen3
// IGNORE-O0: needs nested pointee trees in type analysis without nested pointee trees (switched off this stop: too slow on Rust debug builds, see types.rs MAX_DEPTH) cannot type this unoptimized code: cannot-deduce-type
// Eigen with fixed sizes (issue 16): Eigen::Matrix<double,3,5> times a 5-vector,
// squaredNorm, and a coefficient-wise cube summed, differentiated in reverse and forward
// mode. Oracle: analytic (y = A x, f = |y|^2 + sum A_ij^3: df/dA_ij = 2 y_i x_j +
// 3 A_ij^2, df/dx_j = sum_i 2 y_i A_ij) and the dot-product identity between the
// forward directional derivative and the reverse gradient.
#include "fz_cxx.h"
#include <Eigen/Dense>

double f(const double *a, const double *xv) {
  Eigen::Matrix<double, 3, 5> A;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 5; j++) A(i, j) = a[i * 5 + j];
  Eigen::Matrix<double, 5, 1> x;
  for (int j = 0; j < 5; j++) x(j) = xv[j];
  Eigen::Matrix<double, 3, 1> y = A * x;
  return y.squaredNorm() + A.array().cube().sum();
}

int main() {
  fz_seed(71);
  double a[15], x[5], da[15] = {0}, dx[5] = {0}, va[15], vx[5];
  for (auto &v : a) v = fz_uniform(-1, 1);
  for (auto &v : x) v = fz_uniform(-1, 1);
  for (auto &v : va) v = fz_uniform(-1, 1);
  for (auto &v : vx) v = fz_uniform(-1, 1);
  __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_dup, x, dx);
  double y[3];
  for (int i = 0; i < 3; i++) {
    y[i] = 0;
    for (int j = 0; j < 5; j++) y[i] += a[i * 5 + j] * x[j];
  }
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 5; j++)
      fz_check("dA analytic", da[i * 5 + j], 2 * y[i] * x[j] + 3 * a[i * 5 + j] * a[i * 5 + j], 1e-12);
  for (int j = 0; j < 5; j++) {
    double want = 0;
    for (int i = 0; i < 3; i++) want += 2 * y[i] * a[i * 5 + j];
    fz_check("dx analytic", dx[j], want, 1e-12);
  }
  double dir = __enzyme_fwddiff<double>((void *)f, enzyme_dup, a, va, enzyme_dup, x, vx);
  double dot = 0;
  for (int k = 0; k < 15; k++) dot += da[k] * va[k];
  for (int k = 0; k < 5; k++) dot += dx[k] * vx[k];
  fz_check("forward . v == reverse . v", dir, dot, 1e-12);
  return fz_finish();
}
