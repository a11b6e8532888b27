// OMP_THREADS: 1 2
// OPT: O0 O2
// SOURCES: src/omp_bind_c_kernel.f90
// A C driver differentiating a Fortran OpenMP kernel through its `bind(c)` interface
// (src/omp_bind_c_kernel.f90): `value` sizes passed with enzyme_const, the field and an
// `intent(inout)` work array duplicated, the energy returned through an `intent(out)`
// scalar. Inside: `!$omp parallel do collapse(2)` and a `parallel do` with
// `reduction(+:)` and `reduction(max:)`. Reverse mode against central differences,
// forward mode against reverse (the dot-product identity), at 1 and 2 threads.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

void field_energy(int nx, int ny, const double *u, double *work, double *e);

#define NX 7
#define NY 5

static double u[NX * NY], work[NX * NY];
static double eval(void *ctx) {
  (void)ctx;
  double e;
  field_energy(NX, NY, u, work, &e);
  return e;
}

int main(void) {
  fz_seed(1950);
  fz_fill(u, NX * NY, -1, 1);
  double du[NX * NY], dwork[NX * NY], e = 0, de = 1;
  fz_zero(du, NX * NY);
  fz_zero(dwork, NX * NY);
  __enzyme_autodiff((void *)field_energy, enzyme_const, NX, enzyme_const, NY, enzyme_dup, u, du,
                    enzyme_dup, work, dwork, enzyme_dup, &e, &de);
  for (int k = 0; k < NX * NY; k++) {
    char name[32];
    snprintf(name, sizeof name, "d/du[%d]", k);
    fz_check(name, du[k], fz_fd_ptr(eval, 0, &u[k]), 1e-6);
  }
  double tu[NX * NY], te = 0, want = 0;
  for (int k = 0; k < NX * NY; k++) {
    tu[k] = 0.1 * (k % 5) - 0.2;
    want += tu[k] * du[k];
  }
  fz_zero(dwork, NX * NY);
  __enzyme_fwddiff((void *)field_energy, enzyme_const, NX, enzyme_const, NY, enzyme_dup, u, tu,
                   enzyme_dup, work, dwork, enzyme_dup, &e, &te);
  fz_check("forward . v = reverse . v", te, want, 1e-10);
  return fz_finish();
}
