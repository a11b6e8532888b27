// OPT: O0 O2
// Vector modes (`enzyme_width`) through what scalar programs use: heap scratch from
// malloc filled by memcpy, a helper taking a struct pointer, a Newton solve per element
// with a tolerance exit, a recursive pairwise sum, qsort of a copy with a comparator,
// fmax and pow. Width 4 in forward mode (one shadow pair per lane, and `enzyme_dupv`
// strided), width 2 in reverse mode (two output seeds) of the same model without the
// sort (vector reverse through qsort came in enz35: tests/c/1417).
// glibc's qsort_r (descending through its context) at width 3 likewise.
// Found: qsort's forward rule ran once per lane, so lanes 1-3 found the elements sorted
// and kept their tangents unpermuted (silently wrong); now lane 0's permutation is
// applied to every lane. Oracles: each lane against a scalar `__enzyme_fwddiff` /
// `__enzyme_autodiff` of the same function, central differences, and
// <J v, w> = <v, J^T w> across modes (with the sort-free model's forward lanes).
#define _GNU_SOURCE
#include "fz_test.h"

extern int enzyme_width, enzyme_dupv;
extern void __enzyme_fwddiff_void(void *, ...);
extern void __enzyme_fwddiff_w4(void *, ...);
extern void __enzyme_fwddiff_w3(void *, ...);
extern void __enzyme_autodiff_w2(void *, ...);

#define N 6

typedef struct { double k, c; } params;

__attribute__((noinline)) static double solve_cubic(const params *p, double r) {
  /* y^3 + k y - r = 0 by Newton from y = r / (1 + k): tolerance exit */
  double y = r / (1 + p->k);
  for (int it = 0; it < 50; it++) {
    double f = y * y * y + p->k * y - r, d = 3 * y * y + p->k;
    double s = f / d;
    y -= s;
    if (fabs(s) < 1e-14 * (1 + fabs(y))) break;
  }
  return y;
}

