// OPT: O0 O2
// ARGS: -lopenblas
// Constant weights (`enzyme_const`) kept in a stack struct beside the active arrays and
// handed to a noinline helper, while the same weights go to `cblas_ddot` (fuzz36's
// difftest C seed 7, reduced by the lead). The BLAS call made run-time activity give up
// ("given shadowed memory it may read that pointer back from") and the store of the
// weights into the struct was refused at -O0 and -O2, although BLAS functions read only
// floats and integers through their arguments. Oracles: central differences of the
// primal for x and y, and the weights unchanged.
#include "fz_test.h"
#include <cblas.h>

struct WS { const double *w; double s; double *out; int n; };

__attribute__((noinline)) void wsp(const struct WS *p, double *res) {
  double acc = *res;
  for (int i = 0; i < p->n; i++) acc = acc * 0.5 + p->w[i] * tanh(p->out[(i + 2) % p->n] + p->s);
  *res = acc;
}

double model(double *x, double *y, const double *cw, int n) {
  double t = 0.1;
  for (int k = 0; k < 2; k++) {
    struct WS ws = {cw, x[k], y, n};
    ws.s = ws.s * 0.5 + tanh(t);
    wsp(&ws, &t);
  }
  t += 0.2 * cblas_ddot(n, cw, 1, x, 1) * sin(y[1]);
  return t;
}

enum { N = 4 };
static double P[2 * N];
static const double CW[N] = {0.3, 0.1, -0.4, 0.2};
static double eval(void *ctx) {
  (void)ctx;
  double x[N], y[N];
  for (int i = 0; i < N; i++) x[i] = P[i], y[i] = P[N + i];
  return model(x, y, CW, N);
}

extern int enzyme_dup, enzyme_const;

int main(void) {
  double x[N] = {0.1, 0.2, 0.3, 0.4}, y[N] = {0.5, -0.2, 0.3, 0.7};
  double dx[N] = {0}, dy[N] = {0}, cw[N], g[2 * N], fd[2 * N];
  for (int i = 0; i < N; i++) cw[i] = CW[i], P[i] = x[i], P[N + i] = y[i];
  __enzyme_autodiff((void *)model, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, cw, N);
  for (int i = 0; i < N; i++) g[i] = dx[i], g[N + i] = dy[i];
  fz_fd_grad(eval, 0, P, 2 * N, fd);
  fz_check_arr("gradient vs central differences", g, fd, 2 * N, 1e-6);
  int same = 1;
  for (int i = 0; i < N; i++) same &= cw[i] == CW[i];
  fz_check("enzyme_const weights unchanged", same, 1, 0);
  return fz_finish();
}
