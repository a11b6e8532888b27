// OPT: O0 O1 O2 O3
// Sign manipulation done on the bit pattern of a double/float: negate by
// XOR with the sign bit, fabs by AND-mask, copysign by OR, in scalars and
// loops over arrays (integer vector ops after vectorization).
#include "fz_test.h"

static inline double neg_bits(double x) { uint64_t u; memcpy(&u, &x, 8); u ^= 1ull << 63; memcpy(&x, &u, 8); return x; }
static inline double abs_bits(double x) { uint64_t u; memcpy(&u, &x, 8); u &= ~(1ull << 63); memcpy(&x, &u, 8); return x; }
static inline double nabs_bits(double x) { uint64_t u; memcpy(&u, &x, 8); u |= 1ull << 63; memcpy(&x, &u, 8); return x; }
static inline float negf_bits(float x) { uint32_t u; memcpy(&u, &x, 4); u ^= 1u << 31; memcpy(&x, &u, 4); return x; }

double f_scalar(double x) { return neg_bits(x * x) * 3.0 + abs_bits(x - 1.0) + nabs_bits(x) * 0.5; }
float f_scalarf(float x) { return negf_bits(x * x * x); }

void f_arr(const double *restrict x, double *restrict y, int n) {
  for (int i = 0; i < n; i++) y[i] = neg_bits(x[i]) * x[i] + abs_bits(x[i]);
}

int main(void) {
  double x = 0.6;
  double d = __enzyme_autodiff((void *)f_scalar, x);
  fz_check("scalar", d, -6 * x - 1.0 - 0.5, 1e-12);
  float xf = 0.6f;
  float df = ((float (*)(void *, ...))__enzyme_autodiff)((void *)f_scalarf, xf);
  (void)df;
  double xa[9], ya[9], dxa[9], dya[9], want[9];
  for (int i = 0; i < 9; i++) { xa[i] = -1.0 + 0.25 * i + 0.1; dxa[i] = 0; dya[i] = 1.0; }
  __enzyme_autodiff((void *)f_arr, enzyme_dup, xa, dxa, enzyme_dup, ya, dya, enzyme_const, 9);
  for (int i = 0; i < 9; i++) want[i] = -2 * xa[i] + (xa[i] > 0 ? 1 : -1);
  fz_check_arr("arr", dxa, want, 9, 1e-12);
  return fz_finish();
}
