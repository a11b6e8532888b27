// OPT: O0 O2 O3
// CFLAGS: -std=c++17 -I/usr/include/eigen3 -march=x86-64-v2
// VARIANTS: all
// Eigen fixed-size 2x2 and 3x3 expressions with Eigen's SSE vectorization left on
// (no EIGEN_DONT_VECTORIZE) at -O3: a rotation `Matrix2d` applied to 2-vectors, a 3x3
// `A^T A + diag`, its `determinant()`, `inverse()` (closed form for 3x3), `trace()`,
// and a Frobenius norm of a product, all fused by the vectorizer into <2 x double>
// packets. Oracle: central differences of every input, and the analytic
// d det(A)/dA = det(A) A^{-T} for a second function.
#include "fz_cxx.h"
#include <Eigen/Dense>
#include <cmath>

double small_mats(const double *p) {
  Eigen::Matrix2d R;
  R << std::cos(p[0]), -std::sin(p[0]), std::sin(p[0]), std::cos(p[0]);
  Eigen::Vector2d u(p[1], p[2]), v = R * u;
  Eigen::Matrix3d A = Eigen::Map<const Eigen::Matrix3d>(p + 3);
  Eigen::Matrix3d S = A.transpose() * A + Eigen::Vector3d(1, 2, 3).asDiagonal().toDenseMatrix();
  Eigen::Matrix3d Si = S.inverse();
  double d = S.determinant();
  return v.squaredNorm() * v.x() + std::log(d) + Si.trace() + (A * Si * A.transpose()).norm();
}

double det_only(const double *a) {
  Eigen::Matrix3d A = Eigen::Map<const Eigen::Matrix3d>(a);
  return A.determinant();
}

extern int enzyme_dup;

int main() {
  double p[12], dp[12] = {0}, fd[12];
  for (int i = 0; i < 12; i++) p[i] = 0.3 * std::cos(0.9 * i) + (i >= 3 && (i - 3) % 4 == 0 ? 1.5 : 0.0);
  __enzyme_autodiff<void>((void *)small_mats, enzyme_dup, p, dp);
  fz_fd_grad_of([&] { return small_mats(p); }, p, 12, fd);
  fz_check_arr("small matrices vs finite differences", dp, fd, 12, 1e-6);
  double *a = p + 3, da[9] = {0};
  __enzyme_autodiff<void>((void *)det_only, enzyme_dup, a, da);
  Eigen::Matrix3d A = Eigen::Map<const Eigen::Matrix3d>(a);
  Eigen::Matrix3d want = A.determinant() * A.inverse().transpose();
  for (int i = 0; i < 9; i++) fz_check("d det / dA", da[i], want.data()[i], 1e-11);
  return fz_finish();
}
