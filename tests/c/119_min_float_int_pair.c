// OPT: O0 O1 O2 O3
// Minimal: struct {float f; int k;} copied as a whole (LLVM uses one i64
// load/store for the 8-byte struct). Float in the low half, int in the high.
#include "fz_test.h"

typedef struct { float f; int k; } FI;

float f_swap(FI *a) {
  FI t = a[0];
  a[0] = a[1];
  a[1] = t;
  return a[0].f * 2.0f + a[1].f * 3.0f * (float)a[1].k;
}

int main(void) {
  FI a[2] = {{0.5f, 2}, {-0.25f, 5}}, da[2] = {{0, 0}, {0, 0}};
  __enzyme_autodiff((void *)f_swap, enzyme_dup, a, da);
  fz_check("da0.f", da[0].f, 3.0 * 2, 1e-6); /* a0 moved to a1, k=2 */
  fz_check("da1.f", da[1].f, 2.0, 1e-6);
  return fz_finish();
}
