// OPT: O0 O2
// CFLAGS: -std=c++17 -I/usr/include/eigen3 -DEIGEN_DONT_VECTORIZE
// `Map<const MatrixXd>` of enzyme_const data used through views against an active
// vector: `block(...) * x`, `col(j).segment(i, k).dot(x.head(k))`, `transpose() * r`,
// `row(i)` times `x`, `topRows`, `.cwiseProduct`, and a scalar multiple of a block
// (Eigen's expression objects copy the Map beside the scalar). Oracle: the analytic
// gradient, central differences, forward/reverse dot products; the constant matrix is
// checked unchanged.
#include "fz_cxx.h"
#include <Eigen/Dense>

using Eigen::Map;
using Eigen::MatrixXd;
using Eigen::VectorXd;

double obj(const double *xp, const double *Ap, int m, int n, double s) {
  Map<const VectorXd> x(xp, n);
  Map<const MatrixXd> A(Ap, m, n);
  VectorXd r = A.block(1, 0, m - 1, n) * x;              // rows 1.. of A x
  double q = r.squaredNorm();                            // sum_i>=1 (A x)_i^2
  VectorXd g = A.transpose() * A.col(0);                 // constant, n
  double lin = g.dot(x);
  double seg = A.col(1).segment(1, 2).dot(x.head(2));    // A(1,1) x0 + A(2,1) x1
  double row = (A.row(0) * x).value();                   // (A x)_0
  double cw = A.topRows(2).col(2).cwiseProduct(x.head(2)).sum();
  VectorXd sc = (s * A.block(0, 0, 2, n)) * x;           // s times rows 0,1 of A x
  return q + lin + seg * seg + std::sin(row) + cw + sc.sum();
}

extern int enzyme_dup, enzyme_const;
#define M 4
#define N 3

int main() {
  double x[N], A[M * N], dx[N] = {0}, fd[N], want[N] = {0};
  fz_seed(438);
  fz_fill(x, N, -1, 1);
  fz_fill(A, M * N, -1, 1);
  double A0[M * N];
  for (int i = 0; i < M * N; i++) A0[i] = A[i];
  const double s = 0.7;
  __enzyme_autodiff<void>((void *)obj, enzyme_dup, x, dx, enzyme_const, A, enzyme_const, M,
                          enzyme_const, N, enzyme_const, s);
  fz_check_arr("constant A unchanged", A, A0, M * N, 0);
  auto a = [&](int i, int j) { return A[i + M * j]; };  // column-major
  double Ax[M] = {0};
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) Ax[i] += a(i, j) * x[j];
  double seg = a(1, 1) * x[0] + a(2, 1) * x[1];
  for (int j = 0; j < N; j++) {
    for (int i = 1; i < M; i++) want[j] += 2 * Ax[i] * a(i, j);
    for (int i = 0; i < M; i++) want[j] += a(i, j) * a(i, 0);
    want[j] += std::cos(Ax[0]) * a(0, j) + s * (a(0, j) + a(1, j));
  }
  want[0] += 2 * seg * a(1, 1) + a(0, 2);
  want[1] += 2 * seg * a(2, 1) + a(1, 2);
  fz_check_arr("dx analytic", dx, want, N, 1e-10);
  fz_fd_grad_of([&] { return obj(x, A, M, N, s); }, x, N, fd);
  fz_check_arr("dx vs finite differences", dx, fd, N, 1e-6);
  double v[N] = {-0.2, 0.5, 0.8}, dv = 0;
  for (int i = 0; i < N; i++) dv += want[i] * v[i];
  double jv = __enzyme_fwddiff<double>((void *)obj, enzyme_dup, x, v, enzyme_const, A,
                                       enzyme_const, M, enzyme_const, N, enzyme_const, s);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-10);
  fz_check_arr("constant A unchanged (forward)", A, A0, M * N, 0);
  return fz_finish();
}
