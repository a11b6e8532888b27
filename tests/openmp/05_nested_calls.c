// OMP_THREADS: 1 2
// Calls inside the parallel region: a helper with its own loop and math, another that
// writes through a pointer, and one that reads a shared parameter vector. Their
// derivatives run on every thread, adding the adjoints of shared memory atomically.
// Checked against central finite differences.
#include "fz_test.h"

#define M 6

__attribute__((noinline)) double poly(const double *c, double t) {
  double p = 0;
  for (int k = M - 1; k >= 0; k--) p = p * t + c[k];
  return p;
}

__attribute__((noinline)) void smooth_into(double *out, const double *x, int i, int n) {
  double l = x[(i + n - 1) % n], r = x[(i + 1) % n];
  *out = 0.25 * l + 0.5 * x[i] + 0.25 * r + exp(-x[i] * x[i]);
}

__attribute__((noinline)) double residual(const double *c, const double *x, int i, int n) {
  double s;
  smooth_into(&s, x, i, n);
  return poly(c, s) - tanh(x[i]);
}

double loss(const double *c, const double *x, int n) {
  double r[256];
#pragma omp parallel for schedule(static, 5)
  for (int i = 0; i < n; i++) r[i] = residual(c, x, i, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += r[i] * r[i];
  return s;
}

#define N 120
static double c[M], x[N];

static double eval(void *ctx) {
  (void)ctx;
  return loss(c, x, N);
}

int main(void) {
  fz_seed(15);
  fz_fill(c, M, -0.5, 0.5);
  fz_fill(x, N, -1, 1);
  double dc[M], dx[N];
  fz_zero(dc, M);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)loss, enzyme_dup, c, dc, enzyme_dup, x, dx, enzyme_const, N);
  for (int k = 0; k < M; k++) {
    char name[32];
    snprintf(name, sizeof name, "dc[%d]", k);
    fz_check(name, dc[k], fz_fd_ptr(eval, 0, &c[k]), 1e-6);
  }
  for (int i = 0; i < N; i += 3) {
    char name[32];
    snprintf(name, sizeof name, "dx[%d]", i);
    fz_check(name, dx[i], fz_fd_ptr(eval, 0, &x[i]), 1e-6);
  }
  return fz_finish();
}
