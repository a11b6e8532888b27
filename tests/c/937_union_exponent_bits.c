// OPT: O0 O1 O2 O3
// Union type punning to read a float's exponent (sweep23), as hand-tuned math kernels do
// it: `union { double d; uint64_t u; }` gives the bits of an active value, `>> 52` and
// `& 0x7ff` extract the biased exponent e, and log(v) is computed as log(m) + e log 2
// with the mantissa m = v / 2^e rebuilt by a division (the exponent is piecewise
// constant in v: no derivative flows through the integer work). A float twin uses
// `union { float f; uint32_t u; }` and `>> 23`. Oracles: d log(v)/dv = 1/v, finite
// differences of the double part, forward mode against reverse mode.
#include <stdint.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

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

double energy_d(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * log_by_bits(x[i]);
  return s;
}

#define N 6
static double X[N];
static double ev(void *c) { (void)c; return energy_d(X, N); }

int main(void) {
  double x0[N] = {0.37, 1.0 + 1e-3, 1.9, 3.3, 17.5, 1e-3};
  for (int i = 0; i < N; i++) X[i] = x0[i];
  double dx[N] = {0}, want[N];
  __enzyme_autodiff((void *)energy, enzyme_dup, X, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) want[i] = log(X[i]) + 1 + 1 / X[i];
  fz_check_arr("analytic", dx, want, N, 1e-6); // the float twin's 1/v is float-accurate
  // Finite differences of the double part alone (the float twin's are float noise).
  double dd[N] = {0}, fd[N], wd[N];
  __enzyme_autodiff((void *)energy_d, enzyme_dup, X, dd, enzyme_const, N);
  for (int i = 0; i < N; i++) wd[i] = log(X[i]) + 1;
  fz_check_arr("double part: analytic", dd, wd, N, 1e-12);
  fz_fd_grad(ev, NULL, X, N, fd);
  fz_check_arr("double part: finite differences", dd, fd, N, 1e-6);
  double v[N], dot = 0;
  for (int i = 0; i < N; i++) { v[i] = 0.5 - 0.2 * i; dot += v[i] * dx[i]; }
  fz_check("forward . v vs reverse", __enzyme_fwddiff((void *)energy, enzyme_dup, X, v,
                                                      enzyme_const, N), dot, 1e-9);
  return fz_finish();
}
