// OPT: O0 O2
// `enzyme_dupnoneed` on an output buffer the function reads back after writing it
// (prefix sums, then a pass reading them, then an overwrite): the primal values are
// still needed inside, so the derivative must keep the stores it reads back, in reverse
// (with and without a seed on the buffer), forward, split and vector forward modes
// (`enzyme_dupnoneedv` beside `enzyme_dupv`). Oracles: central differences, the
// analytic derivative of the seeded prefix sum, forward = reverse = split, the two
// lanes = the gradient's dot products.
#include "fz_test.h"
#include "fz_modes.h"
extern int enzyme_dupnoneedv;
double f(double *out, const double *x, int n, double c) {
  out[0] = x[0] * c;
  for (int i = 1; i < n; i++) out[i] = out[i - 1] + sin(x[i]) * c;
  double s = 0;
  for (int i = 0; i < n; i++) s += out[i] * out[n - 1 - i];
  out[n - 1] = s;
  return s + out[0];
}
static double X[6], C = 0.9;
static double ev(void *u) { (void)u; double o[6]; return f(o, X, 6, C); }
int main(void) {
  for (int i = 0; i < 6; i++) X[i] = 0.2 * i - 0.5;
  double out[6], dout[6] = {0}, gx[6] = {0};
  for (int i = 0; i < 6; i++) out[i] = -99.0;
  double gc = __enzyme_autodiff((void *)f, enzyme_dupnoneed, out, dout, enzyme_dup, X, gx, enzyme_const, 6, C);
  fz_check("d/dc", gc, fz_fd_ptr(ev, 0, &C), 1e-7);
  for (int i = 0; i < 6; i++) fz_check("d/dx", gx[i], fz_fd_ptr(ev, 0, &X[i]), 1e-7);
  // with a seed on the output buffer: d/dx of (return + 2*out[2]) (out[2] is a prefix sum)
  double dout2[6] = {0}, gx2[6] = {0};
  dout2[2] = 2;
  __enzyme_autodiff((void *)f, enzyme_dupnoneed, out, dout2, enzyme_dup, X, gx2, enzyme_const, 6, C);
  for (int i = 0; i < 6; i++) {
    double want = gx[i] + (i <= 2 ? 2 * (i == 0 ? C : cos(X[i]) * C) : 0);
    fz_check("seeded d/dx", gx2[i], want, 1e-10);
  }
  for (int j = 0; j < 6; j++) {
    double o[6], to[6] = {0}, tx[6] = {0};
    tx[j] = 1;
    double t = __enzyme_fwddiff((void *)f, enzyme_dupnoneed, o, to, enzyme_dup, X, tx, enzyme_const, 6, C, 0.0);
    fz_check("fwd = rev", t, gx[j], 1e-12);
    fz_check("fwd tangent of out[2]", to[2], j <= 2 ? (j == 0 ? C : cos(X[j]) * C) : 0, 1e-12);
  }
  // split mode
  double o3[6], do3[6] = {0}, gx3[6] = {0};
  fz_aug a = __enzyme_augmentfwd_ret((void *)f, enzyme_dupnoneed, o3, do3, enzyme_dup, X, gx3, enzyme_const, 6, C);
  double gc3 = __enzyme_reverse((void *)f, enzyme_dupnoneed, o3, do3, enzyme_dup, X, gx3, enzyme_const, 6, C, 1.0, a.tape);
  fz_check("split primal", a.ret, ev(0), 1e-14);
  fz_check("split d/dc", gc3, gc, 1e-12);
  for (int i = 0; i < 6; i++) fz_check("split d/dx", gx3[i], gx[i], 1e-12);
  // width 2
  double o4[6], to4[2][6] = {{0}}, tx4[2][6] = {{0}};
  for (int i = 0; i < 6; i++) { tx4[0][i] = 1; tx4[1][i] = i; }
  fz_v2 r = __enzyme_fwddiff_v2((void *)f, enzyme_width, 2, enzyme_dupnoneedv, (int)sizeof to4[0], o4, to4[0], enzyme_dupv, (int)sizeof tx4[0], X, tx4[0], enzyme_const, 6, C, 0.0, 1.0);
  double w0 = 0, w1 = gc;
  for (int i = 0; i < 6; i++) { w0 += gx[i]; w1 += i * gx[i]; }
  fz_check("width 2 lane 0", r.d[0], w0, 1e-12);
  fz_check("width 2 lane 1", r.d[1], w1, 1e-12);
  return fz_finish();
}
