// OPT: O2 O3
// CFLAGS: -std=c++17 -I/usr/include/eigen3
// IGNORE: rejected at -O2/-O3 with mismatched activity: in Eigen's `gebp_kernel` (the blocked product behind `A.transpose() * A` of dynamic matrices) "a pointer that is constant or differentiable depending on the run" at its packed-block loads, and in `llt_inplace::unblocked` "a value that depends on differentiable inputs is written to memory without a shadow"; no wrong number (cxx/72 and 100 cover dynamic products without the solves)
// A user's least-squares fit with dynamic-size Eigen: `MatrixXd` built from the active
// parameters, a normal-equations product `A^T A`, a Cholesky solve (`llt().solve`), an
// LU solve with partial pivoting (`partialPivLu().solve`), `squaredNorm`, and a
// matrix-vector product, differentiated with respect to the parameters behind a raw
// pointer (`Eigen::Map` inside). Oracle: central finite differences of the primal.
#include "fz_cxx.h"
#include <Eigen/Dense>

using Eigen::MatrixXd;
using Eigen::VectorXd;

// design matrix A (m x n) = exp(-p_j * t_i); y fixed; returns the residual norm of the
// least-squares fit plus a term through an LU solve of a perturbed square system
double fit_residual(const double *p, const double *tdat, const double *ydat, int m, int n) {
  MatrixXd A(m, n);
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) A(i, j) = std::exp(-p[j] * tdat[i]);
  Eigen::Map<const VectorXd> y(ydat, m);
  MatrixXd AtA = A.transpose() * A;
  AtA.diagonal().array() += 1e-3;
  VectorXd c = AtA.llt().solve(A.transpose() * y);
  VectorXd r = A * c - y;
  MatrixXd S = AtA;
  for (int j = 0; j < n; j++) S(j, (j + 1) % n) += p[j];
  VectorXd rhs = VectorXd::Ones(n);
  VectorXd u = S.partialPivLu().solve(rhs);
  return r.squaredNorm() + 0.01 * u.dot(c);
}

int main() {
  const int m = 7, n = 3;
  double p[n] = {0.5, 1.3, 2.2}, dp[n] = {0};
  double t[m], y[m];
  for (int i = 0; i < m; i++) {
    t[i] = 0.25 * i;
    y[i] = 1.2 * std::exp(-0.7 * t[i]) + 0.3 * std::exp(-1.9 * t[i]) + 0.01 * std::sin(3.0 * i);
  }
  __enzyme_autodiff<void>((void *)fit_residual, enzyme_dup, p, dp, enzyme_const, t,
                          enzyme_const, y, enzyme_const, m, enzyme_const, n);
  for (int j = 0; j < n; j++)
    fz_check("least-squares residual d/dp", dp[j],
             fz_fd([&] { return fit_residual(p, t, y, m, n); }, p[j]), 1e-5);
  return fz_finish();
}
