// OMP_THREADS: 1 2
// OPT: O0 O2
// Loops a scientist writes: `schedule(static, 3)`, `schedule(guided)`, `collapse(2)` over
// a 2-D grid, a reduction of two variables at once, `firstprivate`/`lastprivate`, and a
// user function called inside the parallel loop. Checked against the analytic gradient,
// central finite differences and forward mode (the dot-product identity).
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define NX 12
#define NY 9

static double bump(double a, double b) { return a * exp(-0.5 * b * b); }

/* Two reductions (sum and sum of squares), static chunks of 3, firstprivate scale. */
double variance_like(const double *x, int n, double scale) {
  double s = 0, q = 0;
#pragma omp parallel for schedule(static, 3) reduction(+ : s, q) firstprivate(scale)
  for (int i = 0; i < n; i++) {
    double v = scale * x[i];
    s += v;
    q += v * v;
  }
  return q / n - (s / n) * (s / n);
}

/* collapse(2) over a grid with a user function, guided schedule; lastprivate j0. */
double grid_energy(const double *u, double *out) {
  double e = 0;
  int last = 0;
#pragma omp parallel for collapse(2) schedule(guided) reduction(+ : e) lastprivate(last)
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++) {
      double c = u[i * NY + j];
      double r = u[((i + 1) % NX) * NY + j];
      out[i * NY + j] = bump(c, r);
      e += out[i * NY + j] * c;
      last = i * NY + j;
    }
  return e + 0.001 * last;
}

static double x[NX * NY], u[NX * NY], outb[NX * NY];
static double eval_grid(void *ctx) {
  (void)ctx;
  return grid_energy(u, outb);
}
static double eval_var(void *ctx) {
  (void)ctx;
  return variance_like(x, NX * NY, 1.3);
}

int main(void) {
  fz_seed(310);
  int n = NX * NY;
  fz_fill(x, n, -1, 1);
  fz_fill(u, n, -1, 1);
  double dx[NX * NY], want[NX * NY];
  fz_zero(dx, n);
  __enzyme_autodiff((void *)variance_like, enzyme_dup, x, dx, enzyme_const, n, enzyme_const,
                    1.3);
  double m = 0;
  for (int i = 0; i < n; i++) m += 1.3 * x[i];
  m /= n;
  for (int i = 0; i < n; i++) want[i] = 2.0 * 1.3 * (1.3 * x[i] - m) / n;
  fz_check_arr("d variance analytic", dx, want, n, 1e-12);
  for (int i = 0; i < n; i += 17) {
    char name[32];
    snprintf(name, sizeof name, "var fd[%d]", i);
    fz_check(name, dx[i], fz_fd_ptr(eval_var, 0, &x[i]), 1e-6);
  }

  double du[NX * NY], o[NX * NY], dout[NX * NY];
  fz_zero(du, n);
  fz_zero(dout, n);
  __enzyme_autodiff((void *)grid_energy, enzyme_dup, u, du, enzyme_dup, o, dout);
  for (int i = 0; i < n; i += 7) {
    char name[32];
    snprintf(name, sizeof name, "grid fd[%d]", i);
    fz_check(name, du[i], fz_fd_ptr(eval_grid, 0, &u[i]), 1e-6);
  }
  double v[NX * NY], tout[NX * NY];
  fz_fill(v, n, -1, 1);
  fz_zero(tout, n);
  double jvp = __enzyme_fwddiff((void *)grid_energy, enzyme_dup, u, v, enzyme_dup, o, tout);
  double dot = 0;
  for (int i = 0; i < n; i++) dot += du[i] * v[i];
  fz_check("forward <J v> = <grad, v>", jvp, dot, 1e-10);
  return fz_finish();
}
