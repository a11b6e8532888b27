// OPT: O0 O1 O2 O3
// holders42: Hessian-vector products (forward over reverse) of an energy whose model is
// `enzyme_const`: a run-time number of terms, each a `noinline` callee given a pointer
// into the model, and a `noinline` picker returning a pointer into the model's weights
// or into the active state (holders41's constant-argument walk,
// `runtime_activity/constant_args.rs`). Main's binary refuses the picker's return at
// every level. With the walk alone the Hessian was silently wrong (H v off by
// cos(x_a) w_b, the symmetry broken): the inner gradient's call of the picker's
// augmented forward returns `{primal, shadow, tape}`, a record, which the outer
// derivative did not count maybe-primal, so it read the picked pointer's tangent
// through the constant weights (`returns_pointer`). Oracles: the gradient against the
// analytic one and central differences, H v against central differences of the
// analytic gradient along v, the symmetry u.(H v) = v.(H u), forward over reverse's own
// gradient against the reverse one, the model unchanged.
#include "fz_test.h"
#include <string.h>

extern void __enzyme_fwddiff(void *, ...);

#define NOINLINE __attribute__((noinline))
enum { N = 6, T = 40 };

typedef struct {
  int a, b;       // the state entries the term couples
  double k, rest; // stiffness and rest offset
} Term;

typedef struct {
  const Term *terms;
  int nterms;
  const double *w; // weights picked instead of the state where the index is > 2
} Model;

// A pointer into the constant weights or into the state (a select).
NOINLINE static const double *pick(const double *w, const double *x, int k) {
  return k > 2 ? w + k : x + k;
}

// One term: k/2 (x_b - x_a - rest)^2 + sin(x_a) * (*p), p picked per term.
NOINLINE static double term(const Term *t, const double *x, const double *w) {
  double d = x[t->b] - x[t->a] - t->rest;
  const double *p = pick(w, x, t->b);
  return 0.5 * t->k * d * d + sin(x[t->a]) * *p;
}

NOINLINE double energy(const double *x, const Model *m) {
  double e = 0;
  for (int i = 0; i < m->nterms; i++) e += term(&m->terms[i], x, m->w);
  return e;
}

void gradient(const double *x, double *g, const Model *m) {
  __enzyme_autodiff((void *)energy, enzyme_dup, x, g, enzyme_const, m);
}

// The analytic gradient.
static void grad_exact(const double *x, const Model *m, double *g) {
  memset(g, 0, N * sizeof(double));
  for (int i = 0; i < m->nterms; i++) {
    const Term *t = &m->terms[i];
    double d = x[t->b] - x[t->a] - t->rest;
    double p = t->b > 2 ? m->w[t->b] : x[t->b];
    g[t->b] += t->k * d;
    g[t->a] -= t->k * d;
    g[t->a] += cos(x[t->a]) * p;
    if (t->b <= 2) g[t->b] += sin(x[t->a]);
  }
}

static const Model *cur_m;
static double energy_at(void *ctx) { return energy((const double *)ctx, cur_m); }

int main(void) {
  Term terms[T];
  for (int i = 0; i < T; i++)
    terms[i] = (Term){i % N, (i * 5 + 1) % N, 1.0 + 0.05 * i, 0.1 * (i % 3)};
  double w[N] = {9.0, -9.0, 7.0, 0.5, -1.25, 2.0}, w0[N];
  memcpy(w0, w, sizeof w);
  Term t0[T];
  memcpy(t0, terms, sizeof terms);
  Model m = {terms, T, w};
  cur_m = &m;
  double x[N] = {0.3, -0.4, 0.8, 0.1, -0.6, 0.45}, g[N] = {0}, want[N];

  gradient(x, g, &m);
  grad_exact(x, &m, want);
  fz_check_arr("gradient analytic", g, want, N, 1e-12);
  for (int i = 0; i < N; i++)
    fz_check("gradient finite differences", g[i], fz_fd_ptr(energy_at, x, &x[i]), 1e-6);

  double u[N], v[N], Hu[N] = {0}, Hv[N] = {0}, g2[N] = {0};
  for (int i = 0; i < N; i++) {
    u[i] = sin(1.0 + i);
    v[i] = cos(0.5 * i);
  }
  __enzyme_fwddiff((void *)gradient, enzyme_dup, x, v, enzyme_dup, g2, Hv, enzyme_const, &m);
  fz_check_arr("forward over reverse: its gradient", g2, want, N, 1e-12);
  memset(g2, 0, sizeof g2);
  __enzyme_fwddiff((void *)gradient, enzyme_dup, x, u, enzyme_dup, g2, Hu, enzyme_const, &m);
  double uHv = 0, vHu = 0;
  for (int i = 0; i < N; i++) {
    uHv += u[i] * Hv[i];
    vHu += v[i] * Hu[i];
  }
  fz_check("Hessian symmetry u.Hv == v.Hu", uHv, vHu, 1e-10);

  // H v by central differences of the analytic gradient along v.
  const double h = 1e-6;
  double xp[N], xm[N], gp[N], gm[N];
  for (int i = 0; i < N; i++) {
    xp[i] = x[i] + h * v[i];
    xm[i] = x[i] - h * v[i];
  }
  grad_exact(xp, &m, gp);
  grad_exact(xm, &m, gm);
  for (int i = 0; i < N; i++) fz_check("Hv vs FD of gradient", Hv[i], (gp[i] - gm[i]) / (2 * h), 1e-6);

  fz_check("constant weights unchanged", memcmp(w, w0, sizeof w) == 0, 1, 0);
  fz_check("constant terms unchanged", memcmp(terms, t0, sizeof terms) == 0, 1, 0);
  return fz_finish();
}
