// OPT: O0 O2 O3
// Reverse-over-forward HVP: dd(x, v) = __enzyme_fwddiff(f, dup x v) is the
// directional derivative <grad f(x), v>; __enzyme_autodiff(dd, dup x hv,
// const v) accumulates H v into hv. f = sum_i exp(x_i x_{i+1}) + x_i^4/4.
// Oracles: the analytic Hessian times v, FD of the reverse gradient, and
// the forward-over-reverse HVP of the same function.
#include "fz_test.h"
#include "fz_modes.h"

#define N 7

double f(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    s += 0.25 * x[i] * x[i] * x[i] * x[i];
    if (i + 1 < n) s += exp(x[i] * x[i + 1]);
  }
  return s;
}
double dd(const double *x, const double *v, int n) {
  return __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, n);
}
void grad(const double *x, double *g, int n) {
  for (int i = 0; i < n; i++) g[i] = 0.0;
  __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, n);
}

static double X[N];
static void e_grad(void *c, double *out) { (void)c; grad(X, out, N); }

int main(void) {
  fz_seed(262);
  for (int t = 0; t < 3; t++) {
    double v[N], hv[N], hv0[N], want[N], fd[N], hf[N], g[N];
    fz_fill(X, N, -1, 1);
    fz_fill(v, N, -1, 1);
    fz_fill(hv0, N, -1, 1); /* hv accumulates on top of this */
    for (int i = 0; i < N; i++) want[i] = 3.0 * X[i] * X[i] * v[i];
    for (int i = 0; i + 1 < N; i++) {
      double e = exp(X[i] * X[i + 1]), c = (1.0 + X[i] * X[i + 1]) * e;
      want[i] += X[i + 1] * X[i + 1] * e * v[i] + c * v[i + 1];
      want[i + 1] += c * v[i] + X[i] * X[i] * e * v[i + 1];
    }
    fz_fd_jvp(e_grad, NULL, X, v, N, N, fd);
    memcpy(hv, hv0, sizeof hv);
    __enzyme_autodiff((void *)dd, enzyme_dup, X, hv, enzyme_const, v, enzyme_const, N);
    for (int i = 0; i < N; i++) hv[i] -= hv0[i];
    fz_mcheck2_arr("H v (reverse over forward)", hv, want, 1e-10, fd, 1e-6, N);
    /* the primal of dd is the directional derivative: <grad, v> */
    grad(X, g, N);
    fz_mcheck("dd = <grad f, v>", dd(X, v, N), fz_dot(g, v, N), 1e-12);
    __enzyme_fwddiff_void((void *)grad, enzyme_dup, X, v, enzyme_dup, g, hf, enzyme_const, N);
    fz_mcheck_arr("reverse-over-forward = forward-over-reverse", hv, hf, N, 1e-12);
  }
  return fz_finish();
}
