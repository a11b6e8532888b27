// OPT: O0 O1 O2 O3
// GMM's fused row gather (bench/src/gmm_fused.c's shape): z_r = q_r y_r + sum_{c<r}
// l[c (2k - c - 1) / 2 + r - c - 1 + OFF] y_c with y = x - mu, objective sum_r z_r^2.
// The packed index's halving is exact (the factors sum to the odd 2k - 1) and is marked
// so in the forward sweep's copy as well as the reverse sweep's (perf31): every value the
// forward sweep loads must still be the primal's, also for negative products (k smaller
// than the rows: c > 2k - 1) and k = 0. A near miss, c (2k - c) / 2 + ..., keeps `sdiv`'s
// rounding (odd negative products). Oracles: the analytic gradient (dl[t] += 2 z_r y_c,
// dy_c += 2 z_r l[t], dq_r = 2 z_r y_r, dmu = -dy) with the indices by the same C
// expressions in plain loops, and central finite differences for x, mu, q and l.
#include "fz_test.h"

enum { D = 9, NL = 90, OFF = 50 };

static int idx_exact(int r, int c, int k) { return c * (2 * k - c - 1) / 2 + r - c - 1 + OFF; }
static int idx_odd(int r, int c, int k) { return c * (2 * k - c) / 2 + r - c - 1 + OFF; }

double rows_exact(const double *q, const double *l, const double *x, const double *mu,
                  int d, int k) {
  double y[D], sq = 0.0;
  for (int j = 0; j < d; j++) y[j] = x[j] - mu[j];
  for (int r = 0; r < d; r++) {
    double z = q[r] * y[r];
    for (int c = 0; c < r; c++) z += l[c * (2 * k - c - 1) / 2 + r - c - 1 + OFF] * y[c];
    sq += z * z;
  }
  return sq;
}

double rows_odd(const double *q, const double *l, const double *x, const double *mu, int d,
                int k) {
  double y[D], sq = 0.0;
  for (int j = 0; j < d; j++) y[j] = x[j] - mu[j];
  for (int r = 0; r < d; r++) {
    double z = q[r] * y[r];
    for (int c = 0; c < r; c++) z += l[c * (2 * k - c) / 2 + r - c - 1 + OFF] * y[c];
    sq += z * z;
  }
  return sq;
}

static double Q[D], L[NL], X[D], MU[D];
static int which, K;
static double eval(void *unused) {
  (void)unused;
  return which == 0 ? rows_exact(Q, L, X, MU, D, K) : rows_odd(Q, L, X, MU, D, K);
}

int main(void) {
  fz_fill(Q, D, 0.5, 1.5);
  fz_fill(L, NL, -1.0, 1.0);
  fz_fill(X, D, -1.0, 1.0);
  fz_fill(MU, D, -1.0, 1.0);
  const char *names[] = {"exact", "odd"};
  const int ks[] = {9, 5, 2, 1, 0};
  for (int ki = 0; ki < 5; ki++) {
    K = ks[ki];
    for (which = 0; which < 2; which++) {
      double dq[D], dl[NL], dx[D], dmu[D];
      double wq[D], wl[NL], wx[D], z[D], y[D];
      double fq[D], fl[NL], fx[D], fmu[D];
      fz_zero(dq, D);
      fz_zero(dl, NL);
      fz_zero(dx, D);
      fz_zero(dmu, D);
      if (which == 0)
        __enzyme_autodiff((void *)rows_exact, Q, dq, L, dl, X, dx, MU, dmu, D, K);
      else
        __enzyme_autodiff((void *)rows_odd, Q, dq, L, dl, X, dx, MU, dmu, D, K);
      fz_zero(wl, NL);
      fz_zero(wx, D);
      for (int j = 0; j < D; j++) y[j] = X[j] - MU[j];
      for (int r = 0; r < D; r++) {
        z[r] = Q[r] * y[r];
        for (int c = 0; c < r; c++)
          z[r] += L[which == 0 ? idx_exact(r, c, K) : idx_odd(r, c, K)] * y[c];
      }
      for (int r = 0; r < D; r++) {
        wq[r] = 2 * z[r] * y[r];
        wx[r] += 2 * z[r] * Q[r];
        for (int c = 0; c < r; c++) {
          int t = which == 0 ? idx_exact(r, c, K) : idx_odd(r, c, K);
          wl[t] += 2 * z[r] * y[c];
          wx[c] += 2 * z[r] * L[t];
        }
      }
      double wmu[D];
      for (int j = 0; j < D; j++) wmu[j] = -wx[j];
      char what[64];
      snprintf(what, sizeof what, "%s k=%d d/dq analytic", names[which], K);
      fz_check_arr(what, dq, wq, D, 1e-12);
      snprintf(what, sizeof what, "%s k=%d d/dl analytic", names[which], K);
      fz_check_arr(what, dl, wl, NL, 1e-12);
      snprintf(what, sizeof what, "%s k=%d d/dx analytic", names[which], K);
      fz_check_arr(what, dx, wx, D, 1e-12);
      snprintf(what, sizeof what, "%s k=%d d/dmu analytic", names[which], K);
      fz_check_arr(what, dmu, wmu, D, 1e-12);
      fz_fd_grad(eval, 0, X, D, fx);
      fz_fd_grad(eval, 0, MU, D, fmu);
      fz_fd_grad(eval, 0, Q, D, fq);
      fz_fd_grad(eval, 0, L, NL, fl);
      snprintf(what, sizeof what, "%s k=%d d/dx (finite differences)", names[which], K);
      fz_check_arr(what, dx, fx, D, 1e-6);
      snprintf(what, sizeof what, "%s k=%d d/dmu (finite differences)", names[which], K);
      fz_check_arr(what, dmu, fmu, D, 1e-6);
      snprintf(what, sizeof what, "%s k=%d d/dq (finite differences)", names[which], K);
      fz_check_arr(what, dq, fq, D, 1e-6);
      snprintf(what, sizeof what, "%s k=%d d/dl (finite differences)", names[which], K);
      fz_check_arr(what, dl, fl, NL, 1e-6);
    }
  }
  return fz_finish();
}
