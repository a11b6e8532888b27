// OMP_THREADS: 1 2 4
// OPT: O0 O2
// `reduction(max:)`, `reduction(min:)` and `reduction(*:)` of doubles, which used to be a
// clear error (tests/errors/openmp_max_reduction_real.c and openmp_reduction_max.c, now
// gone): the peak of a field (fmax and an `if`), the minimum of a potential, and a
// product of factors, with static and dynamic schedules, and a sum beside a maximum in
// one parallel region. Each thread now combines its
// private value into the shared one inside a critical section on the reduction's lock,
// which the reverse sweep reverses in the exact reverse order (the derivative of the
// maximum goes to the element that won, of the product to every factor). Checked against
// analytic gradients (10 repetitions at 4 threads), central finite differences and the
// dot-product identity with forward mode.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 40

double peak(const double *x) {
  double m = -1e300;
#pragma omp parallel for reduction(max : m) schedule(dynamic, 3)
  for (int i = 0; i < N; i++) m = fmax(m, x[i] * x[i] * (1 + 0.01 * i));
  return m;
}

double largest_if(const double *x) {
  double m = -1e300;
#pragma omp parallel for reduction(max : m)
  for (int i = 0; i < N; i++)
    if (sin(x[i]) > m) m = sin(x[i]);
  return m;
}

double lowest(const double *x) {
  double m = 1e300;
#pragma omp parallel for reduction(min : m) schedule(static, 2)
  for (int i = 0; i < N; i++) {
    double v = cos(x[i]) + 0.1 * x[i];
    m = v < m ? v : m;
  }
  return m;
}

double product(const double *x) {
  double p = 1;
#pragma omp parallel for reduction(* : p) schedule(dynamic, 1)
  for (int i = 0; i < N; i++) p *= 1.0 + 0.3 * sin(x[i]);
  return p;
}

/* A sum and a maximum in one region: two reductions share the lock and each has its
 * own closing call (taking the other's deadlocked the team). */
double sum_and_peak(const double *x) {
  double s = 0, m = -1e300;
#pragma omp parallel
  {
#pragma omp for reduction(+ : s)
    for (int i = 0; i < N; i++) s += x[i] * x[i];
#pragma omp for reduction(max : m)
    for (int i = 0; i < N; i++) m = fmax(m, sin(x[i]));
  }
  return s + m;
}

static double X[N];
static double eval_peak(void *c) { (void)c; return peak(X); }
static double eval_if(void *c) { (void)c; return largest_if(X); }
static double eval_low(void *c) { (void)c; return lowest(X); }
static double eval_prod(void *c) { (void)c; return product(X); }

static void against_fd(const char *what, const double *dx, double (*eval)(void *)) {
  for (int i = 0; i < N; i += 7) {
    char name[48];
    snprintf(name, sizeof name, "%s vs fd [%d]", what, i);
    fz_check(name, dx[i], fz_fd_ptr(eval, 0, &X[i]), 1e-6);
  }
}

static void forward_vs_reverse(const char *what, const double *dx, double jvp, const double *v) {
  double dot = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  char name[48];
  snprintf(name, sizeof name, "%s forward <J v> = <grad, v>", what);
  fz_check(name, jvp, dot, 1e-10);
}

int main(void) {
  fz_seed(21);
  fz_fill(X, N, -1.4, 1.4);
  double dx[N], want[N], v[N];
  fz_fill(v, N, -1, 1);
  int hi = 0, hs = 0, lo = 0;
  double P = 1;
  for (int i = 0; i < N; i++) {
    if (X[i] * X[i] * (1 + 0.01 * i) > X[hi] * X[hi] * (1 + 0.01 * hi)) hi = i;
    if (sin(X[i]) > sin(X[hs])) hs = i;
    if (cos(X[i]) + 0.1 * X[i] < cos(X[lo]) + 0.1 * X[lo]) lo = i;
    P *= 1.0 + 0.3 * sin(X[i]);
  }
  for (int rep = 0; rep < 10; rep++) {
    fz_zero(dx, N);
    __enzyme_autodiff((void *)peak, enzyme_dup, X, dx);
    for (int i = 0; i < N; i++) want[i] = i == hi ? 2 * X[i] * (1 + 0.01 * i) : 0;
    fz_check_arr("d peak", dx, want, N, 1e-12);
    fz_zero(dx, N);
    __enzyme_autodiff((void *)largest_if, enzyme_dup, X, dx);
    for (int i = 0; i < N; i++) want[i] = i == hs ? cos(X[i]) : 0;
    fz_check_arr("d largest_if", dx, want, N, 1e-12);
    fz_zero(dx, N);
    __enzyme_autodiff((void *)lowest, enzyme_dup, X, dx);
    for (int i = 0; i < N; i++) want[i] = i == lo ? -sin(X[i]) + 0.1 : 0;
    fz_check_arr("d lowest", dx, want, N, 1e-12);
    fz_zero(dx, N);
    __enzyme_autodiff((void *)product, enzyme_dup, X, dx);
    for (int i = 0; i < N; i++) want[i] = P / (1.0 + 0.3 * sin(X[i])) * 0.3 * cos(X[i]);
    fz_check_arr("d product", dx, want, N, 1e-12);
    fz_zero(dx, N);
    __enzyme_autodiff((void *)sum_and_peak, enzyme_dup, X, dx);
    for (int i = 0; i < N; i++) want[i] = 2 * X[i] + (i == hs ? cos(X[i]) : 0);
    fz_check_arr("d sum_and_peak", dx, want, N, 1e-12);
  }
  fz_zero(dx, N);
  __enzyme_autodiff((void *)peak, enzyme_dup, X, dx);
  against_fd("peak", dx, eval_peak);
  forward_vs_reverse("peak", dx, __enzyme_fwddiff((void *)peak, enzyme_dup, X, v), v);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)largest_if, enzyme_dup, X, dx);
  against_fd("largest_if", dx, eval_if);
  forward_vs_reverse("largest_if", dx, __enzyme_fwddiff((void *)largest_if, enzyme_dup, X, v), v);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)lowest, enzyme_dup, X, dx);
  against_fd("lowest", dx, eval_low);
  forward_vs_reverse("lowest", dx, __enzyme_fwddiff((void *)lowest, enzyme_dup, X, v), v);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)product, enzyme_dup, X, dx);
  against_fd("product", dx, eval_prod);
  forward_vs_reverse("product", dx, __enzyme_fwddiff((void *)product, enzyme_dup, X, v), v);
  return fz_finish();
}
