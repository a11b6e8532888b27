// OPT: O0 O1 O2 O3
// IGNORE: "integer arithmetic on the bits of a floating-point value cannot be differentiated" at the exponent extraction `lshr i64 %bits, 52` (and the float twin's `lshr i32 %bits, 23`) at every level: a shift by at least the mantissa width leaves only sign and exponent, piecewise constant in the value, so its result could be made inactive in activity analysis (and the following `and`/`sub`/`sitofp` with it); not done yet. The `frexp`/`ldexp` spelling of the same range reduction passes (c/934)
// Union type punning to read a float's exponent (sweep23), as hand-tuned math kernels do
// it: `union { double d; uint64_t u; }` gives the bits of an active value, `>> 52` and
// `& 0x7ff` extract the biased exponent e, and log(v) is computed as log(m) + e log 2
// with the mantissa m = v / 2^e rebuilt by a division (the exponent is piecewise
// constant in v: no derivative flows through the integer work). A float twin uses
// `union { float f; uint32_t u; }` and `>> 23`. Oracles: d log(v)/dv = 1/v, finite
// differences.
#include <stdint.h>
#include "fz_test.h"

static double log_by_bits(double v) {
  union { double d; uint64_t u; } pun = {.d = v};
  int e = (int)((pun.u >> 52) & 0x7ff) - 1023; // v = m 2^e, m in [1, 2)
  double m = v / ldexp(1.0, e);
  return log(m) + e * M_LN2;
}

static float logf_by_bits(float v) {
  union { float f; uint32_t u; } pun = {.f = v};
  int e = (int)((pun.u >> 23) & 0xff) - 127;
  float m = v / ldexpf(1.0f, e);
  return logf(m) + e * (float)M_LN2;
}

double energy(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * log_by_bits(x[i]) + (double)logf_by_bits((float)x[i]);
  return s;
}

#define N 6
static double X[N];
static double ev(void *c) { (void)c; return energy(X, N); }

int main(void) {
  double x0[N] = {0.37, 1.0 + 1e-3, 1.9, 3.3, 17.5, 1e-3};
  for (int i = 0; i < N; i++) X[i] = x0[i];
  double dx[N] = {0}, want[N];
  __enzyme_autodiff((void *)energy, enzyme_dup, X, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) want[i] = log(X[i]) + 1 + 1 / X[i];
  fz_check_arr("analytic", dx, want, N, 1e-6); // the float twin's 1/v is float-accurate
  double fd[N];
  fz_fd_grad(ev, NULL, X, N, fd);
  fz_check_arr("finite differences", dx, fd, N, 1e-5);
  return fz_finish();
}
