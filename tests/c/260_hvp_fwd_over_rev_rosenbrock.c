// OPT: O0 O2 O3
// Forward-over-reverse Hessian-vector product of the Rosenbrock function,
// n = 2 and n = 10: grad() calls __enzyme_autodiff, and
// __enzyme_fwddiff(grad, dup x v, dup g hv) gives hv = H v (g = gradient).
// Oracles: the analytic tridiagonal Hessian times v, and FD of the
// reverse-mode gradient along v.
#include "fz_test.h"
#include "fz_modes.h"

double rosen(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n - 1; i++) {
    double a = x[i + 1] - x[i] * x[i], b = 1.0 - x[i];
    s += 100.0 * a * a + b * b;
  }
  return s;
}

void grad(const double *x, double *g, int n) {
  for (int i = 0; i < n; i++) g[i] = 0.0;
  __enzyme_autodiff((void *)rosen, enzyme_dup, x, g, enzyme_const, n);
}

static void hess_vec(const double *x, const double *v, int n, double *hv) {
  for (int i = 0; i < n; i++) hv[i] = 0.0;
  for (int i = 0; i < n - 1; i++) {
    hv[i] += (1200.0 * x[i] * x[i] - 400.0 * x[i + 1] + 2.0) * v[i] - 400.0 * x[i] * v[i + 1];
    hv[i + 1] += -400.0 * x[i] * v[i] + 200.0 * v[i + 1];
  }
}

static double X[10];
static int NN;
static void e_grad(void *c, double *out) { (void)c; grad(X, out, NN); }

int main(void) {
  fz_seed(260);
  const int ns[2] = {2, 10};
  for (int k = 0; k < 2; k++) {
    NN = ns[k];
    for (int t = 0; t < 3; t++) {
      double v[10], g[10], hv[10], want[10], fd[10];
      fz_fill(X, NN, -1.2, 1.2);
      fz_fill(v, NN, -1, 1);
      for (int i = 0; i < NN; i++) hv[i] = 1e30; /* overwritten: g is written by grad */
      __enzyme_fwddiff_void((void *)grad, enzyme_dup, X, v, enzyme_dup, g, hv, enzyme_const, NN);
      hess_vec(X, v, NN, want);
      fz_fd_jvp(e_grad, NULL, X, v, NN, NN, fd);
      char what[64];
      snprintf(what, sizeof what, "H v (n=%d)", NN);
      fz_mcheck2_arr(what, hv, want, 1e-10, fd, 1e-6, NN);
      double gref[10];
      grad(X, gref, NN);
      fz_mcheck_arr("gradient written by the primal of grad", g, gref, NN, 1e-15);
    }
  }
  return fz_finish();
}
