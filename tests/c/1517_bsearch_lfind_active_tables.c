// OPT: O0 O2
// VARIANTS: all
// probe45: `bsearch` and `lfind` on tables of the program's doubles, Enzyme-style: records
// of knots built from the input and searched for an active query (the bracketing
// interval, then linear interpolation), a sorted copy searched for one of its own
// elements, an element found by `lfind` written through, a search that misses; the table
// `enzyme_dup` or `enzyme_const` (then only the query's derivative) with the query
// active; split mode (`__enzyme_augmentfwd`/`__enzyme_reverse`), vector reverse and
// vector forward (`enzyme_width 2`), a search of a `const` global table (inactive, as
// before). At -O0 and under `--ad-before-opt` `bsearch` is a call (from -O1 on glibc's
// inline version is code); `lfind` is a call at every level. Both were refused before
// ("no derivative for `bsearch`"); now built-in rules give the result the same offset
// into the table's shadow (`custom/search.rs`). Oracles: central differences of the
// primal, <gradient, v>, analytic derivatives of the interpolation, lanes = scalar runs.
#include "fz_test.h"
#include "fz_grad_check.h"
#include <search.h>
extern void *__enzyme_augmentfwd(void *, ...);
extern void __enzyme_reverse(void *, ...);
extern int enzyme_width;
typedef struct { double t, y; } knot;
typedef struct { double a, b; } d2;
extern d2 __enzyme_fwddiff_w2(void *, ...);

/* key in [e[0].t, e[1].t) */
static int cmp_bracket(const void *key, const void *elem) {
  double k = *(const double *)key;
  const knot *e = elem;
  if (k < e[0].t) return -1;
  if (k >= e[1].t) return 1;
  return 0;
}
static int cmp_d(const void *a, const void *b) {
  double p = *(const double *)a, q = *(const double *)b;
  return (p > q) - (p < q);
}

/* Knots and values built from x, query from x: interpolation at the query. */
double interp_records(const double *x, int n) {
  knot kn[8];
  for (int i = 0; i < n - 1; i++) {
    kn[i].t = i + 0.1 * x[i];
    kn[i].y = sin(x[i]) + i;
  }
  double q = 2.5 + 0.3 * x[n - 1];
  knot *k = bsearch(&q, kn, n - 2, sizeof(knot), cmp_bracket);
  if (!k) return 0;
  double w = (q - k[0].t) / (k[1].t - k[0].t);
  return (1 - w) * k[0].y + w * k[1].y;
}

/* A sorted copy searched for one of its own elements. */
double sorted_hit(const double *x, int n) {
  double s[8];
  for (int i = 0; i < n; i++) s[i] = x[i];
  qsort(s, n, sizeof s[0], cmp_d);
  double key = s[3];
  double *hit = bsearch(&key, s, n, sizeof s[0], cmp_d);
  return hit ? hit[0] * hit[1] + s[0] * s[n - 1] : 0.0;
}

/* lfind on unsorted data, written through; a miss. */
double write_through(const double *x, int n) {
  double a[8];
  for (int i = 0; i < n; i++) a[i] = x[i] * (i + 1);
  double key = a[3], miss = 1e9;
  size_t nn = n;
  double *p = lfind(&key, a, &nn, sizeof a[0], cmp_d);
  *p = *p * *p;
  double *m = lfind(&miss, a, &nn, sizeof a[0], cmp_d);
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * a[i];
  return s + (m ? 1 : 0);
}

/* key in [e[0], e[1]) */
static int cmp_bracket_d(const void *key, const void *elem) {
  double k = *(const double *)key;
  const double *e = elem;
  if (k < e[0]) return -1;
  if (k >= e[1]) return 1;
  return 0;
}
/* A `const` global table with an active key: the search is inactive. */
static const double T[6] = {0, 1, 2, 3, 4, 5};
double const_table(const double *x, int n) {
  double q = x[0] * x[0] + 1.2;
  const double *k = bsearch(&q, T, 5, sizeof(double), cmp_bracket_d);
  (void)n;
  return k ? q * (k - T + 1) + x[1] * k[0] : q;
}

/* The table as an argument (duplicated or constant), the query active. */
double lookup(const knot *tab, int n, double q) {
  const knot *k = bsearch(&q, tab, n - 1, sizeof(knot), cmp_bracket);
  if (!k) return 0;
  double w = (q - k[0].t) / (k[1].t - k[0].t);
  return (1 - w) * k[0].y + w * k[1].y;
}
void lookup_out(const knot *tab, int n, const double *q, double *out) {
  for (int i = 0; i < 3; i++) out[i] = lookup(tab, n, q[i]) * q[i];
}

