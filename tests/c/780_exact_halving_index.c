// OPT: O0 O1 O2 O3
// Index arithmetic `c * (2k - c - 1) / 2` (GMM's packed-triangle offset) recomputed in
// the reverse sweep: the product of two factors that sum to an odd number is even, so
// the recomputed division is marked `exact` (reverse/cheap.rs, is_exact_halving), also
// where the product is negative (k small: c > 2k - 1) or the factors come from two
// `trunc`s of one counter. Near misses that must keep `sdiv`'s rounding towards zero:
// `c * (2k - c) / 2` (odd and negative odd products: -3 / 2 is -1, not -2) and
// `(c * (2k - c - 1) + 1) / 2`. Oracle: the analytic gradient, with the indices computed
// by the same C expressions in plain loops (dw[idx] += x_c^2 p, dx_c = 2 w[idx] x_c p),
// and central finite differences for x.
#include "fz_test.h"

enum { N = 7, NW = 38, OFF = 22 };

static int idx_exact(int c, int k) { return c * (2 * k - c - 1) / 2 + OFF; }
static int idx_odd(int c, int k) { return c * (2 * k - c) / 2 + OFF; }
static int idx_plus1(int c, int k) { return (c * (2 * k - c - 1) + 1) / 2 + OFF; }

/* f = sum_c w[idx(c)] x_c^2 p_c for the three index forms, p_c = c + 1. */
double f_exact(const double *w, const double *x, int n, int k) {
  double s = 0;
  for (int c = 0; c < n; c++) s += w[c * (2 * k - c - 1) / 2 + OFF] * x[c] * x[c] * (c + 1);
  return s;
}
double f_odd(const double *w, const double *x, int n, int k) {
  double s = 0;
  for (int c = 0; c < n; c++) s += w[c * (2 * k - c) / 2 + OFF] * x[c] * x[c] * (c + 1);
  return s;
}
double f_plus1(const double *w, const double *x, int n, int k) {
  double s = 0;
  for (int c = 0; c < n; c++)
    s += w[(c * (2 * k - c - 1) + 1) / 2 + OFF] * x[c] * x[c] * (c + 1);
  return s;
}

static double Wt[NW], X[N];
static int which, K;
static double eval(void *unused) {
  (void)unused;
  switch (which) {
  case 0: return f_exact(Wt, X, N, K);
  case 1: return f_odd(Wt, X, N, K);
  default: return f_plus1(Wt, X, N, K);
  }
}

int main(void) {
  fz_fill(Wt, NW, -1.0, 1.0);
  fz_fill(X, N, -1.0, 1.0);
  const char *names[] = {"exact", "odd", "plus1"};
  const int ks[] = {5, 1, 0, 2};
  for (int ki = 0; ki < 4; ki++) {
    K = ks[ki];
    for (which = 0; which < 3; which++) {
      double dw[NW], dx[N], ww[NW], wx[N], fx[N];
      fz_zero(dw, NW);
      fz_zero(dx, N);
      fz_zero(ww, NW);
      switch (which) {
      case 0: __enzyme_autodiff((void *)f_exact, Wt, dw, X, dx, N, K); break;
      case 1: __enzyme_autodiff((void *)f_odd, Wt, dw, X, dx, N, K); break;
      default: __enzyme_autodiff((void *)f_plus1, Wt, dw, X, dx, N, K); break;
      }
      for (int c = 0; c < N; c++) {
        int t = which == 0 ? idx_exact(c, K) : which == 1 ? idx_odd(c, K) : idx_plus1(c, K);
        ww[t] += X[c] * X[c] * (c + 1);
        wx[c] = 2 * Wt[t] * X[c] * (c + 1);
      }
      char what[64];
      snprintf(what, sizeof what, "%s k=%d d/dw analytic", names[which], K);
      fz_check_arr(what, dw, ww, NW, 1e-12);
      snprintf(what, sizeof what, "%s k=%d d/dx analytic", names[which], K);
      fz_check_arr(what, dx, wx, N, 1e-12);
      fz_fd_grad(eval, 0, X, N, fx);
      snprintf(what, sizeof what, "%s k=%d d/dx (finite differences)", names[which], K);
      fz_check_arr(what, dx, fx, N, 1e-6);
    }
  }
  return fz_finish();
}
