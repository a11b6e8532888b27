// OPT: O1 O2 O3
// A pointer kept in an integer variable that may be 0 (an optional pointer as
// uintptr_t), made a pointer again (front18). clang -O1..-O3 turn the integer back into
// a phi of pointers, which differentiates; at -O0 the rebuild is refused
// (tests/errors/pointer_slot_as_integer.c; it was a silent 0 before front18).
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
