// OPT: O0 O2
// CFLAGS: -std=c++17 -I/usr/include/eigen3 -DEIGEN_DONT_VECTORIZE
// Eigen fixed-size 3x3 algebra through `Eigen::Ref` parameters: matrices copied from the
// caller's arrays into `Eigen::Matrix3d`, handed as `const Eigen::Ref<const Matrix3d> &`
// to a helper computing log|det A| + trace(A^-1 B) with `determinant()` and `inverse()`,
// and a `Ref<Vector3d>` output written through. Oracle: the analytic gradients
// d log|det A| = A^-T, d tr(A^-1 B)/dA = -(A^-1 B A^-1)^T, d/dB = A^-T, and central
// finite differences.
#include "fz_cxx.h"
#include <Eigen/Dense>
#include <cmath>

using Eigen::Matrix3d;
using Eigen::Vector3d;

static double logdet_trace(const Eigen::Ref<const Matrix3d> &A,
                           const Eigen::Ref<const Matrix3d> &B, Eigen::Ref<Vector3d> diag) {
  Matrix3d inv = A.inverse();
  Matrix3d p = inv * B;
  diag = p.diagonal();
  return std::log(std::fabs(A.determinant())) + p.trace();
}

double objective(const double *a, const double *b) {
  Matrix3d A, B;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      A(i, j) = a[3 * i + j];
      B(i, j) = b[3 * i + j];
    }
  Vector3d d;
  double v = logdet_trace(A, B, d);
  return v + 0.1 * d.squaredNorm();
}

extern int enzyme_dup;

int main() {
  double a[9] = {2.0, 0.3, -0.5, 0.4, 1.7, 0.2, -0.1, 0.6, 1.5};
  double b[9] = {0.9, -0.2, 0.1, 0.3, 1.1, -0.4, 0.5, 0.2, 0.8};
  double da[9] = {0}, db[9] = {0}, fa[9], fb[9];
  __enzyme_autodiff<void>((void *)objective, enzyme_dup, a, da, enzyme_dup, b, db);
  fz_fd_grad_of([&] { return objective(a, b); }, a, 9, fa);
  fz_fd_grad_of([&] { return objective(a, b); }, b, 9, fb);
  fz_check_arr("d/da finite differences", da, fa, 9, 1e-6);
  fz_check_arr("d/db finite differences", db, fb, 9, 1e-6);
  // analytic, with P = A^-1 B: dF/dP = G = I + 0.2 diag(P) (diagonal), and
  // dP = A^-1 dB - A^-1 dA A^-1 B
  Matrix3d A, B;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      A(i, j) = a[3 * i + j];
      B(i, j) = b[3 * i + j];
    }
  Matrix3d inv = A.inverse(), P = inv * B;
  Matrix3d G = Matrix3d::Identity();
  for (int i = 0; i < 3; i++) G(i, i) += 0.2 * P(i, i);
  // so dF/dA = A^-T - A^-T G B^T A^-T and dF/dB = A^-T G
  Matrix3d wantA = inv.transpose() - inv.transpose() * G * B.transpose() * inv.transpose();
  Matrix3d wantB = inv.transpose() * G;
  double wa[9], wb[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      wa[3 * i + j] = wantA(i, j);
      wb[3 * i + j] = wantB(i, j);
    }
  fz_check_arr("d/da analytic", da, wa, 9, 1e-10);
  fz_check_arr("d/db analytic", db, wb, 9, 1e-10);
  return fz_finish();
}
