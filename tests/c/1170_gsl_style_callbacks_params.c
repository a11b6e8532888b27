// OPT: O0 O1 O2 O3
// Library-style numerical routines taking a callback and an opaque parameter block, the
// GSL way: `struct fn { double (*function)(double x, void *params); void *params; }`
// passed by pointer (enzyme_dup with a shadow struct whose params point to the shadow
// parameters, as Enzyme's users pass such structs), used by a composite Simpson
// quadrature and by a Newton root finder that calls a derivative callback; the model's
// parameters are a struct of doubles behind the void *. A second model is a different
// function of the same type, chosen at run time through the struct (the call through a
// pointer dispatches to its derivative). Oracle: analytic derivatives of the integral
// and of the root (implicit function theorem), forward mode.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

typedef struct {
  double (*function)(double x, void *params);
  void *params;
} fn_t;

typedef struct { double amp, rate; } decay_params;

static double decay(double x, void *params) {
  decay_params *p = params;
  return p->amp * exp(-p->rate * x);
}
static double ramp(double x, void *params) {
  decay_params *p = params;
  return p->amp * x + p->rate * x * x;
}

static double simpson(const fn_t *F, double a, double b, int n) {
  double h = (b - a) / n, s = F->function(a, F->params) + F->function(b, F->params);
  for (int i = 1; i < n; i++) s += (i % 2 ? 4.0 : 2.0) * F->function(a + i * h, F->params);
  return s * h / 3.0;
}

double integral_objective(const fn_t *F, double upper) { return simpson(F, 0.0, upper, 200); }

/* root of g(x) = F(x) - target by Newton with the derivative from a second callback */
static double newton(const fn_t *F, const fn_t *dF, double target, double x0) {
  double x = x0;
  for (int it = 0; it < 50; it++) {
    double step = (F->function(x, F->params) - target) / dF->function(x, dF->params);
    x -= step;
    if (fabs(step) < 1e-15 * (1 + fabs(x))) break;
  }
  return x;
}
static double ddecay(double x, void *params) {
  decay_params *p = params;
  return -p->rate * p->amp * exp(-p->rate * x);
}
double root_objective(const fn_t *F, const fn_t *dF, double target) {
  return newton(F, dF, target, 0.1);
}

int main(void) {
  decay_params p = {2.0, 0.7}, dp = {0, 0};
  fn_t F = {decay, &p}, dF = {decay, &dp};
  double T = 3.0;
  double dT = __enzyme_autodiff((void *)integral_objective, enzyme_dup, &F, &dF, enzyme_out, T);
  /* I = amp (1 - e^{-rT}) / r */
  double E = exp(-p.rate * T);
  fz_check("dI/dT (integrand at T)", dT, p.amp * E, 1e-8);
  fz_check("dI/damp", dp.amp, (1 - E) / p.rate, 1e-8);
  fz_check("dI/drate", dp.rate, p.amp * (T * E / p.rate - (1 - E) / (p.rate * p.rate)), 1e-8);
  /* the other model through the same struct type */
  decay_params q = {1.5, -0.4}, dq = {0, 0};
  fn_t G = {ramp, &q}, dG = {ramp, &dq};
  double dT2 = __enzyme_autodiff((void *)integral_objective, enzyme_dup, &G, &dG, enzyme_out, T);
  fz_check("ramp dI/dT", dT2, q.amp * T + q.rate * T * T, 1e-10);
  fz_check("ramp dI/damp", dq.amp, T * T / 2, 1e-10);
  fz_check("ramp dI/drate", dq.rate, T * T * T / 3, 1e-10);
  /* forward mode through the struct: tangent of the parameters */
  decay_params tp = {1.0, 0.0};
  fn_t tF = {decay, &tp};
  double t = __enzyme_fwddiff((void *)integral_objective, enzyme_dup, &F, &tF, T, 0.0);
  fz_check("forward dI/damp", t, (1 - E) / p.rate, 1e-8);
  /* root: amp e^{-r x} = target  ->  x = log(amp/target)/r */
  double target = 0.5;
  decay_params dp2 = {0, 0}, dpd = {0, 0};
  fn_t dF2 = {decay, &dp2}, Fd = {ddecay, &p}, dFd = {ddecay, &dpd};
  double dtarget = __enzyme_autodiff((void *)root_objective, enzyme_dup, &F, &dF2, enzyme_dup,
                                     &Fd, &dFd, enzyme_out, target);
  double x = log(p.amp / target) / p.rate;
  fz_check("root primal", root_objective(&F, &Fd, target), x, 1e-12);
  fz_check("root d/dtarget", dtarget, -1 / (target * p.rate), 1e-9);
  /* the derivative callback's parameters move the iterates, not the converged root */
  fz_check("root d/damp (through F)", dp2.amp + dpd.amp, 1 / (p.amp * p.rate), 1e-9);
  fz_check("root d/drate (through F)", dp2.rate + dpd.rate, -x / p.rate, 1e-9);
  return fz_finish();
}
