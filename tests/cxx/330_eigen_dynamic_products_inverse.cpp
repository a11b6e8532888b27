// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17 -I/usr/include/eigen3 -DEIGEN_DONT_VECTORIZE -Wno-deprecated-declarations
// Eigen as users write it inside the differentiated function: `Map<const MatrixXd>`
// over the user's arrays, dynamic products `A^T A + lambda I`, `.transpose()`, `.norm()`,
// `.dot()`, `.squaredNorm()`, the `inverse()` of a fixed 3x3 and 4x4 block copied out of
// the dynamic matrix, `.array().exp().sum()`, `.cwiseProduct`, and `.trace()`.
// Oracle: central finite differences.
#include "fz_cxx.h"
#include <Eigen/Dense>
#include <cmath>

extern int enzyme_dup, enzyme_const, enzyme_out;

double eig(const double *a, const double *v, int n) {
  Eigen::Map<const Eigen::MatrixXd> A(a, n, n);
  Eigen::Map<const Eigen::VectorXd> x(v, n);
  Eigen::MatrixXd G = A.transpose() * A + 0.5 * Eigen::MatrixXd::Identity(n, n);
  Eigen::VectorXd y = G * x;
  double s = y.norm() + x.dot(y) * 0.1 + (A * x).squaredNorm() * 0.01;
  Eigen::Matrix3d B = G.topLeftCorner<3, 3>();
  Eigen::Matrix4d C = G.topLeftCorner<4, 4>() + Eigen::Matrix4d::Identity();
  s += B.inverse().trace() + C.inverse()(1, 2) * 2.0;
  s += (0.1 * A).array().exp().sum();
  s += x.cwiseProduct(y).sum() * 0.05;
  return s;
}

int main() {
  const int n = 5;
  double a[n * n], v[n], da[n * n] = {0}, dv[n] = {0}, wa[n * n], wv[n];
  fz_seed(330);
  fz_fill(a, n * n, -1.0, 1.0);
  fz_fill(v, n, -1.0, 1.0);
  __enzyme_autodiff<void>((void *)eig, enzyme_dup, a, da, enzyme_dup, v, dv, enzyme_const, n);
  fz_fd_grad_of([&] { return eig(a, v, n); }, a, n * n, wa);
  fz_fd_grad_of([&] { return eig(a, v, n); }, v, n, wv);
  fz_check_arr("d/dA", da, wa, n * n, 1e-6);
  fz_check_arr("d/dx", dv, wv, n, 1e-6);
  return fz_finish();
}
