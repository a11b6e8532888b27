// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17 -I/usr/include/eigen3
// Eigen as a demanding user writes it (sweep19): `Eigen::Map<const Eigen::VectorXd>` and
// `Map<Eigen::Vector3d>` over the caller's raw arrays, a `Matrix3d` filled from the
// parameters, `.inverse()` (the closed-form 3x3 inverse), `.norm()`, `.squaredNorm()`,
// `.dot()`, `.cross()` and `.transpose() *`. Loss: |A^{-1} b|^2 + |y|·(a × b)_z where
// `y` is a dynamic-size map. Reverse mode against finite differences; forward mode
// against the reverse (dot-product identity).
#include "fz_cxx.h"
#include <Eigen/Dense>
#include <cmath>

double loss(const double *p, const double *ydata, int ny) {
  Eigen::Map<const Eigen::VectorXd> y(ydata, ny);
  Eigen::Matrix3d A;
  A << p[0], p[1], 0.2, 0.1, p[2], p[3], -0.3, 0.4, p[4];
  Eigen::Map<const Eigen::Vector3d> b(p + 5);
  Eigen::Vector3d sol = A.inverse() * b;
  Eigen::Vector3d a3(p[0], p[2], p[4]);
  double c = a3.cross(b).z();
  double q = (A.transpose() * b).dot(sol);
  return sol.squaredNorm() + y.norm() * c + 0.1 * q + 0.05 * A.norm();
}

int main() {
  double p[8] = {2.0, 0.3, 1.5, -0.4, 1.8, 0.5, -1.0, 0.75}, dp[8] = {0}, fd[8];
  double y[5] = {0.3, -0.6, 1.2, 0.1, 0.9}, dy[5] = {0}, fdy[5];
  __enzyme_autodiff<void>((void *)loss, enzyme_dup, p, dp, enzyme_dup, y, dy, enzyme_const, 5);
  auto f = [&]() { return loss(p, y, 5); };
  fz_fd_grad_of(f, p, 8, fd);
  fz_fd_grad_of(f, y, 5, fdy);
  fz_check_arr("dL/dp vs FD", dp, fd, 8, 1e-6);
  fz_check_arr("dL/dy vs FD", dy, fdy, 5, 1e-6);
  double vp[8] = {1, -0.5, 0.25, 0.5, -1, 0.3, 0.2, -0.4}, vy[5] = {0.5, 0, -1, 0.25, 1};
  double t = __enzyme_fwddiff<double>((void *)loss, enzyme_dup, p, vp, enzyme_dup, y, vy, enzyme_const, 5);
  double dot = 0;
  for (int i = 0; i < 8; i++) dot += vp[i] * dp[i];
  for (int i = 0; i < 5; i++) dot += vy[i] * dy[i];
  fz_check("forward = <v, gradient>", t, dot, 1e-11);
  return fz_finish();
}
