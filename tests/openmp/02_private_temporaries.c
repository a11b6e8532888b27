// OMP_THREADS: 1 2
// Private temporaries (`private(t, r)` scalars and a per-thread scratch array declared
// inside the loop): their derivatives stay in each thread's own shadow memory, while the
// shared inputs' adjoints are accumulated by several threads. Checked against central
// finite differences, and forward mode against the gradient.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

void features(const double *x, const double *w, double *y, int n) {
  double t, r;
#pragma omp parallel for private(t, r)
  for (int i = 0; i < n; i++) {
    double scratch[4];
    for (int k = 0; k < 4; k++) scratch[k] = x[(i + k) % n] * w[k];
    t = scratch[0] + scratch[1] * scratch[2];
    r = sqrt(1.0 + scratch[3] * scratch[3]);
    y[i] = t / r;
  }
}

double loss(const double *x, const double *w, int n) {
  double y[128];
  features(x, w, y, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += y[i] * y[i] + y[i];
  return s;
}

#define N 96
static double x[N], w[4];

static double eval(void *ctx) {
  (void)ctx;
  return loss(x, w, N);
}

int main(void) {
  fz_seed(12);
  fz_fill(x, N, -1, 1);
  fz_fill(w, 4, 0.5, 1.5);
  double dx[N], dw[4];
  fz_zero(dx, N);
  fz_zero(dw, 4);
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    char name[32];
    snprintf(name, sizeof name, "dx[%d]", i);
    fz_check(name, dx[i], fz_fd_ptr(eval, 0, &x[i]), 1e-6);
  }
  for (int k = 0; k < 4; k++) {
    char name[32];
    snprintf(name, sizeof name, "dw[%d]", k);
    fz_check(name, dw[k], fz_fd_ptr(eval, 0, &w[k]), 1e-6);
  }
  double vx[N], vw[4];
  fz_fill(vx, N, -1, 1);
  fz_fill(vw, 4, -1, 1);
  double jvp = __enzyme_fwddiff((void *)loss, enzyme_dup, x, vx, enzyme_dup, w, vw, enzyme_const, N);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * vx[i];
  for (int k = 0; k < 4; k++) dot += dw[k] * vw[k];
  fz_check("forward mode <J v> = <grad, v>", jvp, dot, 1e-10);
  return fz_finish();
}
