// OPT: O0 O2
// CFLAGS: -I/usr/include/eigen3
// A small rigid-body energy in the shape difftest C++ seeds 7112 and 8096 drew (features
// `eigen`, `constw`): a context struct on the stack holds the `enzyme_const` weights beside
// the active output, so at -O0 run-time activity follows every pointer the function reads
// back, and `m.transpose() * v * 0.5` builds Eigen's `CwiseBinaryOp<scalar_product_op,
// Product<Transpose<Matrix3d>, Vector3d>, CwiseNullaryOp<...>>`, whose constructor copies
// the 16-byte `Product` (two pointers) into an object whose scalar follows at offset 24.
// Refused at -O0 until cxx38 ("mismatched activity: memory holding pointers is copied from
// a pointer that is constant or differentiable depending on the run": the double beyond
// the copy counted as moved). Oracles: the analytic gradient, central finite differences,
// forward mode against reverse, the constant weights unchanged.
#include "fz_cxx.h"
#include <Eigen/Dense>

#define N 6

struct Ctx {
  const double *w; // enzyme_const spring constants
  double s;
  double *out; // active: the per-spring terms are written here
  int n;
};

static double spring(const Ctx *c, const double *x, int k) {
  c->out[k] = 0.5 * c->w[k] * x[k] * x[k] * c->s;
  return c->out[k];
}

double energy(double *x, const double *w, double *out, int n) {
  Ctx c = {w, 0.8, out, n};
  double t = 0;
  for (int k = 0; k < n; k++) t += spring(&c, x, k);
  Eigen::Vector3d v(x[0], x[1], x[2]);
  Eigen::Matrix3d m;
  for (int r = 0; r < 3; r++)
    for (int q = 0; q < 3; q++) m(r, q) = (r == q ? 1.5 : 0.0) + 0.3 * x[(3 * r + q) % n];
  Eigen::Vector3d u = m.transpose() * v * 0.5;
  return t + u.dot(v);
}

int main() {
  double x[N], w[N], w0[N], out[N], dout[N] = {0}, g[N] = {0}, fd[N];
  fz_seed(454);
  for (int i = 0; i < N; i++) {
    x[i] = fz_uniform(-1, 1);
    w0[i] = w[i] = fz_uniform(0.5, 1.5);
  }
  __enzyme_autodiff<void>((void *)energy, enzyme_dup, x, g, enzyme_const, w, enzyme_dup, out,
                          dout, enzyme_const, N);
  fz_fd_grad_of([&] { return energy(x, w, out, N); }, x, N, fd);
  // Analytic: the springs give 0.8 w_k x_k; u.v = 0.5 v^T M v gives 0.5 (M + M^T) v for
  // v = x[0..2] and 0.5 * 0.3 v_r v_q for the entry M(r, q) that reads x[(3r + q) % N].
  double M[3][3], an[N];
  for (int r = 0; r < 3; r++)
    for (int q = 0; q < 3; q++) M[r][q] = (r == q ? 1.5 : 0.0) + 0.3 * x[(3 * r + q) % N];
  for (int k = 0; k < N; k++) an[k] = 0.8 * w[k] * x[k];
  for (int k = 0; k < 3; k++)
    for (int j = 0; j < 3; j++) an[k] += 0.5 * (M[k][j] + M[j][k]) * x[j];
  for (int r = 0; r < 3; r++)
    for (int q = 0; q < 3; q++) an[(3 * r + q) % N] += 0.15 * x[r] * x[q];
  for (int i = 0; i < N; i++) {
    fz_check("reverse vs analytic", g[i], an[i], 1e-12);
    fz_check("reverse vs fd", g[i], fd[i], 1e-6);
  }
  double dx[N], tout[N] = {0}, dot = 0;
  for (int i = 0; i < N; i++) {
    dx[i] = fz_uniform(-1, 1);
    dot += g[i] * dx[i];
  }
  double tan = __enzyme_fwddiff<double>((void *)energy, enzyme_dup, x, dx, enzyme_const, w,
                                        enzyme_dup, out, tout, enzyme_const, N);
  fz_check("forward tangent vs reverse . dx", tan, dot, 1e-12);
  int same = 1;
  for (int i = 0; i < N; i++) same &= w[i] == w0[i];
  fz_check("the constant weights are unchanged", same, 1, 0);
  return fz_finish();
}
