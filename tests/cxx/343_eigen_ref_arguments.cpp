// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17 -I/usr/include/eigen3 -DEIGEN_DONT_VECTORIZE
// `Eigen::Ref` parameters: noinline helpers take `Ref<const VectorXd>` (a Map of the
// active input, a column block of a matrix, a segment) and `Ref<VectorXd>` (writing into
// a segment of a local vector), the way a library's API is written. Oracle: central differences, and the analytic gradient of the weighted
// squared norm alone (2 w_i x_i).
#include "fz_cxx.h"
#include <Eigen/Dense>
#include <cmath>

constexpr int N = 6;

__attribute__((noinline)) double wnorm2(const Eigen::Ref<const Eigen::VectorXd> &x,
                                        const Eigen::Ref<const Eigen::VectorXd> &w) {
  return (x.array().square() * w.array()).sum();
}

__attribute__((noinline)) void smooth(const Eigen::Ref<const Eigen::VectorXd> &x,
                                      Eigen::Ref<Eigen::VectorXd> out) {
  for (Eigen::Index i = 0; i < out.size(); i++)
    out[i] = 0.25 * x[i] + 0.5 * x[i + 1] + 0.25 * x[i + 2];
}

double objective(const double *raw, const double *wraw, int n) {
  Eigen::Map<const Eigen::VectorXd> x(raw, n), w(wraw, n);
  Eigen::MatrixXd M(n, 2);
  M.col(0) = x.array().sin().matrix();
  M.col(1) = x.reverse();
  Eigen::VectorXd y = Eigen::VectorXd::Zero(n);
  smooth(x, y.segment(1, n - 2));
  return wnorm2(x, w) + wnorm2(M.col(0), w) + 0.5 * wnorm2(y.segment(1, n - 2), w.head(n - 2)) +
         M.col(1).dot(M.col(0));
}

double weighted_only(const double *raw, const double *wraw, int n) {
  Eigen::Map<const Eigen::VectorXd> x(raw, n), w(wraw, n);
  return wnorm2(x, w);
}

extern int enzyme_dup, enzyme_const;

int main() {
  double x[N], w[N], dx[N] = {0}, dw[N] = {0}, fd[N];
  for (int i = 0; i < N; i++) x[i] = 0.4 * i - 1.1, w[i] = 1.0 + 0.2 * i;
  __enzyme_autodiff<void>((void *)objective, enzyme_dup, x, dx, enzyme_const, w, enzyme_const, N);
  for (int i = 0; i < N; i++) fz_check("constant w unchanged", w[i], 1.0 + 0.2 * i, 0);
  fz_fd_grad_of([&] { return objective(x, w, N); }, x, N, fd);
  fz_check_arr("objective vs finite differences", dx, fd, N, 1e-6);
  double dx2[N] = {0};
  __enzyme_autodiff<void>((void *)weighted_only, enzyme_dup, x, dx2, enzyme_dup, w, dw, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    fz_check("d/dx analytic", dx2[i], 2 * w[i] * x[i], 1e-12);
    fz_check("d/dw analytic", dw[i], x[i] * x[i], 1e-12);
  }
  return fz_finish();
}
