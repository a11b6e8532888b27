// OPT: O0 O1 O2 O3
// Prefix sums (a loop-carried dependence) written to an output buffer:
// y[i] = y[i-1] + x[i]^2. With dy = w: dx_j = 2 x_j * sum_{i>=j} w_i.
#include "fz_test.h"

void prefix(const double *x, double *y, int n) {
  double acc = 0.0;
  for (int i = 0; i < n; i++) {
    acc += x[i] * x[i];
    y[i] = acc;
  }
}

/* decaying running sum read back from the output array */
void decay(const double *x, double *y, double a, int n) {
  y[0] = x[0];
  for (int i = 1; i < n; i++) y[i] = a * y[i - 1] + x[i];
}

#define N 50

int main(void) {
  fz_seed(20);
  double x[N], y[N], dx[N], dy[N], w[N], want[N];
  fz_fill(x, N, -1, 1);
  fz_fill(w, N, -1, 1);
  fz_zero(dx, N);
  memcpy(dy, w, sizeof dy);
  __enzyme_autodiff((void *)prefix, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, N);
  double suffix = 0;
  for (int j = N - 1; j >= 0; j--) {
    suffix += w[j];
    want[j] = 2.0 * x[j] * suffix;
  }
  fz_check_arr("dx", dx, want, N, 1e-10);

  double a = fz_uniform(0.5, 0.9);
  fz_zero(dx, N);
  memcpy(dy, w, sizeof dy);
  double da = __enzyme_autodiff((void *)decay, enzyme_dup, x, dx, enzyme_dup, y, dy, a,
                                enzyme_const, N);
  /* y_i = sum_{j<=i} a^(i-j) x_j ; dx_j = sum_{i>=j} w_i a^(i-j);
     dy_i/da = sum_{j<i} (i-j) a^(i-j-1) x_j */
  double wantda = 0;
  for (int j = 0; j < N; j++) {
    double s = 0;
    for (int i = j; i < N; i++) s += w[i] * pow(a, i - j);
    want[j] = s;
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < i; j++) wantda += w[i] * (i - j) * pow(a, i - j - 1) * x[j];
  fz_check_arr("decay dx", dx, want, N, 1e-10);
  fz_check("decay da", da, wantda, 1e-10);
  return fz_finish();
}
