// OPT: O0 O1 O2 O3
// Split mode as a time-stepping adjoint writes it: one __enzyme_augmentfwd per step of a
// damped pendulum (state struct {theta, omega}, an enzyme_out step size and a const
// parameter struct), the tapes kept in an array, then __enzyme_reverse over the steps in
// reverse order (last in, first out), accumulating d(loss)/d(state0) through the state
// shadows and d(loss)/d(h) from each step's returned adjoint. The step returns its energy
// (the loss sums them: a dret of 1 per step). __enzyme_augmentsize is checked to be a
// size. Oracle: central differences of the whole primal loop.
#include "fz_test.h"

typedef struct { double theta, omega; } state;
typedef struct { double g, len, damp; int substeps; } params;

extern void *__enzyme_augmentfwd(void *, ...);
extern double __enzyme_reverse(void *, ...);
extern size_t __enzyme_augmentsize(void *, ...);
extern int enzyme_out;

double step(state *s, double h, const params *p) {
  double dt = h / p->substeps;
  for (int k = 0; k < p->substeps; k++) {
    double a = -(p->g / p->len) * sin(s->theta) - p->damp * s->omega;
    s->omega += dt * a;
    s->theta += dt * s->omega;
  }
  return 0.5 * p->len * p->len * s->omega * s->omega + p->g * p->len * (1 - cos(s->theta));
}

enum { N = 12 };
static const params P = {9.81, 1.3, 0.15, 3};

static double run(state s, double h) {
  double loss = 0;
  for (int n = 0; n < N; n++) loss += step(&s, h, &P);
  return loss;
}

static state g_s0 = {0.7, -0.2};
static double g_h = 0.05;
static double eval(void *c) {
  (void)c;
  return run(g_s0, g_h);
}

int main(void) {
  size_t sz = __enzyme_augmentsize((void *)step, enzyme_dup, enzyme_out, enzyme_const);
  fz_check("augmentsize is a size", sz < (1u << 20), 1, 0);
  state s = g_s0, ds = {0, 0};
  void *tapes[N];
  for (int n = 0; n < N; n++)
    tapes[n] = __enzyme_augmentfwd((void *)step, enzyme_dup, &s, &ds, enzyme_out, g_h,
                                   enzyme_const, &P);
  state sp = g_s0;
  for (int n = 0; n < N; n++) step(&sp, g_h, &P);
  fz_check("augmented steps ran the primal (theta)", s.theta, sp.theta, 1e-14);
  fz_check("augmented steps ran the primal (omega)", s.omega, sp.omega, 1e-14);
  double dh = 0;
  for (int n = N - 1; n >= 0; n--)
    dh += __enzyme_reverse((void *)step, enzyme_dup, &s, &ds, enzyme_out, g_h, enzyme_const,
                           &P, 1.0, tapes[n]);
  fz_check("d theta0", ds.theta, fz_fd_ptr(eval, NULL, &g_s0.theta), 1e-6);
  fz_check("d omega0", ds.omega, fz_fd_ptr(eval, NULL, &g_s0.omega), 1e-6);
  fz_check("d h", dh, fz_fd_ptr(eval, NULL, &g_h), 1e-6);
  return fz_finish();
}
