// OPT: O0 O1 O2 O3
// probe41: C idioms from users' programs: a 2-D array parameter `double (*a)[M]` with a run-time row
// count, a triple loop whose bounds come from an integer array, an isnan guard with
// copysign and floor, a switch whose default is __builtin_unreachable, a recursive
// adaptive integration whose depth depends on the input, and a buffer grown by
// realloc in a while loop with a data-dependent exit. Oracles: central differences.
#include "fz_test.h"

#define M 3
double rows(int n, double (*a)[M], const double *w) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < M; j++) s += w[j] * a[i][j] * a[i][(j + 1) % M];
  return s;
}

double triple(const double *x, const int *lim, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < lim[i]; j++)
      for (int k = j; k < lim[i]; k++) s += x[i] * x[(j + k) % n] / (1 + k);
  return s;
}

enum op { ADD, MUL, SQR };
double guarded_ops(const double *x, const int *ops, int n) {
  double acc = 1;
  for (int i = 0; i < n; i++) {
    double v = x[i];
    if (isnan(v)) continue;
    switch (ops[i]) {
    case ADD: acc += copysign(v * v, x[0]); break;
    case MUL: acc *= v + floor(v * 3) * 0.125; break;
    case SQR: acc = acc * acc * 0.5 + v; break;
    default: __builtin_unreachable();
    }
  }
  return acc;
}

static double simpson(double a, double b, double c) {
  double m = 0.5 * (a + b);
  return (b - a) / 6 * (exp(c * a) + 4 * exp(c * m) + exp(c * b));
}
double adapt(double a, double b, double c, double whole, double eps, int depth) {
  double m = 0.5 * (a + b);
  double l = simpson(a, m, c), r = simpson(m, b, c);
  if (depth <= 0 || fabs(l + r - whole) < 15 * eps) return l + r + (l + r - whole) / 15;
  return adapt(a, m, c, l, eps / 2, depth - 1) + adapt(m, b, c, r, eps / 2, depth - 1);
}
double integral(double c, double b) { return adapt(0, b, c, simpson(0, b, c), 1e-9, 30); }

double grow(const double *x, int n) {
  int cap = 1, len = 0;
  double *buf = malloc(cap * sizeof(double));
  double v = x[0];
  int i = 0;
  while (v < 40.0 && i < 1000) {
    if (len == cap) { cap *= 2; buf = realloc(buf, cap * sizeof(double)); }
    buf[len++] = v;
    v = v * (1.3 + 0.01 * x[i % n]) + x[1];
    i++;
  }
  double s = 0;
  for (int k = 0; k < len; k++) s += buf[k] * (k + 1);
  free(buf);
  return s + v;
}

#define N 4
static double gx[N], ga[5][M], gw[M] = {0.5, -1.0, 2.0};
static int glim[N] = {2, 0, 3, 1}, gops[N] = {MUL, ADD, SQR, MUL};
static double gc, gb;
static double ev_rows(void *c) { (void)c; return rows(5, ga, gw); }
static double ev_tri(void *c) { (void)c; return triple(gx, glim, N); }
static double ev_ops(void *c) { (void)c; return guarded_ops(gx, gops, N); }
static double ev_int(void *c) { (void)c; return integral(gc, gb); }
static double ev_grow(void *c) { (void)c; return grow(gx, N); }

int main(void) {
  double x0[N] = {0.7, -1.3, 0.45, 1.1};
  memcpy(gx, x0, sizeof gx);
  double d[N];
  memset(d, 0, sizeof d);
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < M; j++) ga[i][j] = 0.1 * (i + 1) - 0.2 * j;
  double da[5][M] = {{0}};
  __enzyme_autodiff((void *)rows, enzyme_const, 5, enzyme_dup, ga, da, enzyme_const, gw);
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < M; j++) fz_check("rows", da[i][j], fz_fd_ptr(ev_rows, 0, &ga[i][j]), 1e-6);
  memset(d, 0, sizeof d);
  __enzyme_autodiff((void *)triple, enzyme_dup, gx, d, enzyme_const, glim, enzyme_const, N);
  for (int i = 0; i < N; i++) fz_check("triple", d[i], fz_fd_ptr(ev_tri, 0, &gx[i]), 1e-6);
  memset(d, 0, sizeof d);
  __enzyme_autodiff((void *)guarded_ops, enzyme_dup, gx, d, enzyme_const, gops, enzyme_const, N);
  for (int i = 0; i < N; i++) fz_check("ops", d[i], fz_fd_ptr(ev_ops, 0, &gx[i]), 1e-6);
  gx[1] = NAN;
  memset(d, 0, sizeof d);
  __enzyme_autodiff((void *)guarded_ops, enzyme_dup, gx, d, enzyme_const, gops, enzyme_const, N);
  fz_check("ops nan skipped", d[1], 0, 0);
  for (int i = 0; i < N; i += 2) fz_check("ops nan", d[i], fz_fd_ptr(ev_ops, 0, &gx[i]), 1e-6);
  memcpy(gx, x0, sizeof gx);
  gc = 0.8; gb = 1.7;
  fz_grad2 gi = __enzyme_autodiff2((void *)integral, gc, gb);
  /* analytic: I = (e^{cb} - 1) / c */
  fz_check("integral dc", gi.d0, (gb * exp(gc * gb) * gc - (exp(gc * gb) - 1)) / (gc * gc), 1e-7);
  fz_check("integral db", gi.d1, exp(gc * gb), 1e-7);
  fz_check("integral dc fd", gi.d0, fz_fd_ptr(ev_int, 0, &gc), 1e-6);
  gx[0] = 1.5;
  memset(d, 0, sizeof d);
  __enzyme_autodiff((void *)grow, enzyme_dup, gx, d, enzyme_const, N);
  for (int i = 0; i < N; i++) fz_check("grow", d[i], fz_fd_ptr(ev_grow, 0, &gx[i]), 1e-6);
  return fz_finish();
}
