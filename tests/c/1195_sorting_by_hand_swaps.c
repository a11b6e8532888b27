// OPT: O0 O1 O2 O3
// Sorting written by hand inside the differentiated function (data-dependent swaps of
// active values): bubble sort with an early-exit flag, insertion sort of an array of
// records {key, weight} moved by struct assignment, and a median by partial selection
// (quickselect with a Lomuto partition); the result weights the sorted values by rank.
// Oracle: analytic, with the ranks computed in main.
#include "fz_test.h"

enum { N = 7 };

double bubble(double *x, int n) {
  for (int pass = 0; pass < n; pass++) {
    int swapped = 0;
    for (int i = 0; i + 1 < n - pass; i++)
      if (x[i] > x[i + 1]) {
        double t = x[i];
        x[i] = x[i + 1];
        x[i + 1] = t;
        swapped = 1;
      }
    if (!swapped) break;
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * x[i] * x[i];
  return s;
}

typedef struct {
  double key, weight;
} rec;

double insertion(const double *k, const double *w, int n) {
  rec r[N];
  for (int i = 0; i < n; i++) r[i] = (rec){k[i], w[i]};
  for (int i = 1; i < n; i++) {
    rec cur = r[i];
    int j = i - 1;
    while (j >= 0 && r[j].key > cur.key) {
      r[j + 1] = r[j];
      j--;
    }
    r[j + 1] = cur;
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * r[i].key * r[i].weight;
  return s;
}

double median(const double *x, int n) {
  double a[N];
  for (int i = 0; i < n; i++) a[i] = x[i];
  int lo = 0, hi = n - 1, m = n / 2;
  while (lo < hi) {
    double pivot = a[hi];
    int p = lo;
    for (int i = lo; i < hi; i++)
      if (a[i] < pivot) {
        double t = a[i];
        a[i] = a[p];
        a[p] = t;
        p++;
      }
    double t = a[p];
    a[p] = a[hi];
    a[hi] = t;
    if (p == m) break;
    if (p < m) lo = p + 1;
    else hi = p - 1;
  }
  return a[m] * a[m];
}

static void ranks(const double *x, int *rank) {
  for (int i = 0; i < N; i++) {
    rank[i] = 1;
    for (int j = 0; j < N; j++) rank[i] += x[j] < x[i];
  }
}

int main(void) {
  const double x0[N] = {0.5, -1.0, 2.0, 0.25, 1.5, -0.3, 0.9};
  const double w0[N] = {1.0, 0.5, -0.7, 2.0, 0.3, 1.1, -0.4};
  int rank[N];
  ranks(x0, rank);
  char nm[48];
  double x[N], dx[N] = {0};
  memcpy(x, x0, sizeof x);
  __enzyme_autodiff((void *)bubble, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    snprintf(nm, sizeof nm, "bubble dx[%d]", i);
    fz_check(nm, dx[i], 2 * rank[i] * x0[i], 1e-14);
  }
  double dk[N] = {0}, dw[N] = {0};
  __enzyme_autodiff((void *)insertion, enzyme_dup, x0, dk, enzyme_dup, w0, dw, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    snprintf(nm, sizeof nm, "insertion dk[%d]", i);
    fz_check(nm, dk[i], rank[i] * w0[i], 1e-14);
    snprintf(nm, sizeof nm, "insertion dw[%d]", i);
    fz_check(nm, dw[i], rank[i] * x0[i], 1e-14);
  }
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)median, enzyme_dup, x0, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    snprintf(nm, sizeof nm, "median dx[%d]", i);
    fz_check(nm, dx[i], rank[i] == N / 2 + 1 ? 2 * x0[i] : 0.0, 1e-14);
  }
  return fz_finish();
}
