// OMP_THREADS: 1 2 4
// OPT: O0 O2
// The whole time loop inside one parallel region, as stencil codes write it to avoid a
// fork per step: `for (t ...) { #pragma omp for ... }` with the implicit barriers between
// the sweeps, ping-pong buffers swapped by every thread, a `single` computing a step
// factor from the state; then a `reduction(-: s)` (the deprecated minus reduction) and a
// `loop order(concurrent)` / `for order(concurrent)` pair. Reverse mode against central
// finite differences of the serial program; forward mode by the dot-product identity.
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 26
#define STEPS 5

double loss(const double *x, int n) {
  double a[N], b[N], c[N], k = 0;
#pragma omp parallel
  {
    double *u = a, *w = b;
#pragma omp for
    for (int i = 0; i < n; i++) a[i] = x[i];
    for (int t = 0; t < STEPS; t++) {
#pragma omp single
      k = 0.2 + 0.05 * u[t] * u[t];
#pragma omp for
      for (int i = 0; i < n; i++) {
        double l = i > 0 ? u[i - 1] : 0, r = i < n - 1 ? u[i + 1] : 0;
        w[i] = u[i] + k * (l - 2 * u[i] + r) - 0.01 * u[i] * u[i] * u[i];
      }
      double *s = u; u = w; w = s;
    }
#pragma omp for order(concurrent)
    for (int i = 0; i < n; i++) c[i] = u[i] * (1.0 + 0.02 * i);
  }
  double s = 0;
#pragma omp parallel for reduction(- : s)
  for (int i = 0; i < n; i++) s -= c[i] * c[i];
  double q = 0;
#pragma omp parallel for reduction(+ : q) order(concurrent)
  for (int i = 0; i < n; i++) q += exp(0.3 * c[i]);
  return s + q;
}

static double serial(const double *x, int n) {
  double a[N], b[N], *u = a, *w = b;
  for (int i = 0; i < n; i++) a[i] = x[i];
  for (int t = 0; t < STEPS; t++) {
    double k = 0.2 + 0.05 * u[t] * u[t];
    for (int i = 0; i < n; i++) {
      double l = i > 0 ? u[i - 1] : 0, r = i < n - 1 ? u[i + 1] : 0;
      w[i] = u[i] + k * (l - 2 * u[i] + r) - 0.01 * u[i] * u[i] * u[i];
    }
    double *s = u; u = w; w = s;
  }
  double s = 0, q = 0;
  for (int i = 0; i < n; i++) {
    double c = u[i] * (1.0 + 0.02 * i);
    s -= c * c;
    q += exp(0.3 * c);
  }
  return s + q;
}

static double xs[N];
static double eval(void *ctx) {
  (void)ctx;
  return serial(xs, N);
}

int main(void) {
  fz_seed(84);
  fz_fill(xs, N, -0.9, 0.9);
  double g[N], v[N];
  fz_zero(g, N);
  fz_check("value vs serial", loss(xs, N), serial(xs, N), 1e-12);
  __enzyme_autodiff((void *)loss, enzyme_dup, xs, g, enzyme_const, N);
  for (int k = 0; k < N; k++) {
    char name[32];
    snprintf(name, sizeof name, "grad[%d] vs fd", k);
    fz_check(name, g[k], fz_fd_ptr(eval, 0, &xs[k]), 1e-6);
  }
  fz_fill(v, N, -1, 1);
  double jv = __enzyme_fwddiff((void *)loss, enzyme_dup, xs, v, enzyme_const, N);
  double dot = 0;
  for (int k = 0; k < N; k++) dot += g[k] * v[k];
  fz_check("forward . v = reverse . v", jv, dot, 1e-10);
  return fz_finish();
}
