// OPT: O0 O1 O2 O3
// Extreme sizes: a tape of ~1e7 cached values (nonlinear in-place recurrence
// over 1e7 elements with a data-dependent branch, needs caching), zero-trip
// loops (n = 0), n = 1, and a helper called 1e6 times.
#include "fz_test.h"

double big(double *x, long n) {
  double s = 0.1;
  for (long i = 0; i < n; i++) {
    double v = x[i];
    s = s > 1.0 ? sin(s) * v : s * v + 0.5 * v * v;  /* needs s per iteration */
    x[i] = s;                                         /* overwrite input */
  }
  return s;
}
__attribute__((noinline)) double tiny(double a, double b) { return a * b + sin(a); }
double many(double x, long n) {
  double s = x;
  for (long i = 0; i < n; i++) s = tiny(s, 0.999999) * 0.5 + x * 0.5;
  return s;
}
double sum_n(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return s;
}

static double *X0;
static long NN;
static double eval_big(void *p) {
  double *t = malloc(NN * sizeof(double));
  memcpy(t, X0, NN * sizeof(double));
  double r = big(t, NN);
  free(t);
  return r;
}

int main(void) {
  fz_seed(230);
  long n = 10000000;
  double *x = malloc(n * sizeof(double)), *dx = calloc(n, sizeof(double));
  X0 = malloc(n * sizeof(double));
  for (long i = 0; i < n; i++) X0[i] = x[i] = fz_uniform(0.9, 1.1);
  NN = n;
  double t0 = fz_now_ns();
  __enzyme_autodiff((void *)big, enzyme_dup, x, dx, enzyme_const, n);
  double t1 = fz_now_ns();
  printf("big grad: %.1f ms\n", (t1 - t0) / 1e6);
  /* check last few and a few early entries by FD (each FD evaluates the full chain) */
  long probe[4] = {n - 1, n - 2, n - 50, n - 1000};
  for (int k = 0; k < 4; k++) {
    char nm[32];
    snprintf(nm, sizeof nm, "big dx[%ld]", probe[k]);
    fz_check(nm, dx[probe[k]], fz_fd_ptr(eval_big, NULL, &X0[probe[k]]), 1e-5);
  }
  free(x); free(dx); free(X0);

  double d = __enzyme_autodiff((void *)many, 0.3, enzyme_const, 1000000L);
  /* derivative by FD */
  double h = 1e-6;
  double fdm = (many(0.3 + h, 1000000L) - many(0.3 - h, 1000000L)) / (2 * h);
  fz_check("many d", d, fdm, 1e-6);

  double z[1] = {0.7}, dz[1] = {0};
  __enzyme_autodiff((void *)sum_n, enzyme_dup, z, dz, enzyme_const, 0);
  fz_check("n=0", dz[0], 0, 0);
  __enzyme_autodiff((void *)sum_n, enzyme_dup, z, dz, enzyme_const, 1);
  fz_check("n=1", dz[0], 1.4, 1e-15);
  double e0 = __enzyme_autodiff((void *)many, 0.3, enzyme_const, 0L);
  fz_check("many n=0", e0, 1.0, 0);
  double dbig1 = 0, xb = 0.8;
  __enzyme_autodiff((void *)big, enzyme_dup, &xb, &dbig1, enzyme_const, 1L);
  fz_check("big n=1", dbig1, 0.1 + 0.8, 1e-15);
  return fz_finish();
}
