// OPT: O0 O1 O2 O3
// A pointer kept in an integer variable that may be 0 (an optional pointer as
// uintptr_t), made a pointer again (front18). clang -O1..-O3 turn the integer back into
// a phi of pointers, which differentiates. At -O0 the pass's own promotion of the slot
// gives `inttoptr (select c, ptrtoint &x[1], 0)`: a silent d/dx[1] = 0 until sweep19,
// now rebuilt as `select c, &x[1], null` (intptr.rs `merged_pointers`).
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
