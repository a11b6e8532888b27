// OPT: O0 O2
// Constant weights (`enzyme_const`) and the active array in one struct built on the
// stack, `{const double *w; double s; double *out; int n;}`, passed by value to a helper
// that writes through .out and by pointer to a noinline helper, as user code bundles
// its arguments. Oracles: central differences of the primal, the constant weights
// unchanged.
#include "fz_test.h"

struct WS { const double *w; double s; double *out; int n; };

static double wsv(struct WS p) {
  double acc = 0;
  for (int i = 0; i < p.n; i++) {
    acc += p.w[i] * p.out[i] * p.s;
    p.out[i] = p.out[i] * 0.875 + p.w[(i + 1) % p.n] * sin(p.s) * 0.25;
  }
  return acc;
}

__attribute__((noinline)) void wsp(const struct WS *p, double *res) {
  double acc = *res;
  for (int i = 0; i < p->n; i++) acc = acc * 0.5 + p->w[i] * tanh(p->out[(i + 2) % p->n] + p->s);
  *res = acc;
}

double model(double *x, const double *cw, int n, double a) {
  struct WS ws = {cw, a * a, x, n};
  double t = wsv(ws);
  wsp(&ws, &t);
  for (int i = 0; i < n; i++) t += x[i] * x[i];
  return t;
}

enum { N = 4 };
static double X[N + 1];
static const double CW[N] = {0.7, -0.2, 0.5, 0.9};
static double eval(void *ctx) {
  (void)ctx;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X[i];
  return model(x, CW, N, X[N]);
}

extern int enzyme_dup, enzyme_const;

int main(void) {
  double x[N] = {0.3, -0.5, 0.8, 0.15}, dx[N] = {0}, cw[N], fd[N + 1], g[N + 1];
  for (int i = 0; i < N; i++) cw[i] = CW[i], X[i] = x[i];
  X[N] = 0.6;
  double da = __enzyme_autodiff((void *)model, enzyme_dup, x, dx, enzyme_const, cw, N, 0.6);
  for (int i = 0; i < N; i++) g[i] = dx[i];
  g[N] = da;
  fz_fd_grad(eval, 0, X, N + 1, fd);
  fz_check_arr("gradient vs central differences", g, fd, N + 1, 1e-6);
  int same = 1;
  for (int i = 0; i < N; i++) same &= cw[i] == CW[i];
  fz_check("enzyme_const weights unchanged", same, 1, 0);
  return fz_finish();
}
