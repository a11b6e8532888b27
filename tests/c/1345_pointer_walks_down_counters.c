// OPT: O0 O2
// Loops written with pointers and downward unsigned counters: Horner by a pointer
// walking down (`while (p > c) s = s * x + *--p;`), two pointers closing in from both
// ends (`while (lo < hi) { ...; lo++; hi--; }`), a sentinel end pointer with a stride of
// 3, `for (size_t i = n; i-- > 0;)`, a do-while over a pointer difference, and a back
// substitution whose row pointer steps back by a row each time. Oracles: analytic
// derivatives (Horner's derivative polynomial, the symmetric products), central
// differences for everything, forward = reverse.
#include "fz_test.h"
#include <stddef.h>

extern double __enzyme_fwddiff(void *, ...);

double horner_down(const double *c, int n, double x) {
  const double *p = c + n;
  double s = 0;
  while (p > c) s = s * x + *--p;
  return s;
}

/* sum over i < n/2 of x[i] * x[n-1-i] * w, w growing inward; a middle element squared */
double fold_in(const double *x, int n) {
  const double *lo = x, *hi = x + n - 1;
  double s = 0, w = 1;
  while (lo < hi) {
    s += w * *lo * *hi;
    lo++, hi--, w += 0.5;
  }
  if (lo == hi) s += *lo * *lo;
  return s;
}

/* points as xyz triples; a sentinel end, stride 3 */
double triples(const double *p, const double *end) {
  double s = 0;
  for (; p != end; p += 3) s += p[0] * p[1] - sin(p[2]) * p[0];
  return s;
}

double down_counter(const double *x, size_t n) {
  double s = 0, carry = 1;
  for (size_t i = n; i-- > 0;) {
    carry = carry * 0.9 + x[i];
    s += carry * x[i];
  }
  return s;
}

double do_while_diff(const double *a, const double *b) {
  ptrdiff_t k = b - a;
  double s = 0;
  const double *p = b;
  do {
    --p;
    s += exp(-*p) * (double)(b - p);
  } while (--k > 0);
  return s;
}

/* upper triangular solve U y = r (n x n, row-major), rows from the bottom up; sum of y */
double back_sub(const double *U, const double *r, double *y, int n) {
  const double *row = U + (size_t)(n - 1) * n;
  for (int i = n - 1; i >= 0; i--, row -= n) {
    double s = r[i];
    for (const double *q = row + i + 1, *e = row + n, *yy = y + i + 1; q < e; q++, yy++)
      s -= *q * *yy;
    y[i] = s / row[i];
  }
  double t = 0;
  for (int i = 0; i < n; i++) t += (i + 1) * y[i];
  return t;
}

#define NC 7
#define NX 9
typedef struct { double c[NC], x, v[NX], p[12], U[16], r[4], y[4]; } ctx;
static double e_h(void *q) { ctx *c = q; return horner_down(c->c, NC, c->x); }
static double e_f(void *q) { ctx *c = q; return fold_in(c->v, NX); }
static double e_f8(void *q) { ctx *c = q; return fold_in(c->v, 8); }
static double e_t(void *q) { ctx *c = q; return triples(c->p, c->p + 12); }
static double e_d(void *q) { ctx *c = q; return down_counter(c->v, NX); }
static double e_w(void *q) { ctx *c = q; return do_while_diff(c->v, c->v + 6); }
static double e_b(void *q) { ctx *c = q; return back_sub(c->U, c->r, c->y, 4); }

