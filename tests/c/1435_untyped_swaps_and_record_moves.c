// OPT: O0 O1 O2 O3
// rustmap: doubles shuffled by moves that do not say they are doubles, the shapes of a
// Rust `HashMap` growing in place, reached from C: a Fisher-Yates-style permutation of a
// buffer by 8-byte swaps through `uint64_t *` (type analysis sees integers moved over
// memory that also holds doubles), and records `{ long key; double val; }` moved between
// slots chosen at run time by `memcpy` (keys and values merged at unknown offsets). A
// swap is a permutation whatever the bytes are, so the shadows are swapped with them and
// swapped back in the reverse sweep (refused before rustmap at -O1 and above:
// cannot-deduce-type in `swap8`; -O0 types the bytes through its stack slots). The
// records' copies are typed by their struct and take the usual path.
// Oracles: the analytic gradient (the permutation applied to the weights), central
// differences, and forward mode against reverse (dot product).
#include "fz_test.h"
#include <stdint.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

#define N 8

struct Rec { long key; double val; };



__attribute__((noinline)) static void swap8(void *a, void *b) {
  uint64_t *p = a, *q = b;
  uint64_t t = *p;
  *p = *q;
  *q = t;
}

// Permutes x in place by swaps, then weights position k by (k + 1).
double shuffle_sum(double *x, const int *perm, int n) {
  for (int i = n - 1; i > 0; i--) swap8(&x[i], &x[perm[i]]);
  double s = 0;
  for (int k = 0; k < n; k++) s += (k + 1) * x[k] * x[k];
  return s;
}

// Records in a table; each is moved by memcpy to the slot its key hashes to (a rehash
// into a second table), then the values are summed with weights.
double rehash_sum(const double *x, int n) {
  struct Rec a[N], b[N];
  memset(b, 0, sizeof b);
  for (int i = 0; i < n; i++) {
    a[i].key = (7 * i + 3) % n;
    a[i].val = x[i] * x[i];
  }
  for (int i = 0; i < n; i++) memcpy(&b[a[i].key], &a[i], sizeof(struct Rec));
  double s = 0;
  for (int k = 0; k < n; k++) s += (k + 2) * b[k].val * b[k].key;
  return s;
}

static const int PERM[N] = {0, 0, 1, 0, 2, 3, 5, 4};

static double shuffle_value(double *x) {
  double c[N];
  memcpy(c, x, sizeof c);
  return shuffle_sum(c, PERM, N);
}

int main(void) {
  fz_seed(1435);
  double x[N], dx[N], fd[N], want[N];
  fz_fill(x, N, -1.5, 1.5);

  // The permutation's gradient: position k holds x[src[k]] after the swaps.
  int src[N];
  for (int k = 0; k < N; k++) src[k] = k;
  for (int i = N - 1; i > 0; i--) {
    int t = src[i];
    src[i] = src[PERM[i]];
    src[PERM[i]] = t;
  }
  for (int k = 0; k < N; k++) want[src[k]] = 2.0 * (k + 1) * x[src[k]];
  double c[N];
  memcpy(c, x, sizeof c);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)shuffle_sum, enzyme_dup, c, dx, enzyme_const, PERM, N);
  fz_check_arr("shuffle analytic", dx, want, N, 1e-12);
  for (int i = 0; i < N; i++) {
    double h = 1e-6, xp[N], xm[N];
    memcpy(xp, x, sizeof xp);
    memcpy(xm, x, sizeof xm);
    xp[i] += h;
    xm[i] -= h;
    fd[i] = (shuffle_value(xp) - shuffle_value(xm)) / (2 * h);
  }
  fz_check_arr("shuffle fd", dx, fd, N, 1e-6);
  double v[N], dv[N];
  fz_fill(v, N, -1, 1);
  memcpy(c, x, sizeof c);
  memcpy(dv, v, sizeof dv);
  double jv = __enzyme_fwddiff((void *)shuffle_sum, enzyme_dup, c, dv, enzyme_const, PERM, N);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  fz_check("shuffle forward . v", jv, dot, 1e-10);

  // The rehash: record i lands in slot (7i + 3) % N, weighted (slot + 2) * slot.
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)rehash_sum, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    int k = (7 * i + 3) % N;
    want[i] = (k + 2) * (double)k * 2.0 * x[i];
  }
  fz_check_arr("rehash analytic", dx, want, N, 1e-12);
  memcpy(dv, v, sizeof dv);
  jv = __enzyme_fwddiff((void *)rehash_sum, enzyme_dup, x, dv, enzyme_const, N);
  dot = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  fz_check("rehash forward . v", jv, dot, 1e-10);
  return fz_finish();
}
