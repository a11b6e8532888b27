// OPT: O0 O1 O2 O3
// IGNORE-O3: cannot-deduce-type ("an integer access to differentiable memory whose type is ambiguous", the memory like Anything) at the loads of `t[i].id` after the `memmove` that removes a record: with the appends fully unrolled, the record buffer is typed `{[0]:Anything, [40]:Anything, ...}` plus `[-1]:Double`; without the memmove -O3 passes, and -O0..-O2 pass
// A C "table" as user code keeps one: an array of records `{int id; double w; double x[3];}`
// grown by `realloc` (doubling from 1) as records are appended, each record built on the
// stack with `memset` and filled, copied in with `memcpy`; a `qsort` by the integer id;
// a `struct stats` (three doubles, returned *by value* through `sret`) from a helper; and
// a second pass that `memmove`s the tail down over a removed record. The weights and
// coordinates are active. Oracle: central finite differences and the hand-written gradient.
#include "fz_test.h"

typedef struct {
  int id;
  double w;
  double x[3];
} rec;

typedef struct {
  double sw, swx, swxx;
} stats;

static int by_id(const void *a, const void *b) {
  int ia = ((const rec *)a)->id, ib = ((const rec *)b)->id;
  return (ia > ib) - (ia < ib);
}

__attribute__((noinline)) static stats summarize(const rec *r, int n) {
  stats s;
  memset(&s, 0, sizeof s);
  for (int i = 0; i < n; i++) {
    double d = r[i].x[0] + 2 * r[i].x[1] - r[i].x[2];
    s.sw += r[i].w;
    s.swx += r[i].w * d;
    s.swxx += r[i].w * d * d;
  }
  return s;
}

#define NR 7
double table(const double *w, const double *x) {
  rec *t = NULL;
  int n = 0, cap = 0;
  for (int i = 0; i < NR; i++) {
    if (n == cap) {
      cap = cap ? 2 * cap : 1;
      t = (rec *)realloc(t, cap * sizeof(rec));
    }
    rec r;
    memset(&r, 0, sizeof r);
    r.id = (i * 3) % NR;
    r.w = w[i];
    for (int k = 0; k < 3; k++) r.x[k] = x[3 * i + k];
    memcpy(&t[n++], &r, sizeof r);
  }
  qsort(t, n, sizeof(rec), by_id);
  /* remove the record with id 2 */
  for (int i = 0; i < n; i++)
    if (t[i].id == 2) {
      memmove(&t[i], &t[i + 1], (n - i - 1) * sizeof(rec));
      n--;
      break;
    }
  stats s = summarize(t, n);
  double mean = s.swx / s.sw;
  double f = s.swxx / s.sw - mean * mean + 0.1 * t[0].w * t[n - 1].x[2];
  free(t);
  return f;
}

static double W[NR], X[3 * NR];
static double eval(void *c) { (void)c; return table(W, X); }

int main(void) {
  fz_seed(798);
  fz_fill(W, NR, 0.5, 1.5);
  fz_fill(X, 3 * NR, -1, 1);
  double dW[NR] = {0}, dX[3 * NR] = {0};
  __enzyme_autodiff((void *)table, enzyme_dup, W, dW, enzyme_dup, X, dX);
  char b[32];
  for (int i = 0; i < NR; i++) {
    snprintf(b, sizeof b, "dw[%d]", i);
    fz_check(b, dW[i], fz_fd_ptr(eval, NULL, &W[i]), 1e-6);
  }
  for (int i = 0; i < 3 * NR; i++) {
    snprintf(b, sizeof b, "dx[%d]", i);
    fz_check(b, dX[i], fz_fd_ptr(eval, NULL, &X[i]), 1e-6);
  }
  /* the record with id 2 (i = 3: 9 % 7 = 2) is removed: its derivatives are exactly 0 */
  fz_check("dw[removed]", dW[3], 0.0, 0.0);
  return fz_finish();
}
