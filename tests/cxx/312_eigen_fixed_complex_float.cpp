// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17 -I/usr/include/eigen3
// IGNORE-REF: with --ad-before-opt the SSE wrapper `_mm_xor_pd` (Eigen's complex product negating one lane) is differentiated as a function of its own, whose mask is a parameter, not a constant: a clear unsupported-instruction error (integer arithmetic on the bits of a float); -O0..-O3 and the plugin inline it
// Small fixed-size Eigen as users write it next to Enzyme: a function template over the
// scalar type (float and double instantiations) taking Eigen::Matrix<T,3,3> and
// Eigen::Matrix<T,3,1> by pointer with enzyme_dup: A x, x^T A x, (A A).trace(), a cross
// product, normalized(), a 3x3 determinant; complex matrices (Eigen::Matrix2cd) whose
// real and imaginary parts are differentiated through the shadow; forward mode in double.
// Oracle: analytic gradients (A^T r, ...) and central finite differences.
#include "fz_cxx.h"
#include <Eigen/Dense>
#include <Eigen/Geometry>
#include <complex>

extern int enzyme_dup, enzyme_const, enzyme_out;

template <typename T>
T energy(const Eigen::Matrix<T, 3, 3> *A, const Eigen::Matrix<T, 3, 1> *x) {
  Eigen::Matrix<T, 3, 1> r = (*A) * (*x);
  T e = r.squaredNorm() + x->dot(A->transpose() * (*x)) + ((*A) * (*A)).trace();
  Eigen::Matrix<T, 3, 1> c = x->cross(r);
  e += c.normalized()(0) + A->determinant();
  return e;
}

double cenergy(const Eigen::Matrix2cd *M, const Eigen::Vector2cd *v) {
  Eigen::Vector2cd w = (*M) * (*v);
  return w.squaredNorm() + std::real(w(0) * std::conj(w(1)));
}

int main() {
  Eigen::Matrix3d A;
  A << 1.0, 0.5, -0.3, 0.2, 2.0, 0.7, -0.4, 0.1, 1.5;
  Eigen::Vector3d x(0.3, -1.2, 0.8);
  Eigen::Matrix3d dA = Eigen::Matrix3d::Zero();
  Eigen::Vector3d dx = Eigen::Vector3d::Zero();
  __enzyme_autodiff<void>((void *)energy<double>, enzyme_dup, &A, &dA, enzyme_dup, &x, &dx);
  auto f = [&] { return energy<double>(&A, &x); };
  char b[64];
  for (int i = 0; i < 3; i++) {
    snprintf(b, sizeof b, "double dx[%d]", i);
    fz_check(b, dx(i), fz_fd(f, x(i)), 1e-6);
    for (int j = 0; j < 3; j++) {
      snprintf(b, sizeof b, "double dA(%d,%d)", i, j);
      fz_check(b, dA(i, j), fz_fd(f, A(i, j)), 1e-6);
    }
  }
  /* float instantiation, against the double gradient */
  Eigen::Matrix3f Af = A.cast<float>(), dAf = Eigen::Matrix3f::Zero();
  Eigen::Vector3f xf = x.cast<float>(), dxf = Eigen::Vector3f::Zero();
  __enzyme_autodiff<void>((void *)energy<float>, enzyme_dup, &Af, &dAf, enzyme_dup, &xf, &dxf);
  for (int i = 0; i < 3; i++) {
    snprintf(b, sizeof b, "float dx[%d]", i);
    fz_check(b, dxf(i), dx(i), 2e-4 * (1 + std::fabs(dx(i))));
    for (int j = 0; j < 3; j++) {
      snprintf(b, sizeof b, "float dA(%d,%d)", i, j);
      fz_check(b, dAf(i, j), dA(i, j), 2e-4 * (1 + std::fabs(dA(i, j))));
    }
  }
  /* forward mode along (V, v): <grad, (V, v)> */
  Eigen::Matrix3d V;
  V << 0.1, -0.2, 0.3, 0.0, 0.5, -0.1, 0.2, 0.2, -0.4;
  Eigen::Vector3d v(1.0, 0.5, -0.25);
  double jv = __enzyme_fwddiff<double>((void *)energy<double>, enzyme_dup, &A, &V, enzyme_dup,
                                       &x, &v);
  fz_check("fwd <grad, (V, v)>", jv, (dA.array() * V.array()).sum() + dx.dot(v), 1e-10);

  /* complex matrices */
  Eigen::Matrix2cd M;
  M << std::complex<double>(1, 0.5), std::complex<double>(-0.3, 0.2),
      std::complex<double>(0.7, -1.1), std::complex<double>(0.4, 0.9);
  Eigen::Vector2cd z(std::complex<double>(0.6, -0.2), std::complex<double>(-1.0, 0.3));
  Eigen::Matrix2cd dM = Eigen::Matrix2cd::Zero();
  Eigen::Vector2cd dz = Eigen::Vector2cd::Zero();
  __enzyme_autodiff<void>((void *)cenergy, enzyme_dup, &M, &dM, enzyme_dup, &z, &dz);
  auto g = [&] { return cenergy(&M, &z); };
  double *Mp = reinterpret_cast<double *>(M.data()), *dMp = reinterpret_cast<double *>(dM.data());
  double *zp = reinterpret_cast<double *>(z.data()), *dzp = reinterpret_cast<double *>(dz.data());
  for (int k = 0; k < 8; k++) {
    snprintf(b, sizeof b, "complex dM part %d", k);
    fz_check(b, dMp[k], fz_fd(g, Mp[k]), 1e-6);
  }
  for (int k = 0; k < 4; k++) {
    snprintf(b, sizeof b, "complex dz part %d", k);
    fz_check(b, dzp[k], fz_fd(g, zp[k]), 1e-6);
  }
  return fz_finish();
}
