// OPT: O0 O1 O2 O3
// Vector REVERSE mode, enzyme_width 2: F: R^5 -> R^2 writes y[2]; lane i's
// output shadow is seeded with e_i, so lane i's input shadow accumulates
// row i of the Jacobian, both rows in one call. Checked against the
// analytic Jacobian, FD, and two scalar reverse calls; lanes accumulate
// (+=) into non-zero shadows like scalar reverse mode.
#include "fz_test.h"
#include "fz_modes.h"

#define NI 5

void F(const double *x, double *y, int n) {
  double s = 0.0, t = 0.0;
  for (int i = 0; i < n; i++) {
    s += x[i] * x[i] * (i + 1);
    t += cos(x[i]) * x[(i + 1) % n];
  }
  y[0] = sqrt(1.0 + s);
  y[1] = t;
}

static double X[NI];
static int ROW;
static double e_row(void *c) { (void)c; double y[2]; F(X, y, NI); return y[ROW]; }

int main(void) {
  fz_seed(225);
  for (int t = 0; t < 3; t++) {
    fz_fill(X, NI, -1, 1);
    double J[2][NI], s = 0.0;
    for (int i = 0; i < NI; i++) s += X[i] * X[i] * (i + 1);
    for (int j = 0; j < NI; j++) {
      int jm = (j + NI - 1) % NI;
      J[0][j] = (j + 1) * X[j] / sqrt(1.0 + s);
      J[1][j] = -sin(X[j]) * X[(j + 1) % NI] + cos(X[jm]);
    }
    double y[2], dy0[2] = {1, 0}, dy1[2] = {0, 1}, r0[NI], r1[NI];
    fz_zero(r0, NI);
    fz_zero(r1, NI);
    __enzyme_autodiff_w((void *)F, enzyme_width, 2, enzyme_dup, X, r0, r1, enzyme_dup, y, dy0, dy1,
                      enzyme_const, NI);
    double fd[NI];
    for (ROW = 0; ROW < 2; ROW++) {
      fz_fd_grad(e_row, NULL, X, NI, fd);
      fz_mcheck2_arr(ROW == 0 ? "row 0 (lane 0)" : "row 1 (lane 1)", ROW == 0 ? r0 : r1, J[ROW], 1e-12,
                     fd, 1e-6, NI);
      double sr[NI], seed[2] = {ROW == 0, ROW == 1}, ys[2];
      fz_zero(sr, NI);
      __enzyme_autodiff((void *)F, enzyme_dup, X, sr, enzyme_dup, ys, seed, enzyme_const, NI);
      fz_check_arr("scalar reverse row (analytic)", sr, J[ROW], NI, 1e-12);
      fz_mcheck_arr("lane vs scalar reverse", ROW == 0 ? r0 : r1, sr, NI, 1e-14);
    }
    /* accumulation into non-zero shadows, general seeds */
    double a0[NI], a1[NI], w0[2], w1[2], want0[NI], want1[NI];
    fz_fill(a0, NI, -1, 1);
    fz_fill(a1, NI, -1, 1);
    fz_fill(w0, 2, -1, 1);
    fz_fill(w1, 2, -1, 1);
    for (int j = 0; j < NI; j++) {
      want0[j] = a0[j] + w0[0] * J[0][j] + w0[1] * J[1][j];
      want1[j] = a1[j] + w1[0] * J[0][j] + w1[1] * J[1][j];
    }
    __enzyme_autodiff_w((void *)F, enzyme_width, 2, enzyme_dup, X, a0, a1, enzyme_dup, y, w0, w1,
                      enzyme_const, NI);
    fz_mcheck_arr("lane 0 accumulates w0^T J", a0, want0, NI, 1e-12);
    fz_mcheck_arr("lane 1 accumulates w1^T J", a1, want1, NI, 1e-12);
  }
  return fz_finish();
}
