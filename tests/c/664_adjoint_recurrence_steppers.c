// OPT: O0 O1 O2 O3
// ODE steppers whose reverse loop carries the state's adjoint as a fixed linear map of
// itself (issue 14, native11; crates/ferrozyme-transform/src/adjoint_chain.rs): after
// the pipeline the map's coefficient is computed once before the reverse loop and the
// loop carries `d * C`. Shapes: the RK4 benchmark's integrate_const loop (state in a
// one-element array, stepped in place, d x(T)/dT through the step size, the step count
// fixed), Heun with a constant step (only the carried adjoint: d/dx0), explicit Euler
// with an active rate (the rate's adjoint accumulates beside the carried one), and two
// shapes the rewrite must leave alone: the logistic map (coefficients read from the
// tape each step) and a two-state rotation (each adjoint depends on the other's).
// 664_adjoint_recurrence_steppers_v3.c builds the same program with -march=x86-64-v3.
// Oracles: closed forms (the stepper's amplification factor R(z) to the n-th power and
// its derivative) at 1e-10, and central finite differences (fz_fd_ptr) for every input.
#include <float.h>

#include "fz_test.h"

/* RK4, the bench's shape (bench/src/rk4.c, ode_common.h) */
static void decay_rhs(const double *x, double *dxdt) { dxdt[0] = -1.2 * x[0]; }

static void rk4_step(double *x, double dt) {
  double k1[1], k2[1], k3[1], k4[1], xt[1];
  double dh = 0.5 * dt;
  decay_rhs(x, k1);
  xt[0] = x[0] + dh * k1[0];
  decay_rhs(xt, k2);
  xt[0] = x[0] + dh * k2[0];
  decay_rhs(xt, k3);
  xt[0] = x[0] + dt * k3[0];
  decay_rhs(xt, k4);
  x[0] = x[0] + dt / 6.0 * k1[0] + dt / 3.0 * k2[0] + dt / 3.0 * k3[0] + dt / 6.0 * k4[0];
}

double rk4_T(double T, unsigned long N) {
  double x[1] = {1.0}, dt = T / (double)N, t = 0.0;
  long step = 0;
  while ((t + dt) - T <= DBL_EPSILON) {
    rk4_step(x, dt);
    ++step;
    t = (double)step * dt;
  }
  return x[0];
}

/* Heun, constant step, derivative in x0 only */
double heun(double x, double h, long n) {
  for (long i = 0; i < n; i++) {
    double k1 = -1.2 * x;
    double k2 = -1.2 * (x + h * k1);
    x = x + 0.5 * h * (k1 + k2);
  }
  return x;
}

/* explicit Euler, x' = -k x, active rate */
double euler(double x, double k, long n) {
  double h = 1.0 / n;
  for (long i = 0; i < n; i++) x = x - h * k * x;
  return x;
}

/* left alone: coefficients from the tape */
double logistic(double x, double h, long n) {
  for (long i = 0; i < n; i++) x = x + h * x * (1.0 - x);
  return x;
}

/* left alone: two coupled adjoints */
double rotation(double x, double y, long n) {
  double h = 0.01;
  for (long i = 0; i < n; i++) {
    double xn = x - h * y;
    y = y + h * x;
    x = xn;
  }
  return x + 0.3 * y;
}

struct tctx { double T; unsigned long N; };
static double t_eval(void *p) { struct tctx *c = p; return rk4_T(c->T, c->N); }
struct hctx { double x, h; long n; };
static double heun_eval(void *p) { struct hctx *c = p; return heun(c->x, c->h, c->n); }
static double logi_eval(void *p) { struct hctx *c = p; return logistic(c->x, c->h, c->n); }
struct ectx { double x, k; long n; };
static double euler_eval(void *p) { struct ectx *c = p; return euler(c->x, c->k, c->n); }
struct rctx { double x, y; long n; };
static double rot_eval(void *p) { struct rctx *c = p; return rotation(c->x, c->y, c->n); }

int main(void) {
  /* RK4 through T: x(T) = R(z)^N, z = -1.2 T / N */
  struct tctx t = {2.1, 1000};
  double dT = __enzyme_autodiff((void *)rk4_T, t.T, enzyme_const, t.N);
  double z = -1.2 * t.T / t.N;
  double R = 1 + z + z * z / 2 + z * z * z / 6 + z * z * z * z / 24;
  double dR = 1 + z + z * z / 2 + z * z * z / 6;
  fz_check("rk4 dT analytic", dT, t.N * pow(R, t.N - 1) * dR * (-1.2 / t.N), 1e-10);
  fz_check("rk4 dT fd", dT, fz_fd_ptr(t_eval, &t, &t.T), 1e-6);

  /* Heun in x0: (1 + z + z^2/2)^n, z = -1.2 h */
  struct hctx hh = {0.8, 0.01, 500};
  double dx = __enzyme_autodiff((void *)heun, hh.x, enzyme_const, hh.h, hh.n);
  double zh = -1.2 * hh.h;
  fz_check("heun dx0 analytic", dx, pow(1 + zh + zh * zh / 2, hh.n), 1e-10);
  fz_check("heun dx0 fd", dx, fz_fd_ptr(heun_eval, &hh, &hh.x), 1e-6);

  /* Euler: x0 (1 - k/n)^n */
  struct ectx e = {1.5, 0.9, 400};
  fz_grad2 ge = __enzyme_autodiff2((void *)euler, e.x, e.k, enzyme_const, e.n);
  double q = 1 - e.k / e.n;
  fz_check("euler dx0 analytic", ge.d0, pow(q, e.n), 1e-10);
  fz_check("euler dk analytic", ge.d1, -e.x * pow(q, e.n - 1), 1e-10);
  fz_check("euler dx0 fd", ge.d0, fz_fd_ptr(euler_eval, &e, &e.x), 1e-6);
  fz_check("euler dk fd", ge.d1, fz_fd_ptr(euler_eval, &e, &e.k), 1e-6);

  /* logistic map in x0 */
  struct hctx lg = {0.2, 0.05, 300};
  double dl = __enzyme_autodiff((void *)logistic, lg.x, enzyme_const, lg.h, lg.n);
  fz_check("logistic dx0 fd", dl, fz_fd_ptr(logi_eval, &lg, &lg.x), 1e-6);

  /* rotation in both states */
  struct rctx r = {0.7, -0.4, 250};
  fz_grad2 gr = __enzyme_autodiff2((void *)rotation, r.x, r.y, enzyme_const, r.n);
  fz_check("rotation dx0 fd", gr.d0, fz_fd_ptr(rot_eval, &r, &r.x), 1e-6);
  fz_check("rotation dy0 fd", gr.d1, fz_fd_ptr(rot_eval, &r, &r.y), 1e-6);
  return fz_finish();
}
