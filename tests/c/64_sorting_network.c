// OPT: O0 O1 O2 O3
// A sorting network (odd-even transposition sort) with conditional swaps,
// written three ways: branchy swap, fmin/fmax, ternary selects.
// The derivative follows the permutation: out weighted by position.
#include "fz_test.h"

#define N 9

double sort_branch(double *a, int n) {
  for (int r = 0; r < n; r++)
    for (int i = r & 1; i + 1 < n; i += 2)
      if (a[i] > a[i + 1]) {
        double t = a[i];
        a[i] = a[i + 1];
        a[i + 1] = t;
      }
  double s = 0.0;
  for (int i = 0; i < n; i++) s += a[i] * (double)(i + 1) * (double)(i + 1);
  return s;
}

double sort_minmax(double *a, int n) {
  for (int r = 0; r < n; r++)
    for (int i = r & 1; i + 1 < n; i += 2) {
      double lo = fmin(a[i], a[i + 1]), hi = fmax(a[i], a[i + 1]);
      a[i] = lo;
      a[i + 1] = hi;
    }
  double s = 0.0;
  for (int i = 0; i < n; i++) s += a[i] * (double)(i + 1) * (double)(i + 1);
  return s;
}

double sort_select(double *a, int n) {
  for (int r = 0; r < n; r++)
    for (int i = r & 1; i + 1 < n; i += 2) {
      double x = a[i], y = a[i + 1];
      int c = x > y;
      a[i] = c ? y : x;
      a[i + 1] = c ? x : y;
    }
  double s = 0.0;
  for (int i = 0; i < n; i++) s += a[i] * (double)(i + 1) * (double)(i + 1);
  return s;
}

static void check(const char *name, const double *a0, const double *da) {
  /* rank of each element */
  double want[N];
  for (int i = 0; i < N; i++) {
    int rank = 0;
    for (int j = 0; j < N; j++) rank += a0[j] < a0[i];
    want[i] = (double)(rank + 1) * (rank + 1);
  }
  fz_check_arr(name, da, want, N, 1e-12);
}

__attribute__((noinline)) static void t0(const double *a0) {
  double a[N], da[N];
  memcpy(a, a0, sizeof a);
  fz_zero(da, N);
  __enzyme_autodiff((void *)sort_branch, enzyme_dup, a, da, enzyme_const, N);
  check("branch", a0, da);
}
__attribute__((noinline)) static void t1(const double *a0) {
  double a[N], da[N];
  memcpy(a, a0, sizeof a);
  fz_zero(da, N);
  __enzyme_autodiff((void *)sort_minmax, enzyme_dup, a, da, enzyme_const, N);
  check("fmin/fmax", a0, da);
}
__attribute__((noinline)) static void t2(const double *a0) {
  double a[N], da[N];
  memcpy(a, a0, sizeof a);
  fz_zero(da, N);
  __enzyme_autodiff((void *)sort_select, enzyme_dup, a, da, enzyme_const, N);
  check("select", a0, da);
}

int main(void) {
  fz_seed(110);
  double a0[N];
  fz_fill(a0, N, -1, 1);
  t0(a0);
  t1(a0);
  t2(a0);
  return fz_finish();
}
