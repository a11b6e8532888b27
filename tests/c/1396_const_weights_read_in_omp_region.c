// OPT: O0 O2
// ARGS: -fopenmp
// Constant weights (`enzyme_const`) kept in a stack struct beside the active arrays and
// handed to a noinline helper, in a function whose OpenMP `parallel for` reduction
// reads the same weights (and one element of y every thread reads). At -O0 the weights'
// home slot escapes into `__kmpc_fork_call`, so it stays a slot; the pointer loaded back
// from it and stored into the struct was not seen as the constant parameter, its shadow
// field stayed null, and the helper's reverse sweep crashed (SIGSEGV, found while
// reducing difftest's C seed 3057). It is now its own shadow (run-time activity), the
// region differentiated under checks. Oracles: the analytic gradient, central
// differences of the primal, forward mode against the gradient along a direction, at 1
// and 3 threads, weights unchanged.
#include "fz_test.h"
#include <omp.h>

struct WS { const double *w; double s; double *out; int n; };

__attribute__((noinline)) void wsp(const struct WS *p, double *res) {
  double acc = *res;
  for (int i = 0; i < p->n; i++) acc += p->w[i] * tanh(p->out[i] + p->s);
  *res = acc;
}

// f = sum_i w_i tanh(y_i + x_0) + sum_i w_i sin(x_i y_0)
double model(double *x, double *y, const double *cw, int n) {
  double t = 0;
  struct WS ws = {cw, x[0], y, n};
  wsp(&ws, &t);
  double so = 0;
#pragma omp parallel for reduction(+ : so)
  for (int i = 0; i < n; i++) so += sin(x[i] * y[0]) * cw[i];
  return t + so;
}

enum { N = 7 };
static double P[2 * N];
static const double CW[N] = {0.3, 0.1, -0.4, 0.2, 0.7, -0.25, 0.5};
static double eval(void *ctx) {
  (void)ctx;
  double x[N], y[N];
  for (int i = 0; i < N; i++) x[i] = P[i], y[i] = P[N + i];
  return model(x, y, CW, N);
}

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const;
extern double __enzyme_fwddiff(void *, ...);

int main(void) {
  double x0[N], y0[N];
  fz_seed(1395);
  fz_fill(x0, N, -0.8, 0.9);
  fz_fill(y0, N, -0.7, 0.8);
  double exact[2 * N] = {0}, fd[2 * N];
  for (int i = 0; i < N; i++) {
    double sh = 1 / cosh(y0[i] + x0[0]);
    exact[0] += CW[i] * sh * sh;
    exact[N + i] = CW[i] * sh * sh;
    exact[N] += CW[i] * x0[i] * cos(x0[i] * y0[0]);
    exact[i] += CW[i] * y0[0] * cos(x0[i] * y0[0]);
  }
  for (int i = 0; i < N; i++) P[i] = x0[i], P[N + i] = y0[i];
  fz_fd_grad(eval, 0, P, 2 * N, fd);
  fz_check_arr("analytic gradient vs central differences", exact, fd, 2 * N, 1e-6);
  const int teams[2] = {1, 3};
  for (int k = 0; k < 2; k++) {
    omp_set_num_threads(teams[k]);
    double x[N], y[N], dx[N] = {0}, dy[N] = {0}, cw[N], g[2 * N];
    for (int i = 0; i < N; i++) x[i] = x0[i], y[i] = y0[i], cw[i] = CW[i];
    __enzyme_autodiff((void *)model, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, cw, N);
    for (int i = 0; i < N; i++) g[i] = dx[i], g[N + i] = dy[i];
    fz_check_arr(teams[k] == 1 ? "gradient, 1 thread" : "gradient, 3 threads", g, exact, 2 * N,
                 1e-12);
    double tx[N], ty[N], dir = 0;
    for (int i = 0; i < N; i++) {
      tx[i] = 0.3 - 0.1 * i, ty[i] = 0.05 * i - 0.2;
      dir += tx[i] * exact[i] + ty[i] * exact[N + i];
    }
    double tan = __enzyme_fwddiff((void *)model, enzyme_dup, x, tx, enzyme_dup, y, ty,
                                  enzyme_const, cw, N);
    fz_check(teams[k] == 1 ? "forward mode, 1 thread" : "forward mode, 3 threads", tan, dir,
             1e-12);
    int same = 1;
    for (int i = 0; i < N; i++) same &= cw[i] == CW[i];
    fz_check("enzyme_const weights unchanged", same, 1, 0);
  }
  return fz_finish();
}
