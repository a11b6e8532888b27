// OPT: O0 O2
// An explicit Euler integrator taking its right-hand side as a
// `const std::function<void(const double *, double *)> &`, as users write it: two lambdas
// of the same type (a damped and an undamped oscillator, picked at run time), both
// capturing the `enzyme_const` parameters `p` by reference. At -O0 the std::function's
// storage keeps the closure, which holds the constant `p`'s address beside the active
// state, and the integrator calls the invoker through a pointer with two possible targets:
// each gets its derivative under run-time activity checks (refused before cxx38, like
// tests/cxx/452). Oracles: the exact adjoint of the linear recurrence s <- (I + h A) s
// written out by hand (gradient (B^N)^T Q s_N of E = 0.5 s_N^T Q s_N), central finite
// differences, forward mode against the reverse gradient, the parameters unchanged.
#include "fz_cxx.h"
#include <functional>

typedef std::function<void(const double *, double *)> Rhs;

static void euler(const Rhs &rhs, double *s, int steps, double h) {
  double d[2];
  for (int t = 0; t < steps; t++) {
    rhs(s, d);
    s[0] += h * d[0];
    s[1] += h * d[1];
  }
}

// p = {k, c}: x'' = -k x - c x' (damped) or -k x (undamped); energy 0.5 v^2 + 0.5 k x^2.
double energy_after(double *s0, const double *p, int damped, int steps) {
  double s[2] = {s0[0], s0[1]};
  Rhs with_damping = [&](const double *u, double *du) {
    du[0] = u[1];
    du[1] = -p[0] * u[0] - p[1] * u[1];
  };
  Rhs without = [&](const double *u, double *du) {
    du[0] = u[1];
    du[1] = -p[0] * u[0];
  };
  euler(damped ? with_damping : without, s, steps, 0.05);
  return 0.5 * s[1] * s[1] + 0.5 * p[0] * s[0] * s[0];
}

// The exact gradient: B = I + h A, s_N = B^N s0, dE/ds0 = (B^N)^T Q s_N, Q = diag(k, 1).
static void exact(const double *s0, const double *p, int damped, int steps, double *g) {
  double h = 0.05, c = damped ? p[1] : 0.0;
  double B[2][2] = {{1, h}, {-h * p[0], 1 - h * c}};
  double P[2][2] = {{1, 0}, {0, 1}};
  for (int t = 0; t < steps; t++) {
    double R[2][2];
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 2; j++) R[i][j] = B[i][0] * P[0][j] + B[i][1] * P[1][j];
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 2; j++) P[i][j] = R[i][j];
  }
  double sn[2] = {P[0][0] * s0[0] + P[0][1] * s0[1], P[1][0] * s0[0] + P[1][1] * s0[1]};
  double qs[2] = {p[0] * sn[0], sn[1]};
  for (int j = 0; j < 2; j++) g[j] = P[0][j] * qs[0] + P[1][j] * qs[1];
}

int main() {
  double s0[2], p[2], p0[2];
  fz_seed(447);
  s0[0] = fz_uniform(-1, 1);
  s0[1] = fz_uniform(-1, 1);
  p0[0] = p[0] = fz_uniform(0.5, 2);
  p0[1] = p[1] = fz_uniform(0.1, 0.5);
  for (int damped = 0; damped < 2; damped++) {
    double g[2] = {0, 0}, ex[2], fd[2];
    __enzyme_autodiff<void>((void *)energy_after, enzyme_dup, s0, g, enzyme_const, p,
                            enzyme_const, damped, enzyme_const, 40);
    exact(s0, p, damped, 40, ex);
    fz_fd_grad_of([&] { return energy_after(s0, p, damped, 40); }, s0, 2, fd);
    for (int i = 0; i < 2; i++) {
      fz_check(damped ? "damped: reverse vs exact adjoint" : "undamped: reverse vs exact adjoint",
               g[i], ex[i], 1e-10);
      fz_check(damped ? "damped: reverse vs fd" : "undamped: reverse vs fd", g[i], fd[i], 1e-6);
    }
    double ds[2] = {fz_uniform(-1, 1), fz_uniform(-1, 1)};
    double tan = __enzyme_fwddiff<double>((void *)energy_after, enzyme_dup, s0, ds, enzyme_const,
                                          p, enzyme_const, damped, enzyme_const, 40);
    fz_check("forward tangent vs reverse . ds", tan, g[0] * ds[0] + g[1] * ds[1], 1e-10);
  }
  fz_check("the constant parameters are unchanged", p[0] == p0[0] && p[1] == p0[1], 1, 0);
  return fz_finish();
}
