// OPT: O0 O1 O2 O3
// GMM's `Qtimesx` (bench/src/gmm.c): z = Q (x_p - mu) with Q's strict lower triangle
// packed column-wise and applied column by column, `for c, for r > c: z[r] += l[t++] *
// xc[c]`, where xc is a scratch buffer filled per point. The reverse sweep recomputes
// xc[c] from the fill's `x[p*d+c] - mu[c]` (reverse/forwarding.rs) once per reverse
// column, in the reverse block of the column loop's latch; at -O3 that latch comes after
// the row loop in the block layout, so the evaluation starts the latch's reverse block
// before it is emitted (filetest scratch_buffer_load_forwarded_hoisted_rotated).
// Variants: malloc'd and VLA buffers, a log-sum-exp over the points' terms like GMM's,
// and the near misses that must keep the tape (xc[0] overwritten after the fill; a second
// writer of xc inside the column loop). Oracles: the analytic gradient 2 A^T z (colgather)
// and central finite differences (all).
#include "fz_test.h"

enum { P = 3, D = 7, NT = D * (D - 1) / 2 };

/* z = A y with A(r,r) = q[r], A(r,c) = l[c (2d - c - 1) / 2 + r - c - 1] (c < r),
 * y = x_p - mu, f = sum_p |z|^2. */
double colgather(const double *x, const double *mu, const double *q, const double *l, int n,
                 int d) {
  double *xc = malloc(sizeof(double) * d), *z = malloc(sizeof(double) * d);
  double s = 0;
  for (int p = 0; p < n; p++) {
    for (int i = 0; i < d; i++) xc[i] = x[p * d + i] - mu[i];
    for (int i = 0; i < d; i++) z[i] = q[i] * xc[i];
    int t = 0;
    for (int c = 0; c < d; c++)
      for (int r = c + 1; r < d; r++) {
        z[r] += l[t] * xc[c];
        t++;
      }
    for (int i = 0; i < d; i++) s += z[i] * z[i];
  }
  free(xc);
  free(z);
  return s;
}

/* The same with VLAs and GMM's log-sum-exp of -|z|^2 / 2 over the points. */
double colgather_lse(const double *x, const double *mu, const double *q, const double *l,
                     int n, int d) {
  double xc[d], z[d], term[n];
  for (int p = 0; p < n; p++) {
    for (int i = 0; i < d; i++) xc[i] = x[p * d + i] - mu[i];
    for (int i = 0; i < d; i++) z[i] = q[i] * xc[i];
    int t = 0;
    for (int c = 0; c < d; c++)
      for (int r = c + 1; r < d; r++) {
        z[r] += l[t] * xc[c];
        t++;
      }
    double s = 0;
    for (int i = 0; i < d; i++) s += z[i] * z[i];
    term[p] = -0.5 * s;
  }
  double m = term[0];
  for (int p = 1; p < n; p++) m = term[p] > m ? term[p] : m;
  double e = 0;
  for (int p = 0; p < n; p++) e += exp(term[p] - m);
  return m + log(e);
}

/* xc[0] is overwritten after the fill: the reads must not be recomputed from the fill. */
double overwritten(const double *x, const double *mu, const double *q, const double *l,
                   int n, int d) {
  double *xc = malloc(sizeof(double) * d), *z = malloc(sizeof(double) * d);
  double s = 0;
  for (int p = 0; p < n; p++) {
    for (int i = 0; i < d; i++) xc[i] = x[p * d + i] - mu[i];
    xc[0] = mu[1] * x[p * d];
    for (int i = 0; i < d; i++) z[i] = q[i] * xc[i];
    int t = 0;
    for (int c = 0; c < d; c++)
      for (int r = c + 1; r < d; r++) {
        z[r] += l[t] * xc[c];
        t++;
      }
    for (int i = 0; i < d; i++) s += z[i] * z[i];
  }
  free(xc);
  free(z);
  return s;
}

/* A second writer: each column scales xc[c] after its rows (read again by sin below). */
double second_writer(const double *x, const double *mu, const double *q, const double *l,
                     int n, int d) {
  double *xc = malloc(sizeof(double) * d), *z = malloc(sizeof(double) * d);
  double s = 0;
  for (int p = 0; p < n; p++) {
    for (int i = 0; i < d; i++) xc[i] = x[p * d + i] - mu[i];
    for (int i = 0; i < d; i++) z[i] = q[i] * xc[i];
    int t = 0;
    for (int c = 0; c < d; c++) {
      for (int r = c + 1; r < d; r++) {
        z[r] += l[t] * xc[c];
        t++;
      }
      xc[c] = xc[c] * z[c];
    }
    for (int i = 0; i < d; i++) s += z[i] * z[i] + sin(xc[i]);
  }
  free(xc);
  free(z);
  return s;
}

