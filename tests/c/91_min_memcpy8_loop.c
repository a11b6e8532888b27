// OPT: O0 O1 O2 O3
// Minimal (reduced from p32 memcpy8): a loop smearing a[0] into a[1..n-1]
// with memcpy(&a[i+1], &a[i], 8). At O1+ LLVM hoists one `load i64` of a[0]
// and stores that i64 in the loop; the result is read back as a double load
// of a[n-1]. The adjoint of the stored slots is not sent back to a[0] (and
// not cleared): da = (0,0,0,0,0,3) instead of (3,0,0,0,0,0).
// (With the final read inside a noinline helper it passes.)
#include "fz_test.h"

double f(double *a, int n) {
  for (int i = 0; i + 1 < n; i++) memcpy(&a[i + 1], &a[i], 8);
  return a[n - 1] * 3.0;
}

int main(void) {
  double a[6] = {0.5, 2.0, -1.0, 4.0, 1.5, 2.5}, da[6] = {0}, want[6] = {3, 0, 0, 0, 0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_const, 6);
  fz_check_arr("da", da, want, 6, 1e-12);
  return fz_finish();
}
