// OPT: O0 O1 O2 O3
// The packed-triangle index's no-wrap guard checked once for the row loop
// (reverse/stepped_index.rs, gmm33): in the reverse of GMM's row gather
// `z += l[c (2d - c - 1) / 2 + r - c - 1] y[c]` the guard of the stepped index is no longer
// evaluated per row but where the reverse enters the row loop: the row counter's two
// ends and the parts varying with the row in [-1024, 1024), the invariant ones
// (2d - 1) in [-4096, 4096); the row loop then runs the stepped index or, when the check
// fails, the index recomputed as before. Forms: rows 0..nr-1 counting up and nr-1..0
// counting down, with row ranges inside the hoisted window (r <= 1023), crossing it
// (r up to 1024, 1030: the per-row guard would pass, the hoisted one does not) and
// d on both sides of the per-run window (2d - 1 = 4095 in, 4097 out); a second index
// whose affine part has the row coefficient 2 (`2r - c`). -Rpass=enzyme at -O2 says
// "the guard checked once for the enclosing loop" for f_up and "per run of the loop" for
// f_down's two indices (its column loop's bound is the row loop's second counter, not an
// affine expression of the first: not hoisted, the per-row guard as before). Oracle: the analytic gradient
// with the same C index expressions in plain loops (1e-12), central finite differences
// for three coordinates of y.
#include "fz_test.h"
#include <string.h>

enum { NY = 1040, NL = 1500000 };

/* rows 0..nr-1 of GMM's row-wise gather, packing stride d */
double f_up(const double *l, const double *y, int d, int nr) {
  double s = 0;
  for (int r = 0; r < nr; r++) {
    double z = y[r];
    for (int c = 0; c < r; c++) z += l[c * (2 * d - c - 1) / 2 + r - c - 1] * y[c];
    s += z * z;
  }
  return s;
}

/* the same rows from the last one down, with a second index (row coefficient 2) */
double f_down(const double *l, const double *y, int d, int nr) {
  double s = 0;
  for (int r = nr - 1; r >= 0; r--) {
    double z = y[r];
    for (int c = 0; c < r; c++) {
      int h = c * (2 * d - c - 1) / 2;
      z += l[h + r - c - 1] * y[c] + 0.5 * l[h + 2 * r - c] * y[r];
    }
    s += z * z;
  }
  return s;
}

static long idx(int c, int d, int r) { return c * (2 * d - c - 1) / 2 + r - c - 1; }
static long idx2(int c, int d, int r) { return c * (2 * d - c - 1) / 2 + 2 * r - c; }

static double L[NL], Y[NY], dl[NL], wl[NL];
static char used[NL];
static int which, Dd, Nr;
enum { R0 = 0 };
static double eval(void *unused) {
  (void)unused;
  return which == 0 ? f_up(L, Y, Dd, Nr) : f_down(L, Y, Dd, Nr);
}

int main(void) {
  fz_fill(L, NL, -1.0, 1.0);
  fz_fill(Y, NY, -1.0, 1.0);
  /* d, row count */
  const int cases[][2] = {{12, 12}, {40, 17}, {1100, 1024}, {1100, 1025}, {1100, 1031},
                          {2048, 9}, {2049, 9}, {3000, 9},   {1100, 0}};
  const int ncases = sizeof cases / sizeof cases[0];
  for (int k = 0; k < ncases; k++) {
    Dd = cases[k][0];
    Nr = cases[k][1];
    for (which = 0; which < 2; which++) {
      static double dy[NY], wy[NY];
      fz_zero(dl, NL);
      fz_zero(wl, NL);
      fz_zero(dy, NY);
      fz_zero(wy, NY);
      memset(used, 0, sizeof used);
      if (which == 0)
        __enzyme_autodiff((void *)f_up, L, dl, Y, dy, Dd, Nr);
      else
        __enzyme_autodiff((void *)f_down, L, dl, Y, dy, Dd, Nr);
      for (int r = R0; r < Nr; r++) {
        double z = Y[r];
        for (int c = 0; c < r; c++)
          z += L[idx(c, Dd, r)] * Y[c] + (which ? 0.5 * L[idx2(c, Dd, r)] * Y[r] : 0.0);
        double g = 2 * z;
        wy[r] += g;
        for (int c = 0; c < r; c++) {
          wl[idx(c, Dd, r)] += g * Y[c];
          wy[c] += g * L[idx(c, Dd, r)];
          used[idx(c, Dd, r)] = 1;
          if (which) {
            wl[idx2(c, Dd, r)] += 0.5 * g * Y[r];
            wy[r] += 0.5 * g * L[idx2(c, Dd, r)];
            used[idx2(c, Dd, r)] = 1;
          }
        }
      }
      const char *name = which ? "down" : "up";
      char what[96];
      double rest = 0; /* nothing written elsewhere */
      int bad = 0;
      for (long i = 0; i < NL; i++) {
        if (!used[i]) {
          rest += fabs(dl[i]);
          continue;
        }
        if (!fz_close(dl[i], wl[i], 1e-12) && bad++ < 3) {
          snprintf(what, sizeof what, "%s d=%d rows %d..%d d/dl[%ld] analytic", name, Dd, R0,
                   Nr - 1, i);
          fz_check(what, dl[i], wl[i], 1e-12);
        }
      }
      snprintf(what, sizeof what, "%s d=%d rows %d..%d d/dl analytic (mismatches)", name, Dd,
               R0, Nr - 1);
      fz_check(what, bad, 0, 0.0);
      snprintf(what, sizeof what, "%s d=%d rows %d..%d d/dl elsewhere", name, Dd, R0, Nr - 1);
      fz_check(what, rest, 0.0, 0.0);
      snprintf(what, sizeof what, "%s d=%d rows %d..%d d/dy analytic", name, Dd, R0, Nr - 1);
      fz_check_arr(what, dy, wy, NY, 1e-12);
      const int probe[3] = {0, Nr / 2, Nr > 0 ? Nr - 1 : 0};
      for (int p = 0; p < 3; p++) {
        snprintf(what, sizeof what, "%s d=%d rows %d..%d d/dy[%d] (finite differences)", name,
                 Dd, R0, Nr - 1, probe[p]);
        fz_check(what, dy[probe[p]], fz_fd_ptr(eval, 0, &Y[probe[p]]), 1e-6);
      }
    }
  }
  return fz_finish();
}
