// OPT: O0 O1 O2 O3
// Enzyme's `__enzyme_set_fixed_point` (<enzyme/fixed_point.h>): a loop marked from inside
// its body as a fixed-point iteration, outlined into a step and differentiated at the
// fixed point like `__enzyme_fixed_point` (refused before). Cases: Newton for sqrt(a)
// with the state in a local and the iteration count given to the code after the loop
// (its one live-out value), reverse and forward, against the analytic 1/(2 sqrt a); a
// Jacobi iteration for A z = x (a local array of the body, a counter `it` bounding the
// iterations, an explicit reduction), reverse and forward, against the implicit
// derivative dz*/dx = A^-1 computed here by Gaussian elimination.
#include "fz_test.h"
#include <enzyme/fixed_point.h>
#include <stdint.h>

extern double __enzyme_fwddiff(void *, ...);

static int64_t newton_iters;

double root(const double *a) {
  double r = 1.0;
  int64_t it = 0;
  int more;
  do {
    __enzyme_set_fixed_point(enzyme_fp_state, &r, (int64_t)sizeof(double));
    double next = 0.5 * (r + *a / r);
    more = fabs(next - r) > 1e-15 * next;
    r = next;
    it++;
  } while (more);
  newton_iters = it;
  return r;
}

#define N 3
static const double A[N][N] = {{4, 1, -1}, {1, 5, 2}, {-1, 2, 6}};
static const double W[N] = {1, -2, 0.5};

/* L = W . z* where A z* = x, z from the guess in z. */
double jacobi(double *z, const double *x) {
  int64_t it = 0;
  int more;
  do {
    __enzyme_set_fixed_point(enzyme_fp_state, z, (int64_t)(N * sizeof(double)),
                             enzyme_fp_reduction, 1e-30);
    double t[N], e = 0;
    for (int k = 0; k < N; k++) {
      double s = x[k];
      for (int j = 0; j < N; j++)
        if (j != k)
          s -= A[k][j] * z[j];
      t[k] = s / A[k][k];
    }
    for (int k = 0; k < N; k++) {
      e = fmax(e, fabs(t[k] - z[k]));
      z[k] = t[k];
    }
    it++;
    more = e > 1e-15 && it < 500;
  } while (more);
  double L = 0;
  for (int k = 0; k < N; k++)
    L += W[k] * z[k];
  return L;
}

/* The state a local array (at -O0 `z` decays to &z[0] inside the loop: made again
   before it). */
double local_state(const double *p) {
  double z[2] = {0, 0};
  int more;
  do {
    __enzyme_set_fixed_point(enzyme_fp_state, z, (int64_t)sizeof z, enzyme_fp_reduction, 1e-30);
    double a = 0.3 * sin(z[1]) + p[0], c = 0.4 * cos(z[0]) + p[1];
    more = fabs(a - z[0]) + fabs(c - z[1]) > 1e-15;
    z[0] = a;
    z[1] = c;
  } while (more);
  return z[0] * z[1];
}

/* Solves A^T g = w (trans) or A g = w by Gaussian elimination. */
static void solve(int trans, const double *w, double *g) {
  double M[N][N + 1];
  for (int r = 0; r < N; r++) {
    for (int c = 0; c < N; c++)
      M[r][c] = trans ? A[c][r] : A[r][c];
    M[r][N] = w[r];
  }
  for (int c = 0; c < N; c++)
    for (int r = c + 1; r < N; r++) {
      double m = M[r][c] / M[c][c];
      for (int j = c; j <= N; j++)
        M[r][j] -= m * M[c][j];
    }
  for (int r = N - 1; r >= 0; r--) {
    double s = M[r][N];
    for (int c = r + 1; c < N; c++)
      s -= M[r][c] * g[c];
    g[r] = s / M[r][r];
  }
}

int main(void) {
  /* Newton. */
  double a = 2.5, da = 0;
  double r0 = root(&a);
  int64_t plain_iters = newton_iters;
  fz_check("newton primal", r0, sqrt(a), 1e-14);
  __enzyme_autodiff((void *)root, enzyme_dup, &a, &da);
  fz_check("newton reverse", da, 0.5 / sqrt(a), 1e-10);
  fz_check("newton iterations (live-out)", (double)newton_iters, (double)plain_iters, 0);
  double ta = 1.0;
  double dr = __enzyme_fwddiff((void *)root, enzyme_dup, &a, &ta);
  fz_check("newton forward", dr, 0.5 / sqrt(a), 1e-10);

  /* Jacobi. */
  double x[N] = {1.0, -0.5, 2.0}, dx[N] = {0}, z[N] = {0}, dz[N] = {0};
  double g[N], zs[N];
  solve(1, W, g);
  solve(0, x, zs);
  double L = jacobi(z, x);
  fz_check("jacobi primal", L, W[0] * zs[0] + W[1] * zs[1] + W[2] * zs[2], 1e-12);
  fz_zero(z, N);
  __enzyme_autodiff((void *)jacobi, enzyme_dup, z, dz, enzyme_dup, x, dx);
  fz_check_arr("jacobi reverse dL/dx = A^-T W", dx, g, N, 1e-10);
  double tx[N] = {0.3, -1.0, 0.7}, tz[N] = {0}, want[N];
  solve(0, tx, want);
  fz_zero(z, N);
  double dL = __enzyme_fwddiff((void *)jacobi, enzyme_dup, z, tz, enzyme_dup, x, tx);
  fz_check("jacobi forward dL", dL, W[0] * want[0] + W[1] * want[1] + W[2] * want[2], 1e-10);
  fz_check_arr("jacobi forward dz* = A^-1 xdot", tz, want, N, 1e-10);

  /* Local state: z* = phi(z*, p), M = I - phi_z = [[1, -0.3 cos z1], [0.4 sin z0, 1]],
     dL/dp = M^-T (z1, z0), dz/dp0 = M^-1 e0. */
  double p[2] = {0.2, -0.1}, dp[2] = {0, 0}, zz[2] = {0, 0};
  for (int k = 0; k < 200; k++) {
    double a0 = 0.3 * sin(zz[1]) + p[0], c0 = 0.4 * cos(zz[0]) + p[1];
    zz[0] = a0;
    zz[1] = c0;
  }
  double s0 = 0.4 * sin(zz[0]), c1 = 0.3 * cos(zz[1]), det = 1 + s0 * c1;
  double gw[2] = {(zz[1] - s0 * zz[0]) / det, (c1 * zz[1] + zz[0]) / det};
  fz_check("local state primal", local_state(p), zz[0] * zz[1], 1e-13);
  __enzyme_autodiff((void *)local_state, enzyme_dup, p, dp);
  fz_check_arr("local state reverse (implicit)", dp, gw, 2, 1e-10);
  double tp[2] = {1, 0};
  double dl = __enzyme_fwddiff((void *)local_state, enzyme_dup, p, tp);
  fz_check("local state forward (implicit)", dl, (zz[1] - zz[0] * s0) / det, 1e-10);
  return fz_finish();
}
