// OPT: O0 O1 O2 O3
// probe41: shapes from Enzyme's ReverseMode integration tests, written here: a local
// scratch array only partly initialized by a memcpy and read under a constant flag that
// is false at run time (the dead path must not read uninitialized shadow), the same
// scratch fully written under the flag true; a read-write-read of an argument through
// a pointer; a max over many values by chained comparisons; a triangular solve in place;
// an entropy sum x log x with its Hessian diagonal by forward over reverse.
#include "fz_test.h"
#include <stdbool.h>
extern double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) double guarded(double *v, bool fan) {
  double unit[3];
  double r = 0.0;
  if (fan) {
    memcpy(unit, v, sizeof(double));
    for (int i = 0; i < 2; ++i) r += v[i] * v[i];
    r = sqrt(r);
    if (r > 0.0)
      for (int i = 0; i < 2; ++i) unit[i] /= r;
    return v[0] * unit[0] + v[2];
  }
  return v[0] * v[1];
}

__attribute__((noinline)) void guarded_out(double *v, bool fan, double *out) {
  double u[3] = {0, 0, 0};
  double r = 0;
  if (fan) {
    for (int i = 0; i < 3; i++) { u[i] = v[i]; r += u[i] * u[i]; }
    r = sqrt(r);
    if (r > 0)
      for (int i = 0; i < 3; i++) u[i] /= r;
  }
  *out = v[0] + 2 * v[1] + 3 * v[2] + u[1];
}

/* read, write, read back through the same pointer */
double rwr(double *x) {
  double a = x[0] * x[1];
  x[0] = a * a;
  double b = x[0] + sin(x[1]);
  x[1] = b * x[0];
  return x[1] + x[0] * a;
}

double manymax(const double *x, int n) {
  double m = x[0], m2 = -1e300;
  for (int i = 1; i < n; i++) {
    if (x[i] > m) { m2 = m; m = x[i]; }
    else if (x[i] > m2) m2 = x[i];
  }
  double a = x[0] > x[1] ? x[0] : x[1];
  a = a > x[2] ? a : x[2];
  a = a < x[3] ? x[3] : a;
  return m * m2 + a;
}

/* L y = b in place (lower triangular, unit stride), then returns sum y_i^2 */
double fwdsolve(const double *L, double *b, int n) {
  for (int i = 0; i < n; i++) {
    double s = b[i];
    for (int j = 0; j < i; j++) s -= L[i * n + j] * b[j];
    b[i] = s / L[i * n + i];
  }
  double t = 0;
  for (int i = 0; i < n; i++) t += b[i] * b[i];
  return t;
}

double entropy(const double *p, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s -= p[i] * log(p[i]);
  return s;
}
void entropy_grad(const double *p, double *g, int n) {
  __enzyme_autodiff((void *)entropy, enzyme_dup, p, g, enzyme_const, n);
}

#define N 4
static double gx[N], gL[N * N];
static bool gfan;
static double ev_guarded(void *c) { (void)c; return guarded(gx, gfan); }
static double ev_guarded_out(void *c) { (void)c; double o; guarded_out(gx, gfan, &o); return o; }
static double ev_rwr(void *c) { (void)c; double t[2] = {gx[0], gx[1]}; return rwr(t); }
static double ev_max(void *c) { (void)c; return manymax(gx, N); }
static double ev_solve(void *c) { (void)c; double b[N]; memcpy(b, gx, sizeof b); return fwdsolve(gL, b, N); }

int main(void) {
  double x0[N] = {0.7, -1.3, 0.4, 1.1};
  for (int f = 0; f < 2; f++) {
    gfan = f;
    memcpy(gx, x0, sizeof gx);
    double d[N] = {0};
    __enzyme_autodiff((void *)guarded, enzyme_dup, gx, d, enzyme_const, gfan);
    for (int i = 0; i < N; i++) fz_check(f ? "guarded fan" : "guarded nofan", d[i], fz_fd_ptr(ev_guarded, 0, &gx[i]), 1e-6);
    double d2[N] = {0}, o = 0, dout = 1;
    __enzyme_autodiff((void *)guarded_out, enzyme_dup, gx, d2, enzyme_const, gfan, enzyme_dup, &o, &dout);
    for (int i = 0; i < N; i++) fz_check("guarded_out", d2[i], fz_fd_ptr(ev_guarded_out, 0, &gx[i]), 1e-6);
  }
  memcpy(gx, x0, sizeof gx);
  {
    double t[2] = {gx[0], gx[1]}, dt[2] = {0};
    __enzyme_autodiff((void *)rwr, enzyme_dup, t, dt);
    for (int i = 0; i < 2; i++) fz_check("rwr", dt[i], fz_fd_ptr(ev_rwr, 0, &gx[i]), 1e-6);
  }
  {
    double d[N] = {0};
    __enzyme_autodiff((void *)manymax, enzyme_dup, gx, d, enzyme_const, N);
    for (int i = 0; i < N; i++) fz_check("manymax", d[i], fz_fd_ptr(ev_max, 0, &gx[i]), 1e-6);
  }
  {
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) gL[i * N + j] = j > i ? 0 : (i == j ? 2.0 + i : 0.3 * (i - j) + 0.1);
    double b[N], db[N] = {0}, dL[N * N] = {0};
    memcpy(b, gx, sizeof b);
    __enzyme_autodiff((void *)fwdsolve, enzyme_dup, gL, dL, enzyme_dup, b, db, enzyme_const, N);
    for (int i = 0; i < N; i++) fz_check("fwdsolve db", db[i], fz_fd_ptr(ev_solve, 0, &gx[i]), 1e-6);
    for (int k = 0; k < N * N; k += 5) fz_check("fwdsolve dL", dL[k], fz_fd_ptr(ev_solve, 0, &gL[k]), 1e-6);
  }
  {
    double p[N] = {0.1, 0.2, 0.3, 0.4};
    for (int i = 0; i < N; i++) {
      double e[N] = {0}, g[N] = {0}, h[N] = {0};
      e[i] = 1;
      __enzyme_fwddiff((void *)entropy_grad, enzyme_dup, p, e, enzyme_dup, g, h, enzyme_const, N);
      fz_check("entropy grad", g[i], -log(p[i]) - 1, 1e-10);
      for (int j = 0; j < N; j++) fz_check("entropy hess", h[j], i == j ? -1 / p[i] : 0, 1e-10);
    }
  }
  return fz_finish();
}
