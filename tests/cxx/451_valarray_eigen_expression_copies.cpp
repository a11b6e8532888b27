// OPT: O0 O2
// CFLAGS: -I/usr/include/eigen3
// The C++ library types fuzz37's differential tests write (tools/difftest features
// `valarray`, `eigen`): std::valarray arithmetic through its expression templates and
// its pointer constructor, and Eigen's fixed-size Matrix3d / Vector3d with a transposed
// product scaled by a constant. These alone pass at -O0; inside the larger generated
// programs (C++ seeds 7004, 7046, 7112) the same library functions are refused at -O0
// (tools/README.md, fuzz37). Oracles: analytic gradients and central finite differences.
#include "fz_cxx.h"
#include <Eigen/Dense>
#include <valarray>

#define N 6

double va_expr(const double *x, int n) {
  std::valarray<double> va(n);
  for (int i = 0; i < n; i++) va[i] = 0.5 * x[i] + 0.1 * i;
  std::valarray<double> vb = va * 0.7 + std::sin(va) * va;
  return vb.sum();
}

double va_copy(const double *x, int n) {
  std::valarray<double> va(x, n);
  va *= 0.6;
  return (va * va).sum();
}

double eig_tprod(const double *x) {
  Eigen::Vector3d v(x[0], x[1], x[2]);
  Eigen::Matrix3d m;
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++) m(r, c) = (r == c ? 1.5 : 0.0) + 0.3 * x[(3 * r + c) % N];
  Eigen::Vector3d w = m.transpose() * v * 0.5;
  return w.dot(v);
}

static double X[N];

int main() {
  fz_seed(451);
  for (int i = 0; i < N; i++) X[i] = fz_uniform(-1, 1);
  double g[N], fd[N];

  /* va_expr: d/dx_i = 0.5 (0.7 + sin u + u cos u), u = 0.5 x_i + 0.1 i */
  memset(g, 0, sizeof g);
  __enzyme_autodiff<void>((void *)va_expr, enzyme_dup, X, g, enzyme_const, N);
  fz_fd_grad_of([&] { return va_expr(X, N); }, X, N, fd);
  for (int i = 0; i < N; i++) {
    double u = 0.5 * X[i] + 0.1 * i;
    fz_check("valarray expression: analytic", g[i], 0.5 * (0.7 + sin(u) + u * cos(u)), 1e-12);
    fz_check("valarray expression: fd", g[i], fd[i], 1e-6);
  }

  /* va_copy: d/dx_i = 2 * 0.36 x_i */
  memset(g, 0, sizeof g);
  __enzyme_autodiff<void>((void *)va_copy, enzyme_dup, X, g, enzyme_const, N);
  fz_fd_grad_of([&] { return va_copy(X, N); }, X, N, fd);
  for (int i = 0; i < N; i++) {
    fz_check("valarray(ptr, n) copy: analytic", g[i], 0.72 * X[i], 1e-12);
    fz_check("valarray(ptr, n) copy: fd", g[i], fd[i], 1e-6);
  }

  /* eig_tprod: f = 0.5 v^T M v, both depending on x: finite differences */
  memset(g, 0, sizeof g);
  __enzyme_autodiff<void>((void *)eig_tprod, enzyme_dup, X, g);
  fz_fd_grad_of([&] { return eig_tprod(X); }, X, N, fd);
  for (int i = 0; i < N; i++) fz_check("Eigen m.transpose() * v * 0.5: fd", g[i], fd[i], 1e-6);
  /* analytic for the v part with M fixed: d/dv (0.5 v^T M v) = 0.5 (M + M^T) v, plus
     the M part 0.5 v_r v_c * 0.3 summed over the entries that read x_i */
  {
    double M[3][3], an[N] = {0};
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++) M[r][c] = (r == c ? 1.5 : 0.0) + 0.3 * X[(3 * r + c) % N];
    for (int k = 0; k < 3; k++)
      for (int j = 0; j < 3; j++) an[k] += 0.5 * (M[k][j] + M[j][k]) * X[j];
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++) an[(3 * r + c) % N] += 0.5 * 0.3 * X[r] * X[c];
    for (int i = 0; i < N; i++) fz_check("Eigen m.transpose() * v * 0.5: analytic", g[i], an[i], 1e-12);
  }
  return fz_finish();
}