int main(void) {
  ctx c;
  for (int i = 0; i < NC; i++) c.c[i] = 0.5 - 0.3 * i + 0.05 * i * i;
  c.x = 0.83;
  for (int i = 0; i < NX; i++) c.v[i] = sin(1.3 * i + 0.2);
  for (int i = 0; i < 12; i++) c.p[i] = cos(0.7 * i) + 0.1;
  for (int i = 0; i < 4; i++) {
    c.r[i] = 1.0 - 0.3 * i;
    for (int j = 0; j < 4; j++) c.U[4 * i + j] = j < i ? 0.0 : (j == i ? 2.0 + 0.5 * i : 0.3 * (j - i) - 0.1);
  }
  char w[64];

  /* Horner */
  double gc[NC] = {0}, gx = 0;
  gx = __enzyme_autodiff((void *)horner_down, enzyme_dup, c.c, gc, enzyme_const, NC, c.x);
  double dp = 0, xp = 1;
  for (int i = 0; i < NC; i++) {
    snprintf(w, sizeof w, "horner d/d c[%d] = x^%d", i, i);
    fz_check(w, gc[i], xp, 1e-13);
    if (i > 0) dp += i * c.c[i] * pow(c.x, i - 1);
    xp *= c.x;
  }
  fz_check("horner d/d x = p'(x)", gx, dp, 1e-12);
  fz_check("horner d/d x vs FD", gx, fz_fd_ptr(e_h, &c, &c.x), 1e-6);

  /* two pointers closing in, odd and even lengths */
  for (int n = NX; n >= 8; n--) {
    double g[NX] = {0}, want[NX] = {0};
    __enzyme_autodiff((void *)fold_in, enzyme_dup, c.v, g, enzyme_const, n);
    double wt = 1;
    for (int i = 0; i < n / 2; i++, wt += 0.5) {
      want[i] += wt * c.v[n - 1 - i];
      want[n - 1 - i] += wt * c.v[i];
    }
    if (n % 2) want[n / 2] += 2 * c.v[n / 2];
    snprintf(w, sizeof w, "fold_in n=%d analytic", n);
    fz_check_arr(w, g, want, NX, 1e-13);
    snprintf(w, sizeof w, "fold_in n=%d d/d v[0] vs FD", n);
    fz_check(w, g[0], fz_fd_ptr(n == NX ? e_f : e_f8, &c, &c.v[0]), 1e-6);
  }

  /* sentinel stride-3 */
  double gp[12] = {0}, fp[12];
  __enzyme_autodiff((void *)triples, enzyme_dup, c.p, gp, enzyme_dup, c.p + 12, gp + 12);
  fz_fd_grad(e_t, &c, c.p, 12, fp);
  fz_check_arr("triples vs FD", gp, fp, 12, 1e-6);

  /* size_t counting down */
  double gd[NX] = {0}, fd[NX];
  __enzyme_autodiff((void *)down_counter, enzyme_dup, c.v, gd, enzyme_const, (size_t)NX);
  fz_fd_grad(e_d, &c, c.v, NX, fd);
  fz_check_arr("down counter vs FD", gd, fd, NX, 1e-6);
  double vv[NX];
  for (int i = 0; i < NX; i++) vv[i] = 0.1 * (i - 4);
  double jv = __enzyme_fwddiff((void *)down_counter, c.v, vv, enzyme_const, (size_t)NX), dot = 0;
  for (int i = 0; i < NX; i++) dot += vv[i] * gd[i];
  fz_check("down counter forward = reverse", jv, dot, 1e-12);

  /* do-while over a pointer difference: d/d v[i] = -(6 - i) e^-v[i] for i < 6 */
  double gw[NX] = {0}, want[NX] = {0};
  __enzyme_autodiff((void *)do_while_diff, enzyme_dup, c.v, gw, enzyme_dup, c.v + 6, gw + 6);
  for (int i = 0; i < 6; i++) want[i] = -(6 - i) * exp(-c.v[i]);
  fz_check_arr("do-while analytic", gw, want, NX, 1e-13);
  fz_check("do-while d/d v[2] vs FD", gw[2], fz_fd_ptr(e_w, &c, &c.v[2]), 1e-6);

  /* back substitution, the row pointer stepping back */
  double gU[16] = {0}, gr[4] = {0}, gy[4] = {0}, fU[16], fr[4];
  __enzyme_autodiff((void *)back_sub, enzyme_dup, c.U, gU, enzyme_dup, c.r, gr, enzyme_dup, c.y,
                    gy, enzyme_const, 4);
  fz_fd_grad(e_b, &c, c.U, 16, fU);
  fz_fd_grad(e_b, &c, c.r, 4, fr);
  fz_check_arr("back sub d/d U vs FD", gU, fU, 16, 1e-6);
  fz_check_arr("back sub d/d r vs FD", gr, fr, 4, 1e-6);
  return fz_finish();
}