int main(void) {
  double x[8];
  for (int i = 0; i < 8; i++) x[i] = 0.45 + 0.31 * i - 1.37 * (i % 3 == 1);
  FZ_CHECK_GRAD("bsearch records", interp_records, x, 7, 1e-6);
  FZ_CHECK_GRAD("bsearch sorted hit", sorted_hit, x, 8, 1e-6);
  FZ_CHECK_GRAD("lfind written through", write_through, x, 6, 1e-6);
  FZ_CHECK_GRAD("const global table", const_table, x, 2, 1e-6);

  /* width 2 forward: lanes e6 and e2 against the gradient */
  double v[14] = {0}, g[7] = {0};
  v[6] = 1;
  v[7 + 2] = 1;
  d2 t = __enzyme_fwddiff_w2((void *)interp_records, enzyme_width, 2, enzyme_dup, x, v, v + 7,
                             enzyme_const, 7);
  __enzyme_autodiff((void *)interp_records, enzyme_dup, x, g, enzyme_const, 7);
  fz_check("width 2 forward lane 0", t.a, g[6], 1e-10);
  fz_check("width 2 forward lane 1", t.b, g[2], 1e-10);

  /* f(q) on knots t_i = i, y_i = i^2: on [k, k+1), f = (1 - w) k^2 + w (k + 1)^2 */
  knot tab[6];
  for (int i = 0; i < 6; i++) { tab[i].t = i; tab[i].y = i * i; }
  double d = __enzyme_autodiff((void *)lookup, enzyme_const, tab, enzyme_const, 6, 2.3);
  fz_check("constant table: d/dq", d, 5, 1e-12);
  fz_check("constant table: forward", __enzyme_fwddiff((void *)lookup, enzyme_const, tab, enzyme_const, 6, 2.3, 1.0), 5, 1e-12);
  knot dt[6] = {{0}};
  d = __enzyme_autodiff((void *)lookup, enzyme_dup, tab, dt, enzyme_const, 6, 2.3);
  fz_check("dup table: d/dq", d, 5, 1e-12);
  fz_check("dup table: d/dy2", dt[2].y, 0.7, 1e-12);
  fz_check("dup table: d/dy3", dt[3].y, 0.3, 1e-12);
  fz_check("dup table: d/dt2", dt[2].t, -0.7 * 5, 1e-12);
  fz_check("dup table: d/dt3", dt[3].t, -0.3 * 5, 1e-12);
  fz_check("dup table: untouched", fabs(dt[0].y) + fabs(dt[4].t) + fabs(dt[5].y), 0, 0);

  /* split mode, then vector reverse against it */
  double q[3] = {0.5, 2.3, 4.1}, dq[3] = {0}, out[3], dout[3] = {1, 1, 1};
  knot dt2[6] = {{0}};
  void *tape = __enzyme_augmentfwd((void *)lookup_out, enzyme_dup, tab, dt2, enzyme_const, 6,
                                   enzyme_dup, q, dq, enzyme_dup, out, dout);
  __enzyme_reverse((void *)lookup_out, enzyme_dup, tab, dt2, enzyme_const, 6, enzyme_dup, q, dq,
                   enzyme_dup, out, dout, tape);
  for (int i = 0; i < 3; i++) {
    int k = (int)q[i];
    double w = q[i] - k, f = (1 - w) * k * k + w * (k + 1) * (k + 1);
    fz_check("split mode: d out_i / d q_i", dq[i], f + q[i] * (2 * k + 1), 1e-12);
  }
  fz_check("split mode: d/dy4", dt2[4].y, 0.9 * 4.1, 1e-12);
  knot da[6] = {{0}}, db[6] = {{0}};
  double o2[3], doa[3] = {1, 0, 0}, dob[3] = {0, 0, 1}, qa[3] = {0}, qb[3] = {0};
  __enzyme_autodiff((void *)lookup_out, enzyme_width, 2, enzyme_dup, tab, da, db, enzyme_const, 6,
                    enzyme_dup, q, qa, qb, enzyme_dup, o2, doa, dob);
  fz_check("vector reverse lane 0", qa[0], dq[0], 1e-12);
  fz_check("vector reverse lane 1", qb[2], dq[2], 1e-12);
  fz_check("vector reverse lane 1: d/dy4", db[4].y, dt2[4].y, 1e-12);
  return fz_finish();
}
