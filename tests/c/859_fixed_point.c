// OPT: O0 O1 O2 O3
// LLI: O0 O2
// Enzyme's `__enzyme_fixed_point` (<enzyme/fixed_point.h>): a loop iterating a state
// z = phi(z, x) to convergence, differentiated at the fixed point (the two-phase
// adjoint in reverse mode, the iterated tangent in forward mode) instead of through
// every iteration; refused before the lead's change. Cases: a contraction
// z = 0.5 tanh(M z) + x^2 with an output y written by every step (reverse with the
// default and an explicit reduction, forward), Tapenade's control protocol (three
// adjoint iterations: an approximate gradient, and the calls counted), a Newton
// iteration for sqrt (phi_z = 0 at the fixed point: one correction is exact), and a
// region the step reads that the caller overwrites after the loop, a tolerance passed
// as `enzyme_const, &tol` (inert: no shadow needed), and a state kept in globals the
// step reads and writes itself (MITgcm's COMMON blocks). Oracles: the
// implicit function theorem, dz*/dx = (I - phi_z)^-1 phi_x solved here by Gaussian
// elimination; analytic 1/(2 sqrt a); central finite differences.
#include "fz_test.h"
#include <enzyme/fixed_point.h>
#include <stdint.h>
#include <string.h>

extern double __enzyme_fwddiff(void *, ...);

#define N 3
static const double M[N][N] = {{0.6, -0.2, 0.1}, {0.3, 0.5, -0.4}, {-0.1, 0.2, 0.7}};

__attribute__((noinline)) static int step(int64_t i, double *z, const double *x, double *y,
                                          double tol) {
  (void)i;
  double t[N], d = 0;
  for (int k = 0; k < N; k++) {
    double s = 0;
    for (int j = 0; j < N; j++)
      s += M[k][j] * z[j];
    t[k] = 0.5 * tanh(s) + x[k] * x[k];
  }
  for (int k = 0; k < N; k++) {
    d = fmax(d, fabs(t[k] - z[k]));
    y[k] = t[k] * x[k];
    z[k] = t[k];
  }
  return d > tol;
}

static double loss(const double *z, const double *y) {
  double L = 0;
  for (int k = 0; k < N; k++)
    L += z[k] * z[k] + y[k];
  return L;
}

/* L(z*(x), y = z* x), z from the guess in z. */
double solve(double *z, const double *x, double *y) {
  __enzyme_fixed_point((void *)step, enzyme_fp_state, z, (int64_t)(N * sizeof(double)),
                       enzyme_fp_reduction, 1e-28, z, x, y, 1e-15);
  return loss(z, y);
}

double solve_default(double *z, const double *x, double *y) {
  __enzyme_fixed_point((void *)step, enzyme_fp_state, z, (int64_t)(N * sizeof(double)), z,
                       x, y, 1e-15);
  return loss(z, y);
}

static int calls;
static double first_cumul;
static int three(double *cumul, double *reduction) {
  (void)reduction;
  if (calls++ == 0)
    first_cumul = *cumul;
  return calls < 4;
}

double solve_controlled(double *z, const double *x, double *y) {
  __enzyme_fixed_point((void *)step, enzyme_fp_state, z, (int64_t)(N * sizeof(double)),
                       enzyme_fp_control, three, z, x, y, 1e-15);
  return loss(z, y);
}

/* Newton for r = sqrt(a): r <- (r + a / r) / 2. */
__attribute__((noinline)) static int newton(int64_t i, double *r, const double *a) {
  double next = 0.5 * (*r + *a / *r);
  int more = fabs(next - *r) > 1e-15 * next && i < 100;
  *r = next;
  return more;
}

double root(const double *a) {
  double r = 1.0;
  __enzyme_fixed_point((void *)newton, enzyme_fp_state, &r, (int64_t)sizeof(double), &r, a);
  return r;
}

/* Newton for cube roots with the tolerance behind a constant pointer (enzyme_const,
   &tol: the step only compares it, so it needs no shadow) and a control function
   applying the relative test itself. */
