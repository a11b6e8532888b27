// OPT: O0 O2
// Vector reverse mode (`enzyme_width`) through `qsort` and glibc's `qsort_r`, refused
// until enz35: the sort runs once, in lane 0's augmented rule, whose permutation moves the
// other lanes' shadows forward and back (and is freed by lane 0's reverse rule, which runs
// last). Sorting in place the caller's array (its shadows per lane hold the adjoints the
// caller seeded, which must come back to their own positions), a local copy sorted and
// weighted by rank, records sorted by a key, and `qsort_r` sorting an `int` index array
// by active keys in its context. Oracles: each lane against a scalar `__enzyme_autodiff`
// with that lane's seed, central differences, and the sorted primal.
#define _GNU_SOURCE /* qsort_r */
#include "fz_test.h"
#include "fz_modes.h"

#define N 5
typedef struct { double key, val; } rec;

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
static int cmp_rec(const void *a, const void *b) {
  double x = ((const rec *)a)->key, y = ((const rec *)b)->key;
  return (x > y) - (x < y);
}
static int cmp_idx(const void *a, const void *b, void *ctx) {
  const double *k = ctx;
  double x = k[*(const int *)a], y = k[*(const int *)b];
  return (x < y) - (x > y); /* descending */
}

/* sorts x in place; out[j] from the sorted values, a local copy and records */
void model(double *x, double *out) {
  qsort(x, N, sizeof *x, cmp);
  double c[N];
  rec r[N];
  for (int i = 0; i < N; i++) {
    c[i] = sin(x[i]) + x[(i + 2) % N];
    r[i].key = x[(i + 3) % N] * x[i], r[i].val = exp(0.3 * x[i]);
  }
  qsort(c, N, sizeof *c, cmp);
  qsort(r, N, sizeof *r, cmp_rec);
  int idx[N];
  for (int i = 0; i < N; i++) idx[i] = i;
  qsort_r(idx, N, sizeof *idx, cmp_idx, c);
  out[0] = 0, out[1] = 0, out[2] = 0;
  for (int i = 0; i < N; i++) {
    out[0] += (i + 1) * x[i] * c[i];
    out[1] += r[i].val * (N - i) + c[idx[i]] * (i + 0.5);
    out[2] += x[i] * r[i].key;
  }
}

static double X0[N], SEED[3];
static double seeded(void *c) {
  (void)c;
  double x[N], o[3];
  memcpy(x, X0, sizeof x);
  model(x, o);
  return fz_dot(o, SEED, 3);
}

int main(void) {
  const double start[N] = {0.9, -0.4, 0.35, 1.3, -1.1};
  memcpy(X0, start, sizeof X0);
  double seeds[3][3] = {{1, 0, 0}, {0.2, 1, -0.5}, {0, -0.3, 1}};
  double x[N], o[3], s[3][3], g[3][N];
  memcpy(x, start, sizeof x);
  memcpy(s, seeds, sizeof s);
  for (int l = 0; l < 3; l++)
    for (int i = 0; i < N; i++) g[l][i] = 0.01 * (l + 1) * i; /* adjoints already there */
  __enzyme_autodiff_w((void *)model, enzyme_width, 3, enzyme_dup, x, g[0], g[1], g[2], enzyme_dup,
                      o, s[0], s[1], s[2]);
  double sorted[N];
  memcpy(sorted, start, sizeof sorted);
  qsort(sorted, N, sizeof *sorted, cmp);
  fz_check_arr("x sorted once by the vector call", x, sorted, N, 0);
  for (int l = 0; l < 3; l++) {
    double xs[N], sc[N], os[3], ss[3];
    memcpy(xs, start, sizeof xs);
    memcpy(ss, seeds[l], sizeof ss);
    for (int i = 0; i < N; i++) sc[i] = 0.01 * (l + 1) * i;
    __enzyme_autodiff((void *)model, enzyme_dup, xs, sc, enzyme_dup, os, ss);
    memcpy(SEED, seeds[l], sizeof SEED);
    for (int i = 0; i < N; i++) {
      char b[48];
      snprintf(b, sizeof b, "lane %d d/dx[%d]", l, i);
      /* the shadow held 0.01 (l + 1) i at x[i]'s own position before the call */
      fz_mcheck2(b, g[l][i], sc[i], 1e-13,
                 fz_fd_ptr(seeded, NULL, &X0[i]) + 0.01 * (l + 1) * i, 1e-6);
    }
  }
  return fz_finish();
}
