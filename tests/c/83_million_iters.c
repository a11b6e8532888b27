// OPT: O0 O1 O2 O3
// Tape stress: a recurrence with 1e6 iterations whose reverse pass needs the
// per-iteration values (nonlinear), a 1e6-element buffer, and a timing line.
#include "fz_test.h"

#define ITERS 1000000

/* logistic-like map with parameter r, x0; d/dr and d/dx0 via tangent oracle */
double iter(double r, double x0, long n) {
  double x = x0;
  for (long i = 0; i < n; i++) x = r * x * (1.0 - x) * 0.9 + 0.05 * sin(x);
  return x;
}

/* sum over a large array with a nonlinear per-element op */
double bigsum(const double *a, long n) {
  double s = 0.0;
  for (long i = 0; i < n; i++) s += exp(-a[i] * a[i]) * a[i];
  return s;
}

int main(void) {
  double r = 2.1, x0 = 0.3;
  double t0 = fz_now_ns();
  fz_grad2 g = __enzyme_autodiff2((void *)iter, r, x0, enzyme_const, (long)ITERS);
  double t1 = fz_now_ns();
  /* forward tangent oracle */
  double x = x0, dxr = 0.0, dx0 = 1.0;
  for (long i = 0; i < ITERS; i++) {
    double dfdx = r * (1.0 - 2.0 * x) * 0.9 + 0.05 * cos(x);
    double dfdr = x * (1.0 - x) * 0.9;
    dxr = dfdx * dxr + dfdr;
    dx0 = dfdx * dx0;
    x = r * x * (1.0 - x) * 0.9 + 0.05 * sin(x);
  }
  fz_check("diter/dr", g.d0, dxr, 1e-8);
  fz_check("diter/dx0", g.d1, dx0, 1e-8);
  printf("info: 1e6-iteration gradient took %.1f ms\n", (t1 - t0) / 1e6);

  double *a = malloc(sizeof(double) * ITERS), *da = calloc(ITERS, sizeof(double));
  fz_seed(125);
  for (long i = 0; i < ITERS; i++) a[i] = fz_uniform(-2, 2);
  t0 = fz_now_ns();
  __enzyme_autodiff((void *)bigsum, enzyme_dup, a, da, enzyme_const, (long)ITERS);
  t1 = fz_now_ns();
  int bad = 0;
  double worst = 0;
  for (long i = 0; i < ITERS; i++) {
    double w = exp(-a[i] * a[i]) * (1.0 - 2.0 * a[i] * a[i]);
    double e = fabs(da[i] - w);
    if (!(e <= 1e-12)) bad++;
    if (e > worst) worst = e;
  }
  fz_check("dbigsum mismatching elements", (double)bad, 0.0, 0.0);
  printf("info: bigsum grad %.1f ms, worst err %g\n", (t1 - t0) / 1e6, worst);
  free(a);
  free(da);
  return fz_finish();
}
