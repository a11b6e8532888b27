// OPT: O0 O2
// enz37: file-scope doubles without any shadow given by the user, written from active
// values by noinline callees and read back by the caller right after the call (the
// global's derivative must flow through it), a static accumulator summed in a loop by a
// callee, and the pointer arguments passed without an enzyme_dup marker (Enzyme's
// default: a pointer argument is duplicated). Oracles: analytic, forward = reverse.
#include "fz_test.h"

extern void __enzyme_autodiff_v(void *, ...) __asm__("__enzyme_autodiff");
extern double __enzyme_fwddiff(void *, ...);

static double g_sq = 1.0;
static double g_acc;
double g_scale = 2.0; /* written and read, external linkage */

__attribute__((noinline)) static void put_square(const double *x) { g_sq = x[0] * x[0]; }
__attribute__((noinline)) static void accumulate(double v) { g_acc += sin(v); }
__attribute__((noinline)) void set_scale(double s) { g_scale = s * s + 1; }

double h(const double *x) {
  put_square(x);
  return g_sq;
}

double k(const double *x, int n) {
  g_acc = 0;
  for (int i = 0; i < n; i++) accumulate(x[i] * g_sq);
  set_scale(x[1]);
  return g_acc * g_scale;
}

int main(void) {
  double x[4] = {3.0, 0.4, -0.7, 1.1}, dx[4] = {0};
  __enzyme_autodiff_v((void *)h, x, dx);
  fz_check("d(x0^2) through a global written by a callee", dx[0], 6.0, 1e-12);
  double t = __enzyme_fwddiff((void *)h, x, (double[4]){0.5, 0, 0, 0});
  fz_check("forward through the same global", t, 3.0, 1e-12);

  // k: g_sq holds 9 from h; S = sum sin(9 x_i); result S (x1^2 + 1).
  enum { N = 4 };
  double S = 0, C[N];
  for (int i = 0; i < N; i++) S += sin(9 * x[i]), C[i] = 9 * cos(9 * x[i]);
  double sc = x[1] * x[1] + 1, want[N];
  for (int i = 0; i < N; i++) want[i] = C[i] * sc + (i == 1 ? S * 2 * x[1] : 0);
  fz_zero(dx, N);
  __enzyme_autodiff_v((void *)k, x, dx, N);
  fz_check_arr("static accumulator and scale written in callees", dx, want, N, 1e-12);
  fz_check("g_scale after the gradient", g_scale, sc, 1e-15);
  double v[N] = {0.3, -0.2, 0.9, 0.1}, jv = 0;
  for (int i = 0; i < N; i++) jv += want[i] * v[i];
  fz_check("forward <grad, v>", __enzyme_fwddiff((void *)k, x, v, N), jv, 1e-12);
  return fz_finish();
}
