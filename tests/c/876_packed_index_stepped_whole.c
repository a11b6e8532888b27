// OPT: O0 O1 O2 O3
// GMM's packed-triangle index stepped back whole under a run-time guard
// (reverse/stepped_index.rs): in the reverse of `z += l[c (2d - c - 1) / 2 + r - c - 1] y[c]`
// the index is kept as a 64-bit value stepped by differences where the loop's 32-bit
// arithmetic cannot wrap (the factors' parts independent of `c`, the affine part, and
// the counter's range all in [-4096, 4096)), and recomputed as before otherwise (at -O3
// the two are separate loops after unswitching). Forms: rows 0..nr-1 of a triangle
// packed with stride d, for d on both sides of the window's edge (2d - 1 = 4095 is in,
// 4097 and 5999 are out), nr from 0 to 12, and the full triangle (nr = d) for small d;
// a second index over the same product with another affine part (`+ 2r - c`), read in
// the same loop. Oracle: the analytic gradient with the same C index expressions in
// plain loops (1e-12) and central finite differences for y.
#include "fz_test.h"
#include <string.h>

enum { NY = 12, NL = 40000 };

/* rows 0..nr-1 of GMM's row-wise gather, packing stride d */
double f_rows(const double *l, const double *y, int d, int nr) {
  double s = 0;
  for (int r = 0; r < nr; r++) {
    double z = y[r];
    for (int c = 0; c < r; c++) z += l[c * (2 * d - c - 1) / 2 + r - c - 1] * y[c];
    s += z * z;
  }
  return s;
}

/* two indices over one product */
double f_two(const double *l, const double *y, int d, int nr) {
  double s = 0;
  for (int r = 0; r < nr; r++) {
    double z = 0;
    for (int c = 0; c < r; c++) {
      int h = c * (2 * d - c - 1) / 2;
      z += l[h + r - c - 1] * y[c] + l[h + 2 * r - c] * y[r];
    }
    s += z * z * y[r];
  }
  return s;
}

static int idx(int c, int d, int r) { return c * (2 * d - c - 1) / 2 + r - c - 1; }
static int idx2(int c, int d, int r) { return c * (2 * d - c - 1) / 2 + 2 * r - c; }

static double L[NL], Y[NY];
static int which, Dd, Nr;
static double eval(void *unused) {
  (void)unused;
  return which == 0 ? f_rows(L, Y, Dd, Nr) : f_two(L, Y, Dd, Nr);
}

int main(void) {
  fz_fill(L, NL, -1.0, 1.0);
  fz_fill(Y, NY, -1.0, 1.0);
  const int ds[] = {1, 5, 12, 2000, 2048, 2049, 3000};
  const int nrs[] = {0, 1, 2, 7, 12};
  static double dl[NL], wl[NL];
  for (int di = 0; di < 7; di++) {
    for (int ni = 0; ni < 6; ni++) {
      Dd = ds[di];
      Nr = ni < 5 ? nrs[ni] : Dd; /* the full triangle */
      if (Nr > NY || Nr > Dd) continue;
      for (which = 0; which < 2; which++) {
        double dy[NY], wy[NY], fy[NY];
        fz_zero(dl, NL);
        fz_zero(wl, NL);
        fz_zero(dy, NY);
        fz_zero(wy, NY);
        if (which == 0)
          __enzyme_autodiff((void *)f_rows, L, dl, Y, dy, Dd, Nr);
        else
          __enzyme_autodiff((void *)f_two, L, dl, Y, dy, Dd, Nr);
        for (int r = 0; r < Nr; r++) {
          if (which == 0) {
            double z = Y[r];
            for (int c = 0; c < r; c++) z += L[idx(c, Dd, r)] * Y[c];
            wy[r] += 2 * z;
            for (int c = 0; c < r; c++) {
              wl[idx(c, Dd, r)] += 2 * z * Y[c];
              wy[c] += 2 * z * L[idx(c, Dd, r)];
            }
          } else {
            double z = 0;
            for (int c = 0; c < r; c++) z += L[idx(c, Dd, r)] * Y[c] + L[idx2(c, Dd, r)] * Y[r];
            wy[r] += z * z;
            double g = 2 * z * Y[r];
            for (int c = 0; c < r; c++) {
              wl[idx(c, Dd, r)] += g * Y[c];
              wy[c] += g * L[idx(c, Dd, r)];
              wl[idx2(c, Dd, r)] += g * Y[r];
              wy[r] += g * L[idx2(c, Dd, r)];
            }
          }
        }
        char what[80];
        snprintf(what, sizeof what, "%s d=%d nr=%d d/dl analytic", which ? "two" : "rows", Dd, Nr);
        static char used[NL];
        memset(used, 0, sizeof used);
        for (int r = 0; r < Nr; r++)
          for (int c = 0; c < r; c++) {
            used[idx(c, Dd, r)] = 1;
            if (which) used[idx2(c, Dd, r)] = 1;
          }
        double rest = 0; /* nothing written elsewhere */
        for (int i = 0; i < NL; i++) {
          if (!used[i]) {
            rest += fabs(dl[i]);
            continue;
          }
          char at[96];
          snprintf(at, sizeof at, "%s[%d]", what, i);
          fz_check(at, dl[i], wl[i], 1e-12);
        }
        snprintf(what, sizeof what, "%s d=%d nr=%d d/dl elsewhere", which ? "two" : "rows", Dd, Nr);
        fz_check(what, rest, 0.0, 0.0);
        snprintf(what, sizeof what, "%s d=%d nr=%d d/dy analytic", which ? "two" : "rows", Dd, Nr);
        fz_check_arr(what, dy, wy, NY, 1e-12);
        fz_fd_grad(eval, 0, Y, NY, fy);
        snprintf(what, sizeof what, "%s d=%d nr=%d d/dy (finite differences)", which ? "two" : "rows", Dd, Nr);
        fz_check_arr(what, dy, fy, NY, 1e-6);
      }
    }
  }
  return fz_finish();
}
