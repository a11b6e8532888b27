// OMP_THREADS: 1 2 4
// OPT: O0 O2
// GPU-style OpenMP offload code run on the host, as a scientist's code is first built
// without a device compiler (clang -fopenmp with no -fopenmp-targets runs every `target`
// region on the host): a `declare target` helper, a `target data map(to:...)
// map(alloc:...)` region enclosing `target teams distribute parallel for` loops with
// `map` clauses, a `target teams distribute parallel for reduction(+:s) map(tofrom: s)`
// and a `target update from(...)`. Reverse mode against central finite differences of
// the serial program, forward mode by the dot-product identity.
#include <omp.h>
#include <math.h>
#include "fz_test.h"
extern double __enzyme_fwddiff(void *, ...);
#define N 20

#pragma omp declare target
static double act(double v, int i) { return v * v * (1 + 0.05 * i) + sin(v); }
#pragma omp end declare target

double loss(const double *x, int n) {
  double y[N], z[N], s = 0;
#pragma omp target data map(to : x[0 : n]) map(alloc : y[0 : n]) map(from : z[0 : n])
  {
#pragma omp target teams distribute parallel for map(to : x[0 : n])
    for (int i = 0; i < n; i++) y[i] = act(x[i], i);
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++) z[i] = y[i] * x[(i + 3) % n];
#pragma omp target update from(y[0 : n])
  }
#pragma omp target teams distribute parallel for reduction(+ : s) map(to : y[0 : n], z[0 : n]) map(tofrom : s)
  for (int i = 0; i < n; i++) s += y[i] * z[i] + 0.1 * z[i] * z[i];
  return s;
}

static double serial(const double *x, int n) {
  double y[N], s = 0;
  for (int i = 0; i < n; i++) y[i] = x[i] * x[i] * (1 + 0.05 * i) + sin(x[i]);
  for (int i = 0; i < n; i++) {
    double z = y[i] * x[(i + 3) % n];
    s += y[i] * z + 0.1 * z * z;
  }
  return s;
}

static double xs[N];
static double eval(void *ctx) { (void)ctx; return serial(xs, N); }

int main(void) {
  fz_seed(90);
  fz_fill(xs, N, -1, 1);
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
