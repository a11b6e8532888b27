// OPT: O0 O1 O2 O3
// glibc's qsort_r (the comparator takes the context third) inside the differentiated
// function: an int index array sorted by keys the context points to (the keys are the
// active inputs, the sorted array is constant memory), a double array sorted in place
// with a direction flag as context (its shadow already holds gradients that must stay
// at their own positions), records holding pointers to the inputs sorted by a field
// chosen in the context, and forward mode. Refused before (missing derivative for
// qsort_r). Oracle: analytic, with the ranks computed in main.
#define _GNU_SOURCE
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

enum { N = 6 };

static int by_key(const void *a, const void *b, void *ctx) {
  const double *k = ctx;
  double x = k[*(const int *)a], y = k[*(const int *)b];
  return (x > y) - (x < y);
}

double ranked_by_index(double *x, int n) {
  int idx[N];
  for (int i = 0; i < n; i++) idx[i] = i;
  qsort_r(idx, n, sizeof(int), by_key, x);
  double s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * x[idx[i]] * x[idx[i]];
  return s;
}

static int directed(const void *a, const void *b, void *ctx) {
  int dir = *(const int *)ctx;
  double x = *(const double *)a, y = *(const double *)b;
  return dir * ((x > y) - (x < y));
}

/* sorted descending in place; x also read before the sort (its shadow then holds
 * gradients when the sort moves it in the reverse sweep) */
double sorted_descending(double *x, int n) {
  double pre = 0;
  for (int i = 0; i < n; i++) pre += x[i] * x[i] * x[i];
  int dir = -1;
  qsort_r(x, n, sizeof(double), directed, &dir);
  double s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * x[i];
  return s + pre;
}

typedef struct {
  double key[2];
  double *w;
} rec;

static int by_field(const void *a, const void *b, void *ctx) {
  int f = *(const int *)ctx;
  double x = ((const rec *)a)->key[f], y = ((const rec *)b)->key[f];
  return (x > y) - (x < y);
}

double records_by_field(double *k0, double *k1, double *w, int n) {
  rec r[N];
  for (int i = 0; i < n; i++) r[i].key[0] = k0[i], r[i].key[1] = k1[i], r[i].w = &w[i];
  int field = 1;
  qsort_r(r, n, sizeof(rec), by_field, &field);
  double s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * r[i].key[1] * *r[i].w + r[i].key[0];
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
  const double k1[N] = {3.0, 1.0, -2.0, 0.5, 2.5, -1.0};
  int rank[N], rank1[N];
  ranks(x0, rank);
  ranks(k1, rank1);
  char nm[64];

  double x[N], dx[N] = {0};
  memcpy(x, x0, sizeof x);
  __enzyme_autodiff((void *)ranked_by_index, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    snprintf(nm, sizeof nm, "index sort dx[%d]", i);
    fz_check(nm, dx[i], 2 * rank[i] * x0[i], 1e-14);
  }
  for (int j = 0; j < N; j++) {
    double t[N] = {0};
    t[j] = 1;
    memcpy(x, x0, sizeof x);
    double d = __enzyme_fwddiff((void *)ranked_by_index, x, t, N);
    snprintf(nm, sizeof nm, "index sort forward d/dx[%d]", j);
    fz_check(nm, d, 2 * rank[j] * x0[j], 1e-14);
  }

  memcpy(x, x0, sizeof x);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)sorted_descending, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    snprintf(nm, sizeof nm, "descending dx[%d]", i);
    fz_check(nm, dx[i], 3 * x0[i] * x0[i] + (N + 1 - rank[i]), 1e-14);
  }
  for (int j = 0; j < N; j++) {
    double t[N] = {0};
    t[j] = 1;
    memcpy(x, x0, sizeof x);
    double d = __enzyme_fwddiff((void *)sorted_descending, x, t, N);
    snprintf(nm, sizeof nm, "descending forward d/dx[%d]", j);
    fz_check(nm, d, 3 * x0[j] * x0[j] + (N + 1 - rank[j]), 1e-14);
  }

  double a[N], da[N] = {0}, b[N], db[N] = {0}, w[N], dw[N] = {0};
  for (int i = 0; i < N; i++) a[i] = x0[i], b[i] = k1[i], w[i] = 0.1 * (i + 2);
  __enzyme_autodiff((void *)records_by_field, enzyme_dup, a, da, enzyme_dup, b, db,
                    enzyme_dup, w, dw, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    snprintf(nm, sizeof nm, "records dk0[%d]", i);
    fz_check(nm, da[i], 1.0, 1e-14);
    snprintf(nm, sizeof nm, "records dk1[%d]", i);
    fz_check(nm, db[i], rank1[i] * w[i], 1e-14);
    snprintf(nm, sizeof nm, "records dw[%d]", i);
    fz_check(nm, dw[i], rank1[i] * k1[i], 1e-14);
  }
  return fz_finish();
}
