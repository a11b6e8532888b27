// OPT: O0 O1 O2 O3
// Registered reverse and forward derivatives (`__enzyme_register_gradient_*`,
// `__enzyme_register_derivative_*`) of a function taking a pointer to a struct of
// parameters and a state array: `double spring_energy(const spring *sp, const double *x)`
// with sp = {k, rest, int n}. The rules hand-write the derivative (the body also computes
// something different on purpose, a cheaper approximation, so a use of the body instead
// of the rule shows; the augmented rule returns {tape, exact result}). Both the struct's shadow (dk, drest) and the state's receive
// adjoints. The caller loops over several springs (the rule is called in a loop).
// Oracle: the analytic derivative of the exact energy.
#include "fz_test.h"

extern int enzyme_dup, enzyme_const;
extern double __enzyme_fwddiff(void *, ...);

typedef struct {
  double k, rest;
  int n;
} spring;

/* The body: a first-order approximation of sqrt (deliberately not the exact energy). */
__attribute__((noinline)) double spring_energy(const spring *sp, const double *x) {
  double e = 0;
  for (int i = 0; i + 1 < sp->n; i++) {
    double d = x[i + 1] - x[i];
    double l = 1 + 0.5 * (d * d - 1); /* ~ sqrt(1 + (d^2-1)) */
    e += 0.5 * sp->k * (l - sp->rest) * (l - sp->rest);
  }
  return e;
}

/* exact: l = sqrt(1 + d^2) */
static double exact_energy(const spring *sp, const double *x) {
  double e = 0;
  for (int i = 0; i + 1 < sp->n; i++) {
    double d = x[i + 1] - x[i], l = sqrt(1 + d * d);
    e += 0.5 * sp->k * (l - sp->rest) * (l - sp->rest);
  }
  return e;
}

typedef struct {
  void *tape;
  double result;
} aug_ret;

static aug_ret aug_energy(const spring *sp, spring *dsp, const double *x, double *dx) {
  (void)dsp, (void)dx;
  aug_ret r = {NULL, exact_energy(sp, x)};
  return r;
}

static void rev_energy(const spring *sp, spring *dsp, const double *x, double *dx, double dret,
                       void *tape) {
  (void)tape;
  for (int i = 0; i + 1 < sp->n; i++) {
    double d = x[i + 1] - x[i], l = sqrt(1 + d * d), r = l - sp->rest;
    dsp->k += dret * 0.5 * r * r;
    dsp->rest -= dret * sp->k * r;
    double dd = dret * sp->k * r * d / l;
    dx[i + 1] += dd;
    dx[i] -= dd;
  }
}

static double fwd_energy(const spring *sp, const spring *dsp, const double *x, const double *dx) {
  double t = 0;
  for (int i = 0; i + 1 < sp->n; i++) {
    double d = x[i + 1] - x[i], l = sqrt(1 + d * d), r = l - sp->rest;
    double dd = dx[i + 1] - dx[i];
    t += dsp->k * 0.5 * r * r + sp->k * r * (d * dd / l - dsp->rest);
  }
  return t;
}

void *__enzyme_register_gradient_energy[] = {(void *)spring_energy, (void *)aug_energy,
                                             (void *)rev_energy};
void *__enzyme_register_derivative_energy[] = {(void *)spring_energy, (void *)fwd_energy};

enum { S = 3, NX = 5 };

double total(const spring *sps, const double *x) {
  double e = 0;
  for (int s = 0; s < S; s++) e += (s + 1) * spring_energy(&sps[s], x);
  return e;
}

int main(void) {
  spring sps[S] = {{2.0, 1.1, NX}, {0.5, 0.9, 4}, {1.5, 1.3, 3}};
  spring dsps[S];
  memset(dsps, 0, sizeof dsps);
  double x[NX] = {0.1, 0.7, 1.0, 2.2, 2.5}, dx[NX] = {0};
  __enzyme_autodiff((void *)total, enzyme_dup, sps, dsps, enzyme_dup, x, dx);
  char nm[48];
  for (int s = 0; s < S; s++) {
    double h = 1e-6, sk = sps[s].k, sr = sps[s].rest;
    spring p = sps[s];
    p.k = sk + h;
    double ep = exact_energy(&p, x);
    p.k = sk - h;
    double em = exact_energy(&p, x);
    snprintf(nm, sizeof nm, "d k[%d]", s);
    fz_check(nm, dsps[s].k, (s + 1) * (ep - em) / (2 * h), 1e-6);
    p = sps[s];
    p.rest = sr + h;
    ep = exact_energy(&p, x);
    p.rest = sr - h;
    em = exact_energy(&p, x);
    snprintf(nm, sizeof nm, "d rest[%d]", s);
    fz_check(nm, dsps[s].rest, (s + 1) * (ep - em) / (2 * h), 1e-6);
    fz_check("n untouched", dsps[s].n, 0, 0);
  }
  for (int i = 0; i < NX; i++) {
    double want = 0, h = 1e-6, xi = x[i];
    for (int s = 0; s < S; s++) {
      x[i] = xi + h;
      double ep = exact_energy(&sps[s], x);
      x[i] = xi - h;
      double em = exact_energy(&sps[s], x);
      x[i] = xi;
      want += (s + 1) * (ep - em) / (2 * h);
    }
    snprintf(nm, sizeof nm, "d x[%d]", i);
    fz_check(nm, dx[i], want, 1e-6);
  }
  /* forward: tangent along dk of spring 0 and a state direction */
  spring tsps[S];
  memset(tsps, 0, sizeof tsps);
  tsps[0].k = 1.0;
  double tx[NX] = {0.3, -0.2, 0.1, 0.0, 0.5};
  double t = __enzyme_fwddiff((void *)total, enzyme_dup, sps, tsps, enzyme_dup, x, tx);
  double want = dsps[0].k;
  for (int i = 0; i < NX; i++) want += dx[i] * tx[i];
  fz_check("forward = <gradient, direction>", t, want, 1e-10);
  return fz_finish();
}
