// OPT: O0 O2
// Scratch memory of every storage class in one function: VLAs sized by the loop counter
// (a stack save/restore per iteration), a static local array, a `_Thread_local` array, a
// global accumulator reset inside the function (its value after a derivative call is the
// primal's), `__builtin_expect`, `__builtin_assume_aligned` and `restrict` helpers.
// Oracles: central differences, two gradient calls agree, forward = reverse, and vector
// forward mode (`enzyme_width, 3` with `enzyme_dupv` and three tangents of a scalar)
// against the gradient's dot products.
#include "fz_test.h"
#include "fz_modes.h"
// _Thread_local scratch, __builtin_expect/__builtin_assume_aligned, restrict
double g_acc; static int g_calls;
static _Thread_local double tl_buf[16];
static void smooth(int m, const double *restrict in, double *restrict out) {
  const double *a = __builtin_assume_aligned(in, 8);
  for (int i = 0; i < m; i++) out[i] = 0.25 * a[i > 0 ? i - 1 : i] + 0.5 * a[i] + 0.25 * a[i + 1 < m ? i + 1 : i];
}
double f(const double *x, int n, double p) {
  static double scratch[16];
  g_acc = 0; g_calls++;
  for (int m = 2; m <= n; m++) {
    double vla[m], out[m];
    for (int i = 0; i < m; i++) vla[i] = x[i] * (__builtin_expect(i == 0, 0) ? p : 1.0);
    smooth(m, vla, out);
    for (int i = 0; i < m; i++) { scratch[i] = out[i] * out[i]; tl_buf[i] = sin(out[i]); }
    for (int i = 0; i < m; i++) g_acc += scratch[i] * tl_buf[i] / m;
  }
  return g_acc * p;
}
static double X[8], P = 0.8;
static double eval(void *u) { (void)u; return f(X, 8, P); }
int main(void) {
  for (int i = 0; i < 8; i++) X[i] = 0.3 * sin(1.0 + i);
  double gx[8] = {0};
  double y = f(X, 8, P);
  g_acc = -1;
  double gp = __enzyme_autodiff((void *)f, enzyme_dup, X, gx, enzyme_const, 8, P);
  fz_check("g_acc after the gradient is the primal's", g_acc * P, y, 1e-14);
  double gx2[8] = {0};
  double gp2 = __enzyme_autodiff((void *)f, enzyme_dup, X, gx2, enzyme_const, 8, P);
  fz_check("d/dp", gp, fz_fd_ptr(eval, 0, &P), 1e-7);
  fz_check("second call same", gp2, gp, 0);
  for (int i = 0; i < 8; i++) fz_check("d/dx", gx[i], fz_fd_ptr(eval, 0, &X[i]), 1e-7);
  for (int j = 0; j < 8; j++) {
    double t[8] = {0}; t[j] = 1;
    fz_check("fwd = rev", __enzyme_fwddiff((void *)f, enzyme_dup, X, t, enzyme_const, 8, P, 0.0), gx[j], 1e-12);
  }
  typedef struct { double d[3]; } v3;
  double tv[3][8] = {{0}};
  for (int k = 0; k < 3; k++) for (int i = 0; i < 8; i++) tv[k][i] = cos(i + 2.0 * k);
  fz_v3 r = __enzyme_fwddiff_v3((void *)f, enzyme_width, 3, enzyme_dupv, (int)sizeof tv[0], X, tv[0], enzyme_const, 8, P, 1.0, 0.0, -1.0);
  for (int k = 0; k < 3; k++) { double want = (k == 0 ? 1 : k == 2 ? -1 : 0) * gp; for (int i = 0; i < 8; i++) want += tv[k][i] * gx[i]; fz_check("width 3 dupv", r.d[k], want, 1e-12); }
  return fz_finish();
}
