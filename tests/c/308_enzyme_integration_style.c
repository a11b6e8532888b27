// OPT: O0 O2
// Enzyme users' C, in the style of Enzyme's own integration tests: typed hook
// prototypes without markers (Enzyme's defaults: pointer -> duplicated, double ->
// active, int -> constant), a static helper, an insertion sort inside the
// differentiated function (the gradient follows the permutation), recursion, and a
// Taylor series loop. Oracles: analytic and finite differences.
#include "fz_test.h"

extern void __enzyme_autodiff_sort(void *, double *, double *, int);
extern double __enzyme_autodiff_taylor(void *, double, unsigned);
extern double __enzyme_autodiff_rec(void *, double, int);

static void insertsort(double *a, int n) {
  for (int i = 1; i < n; i++) {
    double key = a[i];
    int j = i - 1;
    while (j >= 0 && a[j] > key) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = key;
  }
}
double sorted_weighted(double *a, int n) {
  insertsort(a, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * (i + 1);
  return s;
}

double taylorlog(double x, unsigned n) {
  double sum = 0;
  for (unsigned i = 1; i <= n; i++) sum += __builtin_pow(x, i) / i;
  return sum;
}

double rec_pow(double x, int n) { return n == 0 ? 1.0 : x * rec_pow(x, n - 1); }

int main(void) {
  double a[6] = {0.3, -1.2, 2.5, 0.9, -0.4, 1.7}, da[6] = {0}, orig[6];
  for (int i = 0; i < 6; i++) orig[i] = a[i];
  __enzyme_autodiff_sort((void *)sorted_weighted, a, da, 6);  // defaults: a dup'd, n const
  /* a was sorted in place; the input at position i ended at rank r(i), weight r(i)+1. */
  for (int i = 0; i < 6; i++) {
    int rank = 0;
    for (int j = 0; j < 6; j++) rank += orig[j] < orig[i];
    fz_check("sort weight", da[i], rank + 1, 1e-12);
  }
  for (int i = 1; i < 6; i++) fz_check("sorted", a[i - 1] <= a[i], 1, 0);

  double x = 0.5;
  double dt = __enzyme_autodiff_taylor((void *)taylorlog, x, 12u);
  double want = 0;
  for (unsigned i = 1; i <= 12; i++) want += __builtin_pow(x, i - 1);
  fz_check("taylorlog", dt, want, 1e-12);

  double dr = __enzyme_autodiff_rec((void *)rec_pow, 1.3, 5);
  fz_check("rec_pow", dr, 5 * __builtin_pow(1.3, 4), 1e-12);
  return fz_finish();
}
