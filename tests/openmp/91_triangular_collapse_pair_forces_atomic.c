// OMP_THREADS: 1 2 4
// OPT: O0 O2
// Pairwise interactions over the upper triangle i < j, as molecular codes write them
// with OpenMP 5.0's non-rectangular `collapse(2)` (the inner bound depends on the outer
// index): a Lennard-Jones-like energy `reduction(+:e)` over the pairs, forces scattered
// into both particles with `#pragma omp atomic`, then a second triangular loop
// `collapse(2) schedule(dynamic, 3)` accumulating a virial into a per-particle array with
// atomics, and the loss mixes the energy, the forces and the virial. Reverse mode
// against central finite differences of the serial program, forward mode by the
// dot-product identity.
#include <omp.h>
#include <math.h>
#include "fz_test.h"
extern double __enzyme_fwddiff(void *, ...);
#define NP 9

static double pair_e(double r2) { double s6 = 1.0 / (r2 * r2 * r2); return s6 * s6 - s6; }
static double pair_f(double r2) { double s6 = 1.0 / (r2 * r2 * r2); return (12 * s6 * s6 - 6 * s6) / r2; }

double energy(const double *x, int n) {
  double f[NP] = {0}, w[NP] = {0}, e = 0;
#pragma omp parallel for collapse(2) reduction(+ : e)
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      double d = x[j] - x[i], r2 = d * d + 1.0;
      e += pair_e(r2);
      double fij = pair_f(r2) * d;
#pragma omp atomic
      f[i] -= fij;
#pragma omp atomic
      f[j] += fij;
    }
#pragma omp parallel for collapse(2) schedule(dynamic, 3)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++) {
      double v = (x[i] - x[j]) * (f[i] - f[j]);
#pragma omp atomic
      w[i] += 0.5 * v;
#pragma omp atomic
      w[j] += 0.5 * v;
    }
  double s = e;
  for (int i = 0; i < n; i++) s += 0.1 * f[i] * f[i] + 0.01 * w[i] * (1 + 0.1 * i);
  return s;
}

static double serial(const double *x, int n) {
  double f[NP] = {0}, w[NP] = {0}, e = 0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      double d = x[j] - x[i], r2 = d * d + 1.0;
      e += pair_e(r2);
      double fij = pair_f(r2) * d;
      f[i] -= fij, f[j] += fij;
    }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++) {
      double v = (x[i] - x[j]) * (f[i] - f[j]);
      w[i] += 0.5 * v, w[j] += 0.5 * v;
    }
  double s = e;
  for (int i = 0; i < n; i++) s += 0.1 * f[i] * f[i] + 0.01 * w[i] * (1 + 0.1 * i);
  return s;
}

static double xs[NP];
static double eval(void *ctx) { (void)ctx; return serial(xs, NP); }

int main(void) {
  fz_seed(91);
  for (int i = 0; i < NP; i++) xs[i] = 1.1 * i + fz_uniform(-0.2, 0.2);
  double g[NP], v[NP];
  fz_zero(g, NP);
  fz_check("value vs serial", energy(xs, NP), serial(xs, NP), 1e-12);
  __enzyme_autodiff((void *)energy, enzyme_dup, xs, g, enzyme_const, NP);
  for (int k = 0; k < NP; k++) {
    char name[32];
    snprintf(name, sizeof name, "grad[%d] vs fd", k);
    fz_check(name, g[k], fz_fd_ptr(eval, 0, &xs[k]), 1e-6);
  }
  fz_fill(v, NP, -1, 1);
  double jv = __enzyme_fwddiff((void *)energy, enzyme_dup, xs, v, enzyme_const, NP);
  double dot = 0;
  for (int k = 0; k < NP; k++) dot += g[k] * v[k];
  fz_check("forward . v = reverse . v", jv, dot, 1e-10);
  return fz_finish();
}
