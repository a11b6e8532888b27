// OPT: O0 O1 O2 O3
// Minimal: swap two doubles through 64-bit integer loads/stores
// (the common memcpy-into-long idiom). The gradient must follow the swap:
// f = 1*a0'^2... with a' = (a1, a0): f = a1 + 3*a0  ->  da = (3, 1).
// Ferrozyme returns da = (1, 3): the integer-typed copy carries no adjoint.
#include "fz_test.h"

double f(double *a) {
  long t, u;
  memcpy(&t, &a[0], 8);
  memcpy(&u, &a[1], 8);
  memcpy(&a[0], &u, 8);
  memcpy(&a[1], &t, 8);
  return a[0] + 3.0 * a[1];
}

int main(void) {
  double a[2] = {0.5, 2.0}, da[2] = {0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, a, da);
  fz_check("da0", da[0], 3.0, 1e-12);
  fz_check("da1", da[1], 1.0, 1e-12);
  return fz_finish();
}
