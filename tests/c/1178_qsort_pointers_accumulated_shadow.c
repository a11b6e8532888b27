// OPT: O0 O1 O2 O3
// qsort inside the differentiated function where the elements' shadows matter before the
// reverse sweep: an array of pointers to the inputs sorted by the values they point to
// (the code after the sort reaches the inputs' shadows through the sorted pointers'
// shadows), records { double key; double *w; } sorted by key, and a double array sorted
// in place whose shadow already holds gradients (they accumulate with +=, and must stay
// at their own positions). Both were silent wrong gradients before c29 (the shadow was
// only permuted back in the reverse sweep, never forward). Oracle: analytic (the ranks
// are computed in main), forward mode against reverse.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

enum { N = 6 };

static int by_pointee(const void *a, const void *b) {
  double x = **(double *const *)a, y = **(double *const *)b;
  return (x > y) - (x < y);
}

double sorted_pointers(double *x, int n) {
  double *p[N];
  for (int i = 0; i < n; i++) p[i] = &x[i];
  qsort(p, n, sizeof(double *), by_pointee);
  double s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * *p[i] * *p[i];
  return s;
}

typedef struct {
  double key;
  double *w;
} rec;

static int by_key(const void *a, const void *b) {
  double x = ((const rec *)a)->key, y = ((const rec *)b)->key;
  return (x > y) - (x < y);
}

double sorted_records(double *keys, double *w, int n) {
  rec r[N];
  for (int i = 0; i < n; i++) r[i].key = keys[i], r[i].w = &w[i];
  qsort(r, n, sizeof(rec), by_key);
  double s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * r[i].key * *r[i].w;
  return s;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double sorted_in_place(double *x, int n) {
  qsort(x, n, sizeof(double), by_value);
  double s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * x[i] * x[i];
  return s;
}

static void ranks(const double *x, int *rank) {
  for (int i = 0; i < N; i++) {
    rank[i] = 1;
    for (int j = 0; j < N; j++) rank[i] += x[j] < x[i];
  }
}

int main(void) {
  const double x0[N] = {0.5, -1.0, 2.0, 0.25, 1.5, -0.3};
  int rank[N];
  ranks(x0, rank);
  char nm[48];

  double x[N], dx[N] = {0};
  memcpy(x, x0, sizeof x);
  __enzyme_autodiff((void *)sorted_pointers, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    snprintf(nm, sizeof nm, "sorted pointers dx[%d]", i);
    fz_check(nm, dx[i], 2 * rank[i] * x0[i], 1e-14);
  }
  double v[N] = {0.3, -0.2, 0.5, 1.0, -0.7, 0.1}, tv = 0, t;
  for (int i = 0; i < N; i++) tv += v[i] * dx[i];
  memcpy(x, x0, sizeof x);
  t = __enzyme_fwddiff((void *)sorted_pointers, enzyme_dup, x, v, enzyme_const, N);
  fz_check("sorted pointers forward", t, tv, 1e-14);

  double keys[N], w[N], dkeys[N] = {0}, dw[N] = {0};
  memcpy(keys, x0, sizeof keys);
  for (int i = 0; i < N; i++) w[i] = 1.0 + 0.5 * i;
  __enzyme_autodiff((void *)sorted_records, enzyme_dup, keys, dkeys, enzyme_dup, w, dw,
                    enzyme_const, N);
  for (int i = 0; i < N; i++) {
    snprintf(nm, sizeof nm, "records dkey[%d]", i);
    fz_check(nm, dkeys[i], rank[i] * w[i], 1e-14);
    snprintf(nm, sizeof nm, "records dw[%d]", i);
    fz_check(nm, dw[i], rank[i] * x0[i], 1e-14);
  }

  /* the shadow already holds gradients: they stay where they are */
  double y[N], dy[N];
  memcpy(y, x0, sizeof y);
  for (int i = 0; i < N; i++) dy[i] = 100.0 * (i + 1);
  __enzyme_autodiff((void *)sorted_in_place, enzyme_dup, y, dy, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    snprintf(nm, sizeof nm, "accumulated in place dy[%d]", i);
    fz_check(nm, dy[i], 100.0 * (i + 1) + 2 * rank[i] * x0[i], 1e-12);
  }
  return fz_finish();
}
