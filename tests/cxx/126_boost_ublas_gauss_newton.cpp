// OPT: O0 O1 O2 O3
// boost::numeric::ublas in a Gauss-Newton residual: `ublas::vector<double>` and
// `ublas::matrix<double>` filled from the caller's parameters, `prod`, `trans`,
// `inner_prod`, `norm_2`, element access through `operator()`, a matrix expression
// assigned with `noalias`. The objective is 0.5 ||J^T r||^2 for an exponential model's
// Jacobian J and residual r. Oracle: central finite differences.
#include "fz_cxx.h"
#include <boost/numeric/ublas/matrix.hpp>
#include <boost/numeric/ublas/vector.hpp>

namespace ublas = boost::numeric::ublas;

double gn_objective(const double *p, const double *t, const double *y, int m) {
  ublas::vector<double> r(m);
  ublas::matrix<double> J(m, 2);
  for (int i = 0; i < m; i++) {
    double e = std::exp(-p[1] * t[i]);
    r(i) = p[0] * e - y[i];
    J(i, 0) = e;
    J(i, 1) = -p[0] * t[i] * e;
  }
  ublas::vector<double> g(2);
  noalias(g) = prod(trans(J), r);
  double n2 = ublas::norm_2(r);
  return 0.5 * ublas::inner_prod(g, g) + 0.1 * n2;
}

#define M 8

int main() {
  double p[2] = {1.5, 0.7}, t[M], y[M], dp[2] = {0, 0}, fd[2];
  for (int i = 0; i < M; i++) t[i] = 0.25 * i, y[i] = 1.2 * std::exp(-0.5 * t[i]) + 0.01 * i;
  __enzyme_autodiff<void>((void *)gn_objective, enzyme_dup, p, dp, enzyme_const, t,
                          enzyme_const, y, enzyme_const, M);
  auto f = [&] { return gn_objective(p, t, y, M); };
  fz_fd_grad_of(f, p, 2, fd);
  fz_check_arr("grad (fd)", dp, fd, 2, 1e-6);
  return fz_finish();
}