typedef double (*colfn)(const double *, const double *, const double *, const double *, int,
                        int);
static const colfn FNS[] = {colgather, colgather_lse, overwritten, second_writer};
static const char *NAMES[] = {"colgather", "colgather_lse", "overwritten", "second_writer"};
static double X[P * D], MU[D], Q[D], L[NT];
static int which;

static double eval(void *unused) {
  (void)unused;
  return FNS[which](X, MU, Q, L, P, D);
}

/* One call site per function, each in its own function (at -O2 one call with a phi of
 * the four function pointers would not name the function differentiated). */
#define GRAD(f)                                                                          \
  static __attribute__((noinline)) void grad_##f(double *dx, double *dmu, double *dq,    \
                                                 double *dl) {                           \
    __enzyme_autodiff((void *)f, X, dx, MU, dmu, Q, dq, L, dl, P, D);                    \
  }
GRAD(colgather)
GRAD(colgather_lse)
GRAD(overwritten)
GRAD(second_writer)
static void (*const GRADS[])(double *, double *, double *, double *) = {
    grad_colgather, grad_colgather_lse, grad_overwritten, grad_second_writer};

/* Analytic gradient of colgather: dx_p = 2 A^T z, dmu = -sum_p dx_p, dA(r,c) = 2 z_r y_c. */
static void check_analytic(const double *dx, const double *dmu, const double *dq,
                           const double *dl) {
  double A[D][D] = {{0}}, wdx[P * D] = {0}, wdmu[D] = {0}, wdq[D] = {0}, wdl[NT] = {0};
  for (int r = 0; r < D; r++)
    for (int c = 0; c <= r; c++)
      A[r][c] = c == r ? Q[r] : L[c * (2 * D - c - 1) / 2 + r - c - 1];
  for (int p = 0; p < P; p++) {
    double y[D], z[D];
    for (int j = 0; j < D; j++) y[j] = X[p * D + j] - MU[j];
    for (int r = 0; r < D; r++) {
      z[r] = 0;
      for (int c = 0; c <= r; c++) z[r] += A[r][c] * y[c];
    }
    for (int c = 0; c < D; c++) {
      double g = 0;
      for (int r = c; r < D; r++) g += 2 * A[r][c] * z[r];
      wdx[p * D + c] = g;
      wdmu[c] -= g;
    }
    for (int r = 0; r < D; r++)
      for (int c = 0; c <= r; c++) {
        if (c == r) wdq[r] += 2 * z[r] * y[r];
        else wdl[c * (2 * D - c - 1) / 2 + r - c - 1] += 2 * z[r] * y[c];
      }
  }
  fz_check_arr("colgather d/dx analytic", dx, wdx, P * D, 1e-10);
  fz_check_arr("colgather d/dmu analytic", dmu, wdmu, D, 1e-10);
  fz_check_arr("colgather d/dq analytic", dq, wdq, D, 1e-10);
  fz_check_arr("colgather d/dl analytic", dl, wdl, NT, 1e-10);
}

int main(void) {
  fz_fill(X, P * D, -1.0, 1.0);
  fz_fill(MU, D, -0.5, 0.5);
  fz_fill(Q, D, 0.5, 1.5);
  fz_fill(L, NT, -1.0, 1.0);
  for (which = 0; which < 4; which++) {
    double dx[P * D], dmu[D], dq[D], dl[NT], fx[P * D], fmu[D], fq[D], fl[NT];
    fz_zero(dx, P * D);
    fz_zero(dmu, D);
    fz_zero(dq, D);
    fz_zero(dl, NT);
    GRADS[which](dx, dmu, dq, dl);
    fz_fd_grad(eval, 0, X, P * D, fx);
    fz_fd_grad(eval, 0, MU, D, fmu);
    fz_fd_grad(eval, 0, Q, D, fq);
    fz_fd_grad(eval, 0, L, NT, fl);
    char what[64];
    snprintf(what, sizeof what, "%s d/dx (finite differences)", NAMES[which]);
    fz_check_arr(what, dx, fx, P * D, 1e-6);
    snprintf(what, sizeof what, "%s d/dmu (finite differences)", NAMES[which]);
    fz_check_arr(what, dmu, fmu, D, 1e-6);
    snprintf(what, sizeof what, "%s d/dq (finite differences)", NAMES[which]);
    fz_check_arr(what, dq, fq, D, 1e-6);
    snprintf(what, sizeof what, "%s d/dl (finite differences)", NAMES[which]);
    fz_check_arr(what, dl, fl, NT, 1e-6);
    if (which == 0) check_analytic(dx, dmu, dq, dl);
  }
  return fz_finish();
}
