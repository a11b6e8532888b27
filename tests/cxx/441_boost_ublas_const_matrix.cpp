// OPT: O0 O2
// CFLAGS: -std=c++17
// boost::numeric::ublas as users write it: a constant `ublas::matrix<double>` (passed
// in an enzyme_const struct) times an active `ublas::vector<double>` built from x
// (`prod`, `inner_prod`, `norm_2`, `trans`), with a constant `ublas::vector` of targets.
// Oracle: the analytic gradient, central differences, forward/reverse dot products; the
// constant matrix and targets checked unchanged.
#include "fz_cxx.h"
#include <boost/numeric/ublas/matrix.hpp>
#include <boost/numeric/ublas/vector.hpp>
#include <cmath>

namespace ub = boost::numeric::ublas;

struct Problem {
  ub::matrix<double> A;
  ub::vector<double> b;
};

double lsq(const double *xp, const Problem *p, int n) {
  ub::vector<double> x(n);
  for (int i = 0; i < n; i++) x(i) = xp[i];
  ub::vector<double> r = ub::prod(p->A, x) - p->b;
  ub::vector<double> g = ub::prod(ub::trans(p->A), r);
  return 0.5 * ub::inner_prod(r, r) + 0.1 * ub::norm_2(g);
}

extern int enzyme_dup, enzyme_const;
#define M 4
#define N 3

int main() {
  Problem p{ub::matrix<double>(M, N), ub::vector<double>(M)};
  fz_seed(441);
  for (int i = 0; i < M; i++) {
    for (int j = 0; j < N; j++) p.A(i, j) = fz_uniform(-1, 1);
    p.b(i) = fz_uniform(-0.5, 0.5);
  }
  const Problem p0 = p;
  double x[N] = {0.3, -0.8, 0.5}, dx[N] = {0}, fd[N];
  __enzyme_autodiff<void>((void *)lsq, enzyme_dup, x, dx, enzyme_const, &p, enzyme_const, N);
  for (int i = 0; i < M; i++) {
    fz_check("constant b unchanged", p.b(i), p0.b(i), 0);
    for (int j = 0; j < N; j++) fz_check("constant A unchanged", p.A(i, j), p0.A(i, j), 0);
  }
  fz_fd_grad_of([&] { return lsq(x, &p, N); }, x, N, fd);
  fz_check_arr("dx vs finite differences", dx, fd, N, 1e-6);
  double v[N] = {0.5, 0.2, -0.7}, dv = 0;
  for (int i = 0; i < N; i++) dv += dx[i] * v[i];
  double jv = __enzyme_fwddiff<double>((void *)lsq, enzyme_dup, x, v, enzyme_const, &p,
                                       enzyme_const, N);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-10);
  return fz_finish();
}
