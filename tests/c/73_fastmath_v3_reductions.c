// OPT: O0 O1 O2 O3
// CFLAGS: -ffast-math -march=x86-64-v3
// REQUIRES: avx2 fma
// -ffast-math + AVX2: reductions that LLVM turns into vector.reduce.fadd /
// fmin / fmul intrinsics and <4 x double> fmas.
#include "fz_test.h"

#define N 50
double sum(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return s;
}
double prod(const double *x, int n) {
  double p = 1.0;
  for (int i = 0; i < n; i++) p *= x[i];
  return p;
}
double vmin(const double *x, int n) {
  double m = 1e300;
  for (int i = 0; i < n; i++) m = fmin(m, x[i]);
  return m;
}

int main(void) {
  fz_seed(1172);
  double x[N], dx[N], want[N];
  fz_fill(x, N, 0.8, 1.2);
  x[17] = 0.5;
  fz_zero(dx, N);
  __enzyme_autodiff((void *)sum, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) want[i] = 2 * x[i];
  fz_check_arr("dsum", dx, want, N, 1e-12);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)prod, enzyme_dup, x, dx, enzyme_const, N);
  double p = 1.0;
  for (int i = 0; i < N; i++) p *= x[i];
  for (int i = 0; i < N; i++) want[i] = p / x[i];
  fz_check_arr("dprod", dx, want, N, 1e-10);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)vmin, enzyme_dup, x, dx, enzyme_const, N);
  fz_zero(want, N);
  want[17] = 1.0;
  fz_check_arr("dvmin", dx, want, N, 1e-12);
  return fz_finish();
}