static double pair_sum(const double *a, int n) {
  if (n == 1) return a[0];
  int h = n / 2;
  return pair_sum(a, h) + pair_sum(a + h, n - h);
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* out[0..N-1]: (sorted) Newton solutions weighted by rank; out[N]: a recursive sum */
#define BODY(SORT)                                                                         \
  double *s = malloc(N * sizeof *s);                                                       \
  memcpy(s, x, N * sizeof *s);                                                             \
  for (int i = 0; i < N; i++) s[i] = solve_cubic(p, s[i] * p->c) + fmax(s[i], 0.2) * 0.1; \
  SORT;                                                                                    \
  for (int i = 0; i < N; i++) out[i] = (i + 1) * s[i] + pow(fabs(s[i]) + 1, 1.5);          \
  out[N] = pair_sum(s, N) * s[N - 1];                                                      \
  free(s);
void model(const double *x, const params *p, double *out) { BODY(qsort(s, N, sizeof *s, cmp)) }
static int cmp_r(const void *a, const void *b, void *sign) {
  double x = *(const double *)a * *(const int *)sign, y = *(const double *)b * *(const int *)sign;
  return (x > y) - (x < y);
}
static int descending = -1;
void model_r(const double *x, const params *p, double *out) {
  BODY(qsort_r(s, N, sizeof *s, cmp_r, &descending))
}
void model_nosort(const double *x, const params *p, double *out) { BODY((void)0) }

typedef struct { double x[N]; params p; double o[N + 1]; int k; } ctx;
static double ev(void *v) { ctx *c = v; model(c->x, &c->p, c->o); return c->o[c->k]; }

int main(void) {
  ctx c = {{0.9, -0.3, 1.7, 0.05, -1.1, 0.45}, {1.3, 0.8}, {0}, 0};
  params dp0 = {0, 0};
  double lanes[4][N], touts[4][N + 1];
  for (int l = 0; l < 4; l++)
    for (int i = 0; i < N; i++) lanes[l][i] = sin(1.0 + l * 2.1 + 0.7 * i);
  /* width 4, one shadow per lane (params constant) */
  double o[N + 1], t0[N + 1], t1[N + 1], t2[N + 1], t3[N + 1];
  __enzyme_fwddiff_w4((void *)model, enzyme_width, 4, enzyme_dup, c.x, lanes[0], lanes[1],
                      lanes[2], lanes[3], enzyme_const, &c.p, enzyme_dup, o, t0, t1, t2, t3);
  double *tv[4] = {t0, t1, t2, t3};
  char w[64];
  for (int l = 0; l < 4; l++) {
    double ts[N + 1], os[N + 1];
    __enzyme_fwddiff_void((void *)model, c.x, lanes[l], enzyme_const, &c.p, os, ts);
    snprintf(w, sizeof w, "width 4 lane %d = scalar forward", l);
    fz_check_arr(w, tv[l], ts, N + 1, 1e-13);
  }
  /* dupv: the four tangents strided in one array */
  __enzyme_fwddiff_w4((void *)model, enzyme_width, 4, enzyme_dupv, sizeof lanes[0], c.x, lanes,
                      enzyme_const, &c.p, enzyme_dupv, sizeof touts[0], o, touts);
  for (int l = 0; l < 4; l++) {
    snprintf(w, sizeof w, "dupv lane %d = shadow-per-lane", l);
    fz_check_arr(w, touts[l], tv[l], N + 1, 1e-13);
  }
  /* glibc's qsort_r (descending), width 3 against scalar lanes */
  double r0[N + 1], r1[N + 1], r2[N + 1];
  __enzyme_fwddiff_w3((void *)model_r, enzyme_width, 3, enzyme_dup, c.x, lanes[0], lanes[1],
                      lanes[2], enzyme_const, &c.p, enzyme_dup, o, r0, r1, r2);
  double *rv[3] = {r0, r1, r2};
  for (int l = 0; l < 3; l++) {
    double ts[N + 1], os[N + 1];
    __enzyme_fwddiff_void((void *)model_r, c.x, lanes[l], enzyme_const, &c.p, os, ts);
    snprintf(w, sizeof w, "qsort_r width 3 lane %d = scalar forward", l);
    fz_check_arr(w, rv[l], ts, N + 1, 1e-13);
  }
  /* lane 0 vs central differences of each output */
  for (int k = 0; k <= N; k++) {
    c.k = k;
    double fd = 0;
    for (int i = 0; i < N; i++) fd += lanes[0][i] * fz_fd_ptr(ev, &c, &c.x[i]);
    snprintf(w, sizeof w, "lane 0 out[%d] vs FD", k);
    fz_check(w, t0[k], fd, 1e-6);
  }
  /* reverse, width 2 (sort-free model): seeds w0, w1 on out, params active too */
  double u0[N + 1], u1[N + 1], u2[N + 1], u3[N + 1];
  __enzyme_fwddiff_w4((void *)model_nosort, enzyme_width, 4, enzyme_dup, c.x, lanes[0], lanes[1],
                      lanes[2], lanes[3], enzyme_const, &c.p, enzyme_dup, o, u0, u1, u2, u3);
  double *uv[4] = {u0, u1, u2, u3};
  double seeds[2][N + 1], gx[2][N] = {{0}}, o2[N + 1];
  params gp[2] = {{0, 0}, {0, 0}};
  for (int l = 0; l < 2; l++)
    for (int k = 0; k <= N; k++) seeds[l][k] = cos(0.4 * k + l);
  double sd0[N + 1], sd1[N + 1];
  memcpy(sd0, seeds[0], sizeof sd0);
  memcpy(sd1, seeds[1], sizeof sd1);
  __enzyme_autodiff_w2((void *)model_nosort, enzyme_width, 2, enzyme_dup, c.x, gx[0], gx[1], enzyme_dup,
                       &c.p, &gp[0], &gp[1], enzyme_dup, o2, sd0, sd1);
  for (int l = 0; l < 2; l++) {
    double g1[N] = {0}, sd[N + 1];
    params gp1 = {0, 0};
    memcpy(sd, seeds[l], sizeof sd);
    __enzyme_autodiff((void *)model_nosort, enzyme_dup, c.x, g1, enzyme_dup, &c.p, &gp1, enzyme_dup, o2, sd);
    snprintf(w, sizeof w, "reverse width 2 lane %d = scalar reverse", l);
    fz_check_arr(w, gx[l], g1, N, 1e-13);
    fz_check(w, gp[l].k, gp1.k, 1e-13);
    fz_check(w, gp[l].c, gp1.c, 1e-13);
    /* dot product with each forward lane */
    for (int m = 0; m < 4; m++) {
      double lhs = 0, rhs = 0;
      for (int k = 0; k <= N; k++) lhs += uv[m][k] * seeds[l][k];
      for (int i = 0; i < N; i++) rhs += lanes[m][i] * gx[l][i];
      snprintf(w, sizeof w, "<J v%d, w%d> = <v%d, J^T w%d>", m, l, m, l);
      fz_check(w, lhs, rhs, 1e-12);
    }
  }
  /* the sort reorders: its tangents differ from the sort-free model's */
  fz_check("sorted and unsorted tangents differ", fabs(t1[0] - u1[0]) > 1e-3, 1, 0);
  (void)dp0;
  return fz_finish();
}
