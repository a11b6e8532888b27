// OPT: O0 O1 O2 O3
// Full Jacobian of G: R^8 -> R^3 in one vector forward call, width 8 with
// `enzyme_dupv`: the 8 input seeds are the rows of an identity matrix
// (stride 8 doubles) and the 8 output shadows are rows of a [8][3] array
// (stride 3 doubles), so dys[j][i] = dG_i/dx_j. Oracles: analytic
// Jacobian, FD, scalar forward calls; also a width-8 scalar-result call
// returning the whole gradient as an fz_v8.
#include "fz_test.h"
#include "fz_modes.h"

#define NI 8

void G(const double *x, double *y, int n) {
  double s = 0.0, p = 1.0, q = 0.0;
  for (int i = 0; i < n; i++) {
    s += x[i] * x[i];
    p *= 1.0 + 0.1 * x[i];
    q += (i + 1) * sin(x[i]);
  }
  y[0] = s;
  y[1] = p;
  y[2] = q * s;
}
double g0(const double *x, int n) { double y[3]; G(x, y, n); return y[2]; }

static double X[NI];
static void e_G(void *c, double *out) { (void)c; G(X, out, NI); }

int main(void) {
  fz_seed(223);
  double I[NI][NI], dys[NI][3], y[3], J[3][NI];
  memset(I, 0, sizeof I);
  for (int j = 0; j < NI; j++) I[j][j] = 1.0;
  for (int t = 0; t < 3; t++) {
    fz_fill(X, NI, -1, 1);
    double s = 0, p = 1, q = 0;
    for (int i = 0; i < NI; i++) s += X[i] * X[i], p *= 1 + 0.1 * X[i], q += (i + 1) * sin(X[i]);
    for (int j = 0; j < NI; j++) {
      J[0][j] = 2 * X[j];
      J[1][j] = p * 0.1 / (1 + 0.1 * X[j]);
      J[2][j] = (j + 1) * cos(X[j]) * s + q * 2 * X[j];
    }
    __enzyme_fwddiff_void((void *)G, enzyme_width, 8, enzyme_dupv, (int)sizeof I[0], X, &I[0][0],
                          enzyme_dupv, (int)sizeof dys[0], y, &dys[0][0], enzyme_const, NI);
    for (int j = 0; j < NI; j++) {
      double col[3] = {J[0][j], J[1][j], J[2][j]}, fd[3], sc[3], ys[3];
      fz_fd_jvp(e_G, NULL, X, I[j], NI, 3, fd);
      fz_mcheck2_arr("J column (lane)", dys[j], col, 1e-12, fd, 1e-6, 3);
      __enzyme_fwddiff_void((void *)G, enzyme_dup, X, I[j], enzyme_dup, ys, sc, enzyme_const, NI);
      fz_mcheck_arr("lane vs scalar mode", dys[j], sc, 3, 1e-14);
    }
    /* scalar result, width 8: the gradient of y[2] */
    fz_v8 gr = __enzyme_fwddiff_v8((void *)g0, enzyme_width, 8, enzyme_dupv, (int)sizeof I[0], X,
                                   &I[0][0], enzyme_const, NI);
    fz_mcheck_arr("gradient of y2 (fz_v8)", gr.d, J[2], NI, 1e-12);
    double rg[NI];
    fz_zero(rg, NI);
    __enzyme_autodiff((void *)g0, enzyme_dup, X, rg, enzyme_const, NI);
    fz_check_arr("rev gradient of y2", rg, J[2], NI, 1e-12);
  }
  return fz_finish();
}
