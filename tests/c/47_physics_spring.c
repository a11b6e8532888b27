// OPT: O0 O1 O2 O3
// "Physics": a chain of masses connected by (slightly nonlinear) springs,
// integrated with symplectic Euler for many steps. The final energy is
// differentiated w.r.t. the initial positions/velocities (dup arrays) and the
// spring constant k (active scalar); damping is a constant. Prints TIMING.
#include "fz_test.h"

double simulate(const double *x0, const double *v0, double k, double damp, int n, int steps) {
  double *x = (double *)malloc(sizeof(double) * (size_t)n);
  double *v = (double *)malloc(sizeof(double) * (size_t)n);
  memcpy(x, x0, sizeof(double) * (size_t)n);
  memcpy(v, v0, sizeof(double) * (size_t)n);
  const double dt = 0.01;
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++) {
      double left = i > 0 ? x[i - 1] : 0.0;
      double right = i < n - 1 ? x[i + 1] : 0.0;
      double e1 = x[i] - left, e2 = right - x[i];
      double f = -k * (e1 + 0.1 * e1 * e1 * e1) + k * (e2 + 0.1 * e2 * e2 * e2) - damp * v[i];
      v[i] += dt * f;
    }
    for (int i = 0; i < n; i++) x[i] += dt * v[i];
  }
  double e = 0.0;
  for (int i = 0; i <= n; i++) {
    double l = i > 0 ? x[i - 1] : 0.0, r = i < n ? x[i] : 0.0, d = r - l;
    e += 0.5 * k * (d * d + 0.05 * d * d * d * d);
  }
  for (int i = 0; i < n; i++) e += 0.5 * v[i] * v[i];
  free(x);
  free(v);
  return e;
}

#define N 8
#define STEPS 200
struct ctx { double *x0, *v0, *dx, *dv; double k, damp, dk; };
static double eval(void *c) { struct ctx *q = c; return simulate(q->x0, q->v0, q->k, q->damp, N, STEPS); }
static void run_primal(void *c) { fz_sink = eval(c); }
static void run_grad(void *c) {
  struct ctx *q = c;
  fz_zero(q->dx, N);
  fz_zero(q->dv, N);
  q->dk = __enzyme_autodiff((void *)simulate, enzyme_dup, q->x0, q->dx, enzyme_dup, q->v0, q->dv,
                            enzyme_out, q->k, enzyme_const, q->damp, enzyme_const, N,
                            enzyme_const, STEPS);
}

int main(void) {
  fz_seed(47);
  double x0[N], v0[N], dx[N], dv[N], fd[N];
  fz_fill(x0, N, -0.5, 0.5);
  fz_fill(v0, N, -0.5, 0.5);
  struct ctx c = {x0, v0, dx, dv, fz_uniform(1.0, 2.0), 0.05, 0.0};
  run_grad(&c);
  fz_fd_grad(eval, &c, x0, N, fd);
  fz_check_arr("dE/dx0 fd", dx, fd, N, 1e-6);
  fz_fd_grad(eval, &c, v0, N, fd);
  fz_check_arr("dE/dv0 fd", dv, fd, N, 1e-6);
  fz_check("dE/dk fd", c.dk, fz_fd_ptr(eval, &c, &c.k), 1e-6);
  double tp = fz_time_ns(run_primal, &c);
  double tg = fz_time_ns(run_grad, &c);
  fz_timing(tp, tg);
  return fz_finish();
}
