// OPT: O0 O1 O2 O3
// holders41: `noinline` callees given an `enzyme_const` weights array and the active
// input, returning a pointer into one or the other (a `select`, and a branch whose
// returns merge in a phi); the caller reads through the result and multiplies by x.
// Where the result points into the weights its shadow is the pointer itself (runtime
// activity), which the callee may return only because the caller checks it
// (`runtime_activity/constant_args.rs`, `RuntimeIn::result`); main's binary refused the
// callee's return ("returned from the differentiated function, whose caller cannot
// check it", tests/filetests/holders41_callee_result_from_constant_checked_by_caller.ll).
// A second level: `pick2` hands `pick`'s result back through its own phi. Oracles: the
// analytic gradient, central differences, forward . v against the gradient, the
// weights unchanged after both calls.
#include "fz_test.h"
#include <string.h>

extern double __enzyme_fwddiff(void *, ...);

#define NOINLINE __attribute__((noinline))

NOINLINE static const double *pick(const double *w, const double *x, int k) {
  return k > 1 ? w + k : x + k;
}

NOINLINE static const double *pick_branch(const double *w, const double *x, int k) {
  if (k % 2 == 0) return &w[k];
  return &x[k];
}

NOINLINE static const double *pick2(const double *w, const double *x, int k, int j) {
  if (j == 0) return pick(w, x, k);
  return pick_branch(w, x, k);
}

// f = sum_k (p0_k + p1_k) x_k with p0 = pick, p1 = pick_branch (through pick2).
double f(double *x, const double *w, int n) {
  double s = 0;
  for (int k = 0; k < n; k++) {
    double a = *pick2(w, x, k, 0), b = *pick2(w, x, k, 1);
    s += (a + b) * x[k];
  }
  return s;
}

extern int enzyme_dup, enzyme_const;

int main(void) {
  enum { N = 5 };
  double w[N] = {9.0, -9.0, 2.5, -1.5, 0.75}, w0[N];
  memcpy(w0, w, sizeof w);
  double x[N] = {0.4, -0.7, 1.1, 0.3, -0.2}, dx[N] = {0}, want[N];
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, w, N);
  fz_check("enzyme_const weights unchanged", memcmp(w, w0, sizeof w) == 0, 1, 0);
  for (int k = 0; k < N; k++) {
    // d/dx_k of a_k x_k: 2 x_k where a_k = x_k, w_k otherwise; the same for b_k.
    double da = k > 1 ? w[k] : 2 * x[k];
    double db = k % 2 == 0 ? w[k] : 2 * x[k];
    want[k] = da + db;
    fz_check("d/dx analytic", dx[k], want[k], 1e-12);
  }
  for (int k = 0; k < N; k++) {
    double h = 1e-6, x0 = x[k];
    x[k] = x0 + h;
    double fp = f(x, w0, N);
    x[k] = x0 - h;
    double fm = f(x, w0, N);
    x[k] = x0;
    fz_check("d/dx finite differences", dx[k], (fp - fm) / (2 * h), 1e-6);
  }
  double v[N] = {0.5, -0.2, 0.3, 0.9, -1.3}, dv = 0;
  for (int k = 0; k < N; k++) dv += want[k] * v[k];
  double jv = __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, w, N);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  fz_check("enzyme_const weights unchanged (forward)", memcmp(w, w0, sizeof w) == 0, 1, 0);
  return fz_finish();
}
