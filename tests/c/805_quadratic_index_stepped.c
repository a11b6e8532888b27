// OPT: O0 O1 O2 O3
// Quadratic indices stepped back by differences (reverse/quadratic.rs): a product of
// two integers affine in a loop counter is a quadratic in it, which the reverse sweep
// steps back with two subtractions (P -= D, D -= 2 k1 k2 s^2) from its value at the
// loop's last iteration instead of recomputing it per iteration. Forms: GMM's
// packed-triangle gather per row (`c (2d - c - 1) / 2 + r - c - 1`, the row loop around
// it), a stride-2 loop (`c * c`, s = 2), a loop counting down (s = -1), a product of
// two different coefficients (`(3c + 1)(k - 2c)`, with k small the product changes
// sign), a product of a 64-bit counter truncated to 32 bits, and trip counts 0 and 1.
// Oracle: the analytic gradient with the indices computed by the same C expressions in
// plain loops, and central finite differences for x.
#include "fz_test.h"
#include <stdint.h>

enum { D = 7, NT = D * (D - 1) / 2, NW = 260, OFF = 200 };

/* GMM's row-wise gather over the packed strict lower triangle. */
double f_tri(const double *l, const double *x, int d) {
  double s = 0;
  for (int r = 0; r < d; r++) {
    double z = x[r];
    for (int c = 0; c < r; c++) z += l[c * (2 * d - c - 1) / 2 + r - c - 1] * x[c];
    s += z * z;
  }
  return s;
}
/* stride 2 */
double f_step2(const double *w, const double *x, int n) {
  double s = 0;
  for (int c = 0; c < n; c += 2) s += w[c * c / 4] * x[c] * x[c];
  return s;
}
/* counting down */
double f_down(const double *w, const double *x, int n, int k) {
  double s = 0;
  for (int c = n - 1; c >= 0; c--) s += w[(3 * c + 1) * (k - 2 * c) + OFF] * x[c] * x[c];
  return s;
}
/* 64-bit counter, 32-bit product */
double f_trunc(const double *w, const double *x, int64_t n, int k) {
  double s = 0;
  for (int64_t c = 0; c < n; c++) {
    int ci = (int)c;
    s += w[ci * (k - ci) + OFF] * x[c] * x[c];
  }
  return s;
}

static int idx_step2(int c) { return c * c / 4; }
static int idx_down(int c, int k) { return (3 * c + 1) * (k - 2 * c) + OFF; }
static int idx_trunc(int c, int k) { return c * (k - c) + OFF; }

static double W[NW], L[NT], X[D];
static int which, K, Nn;
static double eval(void *unused) {
  (void)unused;
  switch (which) {
  case 0: return f_tri(L, X, Nn);
  case 1: return f_step2(W, X, Nn);
  case 2: return f_down(W, X, Nn, K);
  default: return f_trunc(W, X, Nn, K);
  }
}

int main(void) {
  fz_fill(W, NW, -1.0, 1.0);
  fz_fill(L, NT, -1.0, 1.0);
  fz_fill(X, D, -1.0, 1.0);
  const char *names[] = {"triangle", "step2", "down", "trunc"};
  const int ns[] = {D, 1, 0, 5};
  const int ks[] = {3, 0, 9, 1};
  for (int ni = 0; ni < 4; ni++) {
    Nn = ns[ni];
    K = ks[ni];
    for (which = 0; which < 4; which++) {
      double dw[NW], dl[NT], dx[D], ww[NW], wl[NT], wx[D], fx[D];
      fz_zero(dw, NW);
      fz_zero(dl, NT);
      fz_zero(dx, D);
      fz_zero(ww, NW);
      fz_zero(wl, NT);
      fz_zero(wx, D);
      switch (which) {
      case 0: __enzyme_autodiff((void *)f_tri, L, dl, X, dx, Nn); break;
      case 1: __enzyme_autodiff((void *)f_step2, W, dw, X, dx, Nn); break;
      case 2: __enzyme_autodiff((void *)f_down, W, dw, X, dx, Nn, K); break;
      default: __enzyme_autodiff((void *)f_trunc, W, dw, X, dx, (int64_t)Nn, K); break;
      }
      if (which == 0) {
        for (int r = 0; r < Nn; r++) {
          double z = X[r];
          for (int c = 0; c < r; c++) z += L[c * (2 * Nn - c - 1) / 2 + r - c - 1] * X[c];
          wx[r] += 2 * z;
          for (int c = 0; c < r; c++) {
            int t = c * (2 * Nn - c - 1) / 2 + r - c - 1;
            wl[t] += 2 * z * X[c];
            wx[c] += 2 * z * L[t];
          }
        }
      } else {
        for (int c = 0; c < Nn; c++) {
          if (which == 1 && c % 2) continue;
          int t = which == 1 ? idx_step2(c) : which == 2 ? idx_down(c, K) : idx_trunc(c, K);
          ww[t] += X[c] * X[c];
          wx[c] += 2 * W[t] * X[c];
        }
      }
      char what[64];
      snprintf(what, sizeof what, "%s n=%d d/dw analytic", names[which], Nn);
      if (which == 0)
        fz_check_arr(what, dl, wl, NT, 1e-12);
      else
        fz_check_arr(what, dw, ww, NW, 1e-12);
      snprintf(what, sizeof what, "%s n=%d d/dx analytic", names[which], Nn);
      fz_check_arr(what, dx, wx, D, 1e-12);
      fz_fd_grad(eval, 0, X, D, fx);
      snprintf(what, sizeof what, "%s n=%d d/dx (finite differences)", names[which], Nn);
      fz_check_arr(what, dx, fx, D, 1e-6);
    }
  }
  return fz_finish();
}
