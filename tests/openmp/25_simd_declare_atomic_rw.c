// OMP_THREADS: 1 2 4
// OPT: O0 O2
// CFLAGS: -march=native
// Vectorisation hints and atomic reads and writes as a tuned kernel carries them: an
// `omp declare simd` function called from an `omp simd reduction(+:)` loop, a `parallel
// for simd` with `aligned` and a reduction, `omp simd` with `safelen` and `linear` over a
// stencil, and `omp atomic write` of a value one thread computes followed by `omp atomic
// read` in every thread after a barrier. Checked against analytic gradients, central
// finite differences and forward mode (the dot-product identity), at 1, 2 and 4 threads;
// the atomic read/write kernel too (forward mode refused atomic loads and stores of
// differentiated memory until hpc35; its tangents are now read and written atomically).
// (Passed as written; an `omp atomic` update that multiplies or divides a double, or
// `omp atomic compare` for a maximum, is a clear error: tests/errors/openmp_atomic_mul.c.)
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 32

#pragma omp declare simd notinbranch
static double bump(double v) { return v * exp(-0.5 * v * v); }

double simd_sum(const double *x) {
  double s = 0;
#pragma omp simd reduction(+ : s)
  for (int i = 0; i < N; i++) s += bump(x[i]) * (1 + 0.01 * i);
  return s;
}

double par_simd(const double *x) {
  double s = 0;
#pragma omp parallel for simd reduction(+ : s) aligned(x : 16) schedule(static, 4)
  for (int i = 0; i < N; i++) s += sin(x[i]) * x[i];
  return s;
}

double stencil(const double *x) {
  double y[N], s = 0;
  int k = 0;
  y[0] = x[0];
  y[N - 1] = x[N - 1];
#pragma omp simd safelen(8) linear(k : 1)
  for (int i = 1; i < N - 1; i++) {
    y[i] = 0.25 * x[i - 1] + 0.5 * x[i] + 0.25 * x[i + 1] + 0.01 * k;
    k++;
  }
  for (int i = 0; i < N; i++) s += y[i] * y[i];
  return s;
}

double broadcast_scale(const double *x) {
  double scale = 0, total = 0;
#pragma omp parallel reduction(+ : total)
  {
#pragma omp single
    {
      double v = x[0] * x[1] + 1;
#pragma omp atomic write
      scale = v;
    }
    double mine;
#pragma omp atomic read
    mine = scale;
#pragma omp for
    for (int i = 0; i < N; i++) total += mine * x[i] * x[i];
  }
  return total;
}

static double X[N];
typedef double (*fn)(const double *);
static fn F;
static double eval(void *c) {
  (void)c;
  return F(X);
}

/* The derivative of f (reverse dx, forward jvp along v) against the analytic one, central
 * finite differences and the dot-product identity. */
static void check_reverse(const char *what, fn f, const double *dx, const double *want) {
  char name[64];
  snprintf(name, sizeof name, "d %s analytic", what);
  fz_check_arr(name, dx, want, N, 1e-12);
  F = f;
  for (int i = 0; i < N; i += 5) {
    snprintf(name, sizeof name, "d %s vs fd [%d]", what, i);
    fz_check(name, dx[i], fz_fd_ptr(eval, 0, &X[i]), 1e-6);
  }
}

static void check_all(const char *what, fn f, const double *dx, double jvp, const double *v,
                      const double *want) {
  char name[64];
  check_reverse(what, f, dx, want);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  snprintf(name, sizeof name, "%s forward <J v> = <grad, v>", what);
  fz_check(name, jvp, dot, 1e-10);
}

/* The hooks need the function itself, so each call site is spelled out. */
#define AGAINST_ALL(what, f, want)                                                         \
  do {                                                                                     \
    double dx_[N], v_[N];                                                                  \
    fz_zero(dx_, N);                                                                       \
    __enzyme_autodiff((void *)f, enzyme_dup, X, dx_);                                      \
    fz_fill(v_, N, -1, 1);                                                                 \
    double jvp_ = __enzyme_fwddiff((void *)f, enzyme_dup, X, v_);                          \
    check_all(what, f, dx_, jvp_, v_, want);                                               \
  } while (0)

int main(void) {
  fz_seed(25);
  fz_fill(X, N, -1.5, 1.5);
  double want[N];
  for (int i = 0; i < N; i++)
    want[i] = (1 - X[i] * X[i]) * exp(-0.5 * X[i] * X[i]) * (1 + 0.01 * i);
  AGAINST_ALL("simd_sum", simd_sum, want);
  for (int i = 0; i < N; i++) want[i] = cos(X[i]) * X[i] + sin(X[i]);
  AGAINST_ALL("par_simd", par_simd, want);
  double y[N];
  y[0] = X[0];
  y[N - 1] = X[N - 1];
  for (int i = 1; i < N - 1; i++)
    y[i] = 0.25 * X[i - 1] + 0.5 * X[i] + 0.25 * X[i + 1] + 0.01 * (i - 1);
  for (int i = 0; i < N; i++) want[i] = 0;
  want[0] += 2 * y[0];
  want[N - 1] += 2 * y[N - 1];
  for (int i = 1; i < N - 1; i++) {
    want[i - 1] += 2 * y[i] * 0.25;
    want[i] += 2 * y[i] * 0.5;
    want[i + 1] += 2 * y[i] * 0.25;
  }
  AGAINST_ALL("stencil", stencil, want);
  double q = 0, sc = X[0] * X[1] + 1;
  for (int i = 0; i < N; i++) q += X[i] * X[i];
  for (int i = 0; i < N; i++) want[i] = 2 * sc * X[i];
  want[0] += X[1] * q;
  want[1] += X[0] * q;
  AGAINST_ALL("broadcast_scale", broadcast_scale, want);
  return fz_finish();
}
