// OPT: O0 O1 O2 O3
// Forward over reverse through a time loop that qualifies for automatic checkpointing
// (checkpoint/auto.rs): grad() calls __enzyme_autodiff of a plain explicit time stepper
// (state through two pointer arguments, a periodic stencil, sin), and
// __enzyme_fwddiff(grad, dup x v, dup g hv) gives hv = H v. This is what the Python
// package's fz_hvp wrapper does with a user's simulator (python/tests/csrc/heat.c). The
// nested reverse call used to become a checkpoint candidate, and the outer forward
// derivative then had to differentiate the checkpoint driver: compile errors (calls
// through function pointers, fread, remove). A nested reverse hook now keeps its loops
// taped (tests/filetests/auto_checkpoint_not_nested.ll). n = 0, 1, 5, 40 steps, also with
// FERROZYME_TAPE_BUDGET=1 set (it must change nothing here). Oracles: the analytic
// Hessian for n = 0 (the loss alone), central finite differences of the reverse-mode
// gradient along v, and the symmetry u . (H v) = v . (H u).
#include "fz_test.h"
#include "fz_modes.h"
#include <stdlib.h>

#define M 10

__attribute__((noinline)) double ode(double *x, double *tmp, int m, long nsteps) {
  for (long t = 0; t < nsteps; t++) {
    for (int i = 0; i < m; i++) {
      double r = x[i + 1 < m ? i + 1 : 0];
      double lap = r - 2 * x[i] + x[i > 0 ? i - 1 : m - 1];
      tmp[i] = x[i] + 0.05 * (0.8 * lap + sin(x[i]) * r);
    }
    for (int i = 0; i < m; i++)
      x[i] = tmp[i];
  }
  double s = 0;
  for (int i = 0; i < m; i++)
    s += x[i] * x[i] * (1 + 0.1 * i);
  return s;
}

static long NSTEPS;

/* g = d ode / d x0 (x0 is not modified). */
void grad(const double *x0, double *g) {
  double x[M], tmp[M], dtmp[M];
  for (int i = 0; i < M; i++) {
    x[i] = x0[i];
    g[i] = 0.0;
    dtmp[i] = 0.0;
  }
  __enzyme_autodiff((void *)ode, enzyme_dup, x, g, enzyme_dup, tmp, dtmp, enzyme_const, M,
                    enzyme_const, NSTEPS);
}

static double X[M];
static void e_grad(void *c, double *out) { (void)c; grad(X, out); }

static void hvp(const double *v, double *hv) {
  double g[M];
  for (int i = 0; i < M; i++) hv[i] = 0.0;
  __enzyme_fwddiff_void((void *)grad, enzyme_dup, X, v, enzyme_dup, g, hv);
}

int main(void) {
  fz_seed(960);
  const long steps[4] = {0, 1, 5, 40};
  for (int pass = 0; pass < 2; pass++) {
    if (pass == 1) setenv("FERROZYME_TAPE_BUDGET", "1", 1);
    for (int k = 0; k < 4; k++) {
      NSTEPS = steps[k];
      double v[M], u[M], hv[M], hu[M], fd[M];
      fz_fill(X, M, -0.8, 0.8);
      fz_fill(v, M, -1, 1);
      fz_fill(u, M, -1, 1);
      hvp(v, hv);
      hvp(u, hu);
      char what[96];
      snprintf(what, sizeof what, "H v (n=%ld, budget %s)", NSTEPS, pass ? "1" : "unset");
      if (NSTEPS == 0) {
        double want[M];
        for (int i = 0; i < M; i++) want[i] = 2.0 * (1 + 0.1 * i) * v[i];
        fz_mcheck_arr(what, hv, want, M, 1e-14);
      }
      fz_fd_jvp(e_grad, NULL, X, v, M, M, fd);
      fz_mcheck_arr(what, hv, fd, M, 1e-6);
      snprintf(what, sizeof what, "u.(H v) = v.(H u) (n=%ld)", NSTEPS);
      if (FZ_MODE_RESULTS) fz_check(what, fz_dot(u, hv, M), fz_dot(v, hu, M), 1e-12);
    }
  }
  return fz_finish();
}
