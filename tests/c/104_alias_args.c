// OPT: O0 O1 O2 O3
// Read-then-overwrite through an aliasing pointer: the top-level function
// reads x nonlinearly and then writes a constant through a second pointer
// argument that aliases x (same buffer, different shadow pointer into the
// same shadow). The reverse pass must not re-read x after the overwrite.
#include "fz_test.h"

double f1(double *x, double *y) {
  double a = x[0];
  double r = a * a * a;
  y[0] = 7.0;         /* y == x */
  return r + y[0] * x[1];
}

/* overlapping: y = x + 1 */
double f2(double *x, double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  for (int i = 0; i < n; i++) y[i] = 0.25 * i; /* overwrites x[1..n] */
  for (int i = 0; i < n; i++) s += x[i] * 2.0;
  return s;
}

int main(void) {
  double x[3] = {0.8, 1.3, -0.4}, dx[3] = {0, 0, 0};
  double x0 = x[0];
  __enzyme_autodiff((void *)f1, enzyme_dup, x, dx, enzyme_dup, x, dx);
  /* r = x0^3 ; then x0 := 7 (constant) ; + 7*x1 */
  fz_check("f1 dx0", dx[0], 3 * x0 * x0, 1e-12);
  fz_check("f1 dx1", dx[1], 7.0, 1e-12);

  double z[6] = {0.5, -0.3, 0.9, 1.1, -0.7, 0.2}, z0[6], dz[6] = {0};
  memcpy(z0, z, sizeof z);
  __enzyme_autodiff((void *)f2, enzyme_dup, z, dz, enzyme_dup, z + 1, dz + 1, enzyme_const, 5);
  /* s = sum_{i<5} z0[i]^2 ; z[1..5] = const ; s += 2*z0[0] + 2*sum const */
  double w[6];
  for (int i = 0; i < 6; i++) w[i] = i < 5 ? 2 * z0[i] : 0;
  w[0] += 2.0;
  fz_check_arr("f2 dz", dz, w, 6, 1e-12);
  return fz_finish();
}
