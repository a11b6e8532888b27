// OMP_THREADS: 1 2 4
// OPT: O0 O2
// Critical sections whose update depends on the order the threads go through them, as
// codes write them when no reduction clause fits: a running product `p = p * f`
// (a likelihood), the best value and the weight that goes with it
// (`if (f > best) { best = f; w = g; }`, an argmax), and a compensated (Kahan) sum.
// Uneven work per iteration and schedule(dynamic, 1) make the threads enter in varying
// orders. The reverse sweep used to reverse the sections in whatever order the threads
// reached them: the gradient of the product and of the argmax was silently wrong with 4
// threads (about one run in three). Each section now takes a ticket in the forward sweep
// and is reversed in exactly the reverse order. Checked against the analytic gradients
// (20 repetitions), central finite differences, and forward mode against reverse.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 24

static void busy(int i) {
  for (volatile int k = 0; k < (i * 7 % 5) * 2000; k++) {
  }
}

double likelihood(const double *x) {
  double p = 1;
#pragma omp parallel for schedule(dynamic, 1)
  for (int i = 0; i < N; i++) {
    double f = 1.0 + 0.5 * sin(x[i]);
    busy(i);
#pragma omp critical
    p = p * f;
  }
  return p;
}

double best_weighted(const double *x) {
  double best = -1e300, w = 0;
#pragma omp parallel for schedule(dynamic, 1)
  for (int i = 0; i < N; i++) {
    double f = x[i] * x[i], g = cos(x[i]);
    busy(i + 1);
#pragma omp critical(best)
    {
      if (f > best) {
        best = f;
        w = g;
      }
    }
  }
  return best * w;
}

double kahan(const double *x) {
  double s = 0, c = 0;
#pragma omp parallel for schedule(dynamic, 1)
  for (int i = 0; i < N; i++) {
    double v = exp(0.1 * x[i]) * (1 + i);
    busy(i + 2);
#pragma omp critical
    {
      double y = v - c, t = s + y;
      c = (t - s) - y;
      s = t;
    }
  }
  return s * s;
}

static double X[N];
static double (*fn)(const double *);
static double eval(void *ctx) {
  (void)ctx;
  return fn(X);
}

int main(void) {
  fz_seed(20);
  fz_fill(X, N, -1.2, 1.2);
  double dx[N], want[N];
  double P = 1;
  for (int i = 0; i < N; i++) P *= 1.0 + 0.5 * sin(X[i]);
  int am = 0;
  for (int i = 1; i < N; i++)
    if (X[i] * X[i] > X[am] * X[am]) am = i;
  for (int rep = 0; rep < 20; rep++) {
    fz_zero(dx, N);
    __enzyme_autodiff((void *)likelihood, enzyme_dup, X, dx);
    for (int i = 0; i < N; i++) want[i] = P / (1.0 + 0.5 * sin(X[i])) * 0.5 * cos(X[i]);
    fz_check_arr("d likelihood", dx, want, N, 1e-12);
    fz_zero(dx, N);
    __enzyme_autodiff((void *)best_weighted, enzyme_dup, X, dx);
    for (int i = 0; i < N; i++)
      want[i] = i == am ? 2 * X[i] * cos(X[i]) - X[i] * X[i] * sin(X[i]) : 0;
    fz_check_arr("d best_weighted", dx, want, N, 1e-12);
  }
  for (int k = 0; k < 3; k++) {
    fn = k == 0 ? likelihood : k == 1 ? best_weighted : kahan;
    const char *name = k == 0 ? "likelihood" : k == 1 ? "best_weighted" : "kahan";
    double v[N], dot = 0, jvp;
    fz_zero(dx, N);
    fz_fill(v, N, -1, 1);
    if (k == 0) {
      __enzyme_autodiff((void *)likelihood, enzyme_dup, X, dx);
      jvp = __enzyme_fwddiff((void *)likelihood, enzyme_dup, X, v);
    } else if (k == 1) {
      __enzyme_autodiff((void *)best_weighted, enzyme_dup, X, dx);
      jvp = __enzyme_fwddiff((void *)best_weighted, enzyme_dup, X, v);
    } else {
      __enzyme_autodiff((void *)kahan, enzyme_dup, X, dx);
      jvp = __enzyme_fwddiff((void *)kahan, enzyme_dup, X, v);
    }
    for (int i = 0; i < N; i += 5) {
      char what[48];
      snprintf(what, sizeof what, "%s vs fd [%d]", name, i);
      fz_check(what, dx[i], fz_fd_ptr(eval, 0, &X[i]), 1e-6);
    }
    for (int i = 0; i < N; i++) dot += dx[i] * v[i];
    char what[48];
    snprintf(what, sizeof what, "%s forward <J v> = <grad, v>", name);
    fz_check(what, jvp, dot, 1e-10);
  }
  return fz_finish();
}
