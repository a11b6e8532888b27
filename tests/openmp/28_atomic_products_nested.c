// OMP_THREADS: 1 2 4
// OPT: O0 O2
// Order-dependent atomics and the other constructs of a typical OpenMP kernel: `omp
// atomic` `p *= f` and `q /= g` on shared doubles in a `schedule(dynamic, 1)` loop with
// uneven work (clang's compare-and-swap loops: they were refused naming `cmpxchg`; the
// derivative now runs each as a critical section, reversed in exactly the reverse order,
// parallel/atomic_cas.rs), an atomic product inside a nested `parallel for` (inner
// team of 2 in every outer thread), `omp simd reduction(+:)`, `parallel sections`, a
// `single nowait` and a `master` block between barriers. Each loss is checked against
// the analytic gradient of the serial computation (20 repetitions for the atomics),
// central finite differences, and forward mode against reverse.
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 32

static void busy(int i) {
  for (volatile int k = 0; k < (i * 7 % 5) * 1500; k++) {
  }
}

static double f_of(double x) { return 1.0 + 0.2 * sin(x); }
static double g_of(double x) { return 2.0 + cos(x); }

double atomic_products(const double *x) {
  double p = 1.5, q = 3.0;
#pragma omp parallel for schedule(dynamic, 1)
  for (int i = 0; i < N; i++) {
    double f = f_of(x[i]), g = g_of(x[i]);
    busy(i);
#pragma omp atomic
    p *= f;
#pragma omp atomic
    q /= g;
  }
  return p + q;
}

double nested_product(const double *x) {
  double p = 1.0;
  omp_set_max_active_levels(2);
#pragma omp parallel for num_threads(2)
  for (int b = 0; b < 4; b++) {
#pragma omp parallel for num_threads(2) schedule(static, 1)
    for (int i = b * (N / 4); i < (b + 1) * (N / 4); i++) {
      double f = f_of(x[i]);
      busy(i + b);
#pragma omp atomic
      p *= f;
    }
  }
  return p;
}

double simd_sections_single(const double *x) {
  double s = 0, a = 0, b = 0, c = 0, m = 0;
#pragma omp simd reduction(+ : s)
  for (int i = 0; i < N; i++) s += x[i] * x[i];
#pragma omp parallel sections
  {
#pragma omp section
    for (int i = 0; i < N / 2; i++) a += sin(x[i]);
#pragma omp section
    for (int i = N / 2; i < N; i++) b += x[i] * x[i - N / 2];
#pragma omp section
    c = exp(0.1 * x[0]) * x[N - 1];
  }
#pragma omp parallel shared(m)
  {
#pragma omp single nowait
    m += a * b;
#pragma omp barrier
#pragma omp master
    m += c * s;
#pragma omp barrier
  }
  return m + s;
}

static double X[N];
static int which;
static double eval(void *ctx) {
  (void)ctx;
  return which == 0 ? atomic_products(X) : which == 1 ? nested_product(X) : simd_sections_single(X);
}

int main(void) {
  fz_seed(28);
  fz_fill(X, N, -1, 1);
  /* analytic gradients of the serial computations */
  double P = 1.5, Q = 3.0, PN = 1.0;
  for (int i = 0; i < N; i++) P *= f_of(X[i]), Q /= g_of(X[i]), PN *= f_of(X[i]);
  double want_prod[N], want_nested[N], want_mix[N];
  double S = 0, A = 0, B = 0, C = exp(0.1 * X[0]) * X[N - 1];
  for (int i = 0; i < N; i++) S += X[i] * X[i];
  for (int i = 0; i < N / 2; i++) A += sin(X[i]);
  for (int i = N / 2; i < N; i++) B += X[i] * X[i - N / 2];
  for (int i = 0; i < N; i++) {
    double df = 0.2 * cos(X[i]), dg = -sin(X[i]);
    want_prod[i] = P * df / f_of(X[i]) - Q * dg / g_of(X[i]);
    want_nested[i] = PN * df / f_of(X[i]);
    /* m + s = A B + C S + S */
    double dA = i < N / 2 ? cos(X[i]) : 0;
    double dB = i < N / 2 ? X[i + N / 2] : X[i - N / 2];
    double dC = (i == 0 ? 0.1 * C : 0) + (i == N - 1 ? exp(0.1 * X[0]) : 0);
    want_mix[i] = dA * B + A * dB + dC * S + (C + 1) * 2 * X[i];
  }
  fz_check("atomic_products value", atomic_products(X), P + Q, 1e-12);
  fz_check("nested_product value", nested_product(X), PN, 1e-12);
  fz_check("simd_sections_single value", simd_sections_single(X), A * B + C * S + S, 1e-12);
  double dx[N];
  for (int rep = 0; rep < 20; rep++) {
    fz_zero(dx, N);
    __enzyme_autodiff((void *)atomic_products, enzyme_dup, X, dx);
    fz_check_arr("d atomic_products", dx, want_prod, N, 1e-12);
    fz_zero(dx, N);
    __enzyme_autodiff((void *)nested_product, enzyme_dup, X, dx);
    fz_check_arr("d nested_product", dx, want_nested, N, 1e-12);
  }
  fz_zero(dx, N);
  __enzyme_autodiff((void *)simd_sections_single, enzyme_dup, X, dx);
  fz_check_arr("d simd_sections_single", dx, want_mix, N, 1e-12);
  for (which = 0; which < 3; which++) {
    double v[N], dot = 0, jvp;
    fz_zero(dx, N);
    fz_fill(v, N, -1, 1);
    if (which == 0) {
      __enzyme_autodiff((void *)atomic_products, enzyme_dup, X, dx);
      jvp = __enzyme_fwddiff((void *)atomic_products, enzyme_dup, X, v);
    } else if (which == 1) {
      __enzyme_autodiff((void *)nested_product, enzyme_dup, X, dx);
      jvp = __enzyme_fwddiff((void *)nested_product, enzyme_dup, X, v);
    } else {
      __enzyme_autodiff((void *)simd_sections_single, enzyme_dup, X, dx);
      jvp = __enzyme_fwddiff((void *)simd_sections_single, enzyme_dup, X, v);
    }
    for (int i = 0; i < N; i += 5) fz_check("vs fd", dx[i], fz_fd_ptr(eval, 0, &X[i]), 1e-6);
    for (int i = 0; i < N; i++) dot += dx[i] * v[i];
    fz_check("forward <J v> = <grad, v>", jvp, dot, 1e-10);
  }
  return fz_finish();
}
