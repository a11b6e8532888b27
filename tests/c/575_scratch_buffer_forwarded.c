// OPT: O0 O1 O2 O3
// A scratch buffer filled by one loop and read by later loops of the same iteration of an
// outer loop (GMM's xcentered): at -O1 and above the reverse sweep recomputes what the
// filling loop stored at the load's index instead of caching each load
// (reverse/forwarding.rs). Variants where that would be wrong must keep the cache: a
// second writer of the buffer, a reading loop with another bound, a fill that does not
// run on every outer iteration (the reads see the previous iteration's values), reads at
// an index that is not a counter from zero (the triangle's r = c+1..d), and reads whose
// pointer operands change between the fill and the read.
// Oracles: analytic (fwd_ok) and central finite differences (all).
#include "fz_test.h"

enum { P = 4, D = 5 };

/* sum_p sum_j (x_pj - mu_j)^3 + sin(x_pj - mu_j), the buffer read by two loops. */
double fwd_ok(const double *x, const double *mu, int n, int d) {
  double *xc = malloc(sizeof(double) * d);
  double s = 0;
  for (int p = 0; p < n; p++) {
    for (int i = 0; i < d; i++) xc[i] = x[p * d + i] - mu[i];
    for (int j = 0; j < d; j++) s += xc[j] * xc[j] * xc[j];
    for (int j = 0; j < d; j++) s += sin(xc[j]);
  }
  free(xc);
  return s;
}

/* The buffer has a second writer between the fill and the reads. */
double two_writers(const double *x, const double *mu, int n, int d) {
  double *xc = malloc(sizeof(double) * d);
  double s = 0;
  for (int p = 0; p < n; p++) {
    for (int i = 0; i < d; i++) xc[i] = x[p * d + i] - mu[i];
    xc[p % d] = mu[0] * x[p];
    for (int j = 0; j < d; j++) s += xc[j] * xc[j] * xc[j];
  }
  free(xc);
  return s;
}

/* The reading loop runs to m <= d, the fill to d. */
double other_bound(const double *x, const double *mu, int n, int d, int m) {
  double *xc = malloc(sizeof(double) * d);
  double s = 0;
  for (int p = 0; p < n; p++) {
    for (int i = 0; i < d; i++) xc[i] = x[p * d + i] * mu[i];
    for (int j = 0; j < m; j++) s += cos(xc[j]) * xc[j];
  }
  free(xc);
  return s;
}

/* The fill runs on even p only: odd p read the previous iteration's values. */
double skipped_fill(const double *x, const double *mu, int n, int d) {
  double *xc = malloc(sizeof(double) * d);
  double s = 0;
  for (int p = 0; p < n; p++) {
    if (p % 2 == 0)
      for (int i = 0; i < d; i++) xc[i] = x[p * d + i] - mu[i];
    for (int j = 0; j < d; j++) s += xc[j] * xc[j] * x[p * d + j];
  }
  free(xc);
  return s;
}

/* Packed lower triangle as in GMM's Qtimesx: xc[c] per column, xc[r] for r > c. */
double triangle(const double *x, const double *mu, const double *l, int n, int d) {
  double *xc = malloc(sizeof(double) * d);
  double s = 0;
  for (int p = 0; p < n; p++) {
    for (int i = 0; i < d; i++) xc[i] = x[p * d + i] - mu[i];
    int t = 0;
    for (int c = 0; c < d; c++)
      for (int r = c + 1; r < d; r++) {
        s += l[t] * xc[c] * xc[r] * xc[r];
        t++;
      }
  }
  free(xc);
  return s;
}

/* The fill reads mu, which the function itself rescales after the reads: the reverse
 * sweep must not recompute the stored value from the rescaled mu. */
double mu_written(const double *x, double *mu, int n, int d) {
  double *xc = malloc(sizeof(double) * d);
  double s = 0;
  for (int p = 0; p < n; p++) {
    for (int i = 0; i < d; i++) xc[i] = x[p * d + i] - mu[i];
    for (int j = 0; j < d; j++) s += xc[j] * xc[j] * xc[j];
    for (int i = 0; i < d; i++) mu[i] *= 1.5;
  }
  free(xc);
  return s;
}

static double X[P * D], MU[D], L[D * (D - 1) / 2], MUW[D];
static int which;

static double eval(void *unused) {
  (void)unused;
  switch (which) {
  case 0: return fwd_ok(X, MU, P, D);
  case 1: return two_writers(X, MU, P, D);
  case 2: return other_bound(X, MU, P, D, D - 2);
  case 3: return skipped_fill(X, MU, P, D);
  case 4: return triangle(X, MU, L, P, D);
  default: {
    double m[D];
    memcpy(m, MU, sizeof m);
    return mu_written(X, m, P, D);
  }
  }
}

int main(void) {
  fz_fill(X, P * D, -1.0, 1.0);
  fz_fill(MU, D, -0.5, 0.5);
  fz_fill(L, D * (D - 1) / 2, -1.0, 1.0);
  const char *names[] = {"fwd_ok", "two_writers", "other_bound", "skipped_fill", "triangle",
                         "mu_written"};
  for (which = 0; which < 6; which++) {
    double dx[P * D], dmu[D], dl[D * (D - 1) / 2], fx[P * D], fmu[D];
    fz_zero(dx, P * D);
    fz_zero(dmu, D);
    fz_zero(dl, D * (D - 1) / 2);
    switch (which) {
    case 0: __enzyme_autodiff((void *)fwd_ok, X, dx, MU, dmu, P, D); break;
    case 1: __enzyme_autodiff((void *)two_writers, X, dx, MU, dmu, P, D); break;
    case 2: __enzyme_autodiff((void *)other_bound, X, dx, MU, dmu, P, D, D - 2); break;
    case 3: __enzyme_autodiff((void *)skipped_fill, X, dx, MU, dmu, P, D); break;
    case 4: __enzyme_autodiff((void *)triangle, X, dx, MU, dmu, L, dl, P, D); break;
    default:
      memcpy(MUW, MU, sizeof MUW);
      __enzyme_autodiff((void *)mu_written, X, dx, MUW, dmu, P, D);
      break;
    }
    fz_fd_grad(eval, 0, X, P * D, fx);
    fz_fd_grad(eval, 0, MU, D, fmu);
    char what[64];
    snprintf(what, sizeof what, "%s d/dx (finite differences)", names[which]);
    fz_check_arr(what, dx, fx, P * D, 1e-6);
    snprintf(what, sizeof what, "%s d/dmu (finite differences)", names[which]);
    fz_check_arr(what, dmu, fmu, D, 1e-6);
    if (which == 4) {
      double fl[D * (D - 1) / 2];
      fz_fd_grad(eval, 0, L, D * (D - 1) / 2, fl);
      fz_check_arr("triangle d/dl (finite differences)", dl, fl, D * (D - 1) / 2, 1e-6);
    }
    if (which == 0) {
      for (int j = 0; j < D; j++) {
        double want = 0;
        for (int p = 0; p < P; p++) {
          double y = X[p * D + j] - MU[j];
          want -= 3 * y * y + cos(y);
          fz_check("fwd_ok d/dx analytic", dx[p * D + j], 3 * y * y + cos(y), 1e-12);
        }
        fz_check("fwd_ok d/dmu analytic", dmu[j], want, 1e-12);
      }
    }
  }
  return fz_finish();
}
