// OPT: O0 O2
// ARGS: -fopenmp
// An `enzyme_const` scratch buffer that a parallel region fills with values computed
// from the constant weights only (no derivative to lose), read back by a second
// region's reduction and after it; the active values go through a duplicated buffer.
// Writing constant values into constant memory is allowed: the audit that refuses a
// region's active writes into memory without a shadow, read back later
// (tests/errors/omprt_*), must tell the two apart. Reverse and forward mode at 1, 2 and 4
// threads; oracles: the analytic gradient, central differences, the dot-product
// identity; the weights unchanged, the scratch holding what the primal computes.
#include <math.h>
#include <omp.h>
#include "fz_test.h"

extern int enzyme_dup, enzyme_const;
extern double __enzyme_fwddiff(void *, ...);

// f = sum_i (w_i^2 + cos w_{i+1}) * (x_i^2 + x_i y_i) + sum_i sc_i * y_i * (1 + x_i^2)
// with sc_i = w_i^2 + cos w_{i+1} written into the constant scratch.
double f(double *x, double *y, const double *w, double *sc, double *tmp, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    sc[i] = w[i] * w[i] + cos(w[(i + 1) % n]);
    tmp[i] = x[i] * x[i] + x[i] * y[i];
  }
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += sc[i] * tmp[i];
  for (int i = 0; i < n; i++) s += sc[i] * y[i] * (1 + x[i] * x[i]);
  return s;
}

enum { N = 7 };
static double X[2 * N], W[N];
static double eval(void *ctx) {
  (void)ctx;
  double sc[N], tmp[N];
  return f(X, X + N, W, sc, tmp, N);
}

int main(void) {
  fz_seed(1388);
  double p0[2 * N], w0[N];
  fz_fill(p0, 2 * N, -1, 1);
  fz_fill(W, N, -0.8, 0.8);
  for (int i = 0; i < N; i++) w0[i] = W[i];
  double exact[2 * N], fd[2 * N];
  for (int i = 0; i < N; i++) {
    double c = W[i] * W[i] + cos(W[(i + 1) % N]), x = p0[i], y = p0[N + i];
    exact[i] = c * (2 * x + y) + c * y * 2 * x;
    exact[N + i] = c * x + c * (1 + x * x);
  }
  for (int i = 0; i < 2 * N; i++) X[i] = p0[i];
  fz_fd_grad(eval, 0, X, 2 * N, fd);
  fz_check_arr("analytic gradient vs central differences", exact, fd, 2 * N, 1e-6);
  const int teams[3] = {1, 2, 4};
  for (int t = 0; t < 3; t++) {
    omp_set_num_threads(teams[t]);
    double x[N], y[N], dx[N] = {0}, dy[N] = {0}, sc[N], tmp[N], dtmp[N] = {0}, g[2 * N];
    for (int i = 0; i < N; i++) x[i] = p0[i], y[i] = p0[N + i];
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, W,
                      enzyme_const, sc, enzyme_dup, tmp, dtmp, N);
    for (int i = 0; i < N; i++) g[i] = dx[i], g[N + i] = dy[i];
    fz_check_arr("gradient vs analytic", g, exact, 2 * N, 1e-12);
    int same = 1;
    for (int i = 0; i < N; i++)
      same &= W[i] == w0[i] && sc[i] == W[i] * W[i] + cos(W[(i + 1) % N]);
    fz_check("weights unchanged, scratch as the primal writes it", same, 1, 0);
    double vx[N], vy[N], ttmp[N], dot = 0;
    for (int i = 0; i < N; i++) {
      vx[i] = 0.2 - 0.07 * i, vy[i] = 0.05 * i - 0.1;
      dot += vx[i] * exact[i] + vy[i] * exact[N + i];
    }
    double tan = __enzyme_fwddiff((void *)f, enzyme_dup, x, vx, enzyme_dup, y, vy, enzyme_const, W,
                                  enzyme_const, sc, enzyme_dup, tmp, ttmp, N);
    fz_check("forward = <gradient, v>", tan, dot, 1e-10);
  }
  return fz_finish();
}
