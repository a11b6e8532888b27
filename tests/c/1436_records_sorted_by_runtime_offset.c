// OPT: O0 O1 O2 O3
// rustmap: records `{ int id; double val; double wt; }` sorted by a key read at a byte
// offset kept in memory (a projection chosen at run time, as C++'s `std::ranges::sort`
// with `&Rec::val` does: tests/errors/ranges_sort_member_pointer_projection.cpp until
// rustmap), moved by `memcpy`. Type analysis cannot tell which member an access at that
// offset reaches, so the records' memory is typed `Anything` and the copies cannot be
// typed. Such a copy's adjoint bytes are moved back word by word (never added: a run-time
// stop if both copies held a derivative); the sort's moves leave the source dead, so
// every adjoint comes back. Refused before rustmap (cannot-deduce-type at the copies).
// Oracles: the analytic gradient (the sorted order, computed here), central differences,
// forward mode against reverse (dot product).
#include "fz_test.h"
#include <stddef.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

#define N 7

struct Rec { int id; double val; double wt; };

size_t PROJ = offsetof(struct Rec, val);

static double key(const struct Rec *r) {
  double k;
  memcpy(&k, (const char *)r + PROJ, sizeof k);
  return k;
}

static void sort_recs(struct Rec *r, int n) {
  for (int i = 1; i < n; i++) {
    struct Rec t;
    memcpy(&t, &r[i], sizeof t);
    int j = i;
    while (j > 0 && key(&r[j - 1]) > key(&t)) {
      memcpy(&r[j], &r[j - 1], sizeof t);
      j--;
    }
    memcpy(&r[j], &t, sizeof t);
  }
}

double ranked(const double *x, int n) {
  struct Rec r[N];
  for (int i = 0; i < n; i++) {
    r[i].id = (i * 5) % n;
    r[i].val = x[i];
    r[i].wt = 1.0 + 0.1 * i;
  }
  sort_recs(r, n);
  double acc = 0;
  for (int i = 0; i < n; i++) acc += r[i].val * r[i].val * (i + 1) * r[i].wt + r[i].id;
  return acc;
}

int main(void) {
  fz_seed(1436);
  double x[N], dx[N], want[N], fd[N];
  fz_fill(x, N, -2.0, 2.0);
  // Rank of x[i] among x (distinct values): its slot after the sort.
  for (int i = 0; i < N; i++) {
    int rank = 0;
    for (int k = 0; k < N; k++) rank += x[k] < x[i];
    want[i] = 2.0 * x[i] * (rank + 1) * (1.0 + 0.1 * i);
  }
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)ranked, enzyme_dup, x, dx, enzyme_const, N);
  fz_check_arr("analytic", dx, want, N, 1e-12);
  for (int i = 0; i < N; i++) {
    double h = 1e-6, xp[N], xm[N];
    memcpy(xp, x, sizeof xp);
    memcpy(xm, x, sizeof xm);
    xp[i] += h;
    xm[i] -= h;
    fd[i] = (ranked(xp, N) - ranked(xm, N)) / (2 * h);
  }
  fz_check_arr("central differences", dx, fd, N, 1e-5);
  double v[N], dv[N];
  fz_fill(v, N, -1, 1);
  memcpy(dv, v, sizeof dv);
  double jv = __enzyme_fwddiff((void *)ranked, enzyme_dup, x, dv, enzyme_const, N);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  fz_check("forward . v", jv, dot, 1e-9);
  return fz_finish();
}
