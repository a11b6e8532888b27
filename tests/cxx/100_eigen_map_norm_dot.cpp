// OPT: O2 O3
// CFLAGS: -std=c++17 -I/usr/include/eigen3
// IGNORE-REF: differentiating unoptimized Eigen is rejected (no wrong number): `Eigen::Map` over the user's arrays and the GEMM kernel's block mappers move a pointer that is constant or differentiable depending on the run through `insertvalue`/`llvm.prefetch` and copy doubles as integers through it ("mismatched activity ... cannot be guarded at run time").
// IGNORE-PLUGIN: at the plugin's pipeline point `A.transpose() * A` (dynamic sizes) goes through Eigen's packed GEMM kernel `gebp_kernel`, whose type analysis is ambiguous ("cannot-deduce-type ... the value looks like Double, the memory like Double"); `ferrozyme c++` at -O2/-O3 passes.
// Eigen as users write it at -O2/-O3: `Eigen::Map` over the user's arrays (fixed and
// dynamic sizes), `.norm()`, `.dot()`, a dynamic matrix product, `.transpose()`,
// `.trace()` (a solve through `.ldlt()` is 103). Oracles: analytic gradients where short, finite differences
// everywhere.
#include "fz_cxx.h"
#include <Eigen/Dense>

double fixed_norm_dot(const double *a, const double *b) {
  Eigen::Map<const Eigen::Vector4d> va(a), vb(b);
  return va.norm() * vb.norm() + va.dot(vb);
}

double dyn_product(const double *a, const double *x, int m, int n) {
  Eigen::Map<const Eigen::MatrixXd> A(a, m, n);
  Eigen::Map<const Eigen::VectorXd> v(x, n);
  Eigen::VectorXd y = A * v;
  Eigen::MatrixXd G = A.transpose() * A;
  return y.squaredNorm() + 0.5 * G.trace() + y.norm();
}

int main() {
  double a[4] = {0.3, -1.2, 0.8, 2.0}, b[4] = {1.1, 0.4, -0.6, 0.9};
  double da[4] = {0}, db[4] = {0};
  __enzyme_autodiff<void>((void *)fixed_norm_dot, enzyme_dup, a, da, enzyme_dup, b, db);
  {
    double na = 0, nb = 0;
    for (int i = 0; i < 4; i++) { na += a[i] * a[i]; nb += b[i] * b[i]; }
    na = std::sqrt(na); nb = std::sqrt(nb);
    for (int i = 0; i < 4; i++) {
      fz_check("norm dot da", da[i], a[i] / na * nb + b[i], 1e-12);
      fz_check("norm dot db", db[i], b[i] / nb * na + a[i], 1e-12);
    }
  }

  const int m = 4, n = 3;
  double A[m * n], x[n], dA[m * n] = {0}, dx[n] = {0};
  fz_fill(A, m * n, -1, 1);
  fz_fill(x, n, -1, 1);
  __enzyme_autodiff<void>((void *)dyn_product, enzyme_dup, A, dA, enzyme_dup, x, dx,
                          enzyme_const, m, enzyme_const, n);
  auto fA = [&] { return dyn_product(A, x, m, n); };
  for (int i = 0; i < m * n; i++) fz_check("dyn dA", dA[i], fz_fd(fA, A[i]), 1e-6);
  for (int i = 0; i < n; i++) fz_check("dyn dx", dx[i], fz_fd(fA, x[i]), 1e-6);

  return fz_finish();
}
