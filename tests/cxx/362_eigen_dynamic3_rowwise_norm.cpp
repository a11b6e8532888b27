// OPT: O0 O1 O2
// CFLAGS: -std=c++17 -I/usr/include/eigen3
// A point cloud as `Eigen::Matrix<double, Eigen::Dynamic, 3>` (rows allocated at run
// time, three fixed columns) mapped from the caller's row-major array: centred by
// `.colwise().mean()` and `.rowwise() -`, radii by `.rowwise().norm()`, a
// `.rowwise().squaredNorm()` term and `.cwiseProduct` with a weight vector, then the
// radii's variance. Oracle: central differences of every coordinate and weight.
#include "fz_cxx.h"
#include <Eigen/Dense>
#include <cmath>

using Cloud = Eigen::Matrix<double, Eigen::Dynamic, 3>;
using RowMajorMap = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>>;

double spread(const double *pts, const double *wts, int n) {
  Cloud P = RowMajorMap(pts, n, 3);
  Eigen::Map<const Eigen::VectorXd> w(wts, n);
  Eigen::RowVector3d c = P.colwise().mean();
  Cloud Q = P.rowwise() - c;
  Eigen::VectorXd r = Q.rowwise().norm();
  Eigen::VectorXd r2 = Q.rowwise().squaredNorm();
  double mean = r.mean();
  double var = (r.array() - mean).square().sum() / n;
  return var + 0.1 * r2.cwiseProduct(w).sum() + r.dot(w);
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 7;
  double p[3 * n], dp[3 * n] = {0}, w[n], dw[n] = {0}, fd[3 * n];
  for (int i = 0; i < 3 * n; i++) p[i] = std::sin(0.9 * i + 0.4) + 0.2 * (i % 3);
  for (int i = 0; i < n; i++) w[i] = 0.5 + 0.1 * i;
  __enzyme_autodiff<void>((void *)spread, enzyme_dup, p, dp, enzyme_dup, w, dw,
                          enzyme_const, n);
  fz_fd_grad_of([&] { return spread(p, w, n); }, p, 3 * n, fd);
  fz_check_arr("d/dpoints finite differences", dp, fd, 3 * n, 1e-6);
  fz_fd_grad_of([&] { return spread(p, w, n); }, w, n, fd);
  fz_check_arr("d/dweights finite differences", dw, fd, n, 1e-6);
  return fz_finish();
}
