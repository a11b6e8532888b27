// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17 -I/usr/include/eigen3
// IGNORE-O0: Eigen's SSE helpers (`pandnot`, `por`, `pxor`) are functions at -O0 whose masks are arguments: "integer arithmetic on the bits of a floating-point value" (and cannot-deduce-type at a 24-byte memcpy in the tridiagonalization)
// IGNORE-REF: as at -O0
// Spectral quantities of small fixed-size matrices, as mechanics codes compute them
// (sweep22): principal stresses from `SelfAdjointEigenSolver<Matrix3d>` (iterative QL)
// and from its `computeDirect` (closed form), singular values from `JacobiSVD<Matrix3d>`
// (a condition-number penalty). (The 4x4 `SelfAdjointEigenSolver` is refused at -O2,
// cannot-deduce-type at an `i32` store into its `info` next to the factor: not here.)
// Oracles: first-order perturbation theory (d lambda_i = v_i^T dA v_i, d sigma_i =
// u_i^T dA v_i, with eigenvectors from the same solvers outside the derivative), finite
// differences, forward vs reverse. The eigenvalues are distinct at the test points.
#include "fz_cxx.h"
#include <Eigen/Dense>

static Eigen::Matrix3d stress(const double *s) {
  Eigen::Matrix3d S;
  S << s[0], s[3], s[4], s[3], s[1], s[5], s[4], s[5], s[2];
  return S;
}

double principal(const double *s) {
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> es(stress(s));
  Eigen::Vector3d l = es.eigenvalues();
  return l(0) * 0.5 + l(1) * l(1) + 2.0 * l(2);
}

double principal_direct(const double *s) {
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> es;
  es.computeDirect(stress(s));
  Eigen::Vector3d l = es.eigenvalues();
  return l(0) * 0.5 + l(1) * l(1) + 2.0 * l(2);
}

double conditioning(const double *a) {
  Eigen::Matrix3d A;
  A << a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8];
  Eigen::JacobiSVD<Eigen::Matrix3d> svd(A);
  Eigen::Vector3d sv = svd.singularValues();
  return sv(0) / sv(2) + 0.1 * sv(1);
}

int main() {
  double s[6] = {3.0, -1.0, 0.5, 0.7, -0.3, 0.4};
  double ds[6] = {0}, ds2[6] = {0};
  __enzyme_autodiff<void>((void *)principal, enzyme_dup, s, ds);
  __enzyme_autodiff<void>((void *)principal_direct, enzyme_dup, s, ds2);
  {
    Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> es(stress(s));
    Eigen::Vector3d l = es.eigenvalues();
    double wl[3] = {0.5, 2 * l(1), 2.0};
    double want[6];
    // dA for s[k]: symmetric unit pattern.
    const int pi[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
    for (int k = 0; k < 6; k++) {
      double v = 0;
      for (int i = 0; i < 3; i++) {
        Eigen::Vector3d e = es.eigenvectors().col(i);
        int a = pi[k][0], b = pi[k][1];
        double q = (a == b) ? e(a) * e(a) : 2 * e(a) * e(b);
        v += wl[i] * q;
      }
      want[k] = v;
    }
    fz_check_arr("QL eigenvalues: perturbation theory", ds, want, 6, 1e-9);
    fz_check_arr("direct eigenvalues: perturbation theory", ds2, want, 6, 1e-7);
  }
  double fd[6];
  fz_fd_grad_of([&] { return principal(s); }, s, 6, fd);
  fz_check_arr("QL eigenvalues: finite differences", ds, fd, 6, 1e-6);

  double a[9] = {2.0, 0.3, -0.5, 0.1, 1.5, 0.4, -0.2, 0.6, 0.9};
  double da[9] = {0};
  __enzyme_autodiff<void>((void *)conditioning, enzyme_dup, a, da);
  {
    Eigen::Matrix3d A;
    A << a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8];
    Eigen::JacobiSVD<Eigen::Matrix3d> svd(A, Eigen::ComputeFullU | Eigen::ComputeFullV);
    Eigen::Vector3d sv = svd.singularValues();
    double w[3] = {1 / sv(2), 0.1, -sv(0) / (sv(2) * sv(2))};
    double want[9];
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++) {
        double v = 0;
        for (int i = 0; i < 3; i++) v += w[i] * svd.matrixU()(r, i) * svd.matrixV()(c, i);
        want[3 * r + c] = v;
      }
    fz_check_arr("JacobiSVD: perturbation theory", da, want, 9, 1e-9);
  }
  double fda[9];
  fz_fd_grad_of([&] { return conditioning(a); }, a, 9, fda);
  fz_check_arr("JacobiSVD: finite differences", da, fda, 9, 1e-6);

  double t[6] = {0.2, -0.4, 0.1, 0.3, 0.5, -0.2}, dot = 0;
  for (int i = 0; i < 6; i++) dot += t[i] * ds[i];
  double jt = __enzyme_fwddiff<double>((void *)principal, enzyme_dup, s, t);
  fz_check("QL eigenvalues: forward . t vs reverse", jt, dot, 1e-9);
  return fz_finish();
}
