// OPT: O0 O2
// CFLAGS: -std=c++17 -I/usr/include/eigen3 -DEIGEN_DONT_VECTORIZE
// Eigen `Ref<const VectorXd>` and `Ref<const MatrixXd>` parameters (non-inlined helpers)
// given `Map`s of enzyme_const data next to an active vector: a weighted residual
// `(A x - b)` with `Ref` views of the constant matrix and targets, a `segment` of the
// constant weights as a `Ref`, and a `Ref` to an expression (Eigen evaluates it into a
// temporary). Oracle: central differences, forward/reverse dot products, the constant
// data checked unchanged after each derivative.
#include "fz_cxx.h"
#include <Eigen/Dense>

using Eigen::Map;
using Eigen::MatrixXd;
using Eigen::Ref;
using Eigen::VectorXd;

__attribute__((noinline)) double wsq(const Ref<const VectorXd> &r, const Ref<const VectorXd> &w) {
  return (r.array().square() * w.array()).sum();
}

__attribute__((noinline)) VectorXd resid(const Ref<const MatrixXd> &A, const Ref<const VectorXd> &x,
                                         const Ref<const VectorXd> &b) {
  return A * x - b;
}

double loss(const double *xp, const double *Ap, const double *bp, const double *wp, int m, int n) {
  Map<const VectorXd> x(xp, n), b(bp, m), w(wp, m);
  Map<const MatrixXd> A(Ap, m, n);
  VectorXd r = resid(A, x, b);
  double head = wsq(r.head(2), w.segment(1, 2));
  double all = wsq(r, w);
  double smooth = wsq(x.tail(n - 1) - x.head(n - 1), w.head(n - 1));
  return all + 0.5 * head + 0.1 * smooth;
}

extern int enzyme_dup, enzyme_const;
#define M 5
#define N 3

int main() {
  double x[N], A[M * N], b[M], w[M], dx[N] = {0}, fd[N];
  fz_seed(437);
  fz_fill(x, N, -1, 1);
  fz_fill(A, M * N, -1, 1);
  fz_fill(b, M, -0.5, 0.5);
  for (int i = 0; i < M; i++) w[i] = 1.0 + 0.1 * i;
  double A0[M * N], b0[M], w0[M];
  for (int i = 0; i < M * N; i++) A0[i] = A[i];
  for (int i = 0; i < M; i++) b0[i] = b[i], w0[i] = w[i];
  __enzyme_autodiff<void>((void *)loss, enzyme_dup, x, dx, enzyme_const, A, enzyme_const, b,
                          enzyme_const, w, enzyme_const, M, enzyme_const, N);
  fz_check_arr("constant A unchanged", A, A0, M * N, 0);
  fz_check_arr("constant b unchanged", b, b0, M, 0);
  fz_check_arr("constant w unchanged", w, w0, M, 0);
  fz_fd_grad_of([&] { return loss(x, A, b, w, M, N); }, x, N, fd);
  fz_check_arr("dx vs finite differences", dx, fd, N, 1e-6);
  double v[N] = {0.3, -0.6, 0.9}, dv = 0;
  for (int i = 0; i < N; i++) dv += dx[i] * v[i];
  double jv = __enzyme_fwddiff<double>((void *)loss, enzyme_dup, x, v, enzyme_const, A,
                                       enzyme_const, b, enzyme_const, w, enzyme_const, M,
                                       enzyme_const, N);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-10);
  fz_check_arr("constant A unchanged (forward)", A, A0, M * N, 0);
  return fz_finish();
}
