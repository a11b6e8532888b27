// OMP_THREADS: 1 2 4
// OPT: O0 O2
// OpenMP constructs of newer codes on values from the input: an inclusive prefix sum
// `parallel for reduction(inscan, +: s)` with `#pragma omp scan inclusive(s)`, an
// exclusive one (`scan exclusive(s)`), the `loop` construct (`parallel loop`) and a
// `parallel for simd reduction(+:e)`. (A host `teams` construct, refused until hpc36,
// is differentiated since hpc37: tests/openmp/65.) Reverse mode against
// central finite differences of the same formula written serially; forward mode by the
// dot-product identity.
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 23

double loss(const double *x, int n) {
  double pre[N], ex[N], y[N];
  double s = 0, t = 0, e = 0;
#pragma omp parallel for reduction(inscan, + : s)
  for (int i = 0; i < n; i++) {
    s += x[i] * x[i];
#pragma omp scan inclusive(s)
    pre[i] = s;
  }
#pragma omp parallel for reduction(inscan, + : t)
  for (int i = 0; i < n; i++) {
    ex[i] = t;
#pragma omp scan exclusive(t)
    t += sin(x[i]);
  }
#pragma omp parallel loop
  for (int i = 0; i < n; i++) y[i] = pre[i] * ex[i] + 0.5 * x[(i + 1) % n];
#pragma omp parallel for simd reduction(+ : e)
  for (int i = 0; i < n; i++) e += y[i] * (1.0 + 0.1 * i) + cos(pre[i]) * 0.2;
  return e + s * t;
}

static double serial(const double *x, int n) {
  double pre[N], ex[N], s = 0, t = 0, e = 0;
  for (int i = 0; i < n; i++) {
    s += x[i] * x[i];
    pre[i] = s;
  }
  for (int i = 0; i < n; i++) {
    ex[i] = t;
    t += sin(x[i]);
  }
  for (int i = 0; i < n; i++)
    e += (pre[i] * ex[i] + 0.5 * x[(i + 1) % n]) * (1.0 + 0.1 * i) + cos(pre[i]) * 0.2;
  return e + s * t;
}

static double xs[N];
static double eval(void *ctx) {
  (void)ctx;
  return serial(xs, N);
}

int main(void) {
  fz_seed(56);
  fz_fill(xs, N, -0.8, 0.8);
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
