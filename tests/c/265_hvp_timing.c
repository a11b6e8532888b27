// OPT: O2 O3
// Times a forward-over-reverse Hessian-vector product against the
// reverse-mode gradient of the same function (extended Rosenbrock plus a
// log-sum-exp coupling term, n = 200), after checking the HVP against the
// analytic Hessian-vector product and FD of the gradient. Prints
// `TIMING hvp/grad=R` (never asserted).
#include "fz_test.h"
#include "fz_modes.h"

#define N 200

double obj(const double *x, int n) {
  double s = 0.0, e = 0.0;
  for (int i = 0; i < n - 1; i++) {
    double a = x[i + 1] - x[i] * x[i], b = 1.0 - x[i];
    s += 100.0 * a * a + b * b;
  }
  for (int i = 0; i < n; i++) e += exp(0.1 * x[i]);
  return s + log(e);
}
void grad(const double *x, double *g, int n) {
  for (int i = 0; i < n; i++) g[i] = 0.0;
  __enzyme_autodiff((void *)obj, enzyme_dup, x, g, enzyme_const, n);
}

static double X[N], V[N], G[N], HV[N];
static void e_grad(void *c, double *out) { (void)c; grad(X, out, N); }
static void run_grad(void *c) { (void)c; grad(X, G, N); }
static void run_hvp(void *c) {
  (void)c;
  __enzyme_fwddiff_void((void *)grad, enzyme_dup, X, V, enzyme_dup, G, HV, enzyme_const, N);
}

int main(void) {
  fz_seed(265);
  fz_fill(X, N, -1.2, 1.2);
  fz_fill(V, N, -1, 1);
  double want[N], fd[N], p[N], S = 0.0, pv;
  /* Rosenbrock part */
  for (int i = 0; i < N; i++) want[i] = 0.0;
  for (int i = 0; i < N - 1; i++) {
    want[i] += (1200.0 * X[i] * X[i] - 400.0 * X[i + 1] + 2.0) * V[i] - 400.0 * X[i] * V[i + 1];
    want[i + 1] += -400.0 * X[i] * V[i] + 200.0 * V[i + 1];
  }
  /* log-sum-exp of 0.1 x: H = 0.01 (diag(p) - p p^T), p = softmax(0.1 x) */
  for (int i = 0; i < N; i++) S += exp(0.1 * X[i]);
  for (int i = 0; i < N; i++) p[i] = exp(0.1 * X[i]) / S;
  pv = fz_dot(p, V, N);
  for (int i = 0; i < N; i++) want[i] += 0.01 * p[i] * (V[i] - pv);
  run_hvp(NULL);
  fz_fd_jvp(e_grad, NULL, X, V, N, N, fd);
  fz_mcheck2_arr("H v", HV, want, 1e-10, fd, 1e-6, N);
  double tg = fz_time_ns(run_grad, NULL), th = fz_time_ns(run_hvp, NULL);
  fz_timing_ratio("hvp/grad", th, tg);
  return fz_finish();
}