__attribute__((noinline)) static int cube(int64_t i, double *r, const double *a,
                                          const double *tol) {
  (void)i;
  double err = 0;
  for (int k = 0; k < 3; k++) {
    double next = (2 * r[k] + a[k] / (r[k] * r[k])) / 3;
    err = fmax(err, fabs(next - r[k]));
    r[k] = next;
  }
  return err > *tol;
}

static int cube_calls;
static double cube_ref;
static int relative(double *cumul, double *reduction) {
  cube_calls++;
  if (*cumul < 0)
    return 1;
  if (cube_calls == 2) {
    cube_ref = *cumul;
    return *cumul > 0;
  }
  return *cumul > *reduction * cube_ref;
}

void cube_roots(double *r, const double *a, const double *tol) {
  __enzyme_fixed_point((void *)cube, enzyme_fp_state, r, (int64_t)(3 * sizeof(double)),
                       enzyme_fp_reduction, 1e-24, enzyme_fp_control, relative, r, a, tol);
}

/* The step reads p, which the caller overwrites after the loop: a region. */
__attribute__((noinline)) static int relax(int64_t i, double *z, const double *p) {
  (void)i;
  double a = 0.3 * sin(z[1]) + p[0] * p[1], b = 0.4 * cos(z[0]) + p[1];
  int more = fabs(a - z[0]) + fabs(b - z[1]) > 1e-15;
  z[0] = a;
  z[1] = b;
  return more;
}

double relaxed(double *z, double *p) {
  __enzyme_fixed_point((void *)relax, enzyme_fp_state, z, (int64_t)(2 * sizeof(double)),
                       enzyme_checkpoint_region, p, (int64_t)(2 * sizeof(double)), z, p);
  double L = z[0] * z[1] + p[0];
  p[0] = 0;
  p[1] = 0;
  return L;
}

/* MITgcm style: the state and the parameters are globals the step reads and writes
   itself (no pointer argument), and the state is overwritten after the loop. */
#define G 5
double gu[G], gp[G];
__attribute__((noinline)) static int gstep(int64_t i, const double *tol) {
  (void)i;
  double t[G], e = 0;
  for (int k = 0; k < G; k++)
    t[k] = 0.3 * tanh(gu[k] + 0.5 * gu[(k + 1) % G]) + gp[k] * gp[k];
  for (int k = 0; k < G; k++) {
    e = fmax(e, fabs(t[k] - gu[k]));
    gu[k] = t[k];
  }
  return e > *tol;
}

double global_state(const double *x, const double *tol) {
  for (int k = 0; k < G; k++) {
    gu[k] = 0;
    gp[k] = x[k];
  }
  __enzyme_fixed_point((void *)gstep, enzyme_fp_state, gu, (int64_t)sizeof(gu),
                       enzyme_fp_reduction, 1e-28, tol);
  double s = 0;
  for (int k = 0; k < G; k++) {
    s += sin(gu[k]) * gp[k];
    gu[k] = 0.5 * gu[k] * gu[k];
  }
  for (int k = 0; k < G; k++)
    s += gu[k];
  return s;
}

/* The gradient of L at the fixed point by the implicit function theorem. */
static void implicit_gradient(const double *x, const double *seed, double *g) {
  double z[N] = {0}, y[N];
  while (step(0, z, x, y, 1e-15))
    ;
  double A[N][N + 1], w[N];
  /* phi_z = diag(0.5 sech^2(M z)) M; (I - phi_z)^T lambda = dL/dz* = 2 z* + x + seed
     (the caller's adjoint of the state left in z) */
  for (int k = 0; k < N; k++) {
    double s = 0;
    for (int j = 0; j < N; j++)
      s += M[k][j] * z[j];
    double c = cosh(s);
    w[k] = 0.5 / (c * c);
  }
  for (int r = 0; r < N; r++) {
    for (int c = 0; c < N; c++)
      A[r][c] = (r == c) - w[c] * M[c][r];
    A[r][N] = 2 * z[r] + x[r] + seed[r];
  }
  for (int c = 0; c < N; c++)
    for (int r = c + 1; r < N; r++) {
      double m = A[r][c] / A[c][c];
      for (int q = c; q <= N; q++)
        A[r][q] -= m * A[c][q];
    }
  double lam[N];
  for (int r = N - 1; r >= 0; r--) {
    double s = A[r][N];
    for (int q = r + 1; q < N; q++)
      s -= A[r][q] * lam[q];
    lam[r] = s / A[r][r];
  }
  /* dL/dx = phi_x^T lambda + z* (from y = z* x), phi_x = diag(2 x) */
  for (int k = 0; k < N; k++)
    g[k] = 2 * x[k] * lam[k] + z[k];
}

