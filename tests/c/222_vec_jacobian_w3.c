// OPT: O0 O2 O3
// Full Jacobian of F: R^3 -> R^4 (a void function writing y[4]) in ONE
// vector forward call, enzyme_width 3, `enzyme_dup, x, e1, e2, e3` and
// `enzyme_dup, y, dy1, dy2, dy3`: column j of J lands in dy_j. Checked
// against the analytic Jacobian, per-column FD and scalar forward calls.
#include "fz_test.h"
#include "fz_modes.h"

void F(const double *x, double *y) {
  y[0] = x[0] * x[1] * x[2];
  y[1] = sin(x[0]) + x[1] * x[1];
  y[2] = exp(x[2] - x[0]);
  y[3] = x[0] / (1.0 + x[1] * x[1]) + sqrt(1.0 + x[2] * x[2]);
}

static void jac(const double *x, double J[4][3]) {
  double q = 1.0 + x[1] * x[1], e = exp(x[2] - x[0]), r = sqrt(1.0 + x[2] * x[2]);
  double Jv[4][3] = {{x[1] * x[2], x[0] * x[2], x[0] * x[1]},
                     {cos(x[0]), 2.0 * x[1], 0.0},
                     {-e, 0.0, e},
                     {1.0 / q, -2.0 * x[0] * x[1] / (q * q), x[2] / r}};
  memcpy(J, Jv, sizeof Jv);
}

static double X[3];
static void e_F(void *c, double *out) { (void)c; F(X, out); }

int main(void) {
  fz_seed(222);
  for (int t = 0; t < 4; t++) {
    fz_fill(X, 3, -1, 1);
    double e[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, y[4], dy[3][4], J[4][3];
    for (int j = 0; j < 3; j++)
      for (int i = 0; i < 4; i++) dy[j][i] = 55.0;
    __enzyme_fwddiff_void((void *)F, enzyme_width, 3, enzyme_dup, X, e[0], e[1], e[2], enzyme_dup, y,
                          dy[0], dy[1], dy[2]);
    jac(X, J);
    for (int j = 0; j < 3; j++) {
      double col[4], fd[4], sc[4], ys[4];
      for (int i = 0; i < 4; i++) col[i] = J[i][j];
      fz_fd_jvp(e_F, NULL, X, e[j], 3, 4, fd);
      char what[64];
      snprintf(what, sizeof what, "J column %d", j);
      fz_mcheck2_arr(what, dy[j], col, 1e-12, fd, 1e-6, 4);
      __enzyme_fwddiff_void((void *)F, enzyme_dup, X, e[j], enzyme_dup, ys, sc);
      fz_mcheck_arr("column vs scalar mode", dy[j], sc, 4, 1e-14);
    }
    double yref[4];
    F(X, yref);
    fz_mcheck_arr("primal y", y, yref, 4, 0.0);
    /* reverse rows as a second oracle of the analytic Jacobian */
    for (int i = 0; i < 4; i++) {
      double seed[4] = {0, 0, 0, 0}, row[3] = {0, 0, 0};
      seed[i] = 1.0;
      __enzyme_autodiff((void *)F, enzyme_dup, X, row, enzyme_dup, y, seed);
      fz_check_arr("rev J row", row, J[i], 3, 1e-12);
    }
  }
  return fz_finish();
}
