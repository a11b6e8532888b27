// OPT: O0 O1 O2 O3
// Minimal: negation by XOR of the sign bit through memcpy to uint64_t. At
// -O0 the integer xor survives and the derivative is silently 0.
#include "fz_test.h"

static double neg_bits(double x) { uint64_t u; memcpy(&u, &x, 8); u ^= 1ull << 63; memcpy(&x, &u, 8); return x; }
double f(double x) { return neg_bits(x * x) * 3.0; }

int main(void) {
  double x = 0.6;
  fz_check("d", __enzyme_autodiff((void *)f, x), -6 * x, 1e-12);
  return fz_finish();
}
