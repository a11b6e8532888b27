// OMP_THREADS: 1 3
// OPT: O0 O2
// Atomics whose derivative depends on the order the threads came (hpc37; both were
// refused as unsupported atomics): `#pragma omp atomic capture` of a running sum whose
// captured old value each iteration keeps (a prefix sum in arrival order, times its own
// term), and `#pragma omp atomic compare` keeping a maximum (`atomicrmw fmax`) and a
// minimum (`fmin`) of active values; both become critical sections reversed in the exact
// reverse order. Then a host `teams distribute parallel for` with an active
// `firstprivate` scale captured by value. The captured sum's total does not depend on
// the order, and the loss uses each capture only through the total of
// capture * term + term * capture-free parts, so it is checked the order-free way:
// reverse mode against central finite differences of the serial program, forward mode
// by the dot-product identity, the value against the serial program.
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 18

double loss(const double *x, int n) {
  double s = 0, hi = -1e300, lo = 1e300, pairs = 0, e = 0;
#pragma omp parallel for reduction(+ : pairs)
  for (int i = 0; i < n; i++) {
    double t = x[i] * x[i], before;
#pragma omp atomic capture
    {
      before = s;
      s += t;
    }
    pairs += before * t; /* sum over ordered pairs, whatever the order: (S^2 - sum t^2) / 2 */
  }
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double v = sin(x[i]) * (1.0 + 0.05 * i);
#pragma omp atomic compare
    if (hi < v) hi = v;
#pragma omp atomic compare
    if (lo > v) lo = v;
  }
  double scale = hi - lo;
#pragma omp teams distribute parallel for reduction(+ : e) firstprivate(scale)
  for (int i = 0; i < n; i++) e += scale * x[i] * (1.0 + 0.1 * i);
  return s + pairs + 3 * hi - 2 * lo + e;
}

static double serial(const double *x, int n) {
  double s = 0, sq = 0, hi = -1e300, lo = 1e300, e = 0;
  for (int i = 0; i < n; i++) {
    s += x[i] * x[i];
    sq += x[i] * x[i] * x[i] * x[i];
  }
  for (int i = 0; i < n; i++) {
    double v = sin(x[i]) * (1.0 + 0.05 * i);
    if (v > hi) hi = v;
    if (v < lo) lo = v;
  }
  for (int i = 0; i < n; i++) e += (hi - lo) * x[i] * (1.0 + 0.1 * i);
  return s + (s * s - sq) / 2 + 3 * hi - 2 * lo + e;
}

static double xs[N];
static double eval(void *ctx) {
  (void)ctx;
  return serial(xs, N);
}

int main(void) {
  fz_seed(67);
  fz_fill(xs, N, -1.2, 1.2);
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
