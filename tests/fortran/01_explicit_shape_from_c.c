// SOURCES: src/heat1d.f90
// A Fortran subroutine with explicit-shape and automatic arrays (a 1-D heat equation),
// differentiated from C: the Fortran file goes to flang-22, the C file to clang-22, and
// the gradient with respect to the initial state and the diffusion coefficient is
// checked against central finite differences.
#include "fz_test.h"

void heat_loss(int n, int steps, const double *u0, const double *kappa, double *loss);

#define N 24
#define STEPS 30

static double u0[N], kappa;

static double eval(void *ctx) {
  (void)ctx;
  double loss;
  heat_loss(N, STEPS, u0, &kappa, &loss);
  return loss;
}

int main(void) {
  fz_seed(101);
  fz_fill(u0, N, -1, 1);
  kappa = 0.21;
  double du0[N], dkappa = 0, loss = 0, dloss = 1;
  fz_zero(du0, N);
  __enzyme_autodiff((void *)heat_loss, enzyme_const, N, enzyme_const, STEPS, enzyme_dup, u0,
                    du0, enzyme_dup, &kappa, &dkappa, enzyme_dup, &loss, &dloss);
  fz_check("loss", loss, eval(0), 1e-12);
  for (int i = 0; i < N; i++) {
    char name[32];
    snprintf(name, sizeof name, "du0[%d]", i);
    fz_check(name, du0[i], fz_fd_ptr(eval, 0, &u0[i]), 1e-6);
  }
  fz_check("dkappa", dkappa, fz_fd_ptr(eval, 0, &kappa), 1e-6);
  return fz_finish();
}
