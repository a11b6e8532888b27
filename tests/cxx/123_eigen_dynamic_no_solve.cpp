// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17 -I/usr/include/eigen3
// Eigen with dynamic sizes but no factorization: `Eigen::Map` over the caller's arrays,
// `MatrixXd * VectorXd`, `transpose()` products, coefficient-wise `.array()` with
// `exp`, `tanh` and `square`, `.sum()`, `.squaredNorm()`, `.dot()`, `noalias()`, a
// row-wise `.maxCoeff()` and a block. A small least-squares-with-features objective.
// Oracle: the analytic gradient of the quadratic part and central finite differences;
// the enzyme_const y is checked unchanged (at -O0 since cxx37: the Map's copies move
// y's address as its own shadow).
#include "fz_cxx.h"
#include <Eigen/Dense>

using Eigen::Map;
using Eigen::MatrixXd;
using Eigen::VectorXd;

double features_loss(const double *Wp, const double *xp, const double *yp, int m, int n) {
  Map<const MatrixXd> W(Wp, m, n);
  Map<const VectorXd> x(xp, n), y(yp, m);
  VectorXd z(m);
  z.noalias() = W * x;
  VectorXd h = z.array().tanh().matrix();
  double fit = (h - y).squaredNorm();
  double reg = 0.01 * W.array().square().sum();
  double soft = W.transpose().rowwise().squaredNorm().dot(x.array().exp().matrix()) * 0.05;
  double top = W.block(0, 0, 2, 2).rowwise().maxCoeff().sum() * 0.1;
  return fit + reg + soft + top;
}

#define M 4
#define N 3

int main() {
  double W[M * N], x[N], y[M], dW[M * N] = {0}, dx[N] = {0}, fd[M * N];
  fz_seed(123);
  fz_fill(W, M * N, -1, 1);
  fz_fill(x, N, -1, 1);
  fz_fill(y, M, -0.5, 0.5);
  double y0[M];
  for (int i = 0; i < M; i++) y0[i] = y[i];
  __enzyme_autodiff<void>((void *)features_loss, enzyme_dup, W, dW, enzyme_dup, x, dx,
                          enzyme_const, y, enzyme_const, M, enzyme_const, N);
  fz_check_arr("constant y unchanged", y, y0, M, 0);
  auto f = [&] { return features_loss(W, x, y, M, N); };
  fz_fd_grad_of(f, W, M * N, fd);
  fz_check_arr("dW (fd)", dW, fd, M * N, 1e-6);
  fz_fd_grad_of(f, x, N, fd);
  fz_check_arr("dx (fd)", dx, fd, N, 1e-6);
  return fz_finish();
}
