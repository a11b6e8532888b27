// OPT: O0 O1 O2 O3
// Reverse loops whose carried adjoint sum is split into two partial sums
// (crates/ferrozyme-transform/src/adjoint_split.rs, bench/README "gmm13"): the one-block
// loop is doubled, each copy adds to its own sum, the exit adds them. Shapes: GMM's
// column-wise triangle (`z[r] += l[t++] * xc[c]`, the reverse row loop carries dxc[c]; row
// counts D-1 .. 1, odd and even, so the loop leaves from either copy, and one trip),
// a scalar `out[i] += L[i] * x` and `out[i] -= L[i] * x` for n = 1, 2, 3, 8 (x's adjoint
// in a register), and a primal reduction (not an adjoint: left alone). Oracles: analytic
// gradients (triangle: 2 A^T z; axpy: dx = sum_i w_i L_i) and central finite
// differences (all).
#include "fz_test.h"

enum { P = 2, D = 8, NT = D * (D - 1) / 2, NMAX = 8 };

double triangle(const double *x, const double *mu, const double *l, int n, int d) {
  double *xc = malloc(sizeof(double) * d), *z = malloc(sizeof(double) * d);
  double s = 0;
  for (int p = 0; p < n; p++) {
    for (int i = 0; i < d; i++) xc[i] = x[p * d + i] - mu[i];
    for (int i = 0; i < d; i++) z[i] = xc[i];
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

/* f = sum_i w_i out_i after out_i += L_i x (do-while: at least one trip). */
double axpy(double x, const double *L, const double *w, long n) {
  double out[NMAX];
  for (long i = 0; i < n; i++) out[i] = w[i] * w[i];
  long i = 0;
  do out[i] += L[i] * x; while (++i < n);
  double f = 0;
  for (long j = 0; j < n; j++) f += w[j] * out[j];
  return f;
}

double axmy(double x, const double *L, const double *w, long n) {
  double out[NMAX];
  for (long i = 0; i < n; i++) out[i] = w[i];
  long i = 0;
  do out[i] -= L[i] * x; while (++i < n);
  double f = 0;
  for (long j = 0; j < n; j++) f += w[j] * out[j] * out[j];
  return f;
}

/* The primal's own sum s (not an adjoint) feeds a nonlinear result. */
double primal_sum(double x, const double *L, long n) {
  double s = 0;
  long i = 0;
  do s += L[i] * x; while (++i < n);
  return sin(s) * x;
}

static double X[P * D], MU[D], LT[NT], L[NMAX], W[NMAX], XS;
static long N;

static double eval_tri(void *u) { (void)u; return triangle(X, MU, LT, P, D); }
static double eval_axpy(void *u) { (void)u; return axpy(XS, L, W, N); }
static double eval_axmy(void *u) { (void)u; return axmy(XS, L, W, N); }
static double eval_psum(void *u) { (void)u; return primal_sum(XS, L, N); }

static __attribute__((noinline)) void grad_tri(double *dx, double *dmu, double *dl) {
  __enzyme_autodiff((void *)triangle, X, dx, MU, dmu, LT, dl, P, D);
}
static __attribute__((noinline)) double grad_axpy(double *dL) {
  return __enzyme_autodiff((void *)axpy, XS, L, dL, enzyme_const, W, N);
}
static __attribute__((noinline)) double grad_axmy(double *dL) {
  return __enzyme_autodiff((void *)axmy, XS, L, dL, enzyme_const, W, N);
}
static __attribute__((noinline)) double grad_psum(double *dL) {
  return __enzyme_autodiff((void *)primal_sum, XS, L, dL, N);
}

/* Analytic gradient of triangle: A unit-diagonal lower triangular, z = A y. */
static void check_tri_analytic(const double *dx, const double *dmu, const double *dl) {
  double A[D][D] = {{0}}, wdx[P * D] = {0}, wdmu[D] = {0}, wdl[NT] = {0};
  for (int r = 0; r < D; r++)
    for (int c = 0; c <= r; c++) A[r][c] = c == r ? 1.0 : LT[c * (2 * D - c - 1) / 2 + r - c - 1];
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
      for (int c = 0; c < r; c++) wdl[c * (2 * D - c - 1) / 2 + r - c - 1] += 2 * z[r] * y[c];
  }
  fz_check_arr("triangle d/dx analytic", dx, wdx, P * D, 1e-10);
  fz_check_arr("triangle d/dmu analytic", dmu, wdmu, D, 1e-10);
  fz_check_arr("triangle d/dl analytic", dl, wdl, NT, 1e-10);
}

int main(void) {
  fz_fill(X, P * D, -1.0, 1.0);
  fz_fill(MU, D, -0.5, 0.5);
  fz_fill(LT, NT, -1.0, 1.0);
  fz_fill(L, NMAX, -1.0, 1.0);
  fz_fill(W, NMAX, 0.5, 1.5);
  XS = 0.7;
  {
    double dx[P * D], dmu[D], dl[NT], fx[P * D], fmu[D], fl[NT];
    fz_zero(dx, P * D);
    fz_zero(dmu, D);
    fz_zero(dl, NT);
    grad_tri(dx, dmu, dl);
    fz_fd_grad(eval_tri, 0, X, P * D, fx);
    fz_fd_grad(eval_tri, 0, MU, D, fmu);
    fz_fd_grad(eval_tri, 0, LT, NT, fl);
    fz_check_arr("triangle d/dx (finite differences)", dx, fx, P * D, 1e-6);
    fz_check_arr("triangle d/dmu (finite differences)", dmu, fmu, D, 1e-6);
    fz_check_arr("triangle d/dl (finite differences)", dl, fl, NT, 1e-6);
    check_tri_analytic(dx, dmu, dl);
  }
  static const long NS[] = {1, 2, 3, 8};
  for (int k = 0; k < 4; k++) {
    N = NS[k];
    char what[96];
    double dL[NMAX], fL[NMAX], wdL[NMAX], wdx = 0;
    /* axpy: f = sum w_i (w_i^2 + L_i x): df/dx = sum w_i L_i, df/dL_i = w_i x */
    fz_zero(dL, NMAX);
    double dx = grad_axpy(dL);
    for (long i = 0; i < N; i++) wdx += W[i] * L[i], wdL[i] = W[i] * XS;
    snprintf(what, sizeof what, "axpy n=%ld d/dx analytic", N);
    fz_check(what, dx, wdx, 1e-12);
    snprintf(what, sizeof what, "axpy n=%ld d/dL analytic", N);
    fz_check_arr(what, dL, wdL, (int)N, 1e-12);
    snprintf(what, sizeof what, "axpy n=%ld d/dx (finite differences)", N);
    fz_check(what, dx, fz_fd_ptr(eval_axpy, 0, &XS), 1e-6);
    fz_fd_grad(eval_axpy, 0, L, (int)N, fL);
    snprintf(what, sizeof what, "axpy n=%ld d/dL (finite differences)", N);
    fz_check_arr(what, dL, fL, (int)N, 1e-6);
    /* axmy: f = sum w_i (w_i - L_i x)^2 */
    fz_zero(dL, NMAX);
    dx = grad_axmy(dL);
    wdx = 0;
    for (long i = 0; i < N; i++) {
      double o = W[i] - L[i] * XS;
      wdx += -2 * W[i] * o * L[i];
      wdL[i] = -2 * W[i] * o * XS;
    }
    snprintf(what, sizeof what, "axmy n=%ld d/dx analytic", N);
    fz_check(what, dx, wdx, 1e-12);
    snprintf(what, sizeof what, "axmy n=%ld d/dL analytic", N);
    fz_check_arr(what, dL, wdL, (int)N, 1e-12);
    snprintf(what, sizeof what, "axmy n=%ld d/dx (finite differences)", N);
    fz_check(what, dx, fz_fd_ptr(eval_axmy, 0, &XS), 1e-6);
    /* primal_sum: f = sin(s) x, s = x sum L_i */
    fz_zero(dL, NMAX);
    dx = grad_psum(dL);
    snprintf(what, sizeof what, "primal_sum n=%ld d/dx (finite differences)", N);
    fz_check(what, dx, fz_fd_ptr(eval_psum, 0, &XS), 1e-6);
    fz_fd_grad(eval_psum, 0, L, (int)N, fL);
    snprintf(what, sizeof what, "primal_sum n=%ld d/dL (finite differences)", N);
    fz_check_arr(what, dL, fL, (int)N, 1e-6);
  }
  return fz_finish();
}
