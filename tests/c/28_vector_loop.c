// OPT: O0 O1 O2 O3
// Long, vectorizable loops (element-wise ops on double arrays: -O2/-O3 emit
// <2 x double>/<4 x double> loads/stores/fmul) with an output array and a
// scalar parameter.
#include "fz_test.h"

void axpy_sq(double a, const double *x, const double *y, double *z, int n) {
  for (int i = 0; i < n; i++) z[i] = a * x[i] * x[i] + y[i] * a;
}

double sum_scaled(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) y[i] = 2.0 * x[i] + x[i] * x[i];
  double s = 0.0;
  for (int i = 0; i < n; i++) s += y[i]; /* strict FP: stays scalar-ordered */
  return s;
}

#define N 1001

int main(void) {
  fz_seed(28);
  static double x[N], y[N], z[N], dx[N], dy[N], dz[N], w[N], want[N];
  fz_fill(x, N, -1, 1);
  fz_fill(y, N, -1, 1);
  fz_fill(w, N, -1, 1);
  double a = fz_uniform(0.5, 1.5);
  fz_zero(dx, N);
  fz_zero(dy, N);
  memcpy(dz, w, sizeof dz);
  double da = __enzyme_autodiff((void *)axpy_sq, a, enzyme_dup, x, dx, enzyme_dup, y, dy,
                                enzyme_dup, z, dz, enzyme_const, N);
  double wda = 0;
  for (int i = 0; i < N; i++) wda += w[i] * (x[i] * x[i] + y[i]);
  fz_check("da", da, wda, 1e-11);
  for (int i = 0; i < N; i++) want[i] = 2.0 * a * x[i] * w[i];
  fz_check_arr("dx", dx, want, N, 1e-10);
  for (int i = 0; i < N; i++) want[i] = a * w[i];
  fz_check_arr("dy", dy, want, N, 1e-10);
  for (int i = 0; i < N; i++) want[i] = a * x[i] * x[i] + y[i] * a;
  fz_check_arr("z primal", z, want, N, 1e-10);

  fz_zero(dx, N);
  fz_zero(dy, N);
  __enzyme_autodiff((void *)sum_scaled, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, N);
  for (int i = 0; i < N; i++) want[i] = 2.0 + 2.0 * x[i];
  fz_check_arr("sum_scaled dx", dx, want, N, 1e-10);
  return fz_finish();
}
