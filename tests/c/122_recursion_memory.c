// OPT: O0 O1 O2 O3
// Recursion that writes to memory and reads it back: in-place recursive
// prefix transform (divide and conquer), recursive merge sort with a scratch
// buffer, and memoised recursion (writes a table, later reads it).
#include "fz_test.h"

__attribute__((noinline)) void rec(double *a, int lo, int hi) {
  if (hi - lo < 2) { a[lo] = a[lo] * a[lo] + 0.1; return; }
  int mid = (lo + hi) / 2;
  rec(a, lo, mid);
  rec(a, mid, hi);
  for (int i = mid; i < hi; i++) a[i] = a[i] * 0.5 + sin(a[mid - 1]) * a[i];
}
double f_rec(double *a, int n) {
  rec(a, 0, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * (i + 1);
  return s;
}

static void msort(double *a, double *tmp, int n) {
  if (n < 2) return;
  int h = n / 2;
  msort(a, tmp, h);
  msort(a + h, tmp, n - h);
  int i = 0, j = h, k = 0;
  while (i < h && j < n) tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
  while (i < h) tmp[k++] = a[i++];
  while (j < n) tmp[k++] = a[j++];
  for (k = 0; k < n; k++) a[k] = tmp[k];
}
double f_msort(double *a, int n) {
  double *tmp = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = a[i] * a[i] * a[i];
  msort(a, tmp, n);
  free(tmp);
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * (i + 1) * (i + 1);
  return s;
}

static double memo_f(const double *x, double *memo, int *have, int k) {
  if (k < 2) return x[k];
  if (have[k]) return memo[k];
  double v = memo_f(x, memo, have, k - 1) * 0.7 + sin(memo_f(x, memo, have, k - 2)) * x[k];
  memo[k] = v; have[k] = 1;
  return v;
}
double f_memo(const double *x, int n) {
  double memo[32];
  int have[32] = {0};
  return memo_f(x, memo, have, n - 1);
}

#define N 11
struct ctx { int w; double *x; };
static double eval(void *p) {
  struct ctx *c = p;
  double t[N];
  memcpy(t, c->x, sizeof t);
  return c->w == 0 ? f_rec(t, N) : c->w == 1 ? f_msort(t, N) : f_memo(t, N);
}

int main(void) {
  fz_seed(225);
  double x0[N], x[N], dx[N], fd[N];
  fz_fill(x0, N, -1, 1);
  const char *nm[3] = {"rec", "msort", "memo"};
  for (int w = 0; w < 3; w++) {
    memcpy(x, x0, sizeof x);
    fz_zero(dx, N);
    if (w == 0) __enzyme_autodiff((void *)f_rec, enzyme_dup, x, dx, enzyme_const, N);
    if (w == 1) __enzyme_autodiff((void *)f_msort, enzyme_dup, x, dx, enzyme_const, N);
    if (w == 2) __enzyme_autodiff((void *)f_memo, enzyme_dup, x, dx, enzyme_const, N);
    struct ctx c = {w, x0};
    fz_fd_grad(eval, &c, x0, N, fd);
    fz_check_arr(nm[w], dx, fd, N, 1e-6);
  }
  return fz_finish();
}
