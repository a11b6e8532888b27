// OMP_THREADS: 1 2 4
// OPT: O0 O2
// A red-black Gauss-Seidel (SOR) solver of a 2-D Poisson-like problem as OpenMP codes
// write it: one `omp parallel` region around the sweeps, each colour an `omp for
// collapse(2)` over the grid whose body skips the other colour by `(i + j) % 2`, the
// residual an `omp for reduction(max: res)` whose value decides (in every thread) whether
// to stop: a data-dependent number of sweeps, capped. The loss is a weighted norm of
// the solution; the gradient with respect to the source and the coefficient field against
// central finite differences of the serial solver (same sweeps, same stopping rule), the
// sweep counts equal; forward mode by the dot-product identity.
#include <omp.h>
#include <math.h>
#include "fz_test.h"
extern double __enzyme_fwddiff(void *, ...);
#define M 6
#define MAXIT 60
#define TOL 1e-7
#define OMEGA 1.3

static int sweeps_done;

static double relax(double u[M + 2][M + 2], const double *f, const double *c, int i, int j) {
  double gs = (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1] + f[(i - 1) * M + j - 1]) /
              (4 + c[(i - 1) * M + j - 1]);
  return u[i][j] + OMEGA * (gs - u[i][j]);
}

double solve(const double *f, const double *c) {
  double u[M + 2][M + 2] = {{0}};
  double res = 1;
  int it = 0;
#pragma omp parallel
  {
    while (res > TOL && it < MAXIT) {
      for (int colour = 0; colour < 2; colour++) {
#pragma omp for collapse(2)
        for (int i = 1; i <= M; i++)
          for (int j = 1; j <= M; j++)
            if ((i + j) % 2 == colour) u[i][j] = relax(u, f, c, i, j);
      }
#pragma omp barrier
#pragma omp single
      res = 0;
#pragma omp for collapse(2) reduction(max : res)
      for (int i = 1; i <= M; i++)
        for (int j = 1; j <= M; j++) {
          double r = 4 * u[i][j] + c[(i - 1) * M + j - 1] * u[i][j] - u[i - 1][j] - u[i + 1][j] - u[i][j - 1] -
                     u[i][j + 1] - f[(i - 1) * M + j - 1];
          res = fmax(res, fabs(r));
        }
#pragma omp single
      it++;
    }
  }
  sweeps_done = it;
  double s = 0;
  for (int i = 1; i <= M; i++)
    for (int j = 1; j <= M; j++) s += u[i][j] * u[i][j] * (1 + 0.05 * (i * M + j));
  return s;
}

static int serial_sweeps;
static double serial(const double *f, const double *c) {
  double u[M + 2][M + 2] = {{0}};
  double res = 1;
  int it = 0;
  while (res > TOL && it < MAXIT) {
    for (int colour = 0; colour < 2; colour++)
      for (int i = 1; i <= M; i++)
        for (int j = 1; j <= M; j++)
          if ((i + j) % 2 == colour) u[i][j] = relax(u, f, c, i, j);
    res = 0;
    for (int i = 1; i <= M; i++)
      for (int j = 1; j <= M; j++) {
        double r = 4 * u[i][j] + c[(i - 1) * M + j - 1] * u[i][j] - u[i - 1][j] - u[i + 1][j] - u[i][j - 1] -
                   u[i][j + 1] - f[(i - 1) * M + j - 1];
        res = fmax(res, fabs(r));
      }
    it++;
  }
  serial_sweeps = it;
  double s = 0;
  for (int i = 1; i <= M; i++)
    for (int j = 1; j <= M; j++) s += u[i][j] * u[i][j] * (1 + 0.05 * (i * M + j));
  return s;
}

static double fs[M * M], cs[M * M];
static double eval(void *ctx) { (void)ctx; return serial(fs, cs); }

int main(void) {
  fz_seed(97);
  fz_fill(fs, M * M, -1, 1);
  fz_fill(cs, M * M, 0.2, 0.6);
  double gf[M * M], gc[M * M], vf[M * M], vc[M * M];
  fz_zero(gf, M * M);
  fz_zero(gc, M * M);
  fz_check("value vs serial", solve(fs, cs), serial(fs, cs), 1e-12);
  fz_check("sweeps vs serial", sweeps_done, serial_sweeps, 0);
  fz_check("converged before the cap", sweeps_done < MAXIT, 1, 0);
  __enzyme_autodiff((void *)solve, enzyme_dup, fs, gf, enzyme_dup, cs, gc);
  for (int k = 0; k < M * M; k++) {
    char name[32];
    snprintf(name, sizeof name, "d/df[%d] vs fd", k);
    fz_check(name, gf[k], fz_fd_ptr(eval, 0, &fs[k]), 1e-6);
    snprintf(name, sizeof name, "d/dc[%d] vs fd", k);
    fz_check(name, gc[k], fz_fd_ptr(eval, 0, &cs[k]), 1e-6);
  }
  fz_fill(vf, M * M, -1, 1);
  fz_fill(vc, M * M, -1, 1);
  double jv = __enzyme_fwddiff((void *)solve, enzyme_dup, fs, vf, enzyme_dup, cs, vc);
  double dot = 0;
  for (int k = 0; k < M * M; k++) dot += gf[k] * vf[k] + gc[k] * vc[k];
  fz_check("forward . v = reverse . v", jv, dot, 1e-10);
  return fz_finish();
}
