// SOURCES: src/smooth.f90
// Allocatable Fortran arrays (explicit allocate, allocation on assignment, sections,
// array expressions, SUM, EXP, SQRT) differentiated from C; the gradient is checked
// against central finite differences.
#include "fz_test.h"

void smooth_energy(int n, const double *x, double *e);

#define N 17

static double x[N];

static double eval(void *ctx) {
  (void)ctx;
  double e;
  smooth_energy(N, x, &e);
  return e;
}

int main(void) {
  fz_seed(303);
  fz_fill(x, N, -1.5, 1.0);
  double dx[N], e = 0, de = 1;
  fz_zero(dx, N);
  __enzyme_autodiff((void *)smooth_energy, enzyme_const, N, enzyme_dup, x, dx, enzyme_dup, &e,
                    &de);
  fz_check("e", e, eval(0), 1e-12);
  for (int i = 0; i < N; i++) {
    char name[32];
    snprintf(name, sizeof name, "dx[%d]", i);
    fz_check(name, dx[i], fz_fd_ptr(eval, 0, &x[i]), 1e-6);
  }
  /* A second call accumulates into the same shadow (+=). */
  double dx2[N];
  for (int i = 0; i < N; i++) dx2[i] = dx[i];
  de = 1;
  __enzyme_autodiff((void *)smooth_energy, enzyme_const, N, enzyme_dup, x, dx2, enzyme_dup, &e,
                    &de);
  for (int i = 0; i < N; i++) {
    char name[32];
    snprintf(name, sizeof name, "2*dx[%d]", i);
    fz_check(name, dx2[i], 2 * dx[i], 1e-12);
  }
  return fz_finish();
}
