// OPT: O0 O1 O2 O3
// Split mode as libCEED's Enzyme quadrature functions write it (usr38; the program is
// ours): the tape lives in memory the caller malloc'd with __enzyme_augmentsize bytes and
// passes as `enzyme_allocated, sizeof(tape[0]), enzyme_tape, tape` with `void *tape`
// (GNU C's sizeof(void) is 1: the claim says nothing of the size, Enzyme only warns);
// the augmented forward pass gets `(double *)NULL` shadows, the reverse passes
// `(double *)NULL` primals; one augmented forward pass per quadrature point, then six
// reverse passes over the same tape with enzyme_nofree (the rows of the 6x6 Jacobian of
// the stress with respect to the strain), and a last reverse pass without it.
// Before usr38: "the tape of `stress` needs 64 bytes, but enzyme_allocated gives 1".
// Oracles: central finite differences of the stress, forward mode (each column of the
// Jacobian), and the symmetry of this hyperelastic law's tangent (J = d2W/dE2).
#include "fz_test.h"
#include <stdbool.h>
#include <stdlib.h>

int __enzyme_augmentsize(void *, ...);
void __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
extern int enzyme_dup, enzyme_tape, enzyme_const, enzyme_nofree, enzyme_allocated;
extern double __enzyme_fwddiff(void *, ...);

// S = dW/dE for W(E) = lambda/2 (log1p tr E)^2 + mu sum_m w_m E_m^2 exp(E_m / 4)
// (Voigt notation, weights 1 for the normal and 2 for the shear components).
void stress(double *S, const double *E, double lambda, double mu) {
  double tr = E[0] + E[1] + E[2];
  double l = log1p(tr);
  for (int m = 0; m < 6; m++) {
    double w = m < 3 ? 1.0 : 2.0;
    S[m] = (m < 3 ? lambda * l / (1 + tr) : 0.0) +
           mu * w * exp(E[m] / 4) * (2 * E[m] + E[m] * E[m] / 4);
  }
}

static int tape_size(void) {
  return __enzyme_augmentsize((void *)stress, enzyme_dup, enzyme_dup, enzyme_const, enzyme_const);
}

static void grad_fwd(double *S, const double *E, double lambda, double mu, void *tape) {
  __enzyme_augmentfwd((void *)stress, enzyme_allocated, sizeof(tape[0]), enzyme_tape, tape,
                      enzyme_nofree, S, (double *)NULL, E, (double *)NULL, enzyme_const, lambda,
                      enzyme_const, mu);
}

static void grad_rev(double *dS, double *dE, double lambda, double mu, void *tape, bool no_free) {
  if (no_free)
    __enzyme_reverse((void *)stress, enzyme_allocated, sizeof(tape[0]), enzyme_tape, tape,
                     enzyme_nofree, (double *)NULL, dS, (double *)NULL, dE, enzyme_const, lambda,
                     enzyme_const, mu);
  else
    __enzyme_reverse((void *)stress, enzyme_allocated, sizeof(tape[0]), enzyme_tape, tape,
                     (double *)NULL, dS, (double *)NULL, dE, enzyme_const, lambda, enzyme_const,
                     mu);
}

struct ctx {
  double E[6], lambda, mu;
  int row;
};
static double stress_row(void *p) {
  struct ctx *c = p;
  double S[6];
  stress(S, c->E, c->lambda, c->mu);
  return S[c->row];
}

int main(void) {
  fz_seed(1459);
  enum { Q = 3 };
  double lambda = 1.3, mu = 0.7;
  double E[Q][6], S[Q][6];
  void *tape[Q];
  int size = tape_size();
  fz_check("tape size is positive", size > 0, 1, 0);
  for (int q = 0; q < Q; q++) {
    for (int m = 0; m < 6; m++) E[q][m] = fz_uniform(-0.2, 0.2);
    tape[q] = malloc(size);
    grad_fwd(S[q], E[q], lambda, mu, tape[q]);
  }
  for (int q = 0; q < Q; q++) {
    double want[6];
    stress(want, E[q], lambda, mu);
    fz_check_arr("augmented forward pass computes S", S[q], want, 6, 1e-15);
    // Clobber what the augmented pass read: the reverse must use its tape only.
    double Esave[6];
    for (int m = 0; m < 6; m++) Esave[m] = E[q][m], E[q][m] = 99.0;
    double J[6][6] = {{0}};
    for (int j = 0; j < 6; j++) {
      double dS[6] = {0, 0, 0, 0, 0, 0};
      dS[j] = 1;
      grad_rev(dS, J[j], lambda, mu, tape[q], true);
    }
    for (int m = 0; m < 6; m++) E[q][m] = Esave[m];
    struct ctx c = {{0}, lambda, mu, 0};
    for (int m = 0; m < 6; m++) c.E[m] = E[q][m];
    for (int j = 0; j < 6; j++) {
      c.row = j;
      for (int i = 0; i < 6; i++) {
        fz_check("J vs finite differences", J[j][i], fz_fd_ptr(stress_row, &c, &c.E[i]), 1e-6);
        fz_check("J symmetric", J[j][i], J[i][j], 1e-12);
      }
    }
    // Columns from forward mode.
    for (int i = 0; i < 6; i++) {
      double dE[6] = {0}, Sf[6], dSf[6];
      dE[i] = 1;
      __enzyme_fwddiff((void *)stress, enzyme_dup, Sf, dSf, enzyme_dup, E[q], dE, enzyme_const,
                       lambda, enzyme_const, mu);
      for (int j = 0; j < 6; j++) fz_check("J vs forward mode", J[j][i], dSf[j], 1e-12);
    }
    // The last reverse pass without enzyme_nofree (libCEED's free_tape), then the memory.
    double dS1[6] = {1, 0, 0, 0, 0, 0}, J0[6] = {0};
    grad_rev(dS1, J0, lambda, mu, tape[q], false);
    for (int i = 0; i < 6; i++) fz_check("last pass", J0[i], J[0][i], 1e-12);
    free(tape[q]);
  }
  return fz_finish();
}
