// OPT: O1 O2 O3
// CFLAGS: -ffast-math
// GMM's packed-triangle product compiled WITH -ffast-math (users' flags, issue 14,
// gmm20): z = x + strict_lower(L) x on a malloc'd scratch, L packed column by column as
// bench/src/gmm.c's Qtimesx, objective |z|^2. The reverse column loop (`dL[t] += dz[r]
// x[c]`, `dx[c] += L[t] dz[r]`: read-modify-write adds into L's shadow, a sum for
// x[c], loads of the primal L and of the scratch's shadow) counts down over a range
// known only at run time, `t` and `r` stepping together; its iterations commute, so
// streams/upward.rs runs it upwards (`run_upward_open`, by the AD contract: shadows
// disjoint from primal memory, the scratch's shadow a fresh allocation). `qnorm_out`
// writes z into a caller's buffer instead: its shadow is a parameter, which another
// shadow may alias, so that loop keeps falling; checked all the same. Sizes 1-19 give
// columns of 0-18 entries (the vector loop, its remainder, the scalar-only columns).
// Oracles: the analytic gradient (dL(r,c) = 2 z_r x_c, dx = 2 (I + L)^T z; 1e-10:
// fast-math regroups sums) and central finite differences (fz_fd_ptr) of every entry.
#include <stdlib.h>

#include "fz_test.h"

enum { DMAX = 19, NT = DMAX * (DMAX - 1) / 2 };

double qnorm(int d, const double *L, const double *x) {
  double *z = malloc(sizeof(double) * d);
  for (int i = 0; i < d; i++) z[i] = x[i];
  int t = 0;
  for (int c = 0; c < d; c++)
    for (int r = c + 1; r < d; r++) {
      z[r] += L[t] * x[c];
      t++;
    }
  double s = 0.0;
  for (int i = 0; i < d; i++) s += z[i] * z[i];
  free(z);
  return s;
}

double qnorm_out(int d, const double *L, const double *x, double *z) {
  for (int i = 0; i < d; i++) z[i] = x[i];
  int t = 0;
  for (int c = 0; c < d; c++)
    for (int r = c + 1; r < d; r++) {
      z[r] += L[t] * x[c];
      t++;
    }
  double s = 0.0;
  for (int i = 0; i < d; i++) s += z[i] * z[i];
  return s;
}

static int Dn, which;
static double Lv[NT], Xv[DMAX], Zv[DMAX];

static double eval(void *ctx) {
  (void)ctx;
  return which == 0 ? qnorm(Dn, Lv, Xv) : qnorm_out(Dn, Lv, Xv, Zv);
}

int main(void) {
  const int ds[] = {1, 2, 3, 5, 10, 19};
  for (int di = 0; di < 6; di++) {
    Dn = ds[di];
    int nt = Dn * (Dn - 1) / 2;
    for (which = 0; which < 2; which++) {
      fz_fill(Lv, NT, -1.0, 1.0);
      fz_fill(Xv, DMAX, -1.0, 1.0);
      double dl[NT], dx[DMAX], z[DMAX], dz[DMAX];
      fz_zero(dl, NT);
      fz_zero(dx, DMAX);
      fz_zero(dz, DMAX);
      if (which == 0)
        __enzyme_autodiff((void *)qnorm, Dn, enzyme_dup, Lv, dl, enzyme_dup, Xv, dx);
      else
        __enzyme_autodiff((void *)qnorm_out, Dn, enzyme_dup, Lv, dl, enzyme_dup, Xv, dx,
                          enzyme_dup, Zv, dz);
      // Analytic: z = x + strict_lower(L) x.
      for (int i = 0; i < Dn; i++) z[i] = Xv[i];
      int t = 0;
      for (int c = 0; c < Dn; c++)
        for (int r = c + 1; r < Dn; r++) z[r] += Lv[t++] * Xv[c];
      double wl[NT], wx[DMAX];
      for (int i = 0; i < Dn; i++) wx[i] = 2.0 * z[i];
      t = 0;
      for (int c = 0; c < Dn; c++)
        for (int r = c + 1; r < Dn; r++) {
          wl[t] = 2.0 * z[r] * Xv[c];
          wx[c] += 2.0 * z[r] * Lv[t];
          t++;
        }
      char what[64];
      snprintf(what, sizeof what, "%s d=%d dL", which ? "out" : "scratch", Dn);
      fz_check_arr(what, dl, wl, nt, 1e-10);
      snprintf(what, sizeof what, "%s d=%d dx", which ? "out" : "scratch", Dn);
      fz_check_arr(what, dx, wx, Dn, 1e-10);
      for (int k = 0; k < nt; k++) {
        snprintf(what, sizeof what, "%s d=%d fd dL[%d]", which ? "out" : "scratch", Dn, k);
        fz_check(what, dl[k], fz_fd_ptr(eval, 0, &Lv[k]), 1e-6);
      }
      for (int k = 0; k < Dn; k++) {
        snprintf(what, sizeof what, "%s d=%d fd dx[%d]", which ? "out" : "scratch", Dn, k);
        fz_check(what, dx[k], fz_fd_ptr(eval, 0, &Xv[k]), 1e-6);
      }
    }
  }
  return fz_finish();
}
