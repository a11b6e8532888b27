// OMP_THREADS: 1 2 4
// OPT: O0 O2
// Reductions statistics codes write with OpenMP 4.5+: a user-defined reduction
// (`#pragma omp declare reduction` over a struct of running sums, with an
// `initializer`) and an array-section reduction `reduction(+ : h[:B])` that bins
// weighted values into a small histogram, next to a scalar `reduction(max : m)`.
// The loss combines the mean and variance from the struct, the binned values and the
// maximum. Reverse mode against central finite differences of the same formula
// written serially; forward mode by the dot-product identity.
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 29
#define B 4

typedef struct {
  double s, q;
} moments;

#pragma omp declare reduction(addm : moments : omp_out.s += omp_in.s, omp_out.q += omp_in.q) \
    initializer(omp_priv = (moments){0, 0})

double loss(const double *x, int n) {
  moments a = {0, 0};
  double h[B] = {0, 0, 0, 0};
  double m = -1e300;
#pragma omp parallel for reduction(addm : a) reduction(+ : h[:B]) reduction(max : m)
  for (int i = 0; i < n; i++) {
    a.s += x[i];
    a.q += x[i] * x[i];
    h[i % B] += sin(x[i]) * x[(i + 1) % n];
    double t = x[i] * (1.0 + 0.05 * i);
    if (t > m) m = t;
  }
  double mean = a.s / n, var = a.q / n - mean * mean;
  double e = var + 0.3 * mean * mean + 0.7 * m;
  for (int b = 0; b < B; b++) e += h[b] * h[b] * (1.0 + 0.25 * b);
  return e;
}

static double serial(const double *x, int n) {
  double s = 0, q = 0, h[B] = {0, 0, 0, 0}, m = -1e300;
  for (int i = 0; i < n; i++) {
    s += x[i];
    q += x[i] * x[i];
    h[i % B] += sin(x[i]) * x[(i + 1) % n];
    double t = x[i] * (1.0 + 0.05 * i);
    if (t > m) m = t;
  }
  double mean = s / n, var = q / n - mean * mean;
  double e = var + 0.3 * mean * mean + 0.7 * m;
  for (int b = 0; b < B; b++) e += h[b] * h[b] * (1.0 + 0.25 * b);
  return e;
}

static double xs[N];
static double eval(void *ctx) {
  (void)ctx;
  return serial(xs, N);
}

int main(void) {
  fz_seed(59);
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
