// OPT: O0 O2
// __enzyme_fwddiff of functions that return an `int` (a status, a count) and write their
// float results through pointers, as solver-style C does: `int clip_scale(const double *x,
// double *y, int n, double s)` returns how many entries it clipped. An integer result has
// no tangent; Enzyme's hook value is then undefined, so the program (1) discards the
// hook's value and reads the tangents from the enzyme_dup shadows, (2) asks for the result
// itself with enzyme_primal_return (the hook then returns the int), in scalar and vector
// (enzyme_width 2) forward mode, and (3) checks forward against reverse by the
// dot-product identity <J v, w> = <v, J^T w>. Using the plain hook's value is a clear
// error (tests/errors/fwddiff_int_result_used.c).
// Oracle: analytic derivatives (y_i = s*tanh(x_i) or the clip value), the primal
// count computed directly, and the identity.
#include "fz_test.h"

extern int enzyme_primal_return, enzyme_width;
extern int __enzyme_fwddiff_i(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
typedef struct { double d[2]; } v2;
extern int __enzyme_fwddiff_iw(void *, ...);

enum { N = 6 };

// y_i = s * tanh(x_i), clipped at +-0.5 (the clipped entries are counted).
int clip_scale(const double *x, double *y, int n, double s) {
  int clipped = 0;
  for (int i = 0; i < n; i++) {
    double v = s * tanh(x[i]);
    if (v > 0.5) { v = 0.5; clipped++; }
    else if (v < -0.5) { v = -0.5; clipped++; }
    y[i] = v;
  }
  return clipped;
}

// A status: 0 on success, -1 when the input has no energy; the result through *out.
int norm_status(const double *x, double *out, int n) {
  double acc = 0;
  for (int i = 0; i < n; i++) acc += x[i] * x[i];
  if (!(acc > 0)) return -1;
  *out = sqrt(acc);
  return 0;
}

static double sech2(double x) { double c = cosh(x); return 1.0 / (c * c); }

int main(void) {
  fz_seed(1280);
  double x[N] = {0.1, -0.9, 0.4, 1.7, -0.05, -2.2}, y[N], ty[N], tx[N];
  const double s = 0.8;
  fz_fill(tx, N, -1, 1);
  int want_clip = 0;
  double yw[N];
  for (int i = 0; i < N; i++) {
    double v = s * tanh(x[i]);
    yw[i] = v > 0.5 ? 0.5 : v < -0.5 ? -0.5 : v;
    want_clip += fabs(v) > 0.5;
  }
  // (1) the hook's value discarded: tangents through the shadow of y.
  fz_zero(ty, N);
  (void)__enzyme_fwddiff((void *)clip_scale, enzyme_dup, x, tx, enzyme_dup, y, ty,
                         enzyme_const, N, enzyme_const, s);
  char nm[48];
  for (int i = 0; i < N; i++) {
    double v = s * tanh(x[i]);
    double want = fabs(v) > 0.5 ? 0.0 : s * sech2(x[i]) * tx[i];
    snprintf(nm, sizeof nm, "discarded: dy[%d]", i);
    fz_check(nm, ty[i], want, 1e-12);
    snprintf(nm, sizeof nm, "discarded: y[%d]", i);
    fz_check(nm, y[i], yw[i], 1e-15);
  }
  // (2) enzyme_primal_return: the int result itself.
  fz_zero(ty, N);
  int got = __enzyme_fwddiff_i((void *)clip_scale, enzyme_primal_return, enzyme_dup, x, tx,
                               enzyme_dup, y, ty, enzyme_const, N, enzyme_const, s);
  fz_check("primal_return: clipped count", got, want_clip, 0);
  for (int i = 0; i < N; i++) {
    double v = s * tanh(x[i]);
    double want = fabs(v) > 0.5 ? 0.0 : s * sech2(x[i]) * tx[i];
    snprintf(nm, sizeof nm, "primal_return: dy[%d]", i);
    fz_check(nm, ty[i], want, 1e-12);
  }
  double out = 0, tout = 0;
  int st = __enzyme_fwddiff_i((void *)norm_status, enzyme_primal_return, enzyme_dup, x, tx,
                              enzyme_dup, &out, &tout, enzyme_const, N);
  double nrm = 0, dn = 0;
  for (int i = 0; i < N; i++) nrm += x[i] * x[i];
  nrm = sqrt(nrm);
  for (int i = 0; i < N; i++) dn += x[i] * tx[i] / nrm;
  fz_check("norm_status: status", st, 0, 0);
  fz_check("norm_status: out", out, nrm, 1e-14);
  fz_check("norm_status: d out", tout, dn, 1e-12);
  double zero[N] = {0}, tz[N] = {0};
  out = 7.0;
  st = __enzyme_fwddiff_i((void *)norm_status, enzyme_primal_return, enzyme_dup, zero, tz,
                          enzyme_dup, &out, &tout, enzyme_const, N);
  fz_check("norm_status(0): status -1", st, -1, 0);
  fz_check("norm_status(0): out untouched", out, 7.0, 0);
  // (2b) vector mode, two tangent lanes, the int once.
  double tx2[N], ty0[N] = {0}, ty1[N] = {0};
  fz_fill(tx2, N, -1, 1);
  got = __enzyme_fwddiff_iw((void *)clip_scale, enzyme_width, 2, enzyme_primal_return,
                            enzyme_dup, x, tx, tx2, enzyme_dup, y, ty0, ty1, enzyme_const, N,
                            enzyme_const, s);
  fz_check("width 2: clipped count", got, want_clip, 0);
  for (int i = 0; i < N; i++) {
    double v = s * tanh(x[i]);
    double d = fabs(v) > 0.5 ? 0.0 : s * sech2(x[i]);
    snprintf(nm, sizeof nm, "width 2: lane 0 dy[%d]", i);
    fz_check(nm, ty0[i], d * tx[i], 1e-12);
    snprintf(nm, sizeof nm, "width 2: lane 1 dy[%d]", i);
    fz_check(nm, ty1[i], d * tx2[i], 1e-12);
  }
  // (3) reverse mode of the same function: <J v, w> = <v, J^T w>.
  double w[N], dx[N] = {0}, dy[N];
  fz_fill(w, N, -1, 1);
  memcpy(dy, w, sizeof dy);
  __enzyme_autodiff((void *)clip_scale, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, N,
                    enzyme_const, s);
  fz_zero(ty, N);
  (void)__enzyme_fwddiff((void *)clip_scale, enzyme_dup, x, tx, enzyme_dup, y, ty,
                         enzyme_const, N, enzyme_const, s);
  double jv_w = 0, v_jtw = 0;
  for (int i = 0; i < N; i++) {
    jv_w += ty[i] * w[i];
    v_jtw += tx[i] * dx[i];
  }
  fz_check("<J v, w> = <v, J^T w>", jv_w, v_jtw, 1e-12);
  return fz_finish();
}