int main(void) {
  double x[N] = {0.3, -0.5, 0.8}, g[N], gs[N], none[N] = {0}, seed[N] = {1, 2, 3};
  implicit_gradient(x, none, g);
  implicit_gradient(x, seed, gs);
  /* reverse, state shadow seeded with (1, 2, 3): the caller's adjoint of z* */
  {
    double z[N] = {0.1, 0.1, 0.1}, dz[N] = {1, 2, 3}, y[N], dy[N] = {0}, dx[N] = {0};
    __enzyme_autodiff((void *)solve, enzyme_dup, z, dz, enzyme_dup, x, dx, enzyme_dup, y, dy);
    fz_check_arr("reduction 1e-28: dL/dx (implicit function theorem)", dx, gs, N, 1e-11);
    fz_check_arr("state shadow zero after", dz, none, N, 0);
    fz_check_arr("output shadow consumed", dy, none, N, 0);
    double zc[N] = {0}, yc[N];
    while (step(0, zc, x, yc, 1e-15))
      ;
    fz_check_arr("converged state left after the gradient", z, zc, N, 1e-14);
  }
  /* the default reduction (1e-12 of the first update's squared norm) */
  {
    double z[N] = {0}, dz[N] = {0}, y[N], dy[N] = {0}, dx[N] = {0};
    __enzyme_autodiff((void *)solve_default, enzyme_dup, z, dz, enzyme_dup, x, dx, enzyme_dup,
                      y, dy);
    fz_check_arr("default reduction: dL/dx", dx, g, N, 1e-6);
  }
  for (int k = 0; k < N; k++) {
    double xp[N], xm[N], zp[N] = {0}, zm[N] = {0}, yy[N], h = 1e-6;
    memcpy(xp, x, sizeof x);
    memcpy(xm, x, sizeof x);
    xp[k] += h;
    xm[k] -= h;
    fz_check("implicit gradient vs finite differences",
             g[k], (solve(zp, xp, yy) - solve(zm, xm, yy)) / (2 * h), 1e-7);
  }
  /* forward mode: dL = g . v (the state's tangent has no effect) */
  {
    double v[N] = {0.7, -1.1, 0.4}, z[N] = {0}, zt[N] = {5, 5, 5}, y[N], yt[N] = {0};
    double dL = __enzyme_fwddiff((void *)solve, enzyme_dup, z, zt, enzyme_dup, x, v,
                                 enzyme_dup, y, yt);
    double want = 0;
    for (int k = 0; k < N; k++)
      want += g[k] * v[k];
    fz_check("forward: dL . v", dL, want, 1e-11);
  }
  /* the control protocol: -1 first, then three adjoint iterations */
  {
    double z[N] = {0}, dz[N] = {0}, y[N], dy[N] = {0}, dx[N] = {0};
    __enzyme_autodiff((void *)solve_controlled, enzyme_dup, z, dz, enzyme_dup, x, dx,
                      enzyme_dup, y, dy);
    fz_check("control called four times", calls, 4, 0);
    fz_check("control first called with -1", first_cumul, -1.0, 0);
    double err = 0, ref = 0;
    for (int k = 0; k < N; k++) {
      err = fmax(err, fabs(dx[k] - g[k]));
      ref = fmax(ref, fabs(g[k]));
    }
    fz_check("three iterations: approximate (error > 0)", err > 0, 1, 0);
    fz_check("three iterations: close (error < 10%)", err < 0.1 * ref, 1, 0);
  }
  /* Newton: d sqrt(a) / da = 1 / (2 sqrt(a)), reverse and forward */
  {
    double a = 2.5, da = 0;
    __enzyme_autodiff((void *)root, enzyme_dup, &a, &da);
    fz_check("Newton sqrt, reverse", da, 0.5 / sqrt(a), 1e-13);
    double ta = 1.0;
    double dr = __enzyme_fwddiff((void *)root, enzyme_dup, &a, &ta);
    fz_check("Newton sqrt, forward", dr, 0.5 / sqrt(a), 1e-13);
  }
  /* cube roots, forward: two tangent passes (phi_z = 0 at the fixed point), so the
     control function is called three times; reverse: the same derivative */
  {
    double tol = 1e-15, r[3] = {1, 1, 1}, dr[3] = {0}, a[3] = {2, 3, 4}, ta[3] = {1, 1, 1};
    __enzyme_fwddiff((void *)cube_roots, enzyme_dup, r, dr, enzyme_dup, a, ta, enzyme_const,
                     &tol);
    for (int k = 0; k < 3; k++)
      fz_check("cube root, forward (const tolerance pointer)", dr[k],
               cbrt(a[k]) / (3 * a[k]), 1e-12);
    fz_check("control called three times (start and two passes)", cube_calls, 3, 0);
    double r2[3] = {1, 1, 1}, dr2[3] = {1, 1, 1}, da[3] = {0};
    cube_calls = 0;
    __enzyme_autodiff((void *)cube_roots, enzyme_dup, r2, dr2, enzyme_dup, a, da, enzyme_const,
                      &tol);
    for (int k = 0; k < 3; k++)
      fz_check("cube root, reverse (const tolerance pointer)", da[k], cbrt(a[k]) / (3 * a[k]),
               1e-12);
  }
  /* global state: reverse vs FD, forward vs reverse */
  {
    double tol = 1e-15, gx[G], dgx[G] = {0}, v[G] = {1, -1, 0.5, 2, -0.3}, dot = 0;
    for (int k = 0; k < G; k++)
      gx[k] = 0.1 + 0.05 * k;
    __enzyme_autodiff((void *)global_state, enzyme_dup, gx, dgx, enzyme_const, &tol);
    for (int k = 0; k < G; k++) {
      double xp[G], xm[G], h = 1e-6;
      memcpy(xp, gx, sizeof gx);
      memcpy(xm, gx, sizeof gx);
      xp[k] += h;
      xm[k] -= h;
      fz_check("global state: reverse vs FD", dgx[k],
               (global_state(xp, &tol) - global_state(xm, &tol)) / (2 * h), 1e-7);
      dot += dgx[k] * v[k];
    }
    double fw = __enzyme_fwddiff((void *)global_state, enzyme_dup, gx, v, enzyme_const, &tol);
    fz_check("global state: forward = reverse . v", fw, dot, 1e-11);
  }
  /* a region the caller overwrites after the loop; finite differences */
  {
    double p[2] = {0.6, -0.3}, dp[2] = {0}, z[2] = {0}, dz[2] = {0};
    __enzyme_autodiff((void *)relaxed, enzyme_dup, z, dz, enzyme_dup, p, dp);
    for (int k = 0; k < 2; k++) {
      double pp[2] = {0.6, -0.3}, pm[2] = {0.6, -0.3}, zp[2] = {0}, zm[2] = {0}, h = 1e-6;
      pp[k] += h;
      pm[k] -= h;
      double fd = (relaxed(zp, pp) - relaxed(zm, pm)) / (2 * h);
      fz_check("region overwritten after the loop: dL/dp vs FD", dp[k], fd, 1e-7);
    }
  }
  return fz_finish();
}
