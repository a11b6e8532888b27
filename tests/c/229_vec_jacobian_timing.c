// OPT: O2 O3
// Times a full Jacobian of F: R^8 -> R^8 (a few sweeps of a nonlinear
// smoother) computed by ONE vector forward call (width 8, dupv identity
// seeds) against 8 scalar forward calls, after checking both against
// FD and each other. Prints `TIMING jacobian vector/scalar=R` (never
// asserted).
#include "fz_test.h"
#include "fz_modes.h"

#define N 8
#define SWEEPS 20

void smooth(const double *x, double *y, int n) {
  double u[N];
  for (int i = 0; i < n; i++) u[i] = x[i];
  for (int s = 0; s < SWEEPS; s++)
    for (int i = 0; i < n; i++) {
      double l = u[(i + n - 1) % n], r = u[(i + 1) % n];
      u[i] = 0.5 * u[i] + 0.25 * tanh(l + r) + 0.1 * sin(u[i] * r);
    }
  for (int i = 0; i < n; i++) y[i] = u[i];
}

static double X[N], I[N][N], JV[N][N], JS[N][N];
static double Y[N];
static void e_F(void *c, double *out) { (void)c; smooth(X, out, N); }
static void run_vector(void *c) {
  (void)c;
  __enzyme_fwddiff_void((void *)smooth, enzyme_width, 8, enzyme_dupv, (int)sizeof I[0], X, &I[0][0],
                        enzyme_dupv, (int)sizeof JV[0], Y, &JV[0][0], enzyme_const, N);
}
static void run_scalar(void *c) {
  (void)c;
  for (int j = 0; j < N; j++)
    __enzyme_fwddiff_void((void *)smooth, enzyme_dup, X, I[j], enzyme_dup, Y, JS[j], enzyme_const, N);
}

int main(void) {
  fz_seed(229);
  fz_fill(X, N, -1, 1);
  for (int j = 0; j < N; j++) I[j][j] = 1.0;
  run_vector(NULL);
  run_scalar(NULL);
  for (int j = 0; j < N; j++) {
    double fd[N];
    fz_fd_jvp(e_F, NULL, X, I[j], N, N, fd);
    fz_mcheck_arr("column (vector lane) vs fd", JV[j], fd, N, 1e-6);
    fz_mcheck_arr("column (vector lane) vs scalar call", JV[j], JS[j], N, 1e-13);
    fz_mcheck_arr("column (scalar call) vs fd", JS[j], fd, N, 1e-6);
  }
  /* reverse rows as a further oracle of the FD Jacobian */
  for (int i = 0; i < N; i++) {
    double row[N] = {0}, seed[N] = {0}, y[N], fdcol[N];
    seed[i] = 1.0;
    __enzyme_autodiff((void *)smooth, enzyme_dup, X, row, enzyme_dup, y, seed, enzyme_const, N);
    for (int j = 0; j < N; j++) {
      double fd[N];
      fz_fd_jvp(e_F, NULL, X, I[j], N, N, fd);
      fdcol[j] = fd[i];
    }
    fz_check_arr("rev row vs fd", row, fdcol, N, 1e-6);
  }
  double tv = fz_time_ns(run_vector, NULL), ts = fz_time_ns(run_scalar, NULL);
  fz_timing_ratio("jacobian vector/scalar", tv, ts);
  return fz_finish();
}
