// OPT: O0 O1 O2 O3
// IGNORE-O0: a silent wrong gradient (d/dx[1] = 0, want 5): the pass's optimization of the -O0 copy makes the slot `inttoptr (select c, (ptrtoint &x[1]), 0)`; the audit refuses inttoptr of ptrtoint of a shadowed pointer, but the pointer's shadow was pruned as unneeded (only a ptrtoint uses it), so it passes. Keeping that shadow (front18 tried) makes the audit refuse it, but also refuses Eigen's aligned stack buffers at -O0 (cxx/72), so it was not kept (tests/README.md front18)
// A pointer kept in an integer variable that may be 0 (an optional pointer as
// uintptr_t), made a pointer again (front18). clang -O1..-O3 turn the integer back into
// a phi of pointers, which differentiates.
// Oracle: d/dx[1] x[1]^2 = 2 x[1], d/dx[0] = 0; and 0 when the pointer is absent.
#include "fz_test.h"

__attribute__((noinline)) double f(double *x, int some) {
  uintptr_t slot = 0;
  if (some) slot = (uintptr_t)&x[1];
  double *p = (double *)slot;
  return p ? p[0] * p[0] : 0;
}

int main(void) {
  double x[2] = {1.5, 2.5};
  for (int some = 0; some < 2; some++) {
    double dx[2] = {0, 0};
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, some);
    fz_check("d/dx[0]", dx[0], 0.0, 0);
    fz_check("d/dx[1]", dx[1], some ? 2 * x[1] : 0.0, 1e-15);
  }
  return fz_finish();
}
