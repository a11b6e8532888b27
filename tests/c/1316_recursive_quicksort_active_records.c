// OPT: O0 O2
// A recursive quicksort written by hand on active data, as scientific codes sort
// particles or events: median-of-three pivot, Hoare partition with data-dependent
// `while` loops, recursion on the smaller side and a loop on the larger (tail call
// removed by hand), an early exit to insertion sort below 5 elements. Sorted twice:
//  a) an array of doubles in place, then a rank-weighted sum and a trimmed sum of
//     squares of the sorted values;
//  b) an array of records {double key; double w; int id;} by key (records moved by
//     struct assignment), then sum_i i * w_i * key_i; the adjoints stay with the
//     entry positions (the shadow holds the adjoint of what was there on entry).
// Oracles: analytic (the gradient of a rank-weighted function of sorted values is the
// weight of each input's rank, computed from a sort done in main), central differences.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

static void isort(double *a, int lo, int hi) {
  for (int i = lo + 1; i <= hi; i++) {
    double v = a[i];
    int j = i - 1;
    while (j >= lo && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
}

static void swapd(double *a, int i, int j) {
  double t = a[i];
  a[i] = a[j];
  a[j] = t;
}

static void qs(double *a, int lo, int hi) {
  while (hi - lo >= 5) {
    int mid = lo + (hi - lo) / 2;
    if (a[mid] < a[lo]) swapd(a, mid, lo);
    if (a[hi] < a[lo]) swapd(a, hi, lo);
    if (a[hi] < a[mid]) swapd(a, hi, mid);
    double p = a[mid];
    int i = lo - 1, j = hi + 1;
    for (;;) {
      do i++; while (a[i] < p);
      do j--; while (a[j] > p);
      if (i >= j) break;
      swapd(a, i, j);
    }
    if (j - lo < hi - j) {
      qs(a, lo, j);
      lo = j + 1;
    } else {
      qs(a, j + 1, hi);
      hi = j;
    }
  }
  isort(a, lo, hi);
}

double sorted_stats(double *x, int n) {
  qs(x, 0, n - 1);
  double s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * x[i];
  double t = 0;
  for (int i = 2; i < n - 2; i++) t += x[i] * x[i];
  return s / n + 0.5 * t;
}

typedef struct {
  double key, w;
  int id;
} rec;

static void qs_rec(rec *r, int lo, int hi) {
  if (hi - lo < 4) {
    for (int i = lo + 1; i <= hi; i++) {
      rec v = r[i];
      int j = i - 1;
      while (j >= lo && r[j].key > v.key) {
        r[j + 1] = r[j];
        j--;
      }
      r[j + 1] = v;
    }
    return;
  }
  double p = r[lo + (hi - lo) / 2].key;
  int i = lo - 1, j = hi + 1;
  for (;;) {
    do i++; while (r[i].key < p);
    do j--; while (r[j].key > p);
    if (i >= j) break;
    rec t = r[i];
    r[i] = r[j];
    r[j] = t;
  }
  qs_rec(r, lo, j);
  qs_rec(r, j + 1, hi);
}

double rec_stats(rec *r, int n) {
  qs_rec(r, 0, n - 1);
  double s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * r[i].w * r[i].key + 0.01 * r[i].id;
  return s;
}

#define N 23
static double X0[N];
static rec R0[N];
static int nn = N;
static double fa(void *p) {
  double t[N];
  memcpy(t, p, sizeof t);
  return sorted_stats(t, nn);
}
static double fb(void *p) {
  rec t[N];
  memcpy(t, R0, sizeof t);
  const double *kw = p;
  for (int i = 0; i < N; i++) t[i].key = kw[2 * i], t[i].w = kw[2 * i + 1];
  return rec_stats(t, nn);
}

// rank of element i among x (distinct values)
static int rank_of(const double *x, int n, int i) {
  int r = 0;
  for (int j = 0; j < n; j++) r += x[j] < x[i];
  return r;
}

int main(void) {
  fz_seed(1316);
  fz_fill(X0, N, -3, 3);
  for (int i = 0; i < N; i++) R0[i].key = fz_uniform(-2, 2), R0[i].w = fz_uniform(0.5, 1.5), R0[i].id = i;

  double x[N], dx[N], want[N], g[N];
  memcpy(x, X0, sizeof x);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)sorted_stats, enzyme_dup, x, dx, enzyme_const, nn);
  for (int i = 1; i < N; i++) fz_check("sorted", x[i] >= x[i - 1], 1, 0);
  for (int i = 0; i < N; i++) {
    int r = rank_of(X0, N, i);
    want[i] = (r + 1.0) / N + (r >= 2 && r < N - 2 ? X0[i] : 0);
  }
  fz_check_arr("a analytic", dx, want, N, 1e-12);
  memcpy(x, X0, sizeof x);
  fz_fd_grad(fa, x, x, N, g);
  fz_check_arr("a fd", dx, g, N, 1e-6);
  {
    double v[N], t[N];
    fz_fill(v, N, -1, 1);
    memcpy(x, X0, sizeof x);
    memcpy(t, v, sizeof t);
    double tan = __enzyme_fwddiff((void *)sorted_stats, enzyme_dup, x, t, enzyme_const, nn);
    double dot = 0;
    for (int i = 0; i < N; i++) dot += want[i] * v[i];
    fz_check("a forward . v", tan, dot, 1e-12);
  }

  rec r[N], dr[N];
  memcpy(r, R0, sizeof r);
  memset(dr, 0, sizeof dr);
  __enzyme_autodiff((void *)rec_stats, enzyme_dup, r, dr, enzyme_const, nn);
  // the records moved, their adjoints did not: after the call dr[i] is the adjoint of the
  // record that was at i on entry (as for every function overwriting its input)
  double keys[N];
  for (int i = 0; i < N; i++) keys[i] = R0[i].key;
  for (int i = 0; i < N; i++) {
    int k = rank_of(keys, N, i); // where record i went
    fz_check("b moved id", r[k].id, i, 0);
    fz_check("b dkey", dr[i].key, (k + 1) * R0[i].w, 1e-12);
    fz_check("b dw", dr[i].w, (k + 1) * R0[i].key, 1e-12);
  }
  // and through FD
  double kw[2 * N], gkw[2 * N];
  for (int i = 0; i < N; i++) kw[2 * i] = R0[i].key, kw[2 * i + 1] = R0[i].w;
  fz_fd_grad(fb, kw, kw, 2 * N, gkw);
  for (int i = 0; i < N; i++) {
    fz_check("b dkey fd", dr[i].key, gkw[2 * i], 1e-6);
    fz_check("b dw fd", dr[i].w, gkw[2 * i + 1], 1e-6);
  }
  return fz_finish();
}
